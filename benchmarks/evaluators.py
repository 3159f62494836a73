"""Throughput of the hand evaluators, with pokerkit on the same hands as the baseline.

Run from the repository root: ``.venv/bin/python benchmarks/evaluators.py``. Hands are
generated before timing; each evaluator loops over its hands for at least ``SECONDS``.
pokerkit gets the first ``BASELINE_HANDS`` of the same hands, already parsed to its cards.
"""

import random
from collections.abc import Callable, Sequence
from time import perf_counter
from typing import TypeVar

from pokerkit import (
    BadugiHand,
    Card,
    EightOrBetterLowHand,
    RegularLowHand,
    StandardHighHand,
    StandardLowHand,
)

from studdraw.pipeline.evaluators import badugi, high, low8, low27, low_a5

SECONDS = 1.5
HANDS = 100_000
BASELINE_HANDS = 2_000
DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]

# (name, cards per hand, our evaluator, pokerkit's evaluation of the same cards)
Hand = TypeVar("Hand", list[str], tuple[Card, ...])
Case = tuple[str, int, Callable[[list[str]], object], Callable[[tuple[Card, ...]], object]]
CASES: list[Case] = [
    ("high", 7, high, StandardHighHand.from_game),
    ("low_a5", 7, low_a5, RegularLowHand.from_game),
    ("low8", 7, low8, EightOrBetterLowHand.from_game_or_none),
    ("low27", 5, low27, StandardLowHand.from_game),
    ("badugi", 4, badugi, BadugiHand.from_game),
]


def rate(evaluate: Callable[[Hand], object], hands: Sequence[Hand]) -> float:
    """Evaluations per second over repeated passes through ``hands``, after one warm-up call.

    The warm-up keeps the one-off table build out of the measurement.
    """
    evaluate(hands[0])
    done = 0
    start = perf_counter()
    while (elapsed := perf_counter() - start) < SECONDS:
        for hand in hands:
            evaluate(hand)
        done += len(hands)
    return done / elapsed


def main() -> None:
    rng = random.Random(2024)
    print(f"{'evaluator':<10}{'cards':>6}{'studdraw/s':>14}{'pokerkit/s':>14}{'ratio':>9}")
    for name, size, ours, pokerkit in CASES:
        hands = [rng.sample(DECK, size) for _ in range(HANDS)]
        parsed = [tuple(Card.parse("".join(hand))) for hand in hands[:BASELINE_HANDS]]
        fast, baseline = rate(ours, hands), rate(pokerkit, parsed)
        print(f"{name:<10}{size:>6}{fast:>14,.0f}{baseline:>14,.0f}{fast / baseline:>8.1f}x")


if __name__ == "__main__":
    main()
