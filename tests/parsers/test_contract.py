"""The contract every text room keeps, checked on one handwritten hand of each room.

- a hand reads, with every event on a line of the hand;
- a hand cut short is an error at its last line (TXT004), a header amid a hand one at that
  line (TXT003);
- a line the room does not know is never read silently: a TXT001 warning kept on the record,
  which is otherwise unchanged, when it can carry neither money nor cards; a TXT002 error of the
  hand when it can (a number or a bracket);
- another room's hand pasted into a hand is an error, never swallowed;
- player names are read against the seat list: a seated name holding spaces, colons,
  brackets, parentheses, "said,", dots, digits only or any script reads the same hand.

Each room's own test file keeps its table of concrete hands.
"""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from studdraw.parsers.builder import HandBuilder, parse_local_time
from studdraw.parsers.model import Event, HandRecord, HandText, Outcome, SourceRef
from studdraw.parsers.problems import (
    Code,
    Severity,
    Stage,
)
from tests.conftest import parse_record, parse_text
from tests.parsers import (
    test_absolute,
    test_bovada,
    test_everleaf,
    test_fulltilt_handwritten,
    test_kingsclub_handwritten,
    test_ongame,
    test_partypoker,
    test_pokerstars_handwritten,
    test_winamax,
    test_winning_handwritten,
)

HANDS = {
    "pokerstars": test_pokerstars_handwritten.CURRENT_STUD,
    "fulltilt": test_fulltilt_handwritten.HI_LO_SHOWDOWN,
    "winamax": test_winamax.TOURNAMENT_STUD,
    "partypoker": test_partypoker.HI_LO,
    "bovada": test_bovada.HI_LO_BRING_IN,
    "everleaf": test_everleaf.USD_HAND,
    "winning": test_winning_handwritten.ALL_IN_HAND,
    "kingsclub": test_kingsclub_handwritten.HI_LO_ALL_IN,
    "ongame": test_ongame.BIG_BRING_IN_SHOWDOWN,
    "absolute": test_absolute.HI_LO_SHOWDOWN,
}
ROOMS = sorted(HANDS)


def lines_of(room: str) -> list[str]:
    return HANDS[room].strip("\n").split("\n")


def with_line(room: str, index: int, line: str) -> str:
    lines = lines_of(room)
    lines.insert(index, line)
    return "\n".join(lines)


def middle(room: str) -> int:
    """A place between two lines of the hand's play, past its header and seats."""
    return len(lines_of(room)) // 2


def played(record: HandRecord, rename: dict[str, str] | None = None) -> list[tuple[object, ...]]:
    """The events without their lines and free text: what the hand did."""
    names = rename or {}

    def who(event: Event) -> str | None:
        return names.get(event.player, event.player) if event.player else None

    return [
        (e.kind, who(e), e.street, e.amount, e.to, e.all_in, e.cards, e.up, e.count, e.pot)
        for e in record.events
    ]


@pytest.mark.parametrize("room", ROOMS)
def test_the_hand_reads_and_every_event_is_on_a_line_of_it(room: str) -> None:
    record = parse_record(HANDS[room], room)
    assert record.room == room
    assert record.problems == []
    lines = lines_of(room)
    for event in record.events:
        assert lines[event.line - 1].strip(), event


@pytest.mark.parametrize("room", ROOMS)
def test_a_hand_cut_short_is_an_error_at_its_last_line(room: str) -> None:
    kept = lines_of(room)[: middle(room)]
    while not kept[-1].strip():
        kept.pop()
    parsed = parse_text("\n".join(kept), room)
    assert parsed.outcome is Outcome.ERROR
    assert parsed.problem is not None
    assert (parsed.problem.code, parsed.problem.line) == (Code.TXT004, len(kept))


@pytest.mark.parametrize("room", ROOMS)
def test_an_unknown_line_without_money_or_cards_is_a_warning_on_the_record(room: str) -> None:
    index = middle(room)
    record = parse_record(with_line(room, index, "The dealer smiles"), room)
    [problem] = record.problems
    assert (problem.code, problem.severity, problem.stage, problem.line, problem.message) == (
        Code.TXT001,
        Severity.WARNING,
        Stage.PARSE,
        index + 1,
        "unknown line: 'The dealer smiles'",
    )
    assert played(record) == played(parse_record(HANDS[room], room))


