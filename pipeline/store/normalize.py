"""Normalize: replayed hands, rejects and unsupported hands -> Arrow rows per table.

Pure functions of their input, so they run in an import's worker processes, in Dask tasks, or in
a test alike. Each table is built column by column over the whole batch (one list comprehension
per column, no per-row dicts): that keeps normalization a small share of an import's time.

`hand_id` is batch-local here (0..n-1 in input order); the writer shifts it to the store's next
free id (`shift_hand_ids`) so ids stay dense and identical in DuckDB and Parquet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter
from typing import Final

import pyarrow as pa
import pyarrow.compute as pc

from studdraw.parsers.model import Event, HandRecord, HandText, Seat
from studdraw.parsers.problems import Code, Problem, Stage
from studdraw.pipeline.rules import ReplayResult

from .schema import (
    ACTIONS,
    HAND_PLAYERS,
    HAND_TABLES,
    HANDS,
    PLAYER_STREETS,
    POTS,
    REJECTS,
    STREETS,
    UNSUPPORTED,
    VIOLATIONS,
    TableDef,
)

AMOUNT_BOUND: Final = (1 << 63) // 1024
"""The largest amount stored, in smallest units: sums of a hand's amounts (pots, nets) must stay
within DuckDB's 64-bit integers, and no real stake comes near (9 * 10**15 cents)."""

Tables = dict[str, pa.Table]
"""Rows per table name (a table may hold several chunks, never copied to join them)."""


@dataclass(slots=True, frozen=True)
class Replayed:
    """A parsed hand with its replay, ready to store."""

    record: HandRecord
    result: ReplayResult
    content_hash: int
    import_id: int


@dataclass(slots=True, frozen=True)
class Reject:
    """A hand that is kept as text only (`kind`: parse_error, changed, internal_error,
    stray_text), the row of `rejects`."""

    hand: HandText
    room_hand_id: str | None
    content_hash: int
    kind: str
    reason: str
    error_line: int | None
    import_id: int


@dataclass(slots=True, frozen=True)
class Unsupported:
    hand: HandText
    room_hand_id: str | None
    content_hash: int
    game_label: str | None
    reason: str
    import_id: int


def _batch(table: TableDef, columns: Sequence[Sequence[object]]) -> pa.Table:
    schema = table.arrow
    arrays = [
        pa.array(values, type=field.type) for values, field in zip(columns, schema, strict=True)
    ]
    return pa.Table.from_arrays(arrays, schema=schema)


def _get(name: str, items: Sequence[object]) -> list[object]:
    """A column of interpreted objects (the replay's results, the problems). The hand record's
    classes (model.py) are compiled with this module: their columns are comprehensions over
    typed lists, each field read from the object's struct, where `attrgetter` goes through the
    class's descriptor (the actions' columns, 50 a hand: docs/scaling.md)."""
    return list(map(attrgetter(name), items))


def normalize_hands(hands: Sequence[Replayed]) -> Tables:
    """The seven hand tables of a batch of replayed hands, `hand_id` numbered from 0."""
    records = [hand.record for hand in hands]
    results = [hand.result for hand in hands]
    return {
        HANDS.name: _hands(hands, records, results),
        HAND_PLAYERS.name: _hand_players(records, results),
        ACTIONS.name: _actions(records, results),
        STREETS.name: _streets(results),
        PLAYER_STREETS.name: _player_streets(results),
        POTS.name: _pots(results),
        VIOLATIONS.name: _violations(records, results),
    }


def _repeat_ids(sizes: Sequence[int]) -> list[int]:
    return [i for i, size in enumerate(sizes) for _ in range(size)]


def _hands(
    hands: Sequence[Replayed], records: list[HandRecord], results: list[ReplayResult]
) -> pa.Table:
    stakes = [r.stakes for r in records]
    tours = [r.tournament for r in records]
    sources = [r.source for r in records]
    errors = [
        sum(p.severity == "error" for p in res.problems)
        + sum(p.severity == "error" for p in r.problems)  # the reader's (a PHH file's PHH001)
        for r, res in zip(records, results, strict=True)
    ]
    warnings = [
        len(res.problems) + len(r.problems) - n
        for r, res, n in zip(records, results, errors, strict=True)
    ]
    return _batch(
        HANDS,
        [
            range(len(records)),
            [r.room for r in records],
            [r.room_hand_id for r in records],
            _get("content_hash", hands),
            [r.game for r in records],
            [r.structure for r in records],
            [s.small_bet for s in stakes],
            [s.big_bet for s in stakes],
            [s.ante for s in stakes],
            [s.bring_in for s in stakes],
            [s.small_blind for s in stakes],
            [s.big_blind for s in stakes],
            [r.currency for r in records],
            [r.scale for r in records],
            [t.tournament_id if t else None for t in tours],
            [t.buy_in if t else None for t in tours],
            [t.fee if t else None for t in tours],
            [t.currency if t else None for t in tours],
            [t.level if t else None for t in tours],
            [r.mixed for r in records],
            [r.table for r in records],
            [r.max_seats for r in records],
            [r.button for r in records],
            [r.started_at for r in records],
            [r.room_time for r in records],
            [len(res.players) for res in results],
            _get("total_pot", results),
            _get("rake", results),
            [r.total_pot for r in records],
            [r.rake for r in records],
            [n == 0 for n in errors],
            errors,
            warnings,
            [r.hero for r in records],
            [r.notes or None for r in records],
            [s.path for s in sources],
            [s.offset for s in sources],
            [s.line for s in sources],
            _get("import_id", hands),
            [r.runs for r in records],
        ],
    )


