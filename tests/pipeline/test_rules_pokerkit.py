"""Cross-check with pokerkit (an independent engine, test-only): legal fixed-limit stud, stud
hi/lo and razz hands from `random_hand` are played move by move in pokerkit, which must name
the same player to act at every step, accept every action, and end with the same stacks.

The check is restricted to hands where the two rule sets coincide. pokerkit has no 4th-street
open-pair double bet and no community card for a short deck, treats short all-ins its own way,
breaks ties between equal boards by its own lookup (suited high cards rank apart), and splits
odd chips of a hi/lo pot by its own rule; hands that use any of these are skipped. Its cap
(four completions, bets or raises per street) is the PokerStars cap, a bet and three raises.
pokerkit is slow, so a few dozen hands are played. No rake: pokerkit's payoffs carry none.
"""

from __future__ import annotations

import dataclasses
import random
import warnings
from typing import Any, Final

import pytest
from pokerkit import (
    Automation,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    Mode,
)

from studdraw.parsers.model import EventKind, Game, HandRecord, Structure
from studdraw.pipeline.rules import ReplayResult, house_rules_for, replay
from studdraw.pipeline.rules.boards import board_key
from studdraw.pipeline.rules.generate import random_hand

HANDS_PER_GAME: Final = 12
POKERKIT_GAMES: Final[dict[Game, Any]] = {
    Game.STUD: FixedLimitSevenCardStud,
    Game.STUD8: FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    Game.RAZZ: FixedLimitRazz,
}
AUTOMATIONS: Final = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
NO_RAKE: Final = dataclasses.replace(house_rules_for("pokerstars"), rake_percent=None)
AGGRESSIVE: Final = frozenset(
    {EventKind.BRING_IN, EventKind.COMPLETE, EventKind.BET, EventKind.RAISE}
)


def rules_agree(record: HandRecord, result: ReplayResult) -> bool:
    """Whether the hand avoids every rule where pokerkit and PokerStars differ."""
    for event in record.events:
        if event.kind is EventKind.COMMUNITY:
            return False
        if event.kind in AGGRESSIVE and event.all_in:
            return False
        if event.street == 1 and event.kind in AGGRESSIVE and event.amount >= record.stakes.big_bet:
            return False
    for street in result.streets[1:]:
        ace_low = record.game is Game.RAZZ
        boards = [
            board_key([c for c, up in zip(p.cards, p.up, strict=True) if up and c], ace_low)
            for p in street.players
        ]
        best = min(boards) if record.game is Game.RAZZ else max(boards)
        if boards.count(best) > 1:
            return False
    for pot in result.pots:
        if pot.half is not None and (pot.collected % 2 or len(pot.winners) > 1):
            return False
    return True


def agreeing_hands(game: Game) -> list[HandRecord]:
    rng = random.Random(f"pokerkit-{game}")
    hands: list[HandRecord] = []
    while len(hands) < HANDS_PER_GAME:
        record = random_hand(game, Structure.FIXED, rng.randint(2, 7), rng, NO_RAKE)
        if rules_agree(record, replay(record, NO_RAKE)):
            hands.append(record)
    return hands


def play_in_pokerkit(record: HandRecord) -> list[int]:
    """Play the record in pokerkit, checking the actor before every action; the final stacks."""
    seats = sorted(record.seats, key=lambda seat: seat.seat)
    index = {seat.player: i for i, seat in enumerate(seats)}
    stakes = record.stakes
    state = POKERKIT_GAMES[record.game].create_state(
        AUTOMATIONS,
        False,
        stakes.ante,
        stakes.bring_in,
        stakes.small_bet,
        stakes.big_bet,
        [seat.stack for seat in seats],
        len(seats),
        mode=Mode.CASH_GAME,
    )
    for event in record.events:
        kind = event.kind
        if kind is EventKind.DEAL:
            if state.can_burn_card("??"):
                state.burn_card("??")
            state.deal_hole("".join(c for c in event.cards if c), index[event.player or ""])
            continue
        if kind not in AGGRESSIVE and kind not in (EventKind.CALL, EventKind.CHECK, EventKind.FOLD):
            continue
        assert state.actor_index == index[event.player or ""], (record.room_hand_id, event)
        if kind is EventKind.BRING_IN:
            state.post_bring_in()
        elif kind in AGGRESSIVE:
            state.complete_bet_or_raise_to(event.to)
        elif kind is EventKind.FOLD:
            state.fold()
        else:
            state.check_or_call()
    assert not state.status, "pokerkit expects more actions"
    return list(state.stacks)


@pytest.mark.parametrize("game", list(POKERKIT_GAMES))
def test_pokerkit_agrees_on_legal_stud_hands(game: Game) -> None:
    for record in agreeing_hands(game):
        result = replay(record, NO_RAKE)
        assert result.problems == []
        ours = [
            seat.stack + player.net
            for seat, player in zip(
                sorted(record.seats, key=lambda seat: seat.seat), result.players, strict=True
            )
        ]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert play_in_pokerkit(record) == ours, record.room_hand_id
