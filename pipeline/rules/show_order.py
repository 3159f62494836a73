"""Showdown order, a rule of the rulebooks' profiles (`HouseRules.showdown_order`): the last
player to bet or raise on the last betting round shows first; in the clockwise variants, if
nobody bet, the first player left of the button (stud: left of the dealer, the lowest seat), and
the others follow in seat order. Casinos Austria's "if no one has bet, the one who spoke first"
is not checked: an export lists a checked-down showdown from the dealer's left. Checked only on
the hands of rooms whose exports print the shows in the order they were made
(`prints_show_order`), and only on a showdown the rule speaks of: at least two players reach it
by betting the last round out, none of them all in, no hand shown before it."""

from __future__ import annotations

from typing import Final

from studdraw.parsers.model import EventKind, HandRecord
from studdraw.parsers.problems import Code, Problem, Stage

from .house import ShowdownOrder

_ACTIONS: Final = frozenset(kind for kind in EventKind if kind.is_betting) | {EventKind.BRING_IN}
_AGGRESSION: Final = frozenset({EventKind.BET, EventKind.RAISE, EventKind.COMPLETE})
_SHOWDOWN: Final = frozenset({EventKind.SHOW, EventKind.MUCK})


def check_show_order(record: HandRecord, order: ShowdownOrder) -> list[Problem]:
    """SHW006 when the first hand shown (or mucked) at the showdown is not the one the rule
    names, or, in the clockwise variant, when the others do not follow in seat order."""
    events = record.events
    acted = [i for i, e in enumerate(events) if e.kind in _ACTIONS]
    if not acted or any(e.all_in for e in events):
        return []
    last_action = acted[-1]
    street = events[last_action].street
    if any(e.kind in _SHOWDOWN for e in events[:last_action]):
        return []
    folded = {e.player for e in events if e.kind is EventKind.FOLD}
    shown: list[str] = []
    for event in events[last_action + 1 :]:
        if event.kind in _SHOWDOWN and event.player and event.player not in shown:
            shown.append(event.player)
    in_at_end = [s.player for s in sorted(record.seats, key=lambda s: s.seat)]
    in_at_end = [p for p in in_at_end if p not in folded and p in shown]
    if len(shown) < 2 or len(in_at_end) != len(shown):
        return []
    round_events = [events[i] for i in acted if events[i].street == street]
    aggressors = [e.player for e in round_events if e.kind in _AGGRESSION]
    if aggressors:
        first, why = aggressors[-1], "the last to bet or raise"
    elif order == "last_aggressor":  # the first to speak: no export shows who it was
        return []
    else:
        first, why = _left_of_button(record, in_at_end), "the first left of the button"
    if first not in shown:
        return []
    line = next(e.line for e in events[last_action + 1 :] if e.kind in _SHOWDOWN)
    path = record.source.path
    if shown[0] != first:
        message = f"{shown[0]} shows first; {first}, {why}, must show first"
        return [Problem(Code.SHW006, Stage.REPLAY, path, line, message)]
    if order == "last_aggressor_clockwise":
        start = in_at_end.index(first)
        expected = in_at_end[start:] + in_at_end[:start]
        if shown != expected:
            order_shown, order_due = ", ".join(shown), ", ".join(expected)
            message = f"the hands are shown {order_shown}; clockwise from {first}: {order_due}"
            return [Problem(Code.SHW006, Stage.REPLAY, path, line, message)]
    return []


def _left_of_button(record: HandRecord, players: list[str]) -> str:
    """The first of `players` (in seat order) left of the button: after the button's seat in a
    draw game; in stud, which has none, the first seat left of the dealer (the lowest)."""
    if record.button is None:
        return players[0]
    seat_of = {s.player: s.seat for s in record.seats}
    after = [p for p in players if seat_of[p] > record.button]
    return (after or players)[0]
