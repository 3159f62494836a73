"""The dashboard's PHH downloads: each page offers its button, and the bytes behind it are the
PHH `studdraw export` writes for the same hands (a session's, a player's, one hand)."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from studdraw.cli.commands import app as cli
from studdraw.dashboard.downloads import MAX_HANDS, phh_bytes, phhs_bytes
from studdraw.dashboard.launch import ENV_VAR
from studdraw.dashboard.views import page
from studdraw.pipeline import analytics
from studdraw.pipeline.analytics import Filters
from studdraw.pipeline.analytics.stats import filtered_hand_ids
from tests.dashboard_support import DRAW_HAND, build_store, hand_id_of

APP = Path(page("overview")).parents[1] / "app.py"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_store(tmp_path_factory.mktemp("phh-dashboard"))


@pytest.fixture
def con(db: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    connection = analytics.open_store(db)
    yield connection
    connection.close()


def test_a_sessions_hands_are_the_exports_of_that_player_and_session(
    db: Path, con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    session = Filters(player="Hero", game="stud", session=2)
    ids = filtered_hand_ids(con, session, MAX_HANDS)
    every = filtered_hand_ids(con, Filters(player="Hero", game="stud"), MAX_HANDS)
    assert ids and set(ids) < set(every)
    hands = tomllib.loads(phhs_bytes(con, ids).decode(), parse_float=Decimal)
    assert len(hands) == len(ids)
    assert all("Hero" in hand["players"] and hand["variant"] == "F7S" for hand in hands.values())
    out = tmp_path / "hero.phhs"
    args = ["export", "--db", str(db), "--player", "Hero", "--game", "stud"]
    assert CliRunner().invoke(cli, [*args, "--format", "phhs", "--out", str(out)]).exit_code == 0
    exported = tomllib.loads(out.read_text(encoding="utf-8"), parse_float=Decimal)
    assert {h["hand"] for h in hands.values()} < {h["hand"] for h in exported.values()}


def test_one_hand_is_a_phh_file(db: Path, con: duckdb.DuckDBPyConnection) -> None:
    text = phh_bytes(con, hand_id_of(db, DRAW_HAND)).decode()
    fields = tomllib.loads(text)
    assert (fields["variant"], str(fields["hand"])) == ("F2L3D", DRAW_HAND)
    assert phh_bytes(con, -1) == b""


@pytest.mark.parametrize("name", ["sessions", "player_stats", "leaks", "replayer"])
def test_each_page_offers_its_download(
    db: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setenv(ENV_VAR, str(db))
    test = AppTest.from_file(APP, default_timeout=60)
    test.run()
    test.switch_page(page(name))
    if name == "replayer":
        test.query_params["hand"] = str(hand_id_of(db, DRAW_HAND))
    test.run()
    assert not test.exception, [error.value for error in test.exception]
    labels = [button.proto.label for button in test.get("download_button")]
    assert any("PHH" in label or ".phhs" in label for label in labels), labels