@pytest.mark.parametrize("room", ROOMS)
@pytest.mark.parametrize("line", ["The dealer pays 5 to the pot", "The dealer burns [As]"])
def test_an_unknown_line_with_money_or_cards_is_an_error_of_the_hand(room: str, line: str) -> None:
    index = middle(room)
    parsed = parse_text(with_line(room, index, line), room)
    assert parsed.outcome is Outcome.ERROR
    assert parsed.problem is not None
    assert (parsed.problem.code, parsed.problem.line) == (Code.TXT002, index + 1)
    assert line in parsed.problem.message


@pytest.mark.parametrize("room", ROOMS)
def test_a_header_in_the_middle_of_a_hand_is_a_line_out_of_place(room: str) -> None:
    index = middle(room)
    parsed = parse_text(with_line(room, index, lines_of(room)[0]), room)
    assert parsed.outcome is Outcome.ERROR
    assert parsed.problem is not None
    assert (parsed.problem.code, parsed.problem.line) == (Code.TXT003, index + 1)


@pytest.mark.parametrize("room", ROOMS)
def test_another_rooms_hand_pasted_in_is_an_error(room: str) -> None:
    other = ROOMS[(ROOMS.index(room) + 1) % len(ROOMS)]
    parsed = parse_text(HANDS[room].strip("\n") + "\n\n" + HANDS[other], room)
    assert parsed.outcome is Outcome.ERROR


NAMES = [
    "PC [Mittel]",
    "Mr: [X] y",
    "a (b) c",
    'he said, "hi"',
    "Dr. No.",
    "31415",
    "Ünïcødé 名前",
    "two  spaces",
    "x folds",
]
NAMED_ROOMS = [room for room in ROOMS if room != "bovada"]  # Bovada prints seat labels only


def renamed(room: str, name: str) -> tuple[str, str]:
    """The room's hand with one seated player renamed everywhere, and the old name."""
    record = parse_record(HANDS[room], room)
    text = HANDS[room]
    for seat in record.seats:
        mentions = re.compile(rf"(?<![\w+]){re.escape(seat.player)}(?![\w+])")
        if all(mentions.search(other.player) is None for other in record.seats if other != seat):
            return mentions.sub(lambda _: name, text), seat.player
    raise AssertionError(f"no player of the {room} hand can be renamed")


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("room", NAMED_ROOMS)
def test_player_names_are_read_against_the_seat_list(room: str, name: str) -> None:
    original = parse_record(HANDS[room], room)
    if name in original.players:
        pytest.skip(f"{name!r} already sits in the {room} hand")
    text, old = renamed(room, name)
    record = parse_record(text, room)
    assert name in record.players
    assert [s.player for s in record.seats] == [
        name if s.player == old else s.player for s in original.seats
    ]
    assert played(record) == played(original, {old: name})
    assert record.problems == []


@given(st.lists(st.text(alphabet="ab [", min_size=1, max_size=4), max_size=9))
def test_the_names_another_seated_name_extends_are_known(names: list[str]) -> None:
    """The fast path of name pinning trusts a seated name unless another one extends it."""
    builder = HandBuilder(HandText("", SourceRef("<test>", 0, 1), "pokerstars"), "pokerstars")
    for name in names:
        builder.seated_name(name)
    assert builder.names == set(names)
    assert builder.prefixes == {n for n in names if any(o != n and o.startswith(n) for o in names)}


@given(
    st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2099, 12, 31)),
    st.sampled_from(["%Y/%m/%d %H:%M:%S", "%Y-%m-%d %H:%M:%S"]),
)
def test_a_padded_time_is_read_as_strptime_reads_it(moment: datetime, fmt: str) -> None:
    text = moment.replace(microsecond=0).strftime(fmt)
    assert parse_local_time(text, (fmt, "%Y/%m/%d %H:%M")) == datetime.strptime(text, fmt)


@pytest.mark.parametrize(
    "text",
    ["2019-02-30 10:00:00", "2019/13/01 10:00:00", "2019-01-01 24:00:00", "2019/01/01 10:00"],
)
def test_an_invalid_time_is_refused_alike_on_both_paths(text: str) -> None:
    formats = ("%Y-%m-%d %H:%M:%S", "%Y/%m/%d %H:%M:%S")
    with pytest.raises(ValueError, match=re.escape(f"unreadable date/time {text!r}")):
        parse_local_time(text, formats if "-" in text else formats[::-1])
