"""Shared benchmark inputs: synthesised hand histories and a store built from them, cached.

Benchmarks of the analytics, the dashboard and the scale runs need the same large inputs;
building them takes minutes, so they are built once under a cache folder and reused. A lock
file makes a second benchmark started meanwhile wait for the first one's build instead of
repeating it.

    from bench_store import synthesised_files, store_of
    files = synthesised_files(1_000_000)   # history files holding 1M hands (all six games)
    db = store_of(1_000_000)               # a DuckDB store of them
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CACHE = Path(os.environ.get("STUDDRAW_BENCH_CACHE", "/tmp/studdraw-bench"))
STUDDRAW = Path(sys.executable).with_name("studdraw")
GAMES = ("stud", "stud8", "razz", "td27", "tda5", "badugi")
HANDS_PER_FILE = 10_000


@contextmanager
def _locked(name: str) -> Iterator[None]:
    CACHE.mkdir(parents=True, exist_ok=True)
    with (CACHE / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def synthesised_files(hands: int) -> list[Path]:
    """History files holding `hands` synthesised PokerStars hands, the six games in turn, each
    file 10,000 hands of one game (fewer in the last), written two at a time."""
    folder = CACHE / f"histories-{hands}"
    done = folder / ".complete"
    with _locked(folder.name):
        if not done.exists():
            folder.mkdir(parents=True, exist_ok=True)
            jobs = []
            for index, start in enumerate(range(0, hands, HANDS_PER_FILE)):
                count = min(HANDS_PER_FILE, hands - start)
                game = GAMES[index % len(GAMES)]
                out = folder / f"{index:04d}-{game}.txt"
                day = 1 + index % 27
                command = [
                    str(STUDDRAW), "synth", "--game", game, "--hands", str(count),
                    "--seed", str(1000 + index), "--session-hands", "400",
                    "--start", f"2026-0{1 + index % 9}-{day:02d}T18:00", "--out", str(out),
                ]  # fmt: skip
                jobs.append(subprocess.Popen(command))
                if len(jobs) == 2:
                    _wait(jobs)
            _wait(jobs)
            done.touch()
    return sorted(folder.glob("*.txt"))


def store_of(hands: int) -> Path:
    """A DuckDB store of `synthesised_files(hands)`, ingested with two workers."""
    files = synthesised_files(hands)
    db = CACHE / f"store-{hands}.duckdb"
    done = CACHE / f"store-{hands}.complete"
    with _locked(db.name):
        if not done.exists():
            db.unlink(missing_ok=True)
            subprocess.run(
                [str(STUDDRAW), "ingest", str(files[0].parent), "--db", str(db), "--workers", "2"],
                check=True,
                stdout=subprocess.DEVNULL,
            )
            done.touch()
    return db


def _wait(jobs: list[subprocess.Popen[bytes]]) -> None:
    for job in jobs:
        if job.wait() != 0:
            raise RuntimeError(f"{job.args} failed")
    jobs.clear()


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    print(store_of(count))
