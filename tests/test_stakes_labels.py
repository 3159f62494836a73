"""Stakes as the rooms name them, the one label of the dashboard and the reports: limit games by
their bets, pot and no limit by their blinds (never "$0.50/$0.50" for a $0.25/$0.50 game)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from studdraw.dashboard.launch import ENV_VAR
from studdraw.dashboard.views import page
from studdraw.pipeline import analytics
from studdraw.pipeline.analytics import Filters
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from studdraw.pipeline.words import stakes_text
from tests.conftest import corpus_file

APP = Path(page("overview")).parents[1] / "app.py"


def hand(
    structure: str, bets: tuple[int, int], blinds: tuple[int, int], **money: object
) -> dict[str, object]:
    row: dict[str, object] = {"structure": structure, "small_bet": bets[0], "big_bet": bets[1]}
    row |= {"small_blind": blinds[0], "big_blind": blinds[1], "scale": 100, "currency": "USD"}
    return row | money


@pytest.mark.parametrize(
    ("row", "label"),
    [
        (hand("fixed", (10, 20), (5, 10)), "$0.10/$0.20"),
        (hand("spread", (10, 20), (5, 10)), "$0.10/$0.20"),
        (hand("no", (10, 10), (5, 10)), "$0.05/$0.10"),
        (hand("pot", (100, 100), (50, 100)), "$0.50/$1.00"),
        (hand("no", (10, 10), (0, 0)), "$0.10/$0.10"),  # no blinds (stud): its bets
        (hand("no", (20, 20), (10, 20), scale=1, currency="CHIPS"), "10/20 chips"),
        (hand("fixed", (4, 8), (2, 4), currency="EUR"), "€0.04/€0.08"),
        (hand("fixed", (4000, 8000), (0, 0), currency="PLAY"), "40/80 play money"),
    ],
)
def test_stakes_text(row: dict[str, object], label: str) -> None:
    assert stakes_text(row) == label


NO_LIMIT = ("cash", "Stars", "Draw", "2-7 Single Draw-NL-USD-0.25-0.50-201106.allin.txt")
"""PokerStars: "Single Draw 2-7 Lowball No Limit ($0.25/$0.50 USD)"."""


@pytest.fixture(scope="module")
def no_limit_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("stakes") / "store.duckdb"
    ingest([corpus_file(*NO_LIMIT)], IngestOptions(db, workers=1))
    return db


def test_sessions_name_no_limit_stakes_by_the_blinds(no_limit_store: Path) -> None:
    with analytics.open_store(no_limit_store) as con:
        name = con.execute("SELECT name FROM hand_players LIMIT 1").fetchall()[0][0]
        sessions = analytics.sessions(con, Filters(player=name))
    assert set(sessions.get_column("stakes").explode().to_list()) == {"$0.25/$0.50"}


def test_replayer_names_no_limit_stakes_by_the_blinds(
    no_limit_store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_VAR, str(no_limit_store))
    app = AppTest.from_file(APP, default_timeout=60)
    app.run()
    app.switch_page(page("replayer"))
    app.run()
    assert not app.exception
    assert "no limit $0.25/$0.50" in app.markdown[0].value
    picker = app.selectbox(key="replay-pick")
    assert "$0.25/$0.50" in picker.format_func(picker.value)
