"""Our evaluators order random pairs of hands exactly as pokerkit (a test-only dependency) does.

pokerkit's hands compare with "greater is stronger" for high and low games alike, like our
values; its ``from_game`` takes the best hand over every combination of the cards given.
"""

import random
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import TypeVar

import pytest
from pokerkit import (
    BadugiHand,
    EightOrBetterLowHand,
    Hand,
    OmahaHoldemHand,
    RegularLowHand,
    StandardBadugiHand,
    StandardHighHand,
    StandardLowHand,
)

from studdraw.pipeline.evaluators import badugi, badugi27, high, low8, low27, low_a5, omaha_high

RANKS = "23456789TJQKA"
SUITS = "cdhs"
PAIRS = 2_000
Comparable = TypeVar("Comparable", int, Hand)

# kind: (our evaluator, pokerkit hand class, cards per hand)
CASES: dict[str, tuple[Callable[[Sequence[str]], int | None], type[Hand], int]] = {
    "high": (high, StandardHighHand, 7),
    "low_a5": (low_a5, RegularLowHand, 7),
    "low8": (low8, EightOrBetterLowHand, 7),
    "low27": (low27, StandardLowHand, 5),
    "badugi": (badugi, BadugiHand, 4),
    # The split and 2-7 stud games pokerkit deals no game of, checked hand by hand: 2-7 razz's
    # best 2-7 low of seven cards, A-5 single draw's and badacey's A-5 low of five, badacey's
    # badugi of four of five (aces low), badeucey's (aces high: pokerkit's "standard" badugi).
    "low27 of 7": (low27, StandardLowHand, 7),
    "low_a5 of 5": (low_a5, RegularLowHand, 5),
    "badugi of 5": (badugi, BadugiHand, 5),
    "badugi27": (badugi27, StandardBadugiHand, 4),
    "badugi27 of 5": (badugi27, StandardBadugiHand, 5),
}


def decks(rng: random.Random) -> list[list[str]]:
    """The full deck plus decks short of ranks or suits, where rare hands and ties are common."""
    few_ranks = rng.sample(RANKS, rng.randint(3, 5))
    few_suits = rng.sample(SUITS, rng.randint(1, 2))
    return [
        [rank + suit for rank in RANKS for suit in SUITS],
        [rank + suit for rank in few_ranks for suit in SUITS],
        [rank + suit for rank in RANKS for suit in few_suits],
        [rank + suit for rank in "A2345678" for suit in SUITS],
    ]


def sign(first: Comparable | None, second: Comparable | None) -> int:
    """-1, 0 or 1 for two values or two pokerkit hands, where None is below everything."""
    if first is None or second is None:
        return (first is not None) - (second is not None)
    return (first > second) - (first < second)


@pytest.mark.parametrize("kind", CASES)
def test_ordering_agrees_with_pokerkit(kind: str) -> None:
    evaluator, hand_class, size = CASES[kind]
    rng = random.Random(kind)
    outcomes = {-1: 0, 0: 0, 1: 0}
    for _ in range(PAIRS):
        deck = rng.choice(decks(rng))
        first, second = rng.sample(deck, size), rng.sample(deck, size)
        ours = sign(evaluator(first), evaluator(second))
        theirs = sign(
            hand_class.from_game_or_none("".join(first)),
            hand_class.from_game_or_none("".join(second)),
        )
        assert ours == theirs, (first, second)
        outcomes[ours] += 1
    assert min(outcomes.values()) > PAIRS // 100, outcomes  # ties were exercised too


def test_omaha_high_agrees_with_pokerkit() -> None:
    """Drawmaha's board half: two hands of five dealt with one board of five from one deck (the
    hands share the board as at the table), ordered as pokerkit's Omaha hand (two hole cards,
    three board cards) orders them; each value is also the best `high` of the 100 pairings."""
    rng = random.Random("omaha_high")
    outcomes = {-1: 0, 0: 0, 1: 0}
    for _ in range(PAIRS):
        deck = rng.choice([d for d in decks(rng) if len(d) >= 15])
        cards = rng.sample(deck, 15)
        board, first, second = cards[:5], cards[5:10], cards[10:]
        ours = sign(omaha_high(first, board), omaha_high(second, board))
        theirs = sign(
            OmahaHoldemHand.from_game("".join(first), "".join(board)),
            OmahaHoldemHand.from_game("".join(second), "".join(board)),
        )
        assert ours == theirs, (first, second, board)
        outcomes[ours] += 1
        pairings = (
            high([*two, *three])
            for two in combinations(first, 2)
            for three in combinations(board, 3)
        )
        assert omaha_high(first, board) == max(pairings)
    assert min(outcomes.values()) > PAIRS // 100, outcomes
