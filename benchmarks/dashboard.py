"""Seconds per dashboard page on the shared 1,000,000-hand store (bench_store.store_of).

Each page is a full Streamlit AppTest run of the real app (every query and chart of the page,
as a browser session would trigger them), in the same process, so Streamlit's caches behave as
in the server: the store's connection is opened once (its own row: a server pays it once), then
each page runs cold (its data caches cleared) and warm (served from them). Each run gives its
wall time (the target's measure) and this process's CPU time (all its threads, DuckDB's too):
on a machine shared with other jobs the wall time is mostly waiting for a core, and the CPU
time says what the page itself costs. The store is first prepared for the analytics (`studdraw
prepare`, idempotent), as a large store should be.
Target: every page under 2 s cold (MET or MISSED per page).

    .venv/bin/python benchmarks/dashboard.py [--hands 1000000]
    .venv/bin/python benchmarks/dashboard.py --db STORE    # any store, e.g. a partial build
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import streamlit as st
from rich.console import Console
from rich.table import Table
from streamlit.logger import set_log_level
from streamlit.testing.v1 import AppTest

from studdraw.dashboard import store
from studdraw.dashboard.launch import APP, ENV_VAR
from studdraw.dashboard.views import page

sys.path.insert(0, str(Path(__file__).resolve().parent))
import analytics as analytics_bench
import bench_store

TARGET_SECONDS = 2.0
TIMEOUT_SECONDS = 600
PAGES = {
    "Overview": ("overview", {}),
    "Live table": ("live_table", {}),
    "Sessions": ("sessions", {}),
    "Player stats": ("player_stats", {}),
    "Leaks": ("leaks", {}),
    "Tournaments": ("tournaments", {}),
    "Hand replayer (latest day)": ("replayer", {}),
    "Hand replayer (?hand=)": ("replayer", {"hand": "MIDDLE"}),
    "Data quality": ("data_quality", {}),
    "Problem codes": ("violation_codes", {"code": "SIZ001"}),
}


def run_page(name: str, query: dict[str, str], *, cold: bool) -> tuple[float, float]:
    """Seconds (wall, CPU of this process) for one AppTest run of the page; `cold` clears the
    data caches first."""
    app = AppTest.from_file(APP, default_timeout=TIMEOUT_SECONDS)
    if name != "overview":
        app.run()  # the entry point registers the pages that switch_page looks up
        app.switch_page(page(name))
    app.query_params.update(query)
    if cold:
        st.cache_data.clear()
    started, cpu = time.perf_counter(), time.process_time()
    app.run()
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    if app.exception:
        raise RuntimeError(f"{name}: {[error.value for error in app.exception]}")
    return seconds, cpu_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--db", type=Path, help="measure this store instead of the shared one")
    args = parser.parse_args()
    console = Console()
    db = args.db.resolve() if args.db else bench_store.store_of(args.hands)
    prepare_seconds, prepared = analytics_bench.prepare(db)
    console.print(
        f"store {db}: prepared in {prepare_seconds:.1f} s "
        f"({prepared.derived_hands:,} hands derived now); load average {os.getloadavg()[0]:.2f}"
    )
    os.environ[ENV_VAR] = str(db)
    set_log_level("error")  # AppTest outside a server warns on every run
    started = time.perf_counter()
    ref = store.store_ref()
    with store.connection(ref):
        opened = time.perf_counter() - started
    run_page("violation_codes", {}, cold=False)  # imports, once: not any page's cost

    hands = store.scalar(ref, "SELECT count(*) FROM hands")
    table = Table(title=f"Dashboard pages on {hands:,} hands (target {TARGET_SECONDS:g} s cold)")
    for column in ("page", "cold s", "cold CPU s", "warm s", "warm CPU s", "target"):
        table.add_column(column, justify="left" if column == "page" else "right")
    table.add_row("open the store (once per server)", f"{opened:.2f}", "", "", "", "")
    middle = str(store.scalar(ref, "SELECT max(hand_id) // 2 FROM hands"))
    for label, (name, params) in PAGES.items():
        query = {key: middle if value == "MIDDLE" else value for key, value in params.items()}
        cold, cold_cpu = run_page(name, query, cold=True)
        warm, warm_cpu = run_page(name, query, cold=False)
        verdict = "MET" if cold < TARGET_SECONDS else "[red]MISSED[/red]"
        table.add_row(
            label, f"{cold:.2f}", f"{cold_cpu:.2f}", f"{warm:.2f}", f"{warm_cpu:.2f}", verdict
        )
    console.print(table)
    console.print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
