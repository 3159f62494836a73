"""Betting structures are data (`pipeline/rules/structures.py`): half-pot limit is a row of the
table beside fixed, pot, no and spread limit, and the replay loop sizes bets from its facts."""

from __future__ import annotations

import random

import pytest

from studdraw.parsers.model import EventKind, Game, Structure
from studdraw.pipeline.rules import replay
from studdraw.pipeline.rules.generate import random_hand
from studdraw.pipeline.rules.structures import STRUCTURE_SPECS, pot_capped_to


def test_every_structure_has_its_facts() -> None:
    assert list(STRUCTURE_SPECS) == list(Structure)
    assert all(spec.structure is structure for structure, spec in STRUCTURE_SPECS.items())
    capped = {s for s, spec in STRUCTURE_SPECS.items() if spec.pot_divisor}
    assert capped == {Structure.POT, Structure.HALF_POT}
    assert not any(STRUCTURE_SPECS[s].limit for s in capped)


@pytest.mark.parametrize(
    ("current", "pot", "to_call", "divisor", "most"),
    [
        (0, 150, 0, 1, 150),  # pot limit: a bet of the pot
        (0, 150, 0, 2, 75),  # half-pot: half of it (Merge's badugi: 0.75 into 1.50)
        (75, 225, 75, 1, 375),  # pot limit: call 75, then the 300 the pot then holds
        (75, 225, 75, 2, 225),  # half-pot: call 75, then half of 300
        (0, 151, 0, 2, 75),  # an odd chip does not round up
    ],
)
def test_the_most_a_pot_capped_bet_may_reach(
    current: int, pot: int, to_call: int, divisor: int, most: int
) -> None:
    assert pot_capped_to(current, pot, to_call, divisor) == most


@pytest.mark.parametrize("game", [Game.BADUGI, Game.STUD, Game.TD27])
def test_random_half_pot_hands_bet_no_more_than_half_the_pot(game: Game) -> None:
    """The generator's legal sizes come from the same state: every bet and raise of a random
    half-pot hand stays within half the pot after the call (or is the smallest full bet or
    raise), and the hand replays clean. Checked, by a count of its own, until the first all-in
    (a short all-in changes what the next raise must reach)."""
    rng = random.Random(39)
    bets = 0
    for _ in range(40):
        record = random_hand(game, Structure.HALF_POT, rng.randint(2, 6), rng)
        assert replay(record).problems == [], record.room_hand_id
        pot = 0
        street_bets: dict[str | None, int] = {}  # the blinds count in the first round
        for event in record.events:
            if event.all_in:
                break
            if event.kind is EventKind.STREET and event.street:
                street_bets = {}
            current = max(street_bets.values(), default=0)
            mine = street_bets.get(event.player, 0)
            if event.kind in (EventKind.BET, EventKind.RAISE):
                to = mine + event.amount  # the street total
                most = pot_capped_to(current, pot, current - mine, 2)
                assert to <= max(most, current + record.stakes.big_blind), event
                bets += 1
            if event.kind.puts_in:
                pot += event.amount
                if event.kind is not EventKind.ANTE and event.kind is not EventKind.DEAD:
                    street_bets[event.player] = mine + event.amount
            if event.kind is EventKind.UNCALLED:
                pot -= event.amount
                street_bets[event.player] = mine - event.amount
    assert bets > 0
