"""Awkward player names on every line kind, room by room.

The table of each room is its handwritten line-form hands (tests/parsers/forms/<room>/), which
together hold every line kind of the room's grammar that names a player (checked first). Each
seated player of each hand is renamed in turn to each awkward name of `NAMES` (spaces, colons,
brackets, parentheses, "said,", dots, digits only, other scripts, a verb): the renamed hand must
read to the same events, seats and problems, with the new name wherever the old one stood.
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from studdraw.parsers.model import Event, HandRecord
from studdraw.parsers.rooms import BY_NAME
from studdraw.parsers.text.room import TextRoom
from tests.conftest import parse_text
from tests.forms_manifest import parsed_hands
from tests.parsers import test_contract

NAMES = [*test_contract.NAMES, "Dr.No:"]  # the contract's names, and one ending in a colon
ROOMS = ["everleaf", "fulltilt", "partypoker"]
_PLAIN_NAME = re.compile(r"\w+")


@cache
def hand_texts(room: str) -> tuple[str, ...]:
    """The room's handwritten hands that read, as texts."""
    return tuple(
        parsed.hand.text for parsed in parsed_hands(room).values() if parsed.record is not None
    )


def kinds_named(room: str, text: str) -> set[str]:
    """The line kinds of a hand's lines that name a player, as the classifier reads them."""
    syntax = BY_NAME[room].syntax
    found = (syntax.classifier.match(line) for line in text.split("\n"))
    return {match.lastgroup for match in found if match and match.lastgroup in syntax.with_player}


def played(record: HandRecord, rename: dict[str, str]) -> list[tuple[object, ...]]:
    def who(event: Event) -> str | None:
        return rename.get(event.player, event.player) if event.player else None

    return [
        (e.kind, who(e), e.street, e.amount, e.to, e.all_in, e.cards, e.up, e.count, e.pot)
        for e in record.events
    ]


@pytest.mark.parametrize("room", ROOMS)
def test_the_rooms_hands_name_a_player_on_every_line_kind(room: str) -> None:
    text_room = BY_NAME[room]
    assert isinstance(text_room, TextRoom)
    seen = set().union(*(kinds_named(room, text) for text in hand_texts(room)))
    assert text_room.syntax.with_player - seen == set()


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("room", ROOMS)
def test_awkward_names_read_on_every_line_kind(room: str, name: str) -> None:
    renamed_somewhere = 0
    for text in hand_texts(room):
        original = parse_text(text, room).record
        assert original is not None
        for seat in original.seats:
            old = seat.player
            if not _PLAIN_NAME.fullmatch(old) or name in original.players:
                continue  # only plain names can be found and replaced in the text
            mentions = re.compile(rf"(?<![\w+]){re.escape(old)}(?![\w+])")
            parsed = parse_text(mentions.sub(lambda _: name, text), room)
            where = f"{old} -> {name!r} in {room} hand {original.room_hand_id}"
            assert parsed.record is not None, f"{where}: {parsed.problem}"
            record = parsed.record
            assert [s.player for s in record.seats] == [
                name if s.player == old else s.player for s in original.seats
            ], where
            assert played(record, {}) == played(original, {old: name}), where
            assert record.problems == original.problems, where
            renamed_somewhere += 1
    assert renamed_somewhere > 0
