"""A small store for the dashboard tests: synthesised sessions of a stud and a draw game, plus
the hand-written samples (a hand with violations, a reject, unsupported hands); what it holds,
read before the dashboard opens it; and how the tests open a page of the app and read it."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from studdraw.cli.commands import app
from studdraw.dashboard.views import page
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


APP = Path(page("overview")).parents[1] / "app.py"
TIMEOUT = 60


@dataclass(frozen=True)
class Facts:
    """What the store holds, read before the dashboard opens it."""

    db: Path
    hands: int
    players: int
    broken_id: int
    draw_id: int
    broken_codes: frozenset[str]
    broken_violations: int
    broken_cards: tuple[str, ...]
    reject_id: str
    last_hero_day: date
    hero_hands: dict[str, int]  # per game
    hero_net: float  # in currency units
    hero_hand_ids: frozenset[str]


def read_facts(db: Path) -> Facts:
    """What the store at `db` holds, for the tests to check the pages against."""
    with duckdb.connect(str(db), read_only=True) as con:

        def one(sql: str, *params: object) -> Any:
            row = con.execute(sql, list(params)).fetchone()
            assert row is not None
            return row[0]

        broken_id = one("SELECT hand_id FROM hands WHERE room_hand_id = ?", BROKEN_HAND)
        codes = con.execute("SELECT code FROM violations WHERE hand_id = ?", [broken_id]).fetchall()
        return Facts(
            db=db,
            hands=one("SELECT count(*) FROM hands"),
            players=one("SELECT count(DISTINCT name) FROM hand_players WHERE dealt_in"),
            broken_id=broken_id,
            draw_id=one("SELECT hand_id FROM hands WHERE room_hand_id = ?", DRAW_HAND),
            broken_codes=frozenset(code for (code,) in codes),
            broken_violations=one("SELECT count(*) FROM violations WHERE hand_id = ?", broken_id),
            broken_cards=tuple(
                one("SELECT cards FROM hand_players WHERE hand_id = ? AND is_hero", broken_id)
            ),
            reject_id=one("SELECT room_hand_id FROM rejects"),
            last_hero_day=one(
                "SELECT CAST(max(timezone('UTC', started_at)) AS DATE) FROM hands "
                "WHERE hero = 'Hero'"
            ),
            hero_hands=dict(
                con.execute(
                    "SELECT game, count(*) FROM hands WHERE hero = 'Hero' GROUP BY game"
                ).fetchall()
            ),
            hero_net=float(
                one("SELECT sum(net_amount) FROM hand_players_money WHERE name = 'Hero'")
            ),
            hero_hand_ids=frozenset(
                hand
                for (hand,) in con.execute(
                    "SELECT room_hand_id FROM hands WHERE hero = 'Hero'"
                ).fetchall()
            ),
        )


def open_page(app: AppTest, name: str, **query: str) -> AppTest:
    """Run the app, switch to page `name` with the query parameters, and check it ran clean."""
    app.run()
    if name != "overview":
        app.switch_page(page(name))
    app.query_params.update(query)
    app.run()
    assert not app.exception, [error.value for error in app.exception]
    return app


def html(app: AppTest) -> str:
    """Everything the page drew with st.html (cards, seats, events)."""
    return "".join(element.proto.body for element in app.get("html"))


def metrics(app: AppTest) -> dict[str, str]:
    return {metric.label: metric.value for metric in app.metric}
