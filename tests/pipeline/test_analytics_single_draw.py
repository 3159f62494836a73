"""Single-draw games in the statistics: two betting rounds, one draw, so the per-street and
per-draw stats of the later rounds have no opportunities (never a zero), and breaking and
snowing are judged in 2-7 single draw (a low game, with made hands) but never in five-card draw
(high: standing pat on nothing is not measured against a made low).

The hands (tests/pipeline/analytics_single_draw) are handwritten, legal PokerStars hands."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from studdraw.pipeline.analytics import Filters, open_store, player_stats
from studdraw.pipeline.importer.ingest import IngestOptions, ingest

HANDS = Path(__file__).parent / "analytics_single_draw"


@pytest.fixture(scope="module")
def con(tmp_path_factory: pytest.TempPathFactory) -> duckdb.DuckDBPyConnection:
    db = tmp_path_factory.mktemp("single_draw") / "single.duckdb"
    summary = ingest([HANDS], IngestOptions(db, workers=1))
    assert summary.stored == 3 and summary.with_errors == 0
    return open_store(db)


def stats(con: duckdb.DuckDBPyConnection, player: str, game: str) -> dict[str, object]:
    frame = player_stats(con, Filters(player=player, game=game))
    assert frame.height == 1
    return frame.row(0, named=True)


@pytest.mark.parametrize(
    ("player", "game", "name", "expected"),
    [
        # the round after the one draw is the second round (index 1) in both games
        ("Ann", "sd27", "call_1", (1.0, 2)),
        ("Ann", "draw5", "call_1", (1.0, 1)),
        ("Cat", "draw5", "bet_1", (1.0, 1)),
        # no third or fourth round, no second or third draw: no opportunity, no value
        ("Ann", "sd27", "bet_2", (None, 0)),
        ("Ann", "sd27", "fold_3", (None, 0)),
        ("Ann", "sd27", "pat_2", (None, 0)),
        ("Ann", "draw5", "draw3_3", (None, 0)),
        # draws counted on the one draw
        ("Ben", "sd27", "pat_1", (0.5, 2)),
        ("Ann", "draw5", "draw3_1", (1.0, 1)),
        # 2-7 single draw: Ann breaks a made 8-low (not her queen-low); Ben snows a pair
        ("Ann", "sd27", "breaking", (1.0, 1)),
        ("Ben", "sd27", "snowing", (1.0, 1)),
        ("Ann", "sd27", "snowing", (None, 0)),
        # five-card draw: a pair of kings is not a made hand to break, a pat queen-high shown
        # down is not a snow
        ("Ann", "draw5", "breaking", (None, 0)),
        ("Cat", "draw5", "snowing", (None, 0)),
        ("Cat", "draw5", "went_to_showdown", (1.0, 1)),
    ],
)
def test_single_draw_stats(
    con: duckdb.DuckDBPyConnection,
    player: str,
    game: str,
    name: str,
    expected: tuple[float | None, int],
) -> None:
    """`expected`: the frequency and its number of opportunities."""
    row = stats(con, player, game)
    assert (row[name], row[f"{name}_n"]) == expected
