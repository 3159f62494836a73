"""The filters on a seat's facts (position, door card, starting-hand group) select exactly the
seats that had them: synthesised stud and 2-7 triple draw hands at every table size, imported,
against what the hand records themselves say, worked out here in Python from the deal, the
blinds and the button (never by the SQL under test)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import duckdb
import pytest

from studdraw.parsers.model import EventKind, Game, HandRecord
from studdraw.pipeline.analytics import (
    Filters,
    assess,
    door_cards,
    hourly,
    open_store,
    player_stats,
    results_over_time,
    sessions,
    starting_hands,
    tournament_results,
)
from studdraw.pipeline.analytics.features import (
    DOOR_RANKS,
    DRAW_POSITIONS,
    POSITIONS,
    START_GROUPS,
    STUD_POSITIONS,
)
from studdraw.pipeline.analytics.filters import where
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from studdraw.pipeline.synth import SynthOptions, render, synthesize

HERO = "Hero"
HANDS = 120
GAMES = {Game.STUD: (2, 8), Game.TD27: (2, 6)}
"""The games dealt, each at every table size from heads-up to a full table."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One player dealt into one hand, as the record says."""

    hand: str
    game: str
    player: str
    position: str | None
    door: str | None
    start_group: str | None


def stud_group(cards: tuple[str, str, str]) -> str:
    """Stud's starting-hand group of the two down cards and the door card, as docs/stats.md
    defines it."""
    ranks = ["23456789TJQKA".index(card[0]) + 2 for card in cards]
    door = ranks[2]
    if len(set(ranks)) == 1:
        return "rolled up"
    if len(set(ranks)) == 2:
        return "split pair" if ranks.count(door) == 2 else "buried pair"
    if len({card[1] for card in cards}) == 1:
        return "three-flush"
    low = [1 if rank == 14 else rank for rank in ranks]
    if max(ranks) - min(ranks) <= 4 or max(low) - min(low) <= 4:
        return "three-straight"
    return "other"


def stud_seats(record: HandRecord) -> list[Seat]:
    """Positions from the bring-in: the first to act on 3rd street, by bringing in or by
    completing (none when no one can bet: every seat but one all-in on the ante)."""
    order = [seat.player for seat in sorted(record.seats, key=lambda s: s.seat)]
    third: dict[str, tuple[str, ...]] = {}
    for event in record.events:
        if event.kind is EventKind.DEAL and event.street == 0 and event.player:
            third[event.player] = tuple(card or "" for card in event.cards)
    opener = next(
        (
            event.player
            for event in record.events
            if event.street == 0 and event.kind in (EventKind.BRING_IN, EventKind.COMPLETE)
        ),
        None,
    )
    n = len(order)
    seats = []
    for name in order:
        position = None
        if opener is not None:
            k = (order.index(name) - order.index(opener)) % n
            position = "bring-in" if k == 0 else "early" if k <= n // 2 else "late"
        cards = third[name]
        group = stud_group((cards[0], cards[1], cards[2])) if name == HERO else None
        seats.append(Seat(record.room_hand_id, "stud", name, position, cards[2][0], group))
    return seats


def draw_seats(record: HandRecord) -> list[Seat]:
    """Positions from the button and the blinds posted."""
    order = [seat.player for seat in sorted(record.seats, key=lambda s: s.seat)]
    button = next(seat.player for seat in record.seats if seat.seat == record.button)
    posted = {
        event.player: event.kind
        for event in record.events
        if event.kind in (EventKind.SMALL_BLIND, EventKind.BIG_BLIND)
    }
    n = len(order)
    seats = []
    for name in order:
        k = (order.index(name) - order.index(button)) % n
        position = (
            "button"
            if k == 0
            else "small blind"
            if posted.get(name) is EventKind.SMALL_BLIND
            else "big blind"
            if posted.get(name) is EventKind.BIG_BLIND
            else "cutoff"
            if k == n - 1
            else "early"
            if k - 2 <= (n - 3) // 2
            else "middle"
        )
        seats.append(Seat(record.room_hand_id, "td27", name, position, None, None))
    return seats


@pytest.fixture(scope="module")
def dealt(tmp_path_factory: pytest.TempPathFactory) -> tuple[duckdb.DuckDBPyConnection, list[Seat]]:
    folder = tmp_path_factory.mktemp("seat-filters")
    seats: list[Seat] = []
    for number, (game, (low, high)) in enumerate(GAMES.items()):
        options = SynthOptions(
            game=game, hands=HANDS, min_players=low, max_players=high, seed=40 + number
        )
        records = list(synthesize(options))
        assert all(not seat.sitting_out for record in records for seat in record.seats)
        (folder / f"{game}.txt").write_text(
            "".join(render(record, options.room) + "\n\n\n" for record in records),
            encoding="utf-8",
        )
        for record in records:
            seats += stud_seats(record) if game is Game.STUD else draw_seats(record)
    summary = ingest([folder], IngestOptions(folder / "s.duckdb", workers=1))
    assert summary.stored == HANDS * len(GAMES) and summary.with_errors == 0
    return open_store(folder / "s.duckdb"), seats


