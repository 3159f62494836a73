"""An import leaves the store ready (issue 36): the analytics' rows and sums of every hand it
stores are written with the hand's batch, the same as `prepare` derives them, whatever the
number of workers, the engine, or a `kill -9` in the middle."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import polars as pl
import pytest
from distributed import LocalCluster
from polars.testing import assert_frame_equal

from studdraw.parsers.model import Game
from studdraw.pipeline.analytics import Filters, open_store, player_stats, prepare
from studdraw.pipeline.analytics.registry import KEY
from studdraw.pipeline.importer.dask_engine import DaskOptions, ingest_dask
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from studdraw.pipeline.synth import GAMES_DEALT, SynthOptions, render, synthesize
from tests.pipeline.store_support import forget_analytics

HANDS_PER_GAME = 60
BATCH = 70  # hands per transaction: several batches, each a game's hands and the next's
STUDDRAW = str(Path(sys.executable).parent / "studdraw")


def histories(folder: Path, hands: int = HANDS_PER_GAME, seed: int = 3) -> Path:
    """Synthesised hands of every game (stud all-ins with known cards among them)."""
    folder.mkdir(parents=True, exist_ok=True)
    for offset, game in enumerate(g for g in Game if g in GAMES_DEALT["pokerstars"]):
        options = SynthOptions(
            game=game,
            hands=hands,
            seed=seed + offset,
            session_hands=25,
            start=datetime(2026, 4, 1 + offset, 18, 0, tzinfo=UTC),
        )
        text = "".join(render(r, "pokerstars") + "\n\n\n" for r in synthesize(options))
        (folder / f"{game}.txt").write_text(text, encoding="utf-8")
    return folder


def rows(db: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The kept per-hand rows and the kept rollup (one row per key), in a stable order."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        hands = con.sql("SELECT * FROM analytics_player_hands ORDER BY hand_id, name").pl()
        rollup = con.sql(f"SELECT * FROM analytics_rollup ORDER BY {', '.join(KEY)}").pl()
    finally:
        con.close()
    return hands, rollup


def prepared_copy(db: Path, work: Path) -> Path:
    """The same store with its rows derived by `prepare` alone, from nothing."""
    copy = work / f"prepared-{db.name}"
    shutil.copy(db, copy)
    forget_analytics(copy)
    assert prepare(copy, workers=1).derived_hands > 0
    return copy


def assert_same_as_prepare(db: Path, work: Path) -> None:
    hands, rollup = rows(db)
    expected_hands, expected_rollup = rows(prepared_copy(db, work))
    assert hands.height == expected_hands.height > 0
    # Integers, flags, decimals and names exactly; float sums to their last digits' rounding.
    assert_frame_equal(hands, expected_hands, check_exact=False, rel_tol=1e-12)
    assert rollup.select(KEY).equals(expected_rollup.select(KEY))  # one row per key
    assert_frame_equal(rollup, expected_rollup, check_exact=False, rel_tol=1e-9)


def assert_nothing_derived_on_open(db: Path) -> None:
    con = open_store(db)
    try:
        temporary = con.sql("SELECT count(*) FROM duckdb_tables() WHERE temporary").fetchall()
        assert temporary == [(0,)]
    finally:
        con.close()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return histories(tmp_path_factory.mktemp("upkeep") / "in")


@pytest.mark.parametrize("workers", [1, 2])
def test_an_import_keeps_the_rows_prepare_would_derive(
    folder: Path, tmp_path: Path, workers: int
) -> None:
    db = tmp_path / "store.duckdb"
    summary = ingest([folder], IngestOptions(db, workers=workers, batch_size=BATCH))
    assert summary.stored == HANDS_PER_GAME * len(GAMES_DEALT["pokerstars"])
    assert_nothing_derived_on_open(db)
    assert_same_as_prepare(db, tmp_path)
    assert prepare(db, workers=1).derived_hands == 0


def test_each_import_adds_its_hands_and_a_reimport_adds_nothing(
    folder: Path, tmp_path: Path
) -> None:
    db = tmp_path / "store.duckdb"
    ingest([folder / "stud.txt", folder / "td27.txt"], IngestOptions(db, workers=1))
    ingest([folder], IngestOptions(db, workers=1, batch_size=BATCH))
    before = rows(db)
    ingest([folder], IngestOptions(db, workers=1))  # every hand known: nothing new
    assert_frame_equal(rows(db)[0], before[0])
    assert_frame_equal(rows(db)[1], before[1])
    assert_nothing_derived_on_open(db)
    assert_same_as_prepare(db, tmp_path)


def test_a_store_without_rows_is_left_to_prepare(folder: Path, tmp_path: Path) -> None:
    """A store an earlier studdraw imported has hands without rows: an import cannot keep rows
    that do not cover them, so it adds none, the readers derive what is missing, and `prepare`
    (which `studdraw ingest` runs after every import) catches up."""
    db = tmp_path / "old.duckdb"
    ingest([folder / "razz.txt"], IngestOptions(db, workers=1))
    forget_analytics(db)
    ingest([folder / "stud8.txt"], IngestOptions(db, workers=1))
    con = duckdb.connect(str(db), read_only=True)
    tables = {name for (name,) in con.sql("SELECT table_name FROM duckdb_tables()").fetchall()}
    con.close()
    assert "analytics_player_hands" not in tables
    derived_on_open = player_stats(open_store(db), Filters())
    assert prepare(db, workers=1).derived_hands == 2 * HANDS_PER_GAME
    assert_frame_equal(player_stats(open_store(db), Filters()), derived_on_open, check_exact=False)
    ingest([folder / "stud.txt"], IngestOptions(db, workers=1))  # current again: kept
    assert_nothing_derived_on_open(db)
    assert_same_as_prepare(db, tmp_path)


@pytest.mark.slow  # a Dask LocalCluster, as in test_dask_engine.py: `make test` runs it
def test_the_dask_engine_keeps_the_rows_too(folder: Path, tmp_path: Path) -> None:
    db = tmp_path / "dask.duckdb"
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        summary = ingest_dask(
            [folder], IngestOptions(db), DaskOptions(cluster.scheduler_address, 64 << 10)
        )
    assert summary.stored == HANDS_PER_GAME * len(GAMES_DEALT["pokerstars"])
    assert_nothing_derived_on_open(db)
    assert_same_as_prepare(db, tmp_path)


@pytest.mark.slow
def test_kill_9_mid_import_then_rerun_gives_the_rows_of_prepare(tmp_path: Path) -> None:
    """Rows commit with their batch: a killed import leaves rows for exactly the hands it
    stored, and the re-run completes them."""
    big = histories(tmp_path / "in", hands=400, seed=11)
    db = tmp_path / "victim.duckdb"
    victim = subprocess.Popen(
        [STUDDRAW, "ingest", str(big), "--db", str(db), "--workers", "1", "--batch-size", "50"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wal = Path(f"{db}.wal")
    deadline = time.monotonic() + 120
    while not (wal.exists() and wal.stat().st_size > 2_000_000):
        assert victim.poll() is None, "the import ended before it could be killed"
        assert time.monotonic() < deadline
        time.sleep(0.002)
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait()
    con = duckdb.connect(str(db), read_only=True)
    stored = con.sql("SELECT count(*) FROM hands").fetchall()[0][0]
    covered = con.sql("SELECT count(DISTINCT hand_id) FROM analytics_player_hands").fetchall()
    con.close()
    assert 0 < stored < 400 * len(GAMES_DEALT["pokerstars"]), "the kill did not land mid-import"
    assert covered == [(stored,)]
    rerun = subprocess.run(
        [STUDDRAW, "ingest", str(big), "--db", str(db), "--workers", "2"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert rerun.returncode == 0, rerun.stderr
    assert_nothing_derived_on_open(db)
    assert_same_as_prepare(db, tmp_path)


@pytest.mark.slow  # a Dask LocalCluster, as in test_dask_engine.py: `make test` runs it
def test_the_dask_engine_counts_every_hand_for_the_progress(folder: Path, tmp_path: Path) -> None:
    counted: list[int] = []
    with LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        summary = ingest_dask(
            [folder],
            IngestOptions(tmp_path / "dask.duckdb"),
            DaskOptions(cluster.scheduler_address, 64 << 10),
            on_hands=counted.append,
        )
    assert sum(counted) == summary.hands_seen > 0
