"""A room is a declaration: its grammar says how its hands open (the hand start the splitters
cut at, the part holding the hand's id), and nothing about its text is kept outside it."""

from __future__ import annotations

import pytest
from lark import Lark

from studdraw.parsers.files import discover_files
from studdraw.parsers.reader import open_history
from studdraw.parsers.rooms import BY_NAME, ROOMS
from studdraw.parsers.text.lines import STARTS, Opening, rule_terminals
from studdraw.parsers.text.room import TextRoom, TokenFeed
from tests.conftest import CORPUS, SAMPLES

TEXT_ROOMS = [room for room in ROOMS if isinstance(room, TextRoom)]

GRAMMAR = r"""
start: HEADER LINE*
hand_start: HAND_NO
hand_id: HAND_NO | GAME_ID
HEADER: HAND_NO " " GAME_ID
LINE: /(?P<text>[a-z]+)/
HAND_NO: /Room (?P<room>[A-Z]) Hand #(?P<id>\d+)/
GAME_ID: /game (?P<id>\d+)/
"""


def opening_of(grammar: str) -> tuple[Opening, Lark]:
    lark = Lark(grammar, parser="lalr", lexer=TokenFeed, start=list(STARTS))
    return Opening.from_grammar(lark), lark


def test_a_grammar_says_how_its_hands_open() -> None:
    opening, lark = opening_of(GRAMMAR)
    # the hand start has no groups: the splitters join every room's into one pattern
    assert opening.hand_start == r"(?:Room (?:[A-Z]) Hand #(?:\d+))"
    assert opening.hand_ids == (r"Room (?:[A-Z]) Hand #(?P<id>\d+)", r"game (?P<id>\d+)")
    assert opening.hand_id_pattern(3) == (
        r"(?:Room (?:[A-Z]) Hand #(?P<id3>\d+))|(?:game (?P<id4>\d+))"
    )
    # the parts of the opening are no line kinds of their own
    assert [t.name for t in rule_terminals(lark, "start")] == ["HEADER", "LINE"]


def test_a_hand_id_terminal_without_the_part_id_is_refused() -> None:
    with pytest.raises(ValueError, match="no part 'id'"):
        opening_of(GRAMMAR.replace("(?P<id>\\d+)/\nGAME_ID", "(?P<number>\\d+)/\nGAME_ID"))


@pytest.mark.parametrize("room", TEXT_ROOMS, ids=lambda room: room.name)
def test_a_text_room_grammar_names_its_hand_start_and_hand_id(room: TextRoom) -> None:
    lark = room.grammar.lark
    for rule in ("hand_start", "hand_id"):
        assert rule_terminals(lark, rule), f"{room.name}'s grammar names no {rule}"
    # a hand start is the start of a hand's first line, never a line kind of its own
    starts = {t.name for t in rule_terminals(lark, "hand_start")}
    assert starts.isdisjoint(room.syntax.kinds)


def test_every_hand_starts_where_its_room_says_and_has_the_id_of_its_record() -> None:
    """Every hand of a text room in the corpus and the samples begins with its room's hand
    start, and the id read from its text without parsing is its record's."""
    checked = 0
    roots = [root for root in (CORPUS, SAMPLES) if root.is_dir()]
    for path in sorted(discover_files(roots)):
        for hand in open_history(path).hand_texts():
            room = BY_NAME.get(hand.room or "")
            if not isinstance(room, TextRoom) or hand.stray:
                continue
            assert room.hand_start.match(hand.text), (path, hand.source.line)
            parsed = room.parse(hand)
            if parsed.record is not None:
                assert room.hand_id(hand.text) == parsed.record.room_hand_id, (path, hand.text)
                checked += 1
    assert checked > 900 or not CORPUS.is_dir()


def test_the_winning_room_opens_the_hands_of_both_its_exports() -> None:
    room = BY_NAME["winning"]
    older = (
        "\ufeffGame started at: 2016/8/5 10:00:00\nGame ID: 400004011 1/2 Table (Seven Cards Stud)"
    )
    newer = "Hand #400005001 - 7Stud(Fixed Limit) - $0.10/$0.20 - 2019/07/28 17:00:00 UTC"
    assert room.hand_start.match(older) and room.hand_start.match(newer)
    assert room.hand_id(older) == "400004011"
    assert room.hand_id(newer) == "400005001"
    assert room.hand_start.match("Game ID: 400004011") is None
