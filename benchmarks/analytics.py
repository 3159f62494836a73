"""Seconds per analytics function on the shared 1,000,000-hand store (bench_store.store_of).

The store is first prepared (`studdraw prepare`: the per-hand rows kept in the store; idempotent,
so only the first run on a store pays for it, and the table says how long it took). Then each
function runs --repeat times on a fresh connection: the table gives the first (cold) run and the
median of the others. Target: every page function under 2 s (a dashboard page calls one or two).

    .venv/bin/python benchmarks/analytics.py [--hands 1000000] [--repeat 3] [--player Hero]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import duckdb
from rich.console import Console
from rich.table import Table

from studdraw.pipeline import analytics
from studdraw.pipeline.analytics import Filters

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_store

TARGET_SECONDS = 2.0
LOCK_WAIT_SECONDS = 600


def prepare(db: Path) -> tuple[float, analytics.Prepared]:
    """Prepare the store, waiting while other processes hold it open (DuckDB admits no writer
    then)."""
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        try:
            started = time.perf_counter()
            done = analytics.prepare(db)
            return time.perf_counter() - started, done
        except duckdb.IOException:
            if time.monotonic() > deadline:
                raise
            time.sleep(5)


def cases(player: str) -> dict[str, Callable[[duckdb.DuckDBPyConnection], object]]:
    """What the dashboard's pages and the CLI call, by name."""
    me = Filters(player=player)
    return {
        "players": analytics.players,
        "player_stats (everyone)": lambda con: analytics.player_stats(con, Filters()),
        "player_stats (player)": lambda con: analytics.player_stats(con, me),
        "player_stats (player, stud, session 2)": lambda con: analytics.player_stats(
            con, Filters(player=player, game="stud", session=2)
        ),
        "sessions": lambda con: analytics.sessions(con, me),
        "results_over_time": lambda con: analytics.results_over_time(con, me),
        "starting_hands": lambda con: analytics.starting_hands(con, me),
        "door_cards": lambda con: analytics.door_cards(con, me),
        "hands_behind (steal)": lambda con: analytics.hands_behind(con, me, "steal"),
        "leaks": lambda con: analytics.leaks(con, me),
        "doubtful_hands (everyone)": lambda con: analytics.doubtful_hands(con, Filters()),
        "tournament_summary": lambda con: analytics.tournament_summary(con, me),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--player", default="Hero")
    args = parser.parse_args()
    db = bench_store.store_of(args.hands)
    prepared_in, done = prepare(db)
    table = Table(
        title=f"analytics on {args.hands:,} hands ({db.name}), player {args.player}; "
        f"load average {os.getloadavg()[0]:.2f} at start, {os.cpu_count()} cores"
    )
    for column in ("function", "first run (s)", f"median of {args.repeat - 1} (s)", "rows", "ok"):
        table.add_column(column, justify="left" if column == "function" else "right")
    table.add_row(
        f"prepare (one-time; derived now: {done.derived_hands:,} hands)",
        f"{prepared_in:.2f}",
        "",
        "",
        "",
    )
    started = time.perf_counter()
    con = analytics.open_store(db)
    table.add_row("open_store", f"{time.perf_counter() - started:.2f}", "", "", "")
    for name, call in cases(args.player).items():
        times = []
        rows = 0
        for _ in range(args.repeat):
            started = time.perf_counter()
            result = call(con)
            times.append(time.perf_counter() - started)
            rows = getattr(result, "height", 0)
        warm = statistics.median(times[1:]) if len(times) > 1 else times[0]
        table.add_row(
            name,
            f"{times[0]:.2f}",
            f"{warm:.2f}",
            f"{rows:,}",
            "yes" if max(times[0], warm) < TARGET_SECONDS else "NO",
        )
    table.caption = f"load average {os.getloadavg()[0]:.2f} at the end"
    Console().print(table)


if __name__ == "__main__":
    main()
