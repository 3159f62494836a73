"""PHH files written by hand, one field each (tests/parsers/phh_files/fields), and hands in the
style of pokerkit's own data (phh_files/external: a final table's stud, razz, stud hi/lo, 2-7
triple and single draw, with `finishing_stacks` and no `winnings`, a big-blind ante, side
pots): each field is read, each result checked against the play, every external hand stores
the nets pokerkit gives (pokerkit replays the same file to its finishing stacks), and a hand
read, written out as PHH and read again keeps its money."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Final

import duckdb
import pytest
from pokerkit import HandHistory

from studdraw.parsers.model import EventKind, Game, HandRecord, ParsedHand, Structure
from studdraw.parsers.problems import Code
from studdraw.parsers.reader import parse_file
from studdraw.parsers.rooms.phh import PHH
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from studdraw.pipeline.phh import dumps
from studdraw.pipeline.rules import ReplayResult, replay
from tests.parsers.test_phh import phh_hand

FILES: Final = Path(__file__).parent / "phh_files"
FIELDS: Final = FILES / "fields"
EXTERNAL: Final = sorted((FILES / "external").glob("*.phh"))
PHH_ROOM: Final = PHH()


def read(path: Path) -> list[ParsedHand]:
    return list(parse_file(path))


def record_of(name: str) -> HandRecord:
    [parsed] = read(FIELDS / name)
    assert parsed.record is not None, parsed.problem
    return parsed.record


def codes(record: HandRecord) -> list[Code]:
    return [problem.code for problem in [*record.problems, *replay(record).problems]]


def finals(record: HandRecord, result: ReplayResult) -> list[int]:
    """Each player's stack at the end, in PHH order (the record's seat order here)."""
    nets = {player.player: player.net for player in result.players}
    return [seat.stack + nets[seat.player] for seat in record.seats]


def pokerkit_finals(path: Path) -> list[int]:
    """The stacks pokerkit ends the file's hand with (it plays the hand out itself: it reads
    no `winnings` and no `finishing_stacks`)."""
    *_, state = iter(HandHistory.loads(path.read_text(encoding="utf-8")))
    return [int(stack) for stack in state.stacks]


def posts(record: HandRecord) -> list[tuple[EventKind, str | None, int]]:
    return [(e.kind, e.player, e.amount) for e in record.events if e.kind.is_forced]


def collects(record: HandRecord) -> list[tuple[str | None, str | None, int]]:
    return [(e.player, e.pot, e.amount) for e in record.events if e.kind is EventKind.COLLECT]


# -- external hands: finishing stacks, no winnings ------------------------------------------


@pytest.mark.parametrize("path", EXTERNAL, ids=lambda path: path.stem)
def test_an_external_hand_stores_the_nets_pokerkit_gives(path: Path) -> None:
    [parsed] = read(path)
    record = parsed.record
    assert record is not None, parsed.problem
    assert record.game in (Game.STUD, Game.RAZZ, Game.STUD8, Game.TD27, Game.SD27)
    result = replay(record)
    assert [problem.code for problem in [*record.problems, *result.problems]] == []
    assert result.rake == 0  # a tournament's chips: every pot goes to a player
    stated = [int(value) for value in _field(path, "finishing_stacks")]
    assert finals(record, result) == stated == pokerkit_finals(path)
    assert record.tournament is not None and record.tournament.level is not None
    assert record.currency == "CHIPS"
    hand = tomllib.loads(path.read_text(encoding="utf-8"))["hand"]
    assert f"PHH hand: {hand}" in record.notes  # what the store has no column for


def _field(path: Path, key: str) -> list[int]:
    value = tomllib.loads(path.read_text(encoding="utf-8"))[key]
    assert isinstance(value, list)
    return value


def test_the_external_hands_store_no_rake_and_every_net(tmp_path: Path) -> None:
    """Through the store, as `studdraw ingest` writes it: no chip of any pot is rake, and the
    nets are the finishing stacks less the starting ones."""
    db = tmp_path / "external.duckdb"
    ingest([FILES / "external"], IngestOptions(db, workers=1))
    con = duckdb.connect(str(db), read_only=True)
    try:
        [(hands, rake, errors)] = con.execute(
            "SELECT count(*), sum(rake), sum(errors) FROM hands"
        ).fetchall()
        nets = con.execute(
            "SELECT h.source_path, p.seat, p.net FROM hand_players p JOIN hands h USING (hand_id)"
        ).fetchall()
    finally:
        con.close()
    assert (hands, rake, errors) == (len(EXTERNAL), 0, 0)
    expected = {}
    for path in EXTERNAL:
        starts = _field(path, "starting_stacks")
        ends = _field(path, "finishing_stacks")
        for seat, (start, end) in enumerate(zip(starts, ends, strict=True), 1):
            expected[(path.name, seat)] = end - start
    assert {(Path(source).name, seat): net for source, seat, net in nets} == expected


def test_a_big_blind_ante_is_no_missing_ante_and_is_dead_money() -> None:
    [parsed] = read(FILES / "external" / "single_draw.phh")
    record = parsed.record
    assert record is not None
    antes = [(player, amount) for kind, player, amount in posts(record) if kind is EventKind.ANTE]
    assert antes == [("Jeremy Ausmus", 150000)]  # p2, the big blind, antes for the table
    # The short all-in player wins the main pot, antes included (pokerkit's nets prove it).
    assert collects(record) == [("Dan Shak", "main", 1625000), ("Brian Rast", "side1", 1450000)]


def test_a_missing_ante_in_a_draw_game_is_still_str008() -> None:
    """One player's ante is a table's only from the big blind or the button: two antes of
    three players leave the third's missing."""
    text = (FIELDS / "antes_button.phh").read_text(encoding="utf-8")
    parsed = PHH_ROOM.parse(phh_hand(text.replace("antes = [0, 0, 0, 8]", "antes = [8, 0, 8, 8]")))
    assert parsed.record is not None
    assert Code.STR008 in codes(parsed.record)
    parsed = PHH_ROOM.parse(phh_hand(text.replace("antes = [0, 0, 0, 8]", "antes = [0, 0, 8, 0]")))
    assert parsed.record is not None
    assert codes(parsed.record).count(Code.STR008) == 3  # p3 is neither blind nor button


