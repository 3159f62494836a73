"""`SectionOrder` (the table of moves of a room's LALR parser) against plain Lark parsing.

The fast path must accept exactly the hands Lark accepts and fail where Lark fails, with
Lark's own error (the same token, the same expected kinds), so a hand gets the same record or
the same TXT003/TXT004 problem at the same line. Checked three ways for every text room:
random sequences of line kinds (mostly walks along the moves the grammar allows, with a wrong
kind now and then), every hand of the corpus and of the samples, and those hands edited at
random (lines dropped, repeated, swapped, moved, the hand cut short).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from functools import cache, partial
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Token
from lark.exceptions import UnexpectedToken

from studdraw.parsers.files import discover_files
from studdraw.parsers.model import HandText, ParsedHand
from studdraw.parsers.reader import open_history
from studdraw.parsers.rooms import ROOMS
from studdraw.parsers.text.lines import START
from studdraw.parsers.text.order import END, SectionOrder
from studdraw.parsers.text.room import RoomGrammar, TextRoom
from tests.conftest import CORPUS, SAMPLES

TEXT_ROOMS = [room for room in ROOMS if isinstance(room, TextRoom)]
ROOM_NAMES = [room.name for room in TEXT_ROOMS]
BY_ROOM = {room.name: room for room in TEXT_ROOMS}

Outcome = tuple[str, int | None, str | None, frozenset[str]]
"""("accepted" | "error", index of the failing token (None at the end), its kind, expected)."""


def outcome(check: Callable[[list[Any]], object], tokens: list[Any]) -> Outcome:
    """How a check ends on a token sequence, comparable across the two paths."""
    try:
        check(tokens)
    except UnexpectedToken as error:
        token = error.token
        at = next((i for i, seen in enumerate(tokens) if seen is token), None)
        return ("error", at, token.type, frozenset(error.expected))
    return ("accepted", None, None, frozenset())


def lark_check(grammar: RoomGrammar) -> Callable[[Iterable[Any]], object]:
    """Plain Lark parsing of the tokens (the reference)."""
    return partial(grammar.lark.parse, start=START)


@cache
def kinds_of(name: str) -> list[str]:
    """Every line kind of a room's grammar, and one kind no rule places."""
    return [*BY_ROOM[name].grammar.syntax.kinds, "NOT_A_KIND"]


@st.composite
def kind_walks(draw: st.DrawFn, name: str) -> list[Token]:
    """A sequence of line kinds: mostly a move Lark's parser accepts, sometimes any kind."""
    grammar = BY_ROOM[name].grammar
    parser = grammar.lark.parse_interactive(iter(()), start=START)
    tokens: list[Token] = []
    for _ in range(draw(st.integers(0, 80))):
        accepted = sorted(kind for kind in parser.accepts() if kind != END)
        if accepted and draw(st.integers(0, 9)) > 0:
            kind = draw(st.sampled_from(accepted))
        else:
            kind = draw(st.sampled_from(kinds_of(name)))
        token = Token(kind, f"line {len(tokens)}")
        tokens.append(token)
        if kind not in accepted:
            break  # the rest of the walk could not be fed to the interactive parser
        parser.feed_token(token)
    return tokens


@pytest.mark.slow  # 300 mutated hands a room, each also parsed by Lark itself
@pytest.mark.parametrize("name", ROOM_NAMES)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_table_fails_and_accepts_where_lark_does(name: str, data: st.DataObject) -> None:
    grammar = BY_ROOM[name].grammar
    tokens = data.draw(kind_walks(name))
    fresh = SectionOrder(grammar.lark)  # learning from nothing, and from what others learnt
    for order in (fresh, grammar.order):
        assert outcome(order.check, tokens) == outcome(lark_check(grammar), tokens)


def test_an_empty_hand_ends_early_as_lark_says() -> None:
    for room in TEXT_ROOMS:
        grammar = room.grammar
        expected = outcome(lark_check(grammar), [])
        assert expected[0] == "error"
        assert expected[2] == END
        assert outcome(grammar.order.check, []) == expected


# --- whole hands: records and problems ----------------------------------------------------------


class LarkOrder:
    """Plain Lark parsing in the place of a room's `SectionOrder` (whose class may be compiled,
    so its `check` cannot be patched on the instance)."""

    def __init__(self, grammar: RoomGrammar) -> None:
        self.check = lark_check(grammar)


def lark_parse(room: TextRoom, hand: HandText, monkeypatch: pytest.MonkeyPatch) -> ParsedHand:
    """The hand parsed with plain Lark checking the order of its lines."""
    with monkeypatch.context() as patch:
        order = cast(SectionOrder, LarkOrder(room.grammar))
        patch.setattr(room, "_grammar", replace(room.grammar, order=order))
        return room.parse(hand)


@cache
def real_hands() -> dict[str, list[HandText]]:
    """Every hand of a text room in the corpus and the samples."""
    hands: dict[str, list[HandText]] = {name: [] for name in ROOM_NAMES}
    roots = [root for root in (CORPUS, SAMPLES) if root.is_dir()]
    for path in sorted(discover_files(roots)):
        for hand in open_history(path).hand_texts():
            if hand.room in hands and not hand.stray and hand.problem is None:
                hands[hand.room].append(hand)
    return hands


@pytest.mark.parametrize("name", ROOM_NAMES)
def test_real_hands_read_as_with_lark(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    room = BY_ROOM[name]
    hands = real_hands()[name]
    assert hands, f"no {name} hand in the corpus or the samples"
    for hand in hands:
        assert room.parse(hand) == lark_parse(room, hand, monkeypatch)


def edited(lines: list[str], edits: Iterator[tuple[int, int, int]]) -> list[str]:
    """The lines with edits applied: (what, where, from where) with what = drop, repeat,
    swap with the next, move a line here, cut the hand short."""
    lines = list(lines)
    for what, where, source in edits:
        if not lines:
            break
        at, other = where % len(lines), source % len(lines)
        if what == 0:
            del lines[at]
        elif what == 1:
            lines.insert(at, lines[at])
        elif what == 2 and at + 1 < len(lines):
            lines[at], lines[at + 1] = lines[at + 1], lines[at]
        elif what == 3:
            lines.insert(at, lines.pop(other))
        elif what == 4:
            del lines[at:]
    return lines


@pytest.mark.parametrize("name", ROOM_NAMES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_edited_hands_read_as_with_lark(name: str, data: st.DataObject) -> None:
    hands = real_hands()[name]
    hand = data.draw(st.sampled_from(hands))
    edit = st.tuples(st.integers(0, 4), st.integers(0, 10_000), st.integers(0, 10_000))
    edits = data.draw(st.lists(edit, min_size=1, max_size=4))
    text = "\n".join(edited(hand.text.split("\n"), iter(edits)))
    changed = replace(hand, text=text)
    room = BY_ROOM[name]
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert room.parse(changed) == lark_parse(room, changed, monkeypatch)
