"""The worked examples of docs/stats.md, checked on the hand-written hands they are taken from
(tests/pipeline/analytics_hands: small, legal PokerStars hands; the hero is Ann)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import duckdb
import polars as pl
import pytest

from studdraw.pipeline.analytics import (
    Filters,
    door_cards,
    hands_behind,
    open_store,
    player_stats,
    results_over_time,
    sessions,
    starting_hands,
)
from studdraw.pipeline.importer.ingest import IngestOptions, ingest

HANDS = Path(__file__).parent / "analytics_hands"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("examples") / "examples.duckdb"
    summary = ingest([HANDS], IngestOptions(db, workers=1))
    assert summary.stored == 7 and summary.with_errors == 0
    return db


@pytest.fixture(scope="module")
def con(store: Path) -> duckdb.DuckDBPyConnection:
    return open_store(store)


def fact(con: duckdb.DuckDBPyConnection, hand: str, name: str, column: str) -> object:
    rows = con.sql(
        f"SELECT {column} FROM player_hands WHERE room_hand_id = ? AND name = ?",
        params=[hand, name],
    ).fetchall()
    assert len(rows) == 1, (hand, name)
    return rows[0][0]


def stat(con: duckdb.DuckDBPyConnection, player: str, game: str, name: str) -> object:
    frame = player_stats(con, Filters(player=player, game=game))
    assert frame.height == 1
    return frame.row(0, named=True)[name]


STUD_1, STUD_2 = "250000000001", "250000000002"
RAZZ_1, RAZZ_2 = "250000000003", "250000000004"
HILO = "250000000201"
DRAW_1, DRAW_2 = "250000000101", "250000000102"


@pytest.mark.parametrize(
    ("hand", "name", "column", "expected"),
    [
        # VPIP: a completion is voluntary, a bring-in is not
        (STUD_1, "Ann", "vpip", True),
        (STUD_1, "Ben", "vpip", False),
        # 3rd-street completion or raise; a call is neither
        (STUD_2, "Ben", "complete_3rd", True),
        (STUD_2, "Cat", "complete_3rd", True),
        (STUD_2, "Ann", "complete_3rd", False),
        # bring-in completes
        (STUD_1, "Ben", "bring_in_opp", True),
        (STUD_1, "Ben", "bring_in_complete", False),
        (STUD_2, "Ben", "bring_in_complete", True),
        # steals: Ann's king is left to act behind Cat's seven and Dan's five
        (STUD_1, "Ann", "steal_opp", True),
        (STUD_1, "Ann", "steal", True),
        (STUD_1, "Cat", "steal_opp", False),
        (STUD_1, "Dan", "steal_opp", False),
        (RAZZ_1, "Ann", "steal", True),
        (RAZZ_2, "Ann", "steal_opp", False),  # Ben's deuce behind Ann's trey
        (HILO, "Ben", "steal", True),
        # fold to steal
        (STUD_1, "Ben", "fold_to_steal_opp", True),
        (STUD_1, "Ben", "fold_to_steal", True),
        (RAZZ_1, "Ben", "fold_to_steal", False),
        (HILO, "Cat", "fold_to_steal_opp", True),
        (HILO, "Ann", "fold_to_steal_opp", False),  # Cat called first
        # 3rd-street re-raise
        (STUD_2, "Cat", "reraise_3rd", True),
        (STUD_2, "Ann", "reraise_3rd_opp", True),
        (STUD_2, "Ann", "reraise_3rd", False),
        # fold to a 4th- or 5th-street bet
        (STUD_2, "Ben", "fold_to_bet_4th", True),
        (STUD_2, "Cat", "fold_to_bet_4th_opp", True),
        (STUD_2, "Cat", "fold_to_bet_4th", False),
        (STUD_2, "Ann", "fold_to_bet_5th_opp", True),
        (STUD_2, "Ann", "fold_to_bet_5th", False),
        # per street: Ann checks 6th street (a decision, but no bet, raise, call or fold)
        (STUD_2, "Ann", "acted_3", True),
        (STUD_2, "Ann", "bet_3 OR raise_3 OR call_3 OR fold_3", False),
        (STUD_2, "Ann", "bet_1", True),
        # showdown
        (STUD_2, "Ann", "showdown", True),
        (STUD_2, "Ann", "showdown_won", False),
        (STUD_2, "Cat", "showdown_won", True),
        (STUD_2, "Ben", "saw_second AND NOT showdown", True),
        (DRAW_2, "Ann", "won_without_showdown", True),
        # stud hi/lo shares of the main pot
        (HILO, "Ben", "main_share", 0.5),
        (HILO, "Ann", "main_share", 0.25),
        (HILO, "Cat", "main_share", 0.25),
        # starting hands and door cards
        (STUD_1, "Ann", "start_group", "buried pair"),
        (STUD_2, "Ann", "start_group", "three-flush"),
        (RAZZ_1, "Ann", "start_group", "3 low"),
        (RAZZ_2, "Ann", "start_group", "4 low"),
        (HILO, "Ann", "start_group", "three low"),
        (STUD_2, "Cat", "start_group", None),
        (RAZZ_2, "Ann", "door", "3c"),
        # draw games
        (DRAW_1, "Ann", "rfi", True),
        (DRAW_1, "Dan", "rfi_opp AND NOT rfi", True),
        (DRAW_2, "Ann", "rfi_opp AND NOT rfi", True),
        (DRAW_1, "Ben", "three_bet", True),
        (DRAW_1, "Cat", "three_bet_opp", False),  # faced two raises
        (DRAW_1, "Ann", "[drawn_1, drawn_2, drawn_3]", [1, 0, 0]),
        (DRAW_1, "Ann", "broke", True),  # drew one from a dealt nine-low
        (DRAW_2, "Ann", "break_opp AND NOT broke", True),
        (DRAW_2, "Ben", "broke", True),  # stood pat, then drew
        (DRAW_1, "Ben", "snow", True),  # pat on the third draw, showed kings
        (DRAW_1, "Ann", "snow_opp AND NOT snow", True),
    ],
)
def test_worked_example(
    con: duckdb.DuckDBPyConnection, hand: str, name: str, column: str, expected: object
) -> None:
    assert fact(con, hand, name, column) == expected


def test_volume_and_results(con: duckdb.DuckDBPyConnection) -> None:
    row = player_stats(con, Filters(player="Ann", game="stud")).row(0, named=True)
    assert row["hands"] == 2
    assert row["net"] == Decimal("-0.24")  # +0.05 and -0.29
    assert row["big_bets"] == pytest.approx(-3.0)  # (5 - 29) / 8
    assert row["bb_per_100"] == pytest.approx(-150.0)


def test_stud_frequencies(con: duckdb.DuckDBPyConnection) -> None:
    assert stat(con, "Ben", "stud", "bring_in_complete") == 0.5
    assert stat(con, "Ben", "stud", "bring_in_complete_n") == 2
    assert stat(con, "Ann", "stud", "af_0") == 1.0  # a completion / a call
    assert stat(con, "Ann", "stud", "vpip") == 1.0
    assert stat(con, "Dan", "stud", "vpip") == 0.0
    assert stat(con, "Dan", "stud", "steal") is None  # no opportunity
    assert stat(con, "Ann", "stud8", "quarter") == 1.0
    assert stat(con, "Ben", "stud8", "half") == 1.0


def test_draw_frequencies(con: duckdb.DuckDBPyConnection) -> None:
    assert stat(con, "Ann", "td27", "rfi") == 0.5
    assert stat(con, "Ann", "td27", "draw1_1") == 0.5
    assert stat(con, "Ann", "td27", "draw2_1") == 0.5
    assert stat(con, "Ann", "td27", "pat_2") == 1.0
    assert stat(con, "Ann", "td27", "breaking") == 0.5
    assert stat(con, "Ann", "td27", "snowing") == 0.0
    assert stat(con, "Ben", "td27", "snowing") == 1.0


def test_sessions(con: duckdb.DuckDBPyConnection) -> None:
    found = sessions(con, Filters(player="Ann"))
    assert found["session"].to_list() == [1, 2, 3]
    assert found["hands"].to_list() == [2, 3, 2]
    assert found["net"].to_list() == [Decimal("-0.24"), Decimal("0.28"), Decimal("1.39")]
    assert found["big_bets"].to_list() == pytest.approx([-3.0, 3.5, 6.95])
    only_razz = sessions(con, Filters(player="Ann", game="razz"))
    assert only_razz["session"].to_list() == [2]  # numbered over all of Ann's hands
    assert only_razz["hands"].to_list() == [2]


def test_allin_adjusted(con: duckdb.DuckDBPyConnection) -> None:
    # RAZZ_2: Ann all-in on 6th street with a wheel; Ben ties only with one of the three fives
    # among the 39 unseen cards: Ann's share 25/26 of the $0.53 pot, Ben's 1/26.
    assert fact(con, RAZZ_2, "Ann", "allin_net") == pytest.approx(53 * 25 / 26 - 25)
    assert fact(con, RAZZ_2, "Ben", "allin_net") == pytest.approx(53 / 26 - 25)
    assert fact(con, RAZZ_2, "Cat", "allin_adjusted") is False
    graph = results_over_time(con, Filters(player="Ann", game="razz"))
    assert graph["hand_id"].len() == 2
    assert graph["cumulative_net"].to_list() == [Decimal("0.07"), Decimal("0.35")]
    assert graph["allin_cumulative_net"][-1] == pytest.approx(0.07 + (53 * 25 / 26 - 25) / 100)
    assert graph["allin_adjusted"].to_list() == [False, True]


def test_starting_hands_and_doors(con: duckdb.DuckDBPyConnection) -> None:
    groups = starting_hands(con, Filters(player="Ann", game="stud"))
    assert groups.select("group", "dealt", "played").rows() == [
        ("buried pair", 1, 1),
        ("three-flush", 1, 1),
    ]
    assert groups["big_bets"].to_list() == pytest.approx([5 / 8, -29 / 8])
    doors = door_cards(con, Filters(player="Ann", game="razz"))
    assert doors.select("door_rank", "dealt", "played").rows() == [("2", 1, 1), ("3", 1, 1)]


def test_hands_behind(con: duckdb.DuckDBPyConnection) -> None:
    found = hands_behind(con, Filters(player="Ann"), "rfi")
    assert found.select("room_hand_id", "took").rows() == [(DRAW_2, False), (DRAW_1, True)]
    assert hands_behind(con, Filters(player="Ann"), "rfi", limit=1).height == 1
    with pytest.raises(ValueError, match="unknown stat"):
        hands_behind(con, Filters(player="Ann"), "nonsense")


@pytest.mark.parametrize(
    ("filters", "hands"),
    [
        (Filters(player="Ann"), 7),
        (Filters(player="Ann", structure="fixed"), 7),
        (Filters(player="Ann", stakes=8), 5),  # big bet $0.08 (stud games)
        (Filters(player="Ann", room="pokerstars"), 7),
        (Filters(player="Ann", room="fulltilt"), 0),
        (Filters(player="Ann", date_from=date(2026, 1, 10), date_to=date(2026, 1, 10)), 7),
        (Filters(player="Ann", date_from=date(2026, 1, 11)), 0),
        (Filters(player="Ann", date_to=date(2026, 1, 9)), 0),
        (Filters(player="Ann", session=2), 3),
        (Filters(player="Ann", session=2, game="razz"), 2),
    ],
)
def test_filters(con: duckdb.DuckDBPyConnection, filters: Filters, hands: int) -> None:
    assert player_stats(con, filters)["hands"].sum() == hands


def test_session_filter_needs_a_player(con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(ValueError, match="needs a player"):
        player_stats(con, Filters(session=1))
    with pytest.raises(ValueError, match=r"needs filters\.player"):
        sessions(con, Filters())


def test_pool_stats_cover_every_player(con: duckdb.DuckDBPyConnection) -> None:
    frame = player_stats(con, Filters())
    assert set(frame["player"]) == {"Ann", "Ben", "Cat", "Dan"}
    assert frame.filter(pl.col("player") == "Ann")["hands"].sum() == 7
