"""A small store for the dashboard tests: synthesised sessions of a stud and a draw game, plus
the hand-written samples (a hand with violations, a reject, unsupported hands)."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
from typer.testing import CliRunner

from studdraw.cli.commands import app
from tests.conftest import SAMPLES

BROKEN_HAND = "230000000001"
"""The hand-written stud hand that breaks the rules (SIZ014, ORD004, CRD008, MNY002...)."""
DRAW_HAND = "230000000003"
"""The hand-written 2-7 triple draw hand: shown and hidden discards, a pat hand, a showdown."""


def build_store(folder: Path) -> Path:
    """Synthesise the histories under `folder` and ingest them into `folder/store.duckdb`, and
    into the Parquet dataset `folder/parquet`."""
    histories = folder / "histories"
    histories.mkdir(parents=True)
    runner = CliRunner()
    synths = [
        ("stud", "80", "11", "40", "2026-03-02T18:00"),
        ("td27", "40", "12", "20", "2026-03-05T20:00"),
    ]
    for game, hands, seed, session, start in synths:
        out = histories / f"{game}.txt"
        args = ["synth", "--game", game, "--hands", hands, "--seed", seed, "--out", str(out)]
        args += ["--session-hands", session, "--start", start]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
    for name in ("broken.txt", "td27-showdown.txt"):
        shutil.copy(SAMPLES / "pokerstars" / "handwritten" / name, histories / name)
    db = folder / "store.duckdb"
    args = ["ingest", str(histories), "--db", str(db), "--parquet", str(folder / "parquet")]
    result = runner.invoke(app, [*args, "--workers", "1"])
    assert result.exit_code == 0, result.output
    return db


def hand_id_of(db: Path, room_hand_id: str) -> int:
    with duckdb.connect(str(db), read_only=True) as con:
        row = con.execute("SELECT hand_id FROM hands WHERE room_hand_id = ?", [room_hand_id])
        found = row.fetchone()
    assert found is not None
    return int(found[0])
