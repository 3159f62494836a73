"""Hands per second exported as PHH from a store (`studdraw export --db`), against a baseline
measured in the same run: reading the same rows from DuckDB (hands, seats, events, violations,
chunk by chunk as the export does) without building records or formatting.

The store is `bench_store.store_of(--hands)` (synthesised hands of the six games, built once
and cached), or `--db STORE`. Each stage runs --repeat times; the table gives the best run's
wall-clock and CPU seconds (of all processes: the two-process stage adds its workers' and the
forkserver's, sampled before the pool shuts down). Target: 10,000 hands/s on the wall clock for
the whole export (read, rebuild each HandRecord, write PHH) as `studdraw export` runs it, in one
process or in two (the default on two cores); MET/MISSED is judged on the wall clock.

    .venv/bin/python benchmarks/export.py [--hands 20000] [--db STORE] [--repeat 3]
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psutil
from rich.table import Table

from studdraw.cli.console import console
from studdraw.pipeline import export

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_store

TARGET = 10_000


def read_rows(db: Path) -> int:
    """The baseline: the export's queries, rows fetched as Python columns as the export
    fetches them (the event fields PHH uses, the cycle collector paused), nothing built."""
    con = export.open_store(db)
    ids = export.select_hand_ids(con, export.Selection())
    for start in range(0, len(ids), export.CHUNK):
        with export.without_cycle_collection():
            export.chunk_rows(con, ids[start : start + export.CHUNK], export.PHH_EVENT_COLUMNS)
    return len(ids)


def rebuild_records(db: Path) -> int:
    """Rows to HandRecords (and violation lines), no PHH."""
    con = export.open_store(db)
    ids = export.select_hand_ids(con, export.Selection())
    return sum(1 for _ in export.records_from_store(con, ids))


def export_phh(db: Path, workers: int = 1) -> int:
    """The whole export as `studdraw export --workers N` runs it: rows, records, PHH text (a
    .phhs in memory)."""
    con = export.open_store(db)
    ids = export.select_hand_ids(con, export.Selection())
    con.close()
    out = io.StringIO()
    count = 0
    before = descendants_cpu()
    for count, (_, text) in enumerate(export.texts_from_store(db, ids, workers), 1):
        out.write(f"[{count}]\n{text}\n")
        if count == len(ids):  # the workers still live: their CPU time is counted
            WORKERS_CPU.append(descendants_cpu() - before)
    return count


WORKERS_CPU: list[float] = []
"""The CPU seconds of the worker processes (and the forkserver) of each run."""


def descendants_cpu() -> float:
    total = 0.0
    for child in psutil.Process().children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.Error:  # gone since listed
            continue
        total += times.user + times.system
    return total


def export_phh_two_processes(db: Path) -> int:
    """The whole export, the chunks formatted by two worker processes (`--workers 2`, the
    default on two cores)."""
    return export_phh(db, workers=2)


def best(stage: Callable[[Path], int], db: Path, repeat: int) -> tuple[int, float, float]:
    """Hands, and the best wall-clock and CPU seconds of `repeat` runs (on a loaded machine
    the CPU time is the fairer figure: it leaves out the waits for a core)."""
    walls, cpus, hands = [], [], 0
    for _ in range(repeat):
        WORKERS_CPU.clear()
        wall, cpu = time.perf_counter(), time.process_time()
        hands = stage(db)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu + sum(WORKERS_CPU))
    return hands, min(walls), min(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    db = args.db or bench_store.store_of(args.hands)
    hands, base, base_cpu = best(read_rows, db, args.repeat)
    table = Table(title=f"PHH export from {db} ({hands:,} hands, best of {args.repeat})")
    columns = ("stage", "seconds", "hands/s", "CPU s", "hands/CPU s", "x baseline", "target")
    for column in (*columns, "result"):
        table.add_column(column, justify="left" if column == "stage" else "right")
    table.add_row(
        "baseline: read the rows",
        f"{base:.2f}",
        f"{hands / base:,.0f}",
        f"{base_cpu:.2f}",
        f"{hands / base_cpu:,.0f}",
        "1.00",
        "",
        "",
    )
    for name, stage, target in (
        ("rows -> HandRecords", rebuild_records, None),
        ("export, 1 process (--workers 1)", export_phh, TARGET),
        ("export, 2 worker processes (--workers 2)", export_phh_two_processes, TARGET),
    ):
        count, seconds, cpu = best(stage, db, args.repeat)
        rate = count / seconds
        verdict = "" if target is None else ("MET" if rate >= target else "MISSED")
        table.add_row(
            name,
            f"{seconds:.2f}",
            f"{rate:,.0f}",
            f"{cpu:.2f}",
            f"{count / cpu:,.0f}",
            f"{base / seconds:.2f}",
            f"{target:,}" if target else "",
            verdict,
        )
    console().print(table)


if __name__ == "__main__":
    main()
