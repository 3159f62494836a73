"""What the per-room tests ask of a parsed hand: one hand of a corpus file, the betting of a
street, the events of a kind, each player's net, and the fields a round trip must keep."""

from __future__ import annotations

from dataclasses import replace

from studdraw.parsers.model import Event, EventKind, HandRecord
from studdraw.parsers.reader import parse_file
from tests.conftest import corpus_file


def corpus_hand(parts: tuple[str, ...], hand_id: str) -> HandRecord:
    """The parsed hand `hand_id` of the corpus file at `parts`."""
    for parsed in parse_file(corpus_file(*parts)):
        if parsed.room_hand_id == hand_id:
            assert parsed.record is not None, parsed.problem
            return parsed.record
    raise AssertionError(f"hand {hand_id} not in {parts}")


def actions(record: HandRecord, street: int) -> list[tuple[str, str | None, int, int | None]]:
    """(kind, player, amount, to) of the betting and forced events on one street."""
    return [
        (str(e.kind), e.player, e.amount, e.to)
        for e in record.events
        if e.street == street and (e.kind.is_betting or e.kind.is_forced)
    ]


def of_kind(record: HandRecord, kind: EventKind) -> list[Event]:
    return [e for e in record.events if e.kind is kind]


def net_results(record: HandRecord) -> dict[str, int]:
    """Each player's net: collected + uncalled returned - everything put in."""
    net = dict.fromkeys(record.players, 0)
    for e in record.events:
        if e.player is None:
            continue
        if e.kind.is_forced or e.kind.is_betting:
            net[e.player] -= e.amount
        elif e.kind in (EventKind.COLLECT, EventKind.UNCALLED):
            net[e.player] += e.amount
    return net


def comparable(record: HandRecord, *, notes: bool = True) -> tuple[object, ...]:
    """Every field of a record but its place in a file (event lines, source): what a render and
    parse round trip must give back. `notes=False` for a format that does not carry them."""
    return (
        record.room,
        record.room_hand_id,
        record.game,
        record.structure,
        record.currency,
        record.scale,
        record.stakes,
        record.started_at,
        record.room_time,
        record.table,
        tuple(record.seats),
        tuple(replace(event, line=0) for event in record.events),
        record.max_seats,
        record.button,
        record.tournament,
        record.mixed,
        record.hero,
        record.total_pot,
        record.rake,
        *((tuple(record.notes),) if notes else ()),
    )
