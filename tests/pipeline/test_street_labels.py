"""Street labels come from the game's spec (`StreetSpec.label`), in every layer that shows a
street: the stats' titles, the CLI's tables, the dashboard's headings and the leak report. A
drawmaha hand's flop betting is reported under the flop, never "after draw 1"."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from studdraw.dashboard.views.player_stats import heading
from studdraw.parsers.model import Game
from studdraw.pipeline.analytics import Filters, open_store, player_stats, street_title
from studdraw.pipeline.analytics.registry import BY_NAME
from studdraw.pipeline.analytics.report import player_table
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from studdraw.pipeline.rules.specs import GAME_SPECS, street_label
from tests.conftest import corpus_file

SEVEN = ("3rd street", "4th street", "5th street", "6th street", "7th street")
TRIPLE = ("before the draw", "after draw 1", "after draw 2", "after draw 3")
SINGLE = ("before the draw", "after the draw")
LABELS = {
    Game.STUD: SEVEN,
    Game.STUD8: SEVEN,
    Game.RAZZ: SEVEN,
    Game.RAZZ27: SEVEN,
    Game.STUD5: ("2nd street", "3rd street", "4th street", "5th street"),
    Game.TD27: TRIPLE,
    Game.TDA5: TRIPLE,
    Game.BADUGI: TRIPLE,
    Game.BADACEY: TRIPLE,
    Game.BADEUCEY: TRIPLE,
    Game.SD27: SINGLE,
    Game.DRAW5: SINGLE,
    Game.SDA5: SINGLE,
    Game.DRAWMAHA: ("before the flop", "flop", "turn (after the draw)", "river"),
}
"""What each game calls its betting rounds: every game of GAME_SPECS has a row."""


def test_every_game_has_its_labels() -> None:
    assert set(LABELS) == set(GAME_SPECS)


@pytest.mark.parametrize("game", list(LABELS), ids=lambda game: game.value)
def test_a_game_s_street_labels_come_from_its_spec(game: Game) -> None:
    """The spec's streets carry the labels, and every stat and aggression row of the game reads
    them; a round the game does not have has no label."""
    expected = LABELS[game]
    assert tuple(street.label for street in GAME_SPECS[game].streets) == expected
    for street, label in enumerate(expected):
        assert street_label(game.value, street) == label
        assert BY_NAME[f"call_{street}"].title((game.value,)) == f"call on {label}"
        assert heading(f"af_{street}", [game.value]) == f"aggression factor, {label}"
    assert street_label(game.value, len(expected)) is None
    assert street_title(len(expected), [game.value]) == ""


def test_several_games_name_a_street_as_each_of_them_does() -> None:
    """One row over several games: one label where they agree, each game's where they differ."""
    assert street_title(1, ["td27", "badugi"]) == "after draw 1"
    assert street_title(1, ["td27", "drawmaha", "sd27"]) == "after draw 1 / flop / after the draw"
    assert street_title(3, ["td27", "sd27"]) == "after draw 3"
    assert (
        heading("bet_0", ["stud", "stud5", "td27"])
        == "bet on 3rd street / 2nd street / before the draw"
    )


def test_a_drawmaha_flop_is_reported_under_the_flop(tmp_path: Path) -> None:
    """Cash/KingsClub/Draw/2-7 Drawmaha-FL-USD-60-120-202108.showdown.txt: both check the flop
    (street 1, an opportunity without a bet), Player0 bets the turn (after the draw) and Hero
    raises it. The stats count them on streets 1 and 2 and the CLI's table names them the
    flop and the turn; no row says "after draw"."""
    db = tmp_path / "store.duckdb"
    name = "2-7 Drawmaha-FL-USD-60-120-202108.showdown.txt"
    summary = ingest([corpus_file("cash", "KingsClub", "Draw", name)], IngestOptions(db=db))
    assert (summary.stored, summary.with_errors) == (1, 0)
    con = open_store(db)
    frame = player_stats(con, Filters(player="Player0", game="drawmaha"))
    [row] = frame.iter_rows(named=True)
    counts = {stat: (row[stat], row[f"{stat}_n"]) for stat in ("bet_1", "bet_2", "raise_2")}
    assert counts == {"bet_1": (0.0, 1), "bet_2": (1.0, 1), "raise_2": (0.0, 1)}
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(player_table(frame, "Player0"))
    cells = [line.split("│") for line in out.getvalue().splitlines() if "│" in line]
    lines = {row[1].strip(): "│".join(row[2:]) for row in cells}
    assert "0.0% (1)" in lines["bet on flop"]
    assert "100.0% (1)" in lines["bet on turn (after the draw)"]
    assert "aggression factor, turn (after the draw)" in lines
    assert not [label for label in lines if "after draw" in label]