# -- each field ------------------------------------------------------------------------------


def _antes_button(record: HandRecord) -> None:
    assert posts(record)[0] == (EventKind.ANTE, "p4", 8)
    assert record.button == record.seats[-1].seat


def _antes_big_blind_heads_up(record: HandRecord) -> None:
    # heads-up, PHH's lists are reversed: the second entry is p1's, and p1 is the big blind
    assert posts(record) == [
        (EventKind.ANTE, "p1", 2),
        (EventKind.BIG_BLIND, "p1", 2),
        (EventKind.SMALL_BLIND, "p2", 1),
    ]


def _antes_uniform(record: HandRecord) -> None:
    assert posts(record) == [
        (EventKind.ANTE, "p1", 5),
        (EventKind.ANTE, "p2", 5),
        (EventKind.ANTE, "p3", 5),
        (EventKind.BRING_IN, "p2", 10),
    ]
    assert (record.stakes.ante, record.stakes.bring_in, record.stakes.small_bet) == (5, 10, 20)


def _straddle(record: HandRecord) -> None:
    # a live post of its size, a straddle to the rules engine (the file replays clean)
    assert posts(record)[2] == (EventKind.POST, "p3", 4)
    assert next(e.to for e in record.events if e.kind is EventKind.POST) == 4


def _min_bet(record: HandRecord) -> None:
    assert (record.structure, record.stakes.small_bet, record.stakes.big_bet) == (
        Structure.NO,
        50,
        50,
    )


def _seats(record: HandRecord) -> None:
    assert [(s.seat, s.player, s.stack) for s in record.seats] == [
        (2, "Ann", 1000),
        (5, "Bo", 1200),
        (6, "Cy", 800),
    ]
    assert (record.max_seats, record.table, record.button) == (6, "Badugi 3", 6)


def _currency(record: HandRecord) -> None:
    assert (record.currency, record.scale) == ("USD", 100)
    assert record.seats[1].stack == 3175
    result = replay(record)
    assert (result.total_pot, result.rake) == (225, 10)  # the winnings are after rake
    assert record.tournament is None and "PHH event: A cash game night" in record.notes


def _time_zone(record: HandRecord) -> None:
    assert record.started_at == datetime(2024, 1, 1, 4, 15, tzinfo=UTC)
    assert record.room_time == "2023-12-31 23:15:00 America/Toronto"


def _time_place(record: HandRecord) -> None:
    assert record.started_at == datetime(2023, 7, 2, 14, 0, tzinfo=UTC)
    assert any("Las Vegas, Nevada" in note and "UTC" in note for note in record.notes)


def _event_level(record: HandRecord) -> None:
    assert record.tournament is not None
    assert (record.tournament.tournament_id, record.tournament.level) == (
        "Sunday Stud Eight Deepstack",
        "4",
    )
    assert record.rake == 0


def _winnings_side_pot(record: HandRecord) -> None:
    assert collects(record) == [("p3", "main", 60), ("p1", "side1", 100)]


def _results_disagree(record: HandRecord) -> None:
    [problem] = record.problems
    assert problem.code is Code.PHH001 and problem.line == 1
    assert "p1 finishes with 540" in problem.message
    assert collects(record) == [("p1", "main", 45)]  # the winnings stand


def _no_result_fold(record: HandRecord) -> None:
    assert collects(record) == [("p3", "main", 50)]  # the blinds and the matched part of p3's raise
    assert record.problems == []


def _no_result_showdown(record: HandRecord) -> None:
    assert [p.code for p in record.problems] == [Code.PHH002]
    assert collects(record) == [] and record.rake == 0  # never booked as rake