def hands_per_player(con: duckdb.DuckDBPyConnection, filters: Filters) -> Counter[str]:
    frame = player_stats(con, filters)
    counts: Counter[str] = Counter()
    for row in frame.iter_rows(named=True):
        counts[row["player"]] += row["hands"]
    return counts


def test_every_table_size_gives_every_position(
    dealt: tuple[duckdb.DuckDBPyConnection, list[Seat]],
) -> None:
    _, seats = dealt
    sizes = Counter((s.game, s.hand) for s in seats)
    for game, (low, high) in GAMES.items():
        assert {n for (dealt_game, _), n in sizes.items() if dealt_game == game} == set(
            range(low, high + 1)
        )
    assert {s.position for s in seats if s.game == "stud"} - {None} == set(STUD_POSITIONS)
    assert {s.position for s in seats if s.game == "td27"} == set(DRAW_POSITIONS)


@pytest.mark.parametrize("position", POSITIONS)
def test_position_selects_the_seats_that_had_it(
    dealt: tuple[duckdb.DuckDBPyConnection, list[Seat]], position: str
) -> None:
    con, seats = dealt
    expected = Counter(s.player for s in seats if s.position == position)
    assert expected  # every group is dealt, so each check can fail
    assert hands_per_player(con, Filters(position=position)) == expected
    mine = {s.hand for s in seats if s.position == position and s.player == HERO}
    found = results_over_time(con, Filters(player=HERO, position=position))
    assert set(found.get_column("room_hand_id").to_list()) == mine


@pytest.mark.parametrize("door", DOOR_RANKS)
def test_door_selects_the_seats_showing_that_rank(
    dealt: tuple[duckdb.DuckDBPyConnection, list[Seat]], door: str
) -> None:
    con, seats = dealt
    expected = Counter(s.player for s in seats if s.door == door)
    assert expected
    assert hands_per_player(con, Filters(door=door)) == expected
    per_rank = door_cards(con, Filters(door=door))
    assert per_rank.get_column("door_rank").to_list() == [door]
    assert per_rank.get_column("dealt").sum() == expected.total()


def test_start_group_selects_the_heros_hands_of_that_group(
    dealt: tuple[duckdb.DuckDBPyConnection, list[Seat]],
) -> None:
    con, seats = dealt
    groups = Counter(s.start_group for s in seats if s.start_group is not None)
    assert len(groups) >= 4, groups  # enough groups dealt for the check to mean something
    for group in START_GROUPS:
        mine = {s.hand for s in seats if s.start_group == group}
        found = results_over_time(con, Filters(player=HERO, start_group=group))
        assert set(found.get_column("room_hand_id").to_list()) == mine, group
        table = starting_hands(con, Filters(player=HERO, start_group=group))
        assert table.get_column("dealt").sum() == len(mine)


def test_the_filters_combine(dealt: tuple[duckdb.DuckDBPyConnection, list[Seat]]) -> None:
    con, seats = dealt
    expected = Counter(s.player for s in seats if s.position == "late" and s.door in "AK")
    found = hands_per_player(con, Filters(position="late", door="A"))
    found += hands_per_player(con, Filters(position="late", door="K"))
    assert found == expected
    none = hands_per_player(con, Filters(game="td27", door="A"))
    assert none == Counter()  # draw games have no door card


def test_sessions_hourly_leaks_and_tournaments_take_them(
    dealt: tuple[duckdb.DuckDBPyConnection, list[Seat]],
) -> None:
    con, seats = dealt
    filters = Filters(player=HERO, position="early")
    mine = sum(1 for s in seats if s.player == HERO and s.position == "early")
    assert sessions(con, filters).get_column("hands").sum() == mine
    assert hourly(con, filters).get_column("hands").sum() == mine
    judged = assess(con, filters)
    assert judged.height and judged.get_column("low").is_null().all()  # the pool judges alone
    assert tournament_results(con, filters).is_empty()  # cash hands only
    whole = assess(con, Filters(player=HERO, table_size="full ring", game="stud"))
    assert whole.get_column("low").is_not_null().any()


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("position", "utg", "position must be one of early, middle, cutoff"),
        ("door", "1", "door must be one of A, K, Q, J, T"),
        ("start_group", "pair", "start_group must be one of rolled up"),
    ],
)
def test_a_bad_value_says_what_is_allowed(field: str, value: str, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        Filters(**{field: value})  # type: ignore[arg-type]


def test_seat_facts_need_the_per_hand_rows() -> None:
    filters = Filters(position="button")
    assert filters.needs_hands and filters.by_seat and not Filters().by_seat
    with pytest.raises(ValueError, match="rollup rows"):
        where(filters, by_day=True)
