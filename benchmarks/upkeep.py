"""What keeping the analytics rows current costs an import (issue 36: at most 10% of its speed).

An import derives the analytics rows of every batch inside the batch's transaction
(`analytics.source.Upkeep`), so the store is ready when it ends. This benchmark imports the same
synthesised hands (the six games, `bench_store.synthesised_files`) into a fresh store with the
upkeep and, as the baseline in the same run, without it (the upkeep switched off in the child
process; that store would need `studdraw prepare`), alternating the two, `--rounds` times each,
each import a process of its own. It prints hands/s (the median round), the CPU seconds of the
import's processes, the ratio to the baseline and MET/MISSED against 0.90, and the time the
upkeep's parts took in the last round (`--profile`).

    .venv/bin/python benchmarks/upkeep.py [--hands 40000] [--workers 2] [--rounds 3] [--profile]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_store import synthesised_files

TARGET = 0.90


def child(mode: str, db: Path, workers: int, files: list[Path], profile: bool) -> None:
    """One import in this process, upkeep on or off; its timings of the upkeep's parts as JSON."""
    # (imported in the child only: the parent times processes, it imports nothing it times)
    from studdraw.pipeline.analytics import cards, source  # noqa: PLC0415
    from studdraw.pipeline.importer.ingest import IngestOptions, ingest  # noqa: PLC0415

    spent: Counter[str] = Counter()

    def timed(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def run(*arguments: Any, **keywords: Any) -> Any:
            began = time.perf_counter()
            try:
                return function(*arguments, **keywords)
            finally:
                spent[name] += time.perf_counter() - began

        return run

    if mode == "off":
        source.Upkeep.__call__ = lambda self, con, lo, hi: None  # type: ignore[method-assign]
        source.Upkeep.finish = lambda self, con: None  # type: ignore[method-assign]
    elif profile:
        cards.draw_card_flags = timed("draw card flags", cards.draw_card_flags)
        cards.allin_adjusted = timed("all-in equities", cards.allin_adjusted)
        source.Upkeep.__call__ = timed("upkeep in all", source.Upkeep.__call__)  # type: ignore[method-assign]
    summary = ingest(files, IngestOptions(db=db, workers=workers))
    print(json.dumps({"stored": summary.stored, "spent": dict(spent)}))


def one_import(
    mode: str, work: Path, workers: int, files: list[Path], profile: bool
) -> dict[str, Any]:
    db = work / f"{mode}-{time.monotonic_ns()}.duckdb"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, __file__, "--child", mode, "--db", str(db), "--workers", str(workers)]
        + (["--profile"] if profile else [])
        + [str(path) for path in files],
        capture_output=True,
        text=True,
        check=True,
    )
    seconds = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    for path in work.glob(f"{db.name}*"):
        path.unlink()
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return {**result, "seconds": seconds, "cpu": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=40_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--child", choices=("on", "off"))
    parser.add_argument("--db", type=Path)
    parser.add_argument("files", nargs="*", type=Path)
    arguments = parser.parse_args()
    if arguments.child:
        child(arguments.child, arguments.db, arguments.workers, arguments.files, arguments.profile)
        return
    files = synthesised_files(arguments.hands)
    runs: dict[str, list[dict[str, Any]]] = {"off": [], "on": []}
    with tempfile.TemporaryDirectory(prefix="studdraw-upkeep-") as folder:
        for round_ in range(arguments.rounds):
            for mode in ("off", "on"):
                last = arguments.profile and round_ == arguments.rounds - 1
                runs[mode].append(one_import(mode, Path(folder), arguments.workers, files, last))
    hands = runs["on"][0]["stored"]
    rate = {mode: hands / statistics.median(r["seconds"] for r in runs[mode]) for mode in runs}
    cpu = {mode: statistics.median(r["cpu"] for r in runs[mode]) for mode in runs}
    ratio = rate["on"] / rate["off"]
    table = Table(
        title=f"Import of {hands:,} hands, {arguments.workers} workers, {arguments.rounds} rounds"
    )
    for column in ("import", "hands/s", "CPU s", "ratio", "target", ""):
        table.add_column(column, justify="right" if column not in ("import", "") else "left")
    table.add_row(
        "without upkeep (baseline)", f"{rate['off']:,.0f}", f"{cpu['off']:.1f}", "1.00", "", ""
    )
    verdict = "MET" if ratio >= TARGET else "MISSED"
    table.add_row(
        "with upkeep (the store ready)", f"{rate['on']:,.0f}", f"{cpu['on']:.1f}",
        f"{ratio:.2f}", f">= {TARGET:.2f}", verdict,
    )  # fmt: skip
    console = Console(width=120)
    console.print(table)
    spent = runs["on"][-1]["spent"]
    if spent:
        console.print(
            "upkeep's parts in the last round (wall s): "
            + ", ".join(f"{name} {seconds:.1f}" for name, seconds in sorted(spent.items()))
        )


if __name__ == "__main__":
    main()
