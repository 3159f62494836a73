"""Awkward player names on every kind of line a room prints: the per-room name tables.

A room's test gives hand templates in which `{A}` and `{B}` stand for two seated players. With
plain names the templates' lines must cover every line kind of the room's grammar that names a
player (so a kind added later without a line here fails the check); with each awkward name in
`{A}` (and the same name with " 2" after it in `{B}`, so one seated name begins the other) the
hands must read to the same play, every line known.
"""

from __future__ import annotations

from studdraw.parsers.model import Event, HandRecord
from studdraw.parsers.rooms import BY_NAME
from studdraw.parsers.text.room import TextRoom
from tests.conftest import parse_record

PLAIN = ("Alpha", "Bravo")
NAMES = [
    "PC [Mittel]",
    "[Mittel]",
    "Dr.No:",
    "Mr: [X] y",
    "a (b) c",
    "(ok)",
    'he said, "hi"',
    "J.R.",
    "31415",
    "Ümit Ça",
    "Ünïcødé 名前",
    "two  spaces",
    "x folds",
]


def text_room(room: str | TextRoom) -> TextRoom:
    """The room, given or named, as the text room it must be."""
    found = BY_NAME[room] if isinstance(room, str) else room
    assert isinstance(found, TextRoom)
    return found


def line_kinds(room: str | TextRoom, text: str) -> set[str]:
    """The kinds the room's classifier gives the lines of a hand text (plain names only)."""
    classify = text_room(room).syntax.classifier.match
    kinds = set()
    for line in text.splitlines():
        found = classify(line) if line.strip() else None
        if found is not None:
            kinds.add(found.lastgroup or "")
    return kinds


def kinds_with_a_player(room: str | TextRoom) -> frozenset[str]:
    return text_room(room).syntax.with_player


def played(record: HandRecord, rename: dict[str, str]) -> list[tuple[object, ...]]:
    def who(event: Event) -> str | None:
        return rename.get(event.player, event.player) if event.player else None

    return [
        (e.kind, who(e), e.street, e.amount, e.to, e.all_in, e.cards, e.up, e.count, e.pot, e.line)
        for e in record.events
    ]


def fill(template: str, a: str, b: str) -> str:
    return template.replace("{A}", a).replace("{B}", b)


def assert_name_reads_everywhere(room: str, template: str, name: str) -> None:
    """The hand with `name` (and `name 2`) seated reads as the hand with plain names."""
    plain = parse_record(fill(template, *PLAIN), room)
    awkward = (name, f"{name} 2")
    record = parse_record(fill(template, *awkward), room)
    assert record.problems == []
    assert [s.player for s in record.seats] == [
        dict(zip(PLAIN, awkward, strict=True)).get(s.player, s.player) for s in plain.seats
    ]
    assert played(record, {}) == played(plain, dict(zip(PLAIN, awkward, strict=True)))
    if plain.hero in PLAIN:
        assert record.hero == awkward[PLAIN.index(plain.hero)]
