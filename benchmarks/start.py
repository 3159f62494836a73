"""Start-up time of the command line, whole process, as a user types it.

Each command runs as a fresh process (best of --runs, after one warm-up run): `studdraw
--help`, and `parse` and `validate` on a one-hand file. The baseline, measured in the same run,
is the bare interpreter (`python -c pass`): what no command can go below. Target (issue 15):
every command under 0.3 s on the wall clock, which means importing only what the command uses
(no DuckDB, polars or pyarrow to print help or to parse one hand; tests/test_cli_imports.py
proves which modules each command loads).

The commands run as installed: with their bytecode cached (`PYTHONDONTWRITEBYTECODE` is
dropped for them, and the warm-up run writes the cache, as `pip install` does). CPU seconds
(user + system, of the command's process) are shown beside the wall clock: on a loaded machine
they say what the command itself costs.

    .venv/bin/python benchmarks/start.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import resource
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


def best_of(command: list[str], runs: int) -> tuple[float, float]:
    """The best wall-clock and the best CPU seconds of `runs` runs, after a warm-up run."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(command, check=False, capture_output=True, env=env)
    wall = cpu = float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=False, capture_output=True, env=env)
        wall = min(wall, time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        cpu = min(cpu, used)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    studdraw = str(Path(sys.executable).with_name("studdraw"))
    load = os.getloadavg()[0]
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
    table = Table(
        title=f"Whole-process start, best of {args.runs} runs "
        f"(load average {load:.2f} at start, {os.cpu_count()} cores)"
    )
    columns = ("command", "wall s", "CPU s", "wall vs bare python", f"target < {TARGET_SECONDS} s")
    for column in columns:
        table.add_column(column, justify="left" if column == "command" else "right")
    table.add_row(
        "python -c pass (baseline)", f"{baseline[0]:.3f}", f"{baseline[1]:.3f}", "1.00x", ""
    )
    for name, (wall, cpu) in rows:
        verdict = "MET" if wall < TARGET_SECONDS else "MISSED"
        table.add_row(name, f"{wall:.3f}", f"{cpu:.3f}", f"{wall / baseline[0]:.1f}x", verdict)
    Console(width=120).print(table)


if __name__ == "__main__":
    main()
