"""Real processes against one DuckDB file: `kill -9` mid-import, and two importers at once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from tests.conftest import CORPUS, corpus_file
from tests.pipeline.store_support import counts, differences, inflate, parquet_differences

pytestmark = pytest.mark.slow
STUDDRAW = str(Path(sys.executable).parent / "studdraw")


@pytest.fixture(scope="module")
def inflated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, int]:
    """Input folder of a few thousand hands, and the store of its uninterrupted import."""
    corpus_file()
    root = tmp_path_factory.mktemp("inflated")
    folder = root / "in"
    hands = inflate(CORPUS, folder, copies=8)
    reference = root / "reference.duckdb"
    summary = ingest([folder], IngestOptions(reference, workers=1))
    assert summary.stored == hands
    return folder, reference, hands


def start(folder: Path, db: Path, *options: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [STUDDRAW, "ingest", str(folder), "--db", str(db), "--json", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for_commit(db: Path, process: subprocess.Popen[str]) -> None:
    """Until the importer has committed a few batches. DuckDB appends to its write-ahead log
    while a transaction runs, not only at commit, so the test waits for 1 MB of log: a batch of
    50 corpus hands logs about 0.5 MB, so the first batch is committed by then."""
    wal = Path(f"{db}.wal")
    deadline = time.monotonic() + 60
    while not (wal.exists() and wal.stat().st_size > 1_000_000):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no commit within a minute"
        time.sleep(0.002)


def stored_hands(db: Path) -> int:
    return counts(db)["hands"]


def test_kill_9_mid_import_then_rerun(inflated: tuple[Path, Path, int], tmp_path: Path) -> None:
    folder, reference, hands = inflated
    db = tmp_path / "victim.duckdb"
    parquet = tmp_path / "parquet"
    victim = start(folder, db, "--workers", "1", "--batch-size", "50", "--parquet", str(parquet))
    wait_for_commit(db, victim)
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait()
    assert victim.returncode == -signal.SIGKILL
    partial = stored_hands(db)
    assert 0 < partial < hands, "the kill did not land mid-import"
    # only whole hands: every stored hand has exactly the child rows of the reference import
    con = duckdb.connect()
    con.execute(f"ATTACH '{db}' AS v (READ_ONLY)")
    con.execute(f"ATTACH '{reference}' AS r (READ_ONLY)")
    for child in ("hand_players", "actions", "streets", "player_streets", "pots"):
        mismatched = con.execute(
            f"""SELECT count(*) FROM v.hands vh JOIN r.hands rh USING (room, room_hand_id)
            WHERE (SELECT count(*) FROM v.{child} c WHERE c.hand_id = vh.hand_id)
               <> (SELECT count(*) FROM r.{child} c WHERE c.hand_id = rh.hand_id)"""
        ).fetchone()
        assert mismatched == (0,), child
    interrupted = con.execute("SELECT count(*) FROM v.imports WHERE status = 'running'").fetchone()
    con.close()
    assert interrupted is not None and interrupted[0] >= 1
    rerun = start(folder, db, "--workers", "2", "--parquet", str(parquet))
    out, err = rerun.communicate(timeout=300)
    assert rerun.returncode == 0, err
    summary = json.loads(out)
    assert summary["hands_seen"] == hands
    assert summary["duplicates"] == partial and summary["stored"] == hands - partial
    assert differences(reference, db) == {}
    assert counts(db) == counts(reference)
    assert parquet_differences(db, parquet) == {}  # no half batch, nothing missing
    assert list(parquet.rglob(".staged-*")) == []


def test_second_importer_waits_or_stops(inflated: tuple[Path, Path, int], tmp_path: Path) -> None:
    folder, reference, hands = inflated
    db = tmp_path / "shared.duckdb"
    first = start(folder, db, "--workers", "1", "--batch-size", "50")
    wait_for_commit(db, first)
    impatient = start(folder, db, "--wait", "0")
    out, err = impatient.communicate(timeout=60)
    assert impatient.returncode == 2 and out == ""
    assert "in use by another process" in err
    patient = start(folder, db, "--wait", "300", "--workers", "1")
    first_out, first_err = first.communicate(timeout=300)
    assert first.returncode == 0, first_err
    out, err = patient.communicate(timeout=300)
    assert patient.returncode == 0, err
    assert "waiting" in err
    assert json.loads(first_out)["stored"] == hands
    second = json.loads(out)
    assert (second["stored"], second["duplicates"]) == (0, hands)
    assert differences(reference, db) == {}
