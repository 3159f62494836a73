"""End-to-end ingest throughput and memory on an inflated copy of the real corpus.

Every distinct corpus hand that parses is repeated, each copy with its own hand ids (the
original id followed by a copy number), into files of --per-file hands until --hands hands. Then,
in the same run:

- read+split: open every file and cut it into hand texts (the floor any import pays);
- ingest with each --workers count (1 = in-process), into a fresh DuckDB file, each in its own
  process so peak RSS is that run's: the main process and the sum over its workers, sampled
  with psutil.

The table gives hands/s, the ratio to the floor and to one worker, and peak memory. Targets: one
core >= 2,500 hands/s; 2 workers >= 1.8x one; peak RSS < 1 GB at 1,000,000 hands.

    .venv/bin/python benchmarks/ingest.py [--hands 100000] [--workers 1,2] [--per-file 5000]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import psutil
from rich.console import Console
from rich.table import Table

from studdraw.parsers.dialects.base import Dialect
from studdraw.parsers.files import discover_files
from studdraw.parsers.reader import open_history, parse_hand
from studdraw.pipeline.store import IngestOptions, ingest
from studdraw.pipeline.store.ingest import DEFAULT_BATCH

REPO = Path(__file__).resolve().parents[1]
TARGET_ONE = 2500.0
TARGET_SCALING = 1.8
TARGET_RSS_1M = 1024**3


def corpus_hands(corpus: Path) -> dict[str, list[tuple[str, str]]]:
    """(text, hand id) of every distinct parsed corpus hand whose id can be rewritten, per room."""
    hands: dict[str, list[tuple[str, str]]] = {}
    seen: set[tuple[str, str]] = set()
    for path in discover_files([corpus]):
        history = open_history(path)
        if not isinstance(history.room, Dialect):
            continue
        for hand in history.hand_texts():
            record = parse_hand(hand).record
            if record is None or (record.site, record.site_hand_id) in seen:
                continue
            seen.add((record.site, record.site_hand_id))
            probe = parse_hand(replace(hand, text=_rewrite(hand.text, record.site_hand_id, 0)))
            if probe.record is not None and probe.record.site_hand_id == _new_id(
                record.site_hand_id, 0
            ):
                hands.setdefault(history.room.name, []).append((hand.text, record.site_hand_id))
    return hands


def _new_id(hand_id: str, copy: int) -> str:
    return f"{hand_id}{copy:07d}"


def _rewrite(text: str, hand_id: str, copy: int) -> str:
    return text.replace(hand_id, _new_id(hand_id, copy))


def _copies(hands: list[tuple[str, str]], count: int) -> Iterator[str]:
    for n in range(count):
        text, hand_id = hands[n % len(hands)]
        yield _rewrite(text, hand_id, n // len(hands))


def inflate(corpus: Path, folder: Path, count: int, per_file: int) -> None:
    """`count` hands in files of `per_file` (files hold one room each in real exports; mixing
    rooms here would not parse, so each file takes the hands of one room in turn)."""
    by_room = corpus_hands(corpus)
    total = sum(len(h) for h in by_room.values())
    for room, hands in sorted(by_room.items()):
        share = max(1, round(count * len(hands) / total))
        stream = _copies(hands, share)
        for n in range(-(-share // per_file)):
            with (folder / f"{room}-{n:05d}.txt").open("w", encoding="utf-8") as out:
                for _, text in zip(range(per_file), stream, strict=False):
                    out.write(text)
                    out.write("\n\n\n")


def floor(folder: Path) -> tuple[int, float]:
    """Hands and seconds to read and split every file."""
    start = time.perf_counter()
    hands = 0
    for path in discover_files([folder]):
        for _ in open_history(path).hand_texts():
            hands += 1
    return hands, time.perf_counter() - start


def measure(folder: Path, db: Path, workers: int, batch_size: int) -> dict[str, object]:
    """Run one ingest in this process, sampling the memory of it and its children: peak RSS of
    the main process, peak sum of the children's RSS, and peak PSS of all (RSS counts pages the
    forkserver shares with the workers once per process; PSS splits them)."""
    me = psutil.Process()
    peak = {"main": 0, "children": 0, "total": 0, "pss": 0}
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            try:
                children = me.children(recursive=True)
                main = me.memory_full_info()
                kids = [child.memory_full_info() for child in children]
            except psutil.Error:
                continue
            rss = sum(kid.rss for kid in kids)
            peak["main"] = max(peak["main"], main.rss)
            peak["children"] = max(peak["children"], rss)
            peak["total"] = max(peak["total"], main.rss + rss)
            peak["pss"] = max(peak["pss"], main.pss + sum(kid.pss for kid in kids))
            done.wait(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    options = IngestOptions(db, workers=workers, batch_size=batch_size)
    summary = ingest([folder], options)
    done.set()
    sampler.join()
    return {"summary": summary.as_dict(), "rss": peak, "rescan": rescan(folder, options)}


def rescan(folder: Path, options: IngestOptions) -> dict[str, float]:
    """Seconds to import the folder again: as it is (every file known by its content hash), and
    with a blank line added to every file (new file hashes: every hand recognised by its id
    from its first line, before parsing)."""
    start = time.perf_counter()
    same = ingest([folder], options)
    unchanged = time.perf_counter() - start
    for path in folder.iterdir():
        with path.open("a", encoding="utf-8") as out:
            out.write("\n")
    start = time.perf_counter()
    touched = ingest([folder], options)
    by_id = time.perf_counter() - start
    assert same.stored == touched.stored == 0
    return {"files known": unchanged, "hands known": by_id}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    parser.add_argument("--per-file", type=int, default=5000)
    parser.add_argument("--batch-size", type=int, default=DEFAULT_BATCH)
    parser.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus")
    parser.add_argument("--measure", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:  # child mode: one ingest, its figures as JSON on stdout
        folder, db = args.measure
        print(json.dumps(measure(folder, db, int(args.workers), args.batch_size)))
        return
    console = Console(width=150)
    load_before = os.getloadavg()
    rows: list[tuple[str, int, dict[str, object]]] = []
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "in"
        folder.mkdir()
        inflate(args.corpus, folder, args.hands, args.per_file)
        hands, seconds = floor(folder)
        console.print(f"read+split: {hands:,} hands in {seconds:.1f} s", style="dim")
        for workers in (int(w) for w in args.workers.split(",")):
            db = Path(temp) / f"w{workers}.duckdb"
            command = [
                sys.executable,
                __file__,
                "--measure",
                str(folder),
                str(db),
                "--workers",
                str(workers),
                "--batch-size",
                str(args.batch_size),
            ]
            result = json.loads(subprocess.run(command, check=True, capture_output=True).stdout)
            rows.append(("ingest", workers, result))
            console.print(f"{workers} worker(s): {result['summary']['seconds']:.1f} s", style="dim")
            db.unlink()
    load_after = os.getloadavg()
    floor_rate = hands / seconds
    table = Table(
        title=f"Ingest, {hands:,} hands in files of {args.per_file:,} "
        f"(load average {load_before[0]:.2f} before, {load_after[0]:.2f} after; "
        f"{os.cpu_count()} cores)"
    )
    for column in (
        "run",
        "hands/s",
        "vs read+split",
        "vs 1 worker",
        "seconds",
        "stored",
        "peak RSS main",
        "peak RSS workers",
        "peak RSS total",
        "peak PSS total",
    ):
        table.add_column(column, justify="left" if column == "run" else "right")
    table.add_row("read+split", f"{floor_rate:,.0f}", "1.00", "", f"{seconds:.1f}", *[""] * 5)
    one: float | None = None
    for _, workers, result in rows:
        summary, rss = result["summary"], result["rss"]
        assert isinstance(summary, dict) and isinstance(rss, dict)
        rate = summary["hands_seen"] / summary["seconds"]
        one = rate if workers == 1 else one
        table.add_row(
            f"ingest, {workers} worker{'s' if workers > 1 else ' (in-process)'}",
            f"{rate:,.0f}",
            f"{rate / floor_rate:.3f}",
            f"{rate / one:.2f}x" if one else "",
            f"{summary['seconds']:.1f}",
            f"{summary['stored']:,}",
            _mb(rss["main"]),
            _mb(rss["children"]) if workers > 1 else "",
            _mb(rss["total"]),
            _mb(rss["pss"]),
        )
    console.print(table)
    for _, workers, result in rows:
        seconds_by = result["rescan"]
        assert isinstance(seconds_by, dict)
        console.print(
            f"re-import with {workers} worker(s): {seconds_by['files known']:.1f} s with every "
            f"file known by its hash, {seconds_by['hands known']:.1f} s with every hand known "
            "by its id (files changed)"
        )
    if one is not None:
        verdict = "met" if one >= TARGET_ONE else "MISSED"
        console.print(f"one core >= {TARGET_ONE:,.0f} hands/s: {verdict}")
    for _, workers, result in rows:
        summary, rss = result["summary"], result["rss"]
        assert isinstance(summary, dict) and isinstance(rss, dict)
        if hands >= 1_000_000:
            verdict = "met" if rss["total"] < TARGET_RSS_1M else "MISSED"
            console.print(
                f"{workers} worker(s), peak RSS main + workers < 1 GB at {hands:,} hands: "
                f"{_mb(rss['total'])} {verdict} (PSS {_mb(rss['pss'])})"
            )
        if workers == 2 and one:
            ratio = summary["hands_seen"] / summary["seconds"] / one
            verdict = "met" if ratio >= TARGET_SCALING else "MISSED"
            console.print(f"2 workers >= {TARGET_SCALING}x one: {ratio:.2f}x {verdict}")


def _mb(value: object) -> str:
    assert isinstance(value, int)
    return f"{value / 2**20:,.0f} MB"


if __name__ == "__main__":
    main()
