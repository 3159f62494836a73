"""Plain-JSON views of parsed hands, for `studdraw parse --jsonl` and for debugging.

Events keep only the fields that say something (a fold has no amount), so a JSON line stays
readable; money stays in integer smallest units, with the hand's scale alongside.
"""

from __future__ import annotations

from typing import Any

from studdraw.parsers.model import Event, HandRecord, ParsedHand
from studdraw.parsers.problems import Problem


def event_to_dict(event: Event) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": str(event.kind), "line": event.line, "street": event.street}
    if event.player is not None:
        data["player"] = event.player
    if event.amount:
        data["amount"] = event.amount
    if event.to is not None:
        data["to"] = event.to
    if event.all_in:
        data["all_in"] = True
    if event.cards:
        data["cards"] = list(event.cards)
    if event.up:
        data["up"] = list(event.up)
    if event.count is not None:
        data["count"] = event.count
    if event.pot is not None:
        data["pot"] = event.pot
    if event.text is not None:
        data["text"] = event.text
    return data


def problem_to_dict(problem: Problem) -> dict[str, Any]:
    return {
        "code": str(problem.code),
        "severity": str(problem.severity),
        "origin": str(problem.origin),
        "stage": str(problem.stage),
        "line": problem.line,
        "message": problem.message,
    }


def record_details(record: HandRecord) -> dict[str, Any]:
    """Everything about a record except its identity fields, which `parsed_hand_to_dict` sets."""
    tournament = record.tournament
    return {
        "currency": record.currency,
        "scale": record.scale,
        "stakes": {
            "small_bet": record.stakes.small_bet,
            "big_bet": record.stakes.big_bet,
            "ante": record.stakes.ante,
            "bring_in": record.stakes.bring_in,
            "small_blind": record.stakes.small_blind,
            "big_blind": record.stakes.big_blind,
        },
        "started_at": record.started_at.isoformat(),
        "room_time": record.room_time,
        "table": record.table,
        "max_seats": record.max_seats,
        "button": record.button,
        "mixed": record.mixed,
        "hero": record.hero,
        "tournament": None
        if tournament is None
        else {
            "id": tournament.tournament_id,
            "buy_in": tournament.buy_in,
            "fee": tournament.fee,
            "currency": tournament.currency,
            "level": tournament.level,
        },
        "total_pot": record.total_pot,
        "rake": record.rake,
        "notes": record.notes,
        "problems": [problem_to_dict(problem) for problem in record.problems],
    }


def parsed_hand_to_dict(parsed: ParsedHand) -> dict[str, Any]:
    """The `studdraw parse --jsonl` object: the contract fields first, then the details."""
    record = parsed.record
    data: dict[str, Any] = {
        "source": parsed.hand.source.path,
        "line": parsed.hand.source.line,
        "offset": parsed.hand.source.offset,
        "room": parsed.hand.room,
        "room_hand_id": parsed.room_hand_id,
        "outcome": str(parsed.outcome),
        "game": str(record.game) if record else None,
        "structure": str(record.structure) if record else None,
        "players": [
            {
                "seat": seat.seat,
                "name": seat.player,
                "stack": seat.stack,
                "sitting_out": seat.sitting_out,
            }
            for seat in record.seats
        ]
        if record
        else [],
        "events": [event_to_dict(event) for event in record.events] if record else [],
        "error": None,
    }
    if parsed.problem is not None:
        data["error"] = parsed.problem.message
        data["error_line"] = parsed.problem.line
        data["error_code"] = str(parsed.problem.code)
        data["game_label"] = parsed.game_label
    if record is not None:
        data.update(record_details(record))
    return data
