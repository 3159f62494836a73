"""A stored hand whose source file is gone is written back in the first format that holds it
(`pipeline/hand_text.py`): the room's own, else PokerStars', else PHH. Every parsed corpus hand
of every room, so written, reads back clean through the reader of the format its origin names,
as the same hand: the same game, stakes, seats and money, bet by bet."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from studdraw.parsers.model import EventKind, HandRecord
from studdraw.parsers.reader import parse_file
from studdraw.pipeline.hand_text import record_text
from tests.pipeline.test_phh_pokerkit import corpus_records

FORMATS = {"PHH": "phh", "PokerStars' format": "pokerstars"}
"""What an origin that names another format than the room's names (PHH's words first: its
origin also says PokerStars' format could not hold the hand)."""
SUFFIX = {"phh": ".phh", "ipoker": ".xml"}


def written_as(record: HandRecord, origin: str) -> str:
    return next((room for words, room in FORMATS.items() if words in origin), record.room)


def money(record: HandRecord) -> tuple[list[tuple[str, str, int]], ...]:
    """Every amount a player put in or took: what every format keeps of a hand. The forced
    bets as a set (PHH posts them in its own order, blinds before antes), the rest in order."""
    kinds = {EventKind.COLLECT, EventKind.UNCALLED}
    paid = [
        (str(e.kind), e.player or "", e.amount)
        for e in record.events
        if e.kind.puts_in or e.kind in kinds
    ]
    forced = {str(kind) for kind in EventKind if kind.is_forced}
    return sorted(p for p in paid if p[0] in forced), [p for p in paid if p[0] not in forced]


def facts(record: HandRecord) -> tuple[object, ...]:
    """The hand as every format keeps it: the players in it (PHH lists no one sitting out, and
    lists them from the button on, so they are compared by seat number)."""
    seats = sorted((s.seat, s.player, s.stack) for s in record.seats if not s.sitting_out)
    return (record.game, record.structure, record.stakes, record.started_at, seats, money(record))


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[HandRecord, str, Path]]:
    """Each corpus hand with the format it was written in and the file it was written to."""
    folder = tmp_path_factory.mktemp("written")
    found = []
    for number, record in enumerate(corpus_records()):
        text = record_text(record, None)
        room = written_as(record, text.origin)
        path = folder / f"hand-{number}{SUFFIX.get(room, '.txt')}"
        path.write_text(text.text, encoding="utf-8")
        found.append((record, room, path))
    return found


def test_every_room_is_written_and_each_format_is_used(
    written: list[tuple[HandRecord, str, Path]],
) -> None:
    rooms = Counter(record.room for record, _, _ in written)
    formats = Counter(room for _, room, _ in written)
    assert len(rooms) == 13
    assert {"pokerstars", "fulltilt", "ipoker", "kingsclub", "phh"} <= set(formats)


def test_every_corpus_hand_reads_back_clean_as_the_same_hand(
    written: list[tuple[HandRecord, str, Path]],
) -> None:
    wrong = []
    for record, room, path in written:
        back = list(parse_file(path))
        again = back[0].record if len(back) == 1 else None
        if again is None or again.room != room or again.problems or facts(again) != facts(record):
            wrong.append(f"{record.source.path}:{record.source.line} as {room}")
    assert wrong == []