def _user_fields(record: HandRecord) -> None:
    assert record.problems == [] and not any("_" in note for note in record.notes)


FIELD_CHECKS: Final[dict[str, Callable[[HandRecord], None]]] = {
    "antes_button.phh": _antes_button,
    "antes_big_blind_heads_up.phh": _antes_big_blind_heads_up,
    "antes_uniform.phh": _antes_uniform,
    "straddle.phh": _straddle,
    "min_bet.phh": _min_bet,
    "seats.phh": _seats,
    "currency.phh": _currency,
    "time_zone.phh": _time_zone,
    "time_place.phh": _time_place,
    "event_level.phh": _event_level,
    "winnings_side_pot.phh": _winnings_side_pot,
    "results_disagree.phh": _results_disagree,
    "no_result_fold.phh": _no_result_fold,
    "no_result_showdown.phh": _no_result_showdown,
    "user_fields.phh": _user_fields,
}
CLEAN: Final = frozenset(FIELD_CHECKS) - {
    "results_disagree.phh",
    "no_result_showdown.phh",
}


def test_every_field_file_has_its_check() -> None:
    assert {path.name for path in FIELDS.glob("*.phh")} == set(FIELD_CHECKS)


@pytest.mark.parametrize("name", sorted(FIELD_CHECKS))
def test_each_field_is_read(name: str) -> None:
    record = record_of(name)
    FIELD_CHECKS[name](record)
    if name in CLEAN:
        assert codes(record) == []


@pytest.mark.parametrize("name", sorted(CLEAN - {"currency.phh", "winnings_side_pot.phh"}))
def test_a_field_file_replays_to_pokerkits_stacks(name: str) -> None:
    """pokerkit takes no rake and reads no winnings: the files whose result it can play out."""
    record = record_of(name)
    assert finals(record, replay(record)) == pokerkit_finals(FIELDS / name)


def test_a_side_pot_of_winnings_matches_pokerkit() -> None:
    record = record_of("winnings_side_pot.phh")
    assert finals(record, replay(record)) == pokerkit_finals(FIELDS / "winnings_side_pot.phh")


def test_a_phhs_file_is_a_hand_per_table() -> None:
    parsed = read(FIELDS / "two_hands.phhs")
    assert [p.record is not None for p in parsed] == [True, True]
    assert [collects(p.record) for p in parsed if p.record] == [
        [("p1", "main", 2)],
        [("p1", "main", 6)],
    ]


@pytest.mark.parametrize(
    "path",
    [*EXTERNAL, *(FIELDS / name for name in sorted(FIELD_CHECKS))],
    ids=lambda path: path.stem,
)
def test_out_and_in_again_keeps_the_money(path: Path) -> None:
    """A hand read from PHH, written as PHH and read again: the same events, the same nets."""
    [parsed] = read(path)
    assert parsed.record is not None
    again = PHH_ROOM.parse(phh_hand(dumps(parsed.record)))
    assert again.record is not None, again.problem
    money = {EventKind.COLLECT, EventKind.UNCALLED} | {k for k in EventKind if k.puts_in}
    first, second = parsed.record, again.record
    assert [(e.kind, e.player, e.amount, e.to) for e in second.events if e.kind in money] == [
        (e.kind, e.player, e.amount, e.to) for e in first.events if e.kind in money
    ]
    assert [(p.player, p.net) for p in replay(second).players] == [
        (p.player, p.net) for p in replay(first).players
    ]
    assert (second.rake, second.tournament, second.started_at) == (
        first.rake,
        first.tournament,
        first.started_at,
    )


def test_an_unknown_stack_is_a_parse_error_with_its_line() -> None:
    """PHH allows `inf` for an unknown stack; studdraw cannot replay money it does not know."""
    text = (FIELDS / "antes_uniform.phh").read_text(encoding="utf-8")
    parsed = PHH_ROOM.parse(phh_hand(text.replace("[500, 500, 500]", "[inf, 500, 500]")))
    assert parsed.record is None and parsed.problem is not None
    assert parsed.problem.code is Code.PRS001


def test_a_list_of_the_wrong_length_is_a_parse_error() -> None:
    text = (FIELDS / "antes_uniform.phh").read_text(encoding="utf-8")
    parsed = PHH_ROOM.parse(phh_hand(text.replace("[530, 485, 485]", "[530, 485]")))
    assert parsed.problem is not None and "finishing_stacks" in parsed.problem.message


def test_decimal_results_set_the_scale() -> None:
    text = (FIELDS / "antes_uniform.phh").read_text(encoding="utf-8")
    parsed = PHH_ROOM.parse(phh_hand(text.replace("[530, 485, 485]", "[530.5, 484.5, 485]")))
    assert parsed.record is not None and parsed.record.scale == 10
    assert Decimal(parsed.record.seats[0].stack) / parsed.record.scale == 500
    assert Code.PHH001 in codes(parsed.record)