def _hand_players(records: list[HandRecord], results: list[ReplayResult]) -> pa.Table:
    seats: list[Seat] = list(chain.from_iterable(r.seats for r in records))
    hand_ids = _repeat_ids([len(r.seats) for r in records])
    heroes = [records[i].hero for i in hand_ids]
    by_name = [{p.player: p for p in res.players} for res in results]
    played = [by_name[i].get(seat.player) for i, seat in zip(hand_ids, seats, strict=True)]
    cards = [p.cards if p else None for p in played]
    return _batch(
        HAND_PLAYERS,
        [
            hand_ids,
            [seat.seat for seat in seats],
            [seat.player for seat in seats],
            [seat.stack for seat in seats],
            [seat.sitting_out for seat in seats],
            [p is not None for p in played],
            cards,
            [p.up if p else None for p in played],
            [len(c) - c.count(None) if c else 0 for c in cards],
            [p.invested if p else 0 for p in played],
            [p.collected if p else 0 for p in played],
            [p.net if p else 0 for p in played],
            [p.showed if p else False for p in played],
            [p.won if p else False for p in played],
            [p.position if p else None for p in played],
            [seat.player == hero for seat, hero in zip(seats, heroes, strict=True)],
        ],
    )


def _actions(records: list[HandRecord], results: list[ReplayResult]) -> pa.Table:
    events: list[Event] = list(chain.from_iterable(r.events for r in records))
    sizes = [len(r.events) for r in records]
    return _batch(
        ACTIONS,
        [
            _repeat_ids(sizes),
            [i for size in sizes for i in range(size)],
            [e.street for e in events],
            [e.player for e in events],
            [e.kind for e in events],
            [e.amount for e in events],
            [e.to for e in events],
            [e.all_in for e in events],
            list(chain.from_iterable(res.pot_before for res in results)),
            [e.cards or None for e in events],
            [e.up or None for e in events],
            [e.count for e in events],
            [e.pot for e in events],
            [e.text for e in events],
            [e.line for e in events],
            [e.run for e in events],
        ],
    )


def _streets(results: list[ReplayResult]) -> pa.Table:
    streets = list(chain.from_iterable(res.streets for res in results))
    return _batch(
        STREETS,
        [
            _repeat_ids([len(res.streets) for res in results]),
            _get("street", streets),
            _get("name", streets),
            _get("pot_start", streets),
            _get("pot_end", streets),
            _get("players_in", streets),
            _get("bets", streets),
            _get("raises", streets),
            _get("completions", streets),
            _get("first_actor", streets),
        ],
    )


def _player_streets(results: list[ReplayResult]) -> pa.Table:
    per_hand = [[p for street in res.streets for p in street.players] for res in results]
    rows = list(chain.from_iterable(per_hand))
    return _batch(
        PLAYER_STREETS,
        [
            _repeat_ids([len(hand) for hand in per_hand]),
            _get("street", rows),
            _get("player", rows),
            _get("cards", rows),
            _get("up", rows),
            _get("put_in", rows),
            _get("actions", rows),
            _get("folded", rows),
            _get("all_in", rows),
            _get("drawn", rows),
        ],
    )


def _pots(results: list[ReplayResult]) -> pa.Table:
    pots = list(chain.from_iterable(res.pots for res in results))
    sizes = [len(res.pots) for res in results]
    return _batch(
        POTS,
        [
            _repeat_ids(sizes),
            [i for size in sizes for i in range(size)],
            _get("name", pots),
            _get("half", pots),
            _get("amount", pots),
            _get("collected", pots),
            _get("eligible", pots),
            _get("winners", pots),
            _get("run", pots),
        ],
    )


def _violations(records: list[HandRecord], results: list[ReplayResult]) -> pa.Table:
    """The problems of each hand: its reader's warnings, then the replay's."""
    found: list[Problem] = []
    sizes = []
    for record, result in zip(records, results, strict=True):
        found.extend(record.problems)
        found.extend(result.problems)
        sizes.append(len(record.problems) + len(result.problems))
    return _batch(
        VIOLATIONS,
        [
            _repeat_ids(sizes),
            [i for size in sizes for i in range(size)],
            _get("code", found),
            _get("severity", found),
            _get("street", found),
            _get("event_index", found),
            _get("line", found),
            _get("message", found),
        ],
    )


