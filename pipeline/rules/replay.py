"""`replay`: run a parsed hand through the rules engine and collect what it finds."""

from __future__ import annotations

from typing import Final

from studdraw.parsers.model import EventKind, HandRecord

from .claims import check_claims
from .house import HouseRules, house_rules_for
from .result import ReplayResult
from .show_order import check_show_order
from .specs import GAME_SPECS
from .stakes import room_stakes, tournament_stakes
from .state import HandState

_TABLE_LIFE: Final = frozenset(
    {
        EventKind.SIT_OUT,
        EventKind.SIT_IN,
        EventKind.JOIN,
        EventKind.LEAVE,
        EventKind.CHAT,
        EventKind.NOTE,
    }
)


def start_state(record: HandRecord, rules: HouseRules | None = None) -> HandState:
    """The state before the first event: the players dealt in are the seated players, except
    those sitting out who take no part in the play (tournaments deal sitting-out players in;
    a sitting-out player who only chats or leaves the table was not dealt in)."""
    seats = record.seats
    if any(seat.sitting_out for seat in seats):
        taking_part = {e.player for e in record.events if e.kind not in _TABLE_LIFE}
        seats = [seat for seat in seats if not seat.sitting_out or seat.player in taking_part]
    spec = GAME_SPECS[record.game]
    rules = rules or house_rules_for(record.room)
    return HandState(
        spec,
        record.structure,
        record.stakes,
        seats,
        rules,
        button=record.button,
        stake_table=room_stakes(record, spec.kind) or tournament_stakes(record, spec.kind, rules),
        path=record.source.path,
        scale=record.scale,
        currency=record.currency,
    )


def replay(record: HandRecord, rules: HouseRules | None = None) -> ReplayResult:
    """Replay every event of the record; problems are collected, never raised. `rules`
    defaults to the house rules of the record's room."""
    state = start_state(record, rules)
    state.run(record.events)
    result = state.finish(
        record.total_pot,
        record.rake,
        record.tournament is not None,
        record.source.line,
        record.runs,
    )
    if record.claims:
        result.problems.extend(check_claims(record, result.players))
    room_rules = house_rules_for(record.room)
    order = (rules or room_rules).showdown_order_of(GAME_SPECS[record.game].kind)
    if order is not None and room_rules.prints_show_order:
        result.problems.extend(check_show_order(record, order))
    return result
