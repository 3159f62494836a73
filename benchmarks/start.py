"""Start-up time of the command line, whole process, as a user types it.

Each command runs as a fresh process (best of --runs): `studdraw --help`, and `parse` and
`validate` on a one-hand file. The baseline, measured in the same run, is the bare interpreter
(`python -c pass`): what no command can go below. Target (issue 15): every command under
0.3 s, which means importing only what the command uses (no DuckDB, polars or pyarrow to print
help or to parse one hand).

    .venv/bin/python benchmarks/start.py [--runs 7]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

REPO = Path(__file__).resolve().parents[1]
ONE_HAND = REPO / "sample_histories" / "pokerstars" / "handwritten" / "td27-showdown.txt"
TARGET_SECONDS = 0.3


def best_of(command: list[str], runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=False, capture_output=True)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    studdraw = str(Path(sys.executable).with_name("studdraw"))
    with tempfile.TemporaryDirectory() as scratch:
        one_hand = Path(scratch) / "one.txt"
        text = ONE_HAND.read_text(encoding="utf-8")
        one_hand.write_text(text.split("\n\n\n")[0] + "\n", encoding="utf-8")
        baseline = best_of([sys.executable, "-c", "pass"], args.runs)
        commands = {
            "studdraw --help": [studdraw, "--help"],
            "studdraw parse (1 hand)": [studdraw, "parse", str(one_hand)],
            "studdraw validate (1 hand)": [studdraw, "validate", str(one_hand)],
        }
        rows = [(name, best_of(command, args.runs)) for name, command in commands.items()]
    table = Table(title=f"Whole-process start, best of {args.runs} runs")
    for column in ("command", "seconds", "vs bare python", f"target < {TARGET_SECONDS} s"):
        table.add_column(column, justify="left" if column == "command" else "right")
    table.add_row("python -c pass (baseline)", f"{baseline:.3f}", "1.00x", "")
    for name, seconds in rows:
        verdict = "MET" if seconds < TARGET_SECONDS else "MISSED"
        table.add_row(name, f"{seconds:.3f}", f"{seconds / baseline:.1f}x", verdict)
    Console(width=120).print(table)


if __name__ == "__main__":
    main()