REJECT_KINDS: Final = {Code.FIL001: "stray_text", Code.INT001: "internal_error"}
"""The `rejects.kind` of a problem's code; every other problem's is `parse_error` (a hand the
import finds changed is `changed`, without a problem: the stored hand is kept)."""


def rejected(
    hand: HandText, room_hand_id: str | None, content_hash: int, problem: Problem, import_id: int
) -> Reject:
    """A hand kept as text only because of its problem: the row says its kind, message, line."""
    kind = REJECT_KINDS.get(problem.code, "parse_error")
    return Reject(hand, room_hand_id, content_hash, kind, problem.message, problem.line, import_id)


def normalize_rejects(rejects: Sequence[Reject]) -> pa.Table:
    hands: list[HandText] = [item.hand for item in rejects]
    sources = [hand.source for hand in hands]
    return _batch(
        REJECTS,
        [
            [hand.room for hand in hands],
            _get("room_hand_id", rejects),
            _get("content_hash", rejects),
            _get("kind", rejects),
            _get("reason", rejects),
            _get("error_line", rejects),
            [hand.text for hand in hands],
            _get("path", sources),
            _get("offset", sources),
            _get("line", sources),
            _get("import_id", rejects),
        ],
    )


def normalize_unsupported(items: Sequence[Unsupported]) -> pa.Table:
    hands: list[HandText] = [item.hand for item in items]
    sources = [hand.source for hand in hands]
    return _batch(
        UNSUPPORTED,
        [
            [hand.room for hand in hands],
            _get("room_hand_id", items),
            _get("content_hash", items),
            _get("game_label", items),
            _get("reason", items),
            _get("path", sources),
            _get("offset", sources),
            _get("line", sources),
            _get("import_id", items),
        ],
    )


def shift_hand_ids(tables: Tables, offset: int) -> Tables:
    """The same tables with every `hand_id` moved by `offset` (batch-local -> store ids)."""
    if offset == 0:
        return tables
    shifted = dict(tables)
    for table in HAND_TABLES:
        batch = tables[table.name]
        column = pc.add(batch.column(0), pa.scalar(offset, pa.int64()))
        shifted[table.name] = batch.set_column(0, batch.schema.field(0), column)
    return shifted


def keep_hands(tables: Tables, keep: Sequence[int]) -> Tables:
    """Only the hands whose batch-local ids are in `keep`, renumbered 0..len(keep)-1 in order
    (the writer's rare path: a hand stored meanwhile by an earlier batch of the same import)."""
    kept = pa.array(keep, type=pa.int64())
    renumber = {old: new for new, old in enumerate(keep)}
    out = dict(tables)
    for table in HAND_TABLES:
        batch = tables[table.name]
        batch = batch.filter(pc.is_in(batch.column(0), value_set=kept))
        ids = pa.array([renumber[i] for i in batch.column(0).to_pylist()], type=pa.int64())
        out[table.name] = batch.set_column(0, batch.schema.field(0), ids)
    return out


def out_of_range(record: HandRecord) -> Problem | None:
    """The first amount of a hand too large for the store, as a problem naming it and its line
    (a corrupted or hostile export), or None. Every amount of every hand goes through here,
    so the common case is a bare comparison each (this module is compiled)."""
    stakes = record.stakes
    head: list[int | None] = [
        record.total_pot,
        record.rake,
        stakes.small_bet,
        stakes.big_bet,
        stakes.ante,
        stakes.bring_in,
        stakes.small_blind,
        stakes.big_blind,
    ]
    if record.tournament is not None:
        head += [record.tournament.buy_in, record.tournament.fee]
    head += [seat.stack for seat in record.seats]
    for value in head:
        if _beyond(value):
            return _too_big(value, None, record)
    for event in record.events:
        if _beyond(event.amount):
            return _too_big(event.amount, event.line, record)
        if _beyond(event.to):
            return _too_big(event.to, event.line, record)
    return None


def _beyond(value: int | None) -> bool:
    return value is not None and not -AMOUNT_BOUND <= value <= AMOUNT_BOUND


def _too_big(value: int | None, event_line: int | None, record: HandRecord) -> Problem:
    line = record.source.line
    where = (
        f"in the header or seats of the hand starting on line {line}"
        if event_line is None
        else f"on line {event_line}"
    )
    message = (
        f"an amount of {value:,} smallest units {where} is beyond what the store holds "
        f"(at most {AMOUNT_BOUND:,}); the hand is kept as a reject"
    )
    return Problem(Code.IMP001, Stage.IMPORT, record.source.path, event_line or line, message)
