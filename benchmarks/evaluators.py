"""Throughput of the hand evaluators, with pokerkit on the same hands as a reference.

Hands are generated before timing; each evaluator loops over its hands for at least --seconds.
pokerkit gets the first --baseline-hands of the same hands, already parsed to its cards.
Target (issue 15): every evaluator >= 500,000 evaluations/s (MET/MISSED per evaluator).

    .venv/bin/python benchmarks/evaluators.py [--hands 100000] [--seconds 1.5]
"""

from __future__ import annotations

import argparse
import os
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
from rich.console import Console
from rich.table import Table

from studdraw.pipeline.evaluators import badugi, high, low8, low27, low_a5

TARGET = 500_000
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


def rate(evaluate: Callable[[Hand], object], hands: Sequence[Hand], seconds: float) -> float:
    """Evaluations per second over repeated passes through ``hands``, after one warm-up call.

    The warm-up keeps the one-off table build out of the measurement.
    """
    evaluate(hands[0])
    done = 0
    start = perf_counter()
    while (elapsed := perf_counter() - start) < seconds:
        for hand in hands:
            evaluate(hand)
        done += len(hands)
    return done / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--baseline-hands", type=int, default=2_000)
    parser.add_argument("--seconds", type=float, default=1.5)
    args = parser.parse_args()
    rng = random.Random(2024)
    table = Table(
        title=f"Hand evaluators, one core (load average {os.getloadavg()[0]:.2f} at start)"
    )
    columns = ("evaluator", "cards", "studdraw /s", "pokerkit /s", "vs pokerkit", "target")
    for column in columns:
        table.add_column(column, justify="left" if column == "evaluator" else "right")
    missed = []
    for name, size, ours, pokerkit in CASES:
        hands = [rng.sample(DECK, size) for _ in range(args.hands)]
        parsed = [tuple(Card.parse("".join(hand))) for hand in hands[: args.baseline_hands]]
        fast = rate(ours, hands, args.seconds)
        reference = rate(pokerkit, parsed, args.seconds)
        verdict = "MET" if fast >= TARGET else "MISSED"
        if fast < TARGET:
            missed.append(name)
        table.add_row(
            name,
            str(size),
            f"{fast:,.0f}",
            f"{reference:,.0f}",
            f"{fast / reference:.1f}x",
            verdict,
        )
    console = Console(width=120)
    console.print(table)
    console.print(
        f"every evaluator >= {TARGET:,}/s: "
        + ("MET" if not missed else f"MISSED ({', '.join(missed)})")
    )


if __name__ == "__main__":
    main()
