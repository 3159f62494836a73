"""Short human descriptions of evaluator values, for messages and the hand replayer."""

from ._tables import (
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    LOW_RANKS,
    PAIR,
    QUADS,
    RANKS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    unpack,
    valid_values,
)

KINDS = ("high", "low_a5", "low8", "low27", "badugi", "badugi27")
"""The evaluator names ``describe`` accepts, one per evaluator function."""

_NAMES = [
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King",
    "Ace",
]  # fmt: skip
_PLURALS = [name + ("es" if name == "Six" else "s") for name in _NAMES]
_CATEGORY_NAMES = {
    PAIR: "pair",
    TWO_PAIR: "two pair",
    TRIPS: "three of a kind",
    STRAIGHT: "straight",
    FLUSH: "flush",
    FULL_HOUSE: "full house",
    QUADS: "four of a kind",
    STRAIGHT_FLUSH: "straight flush",
}


def _high_phrase(category: int, ranks: tuple[int, ...]) -> str:
    """Describe a high hand by its category and deciding ranks (ace-high indices)."""
    first = ranks[0]
    if category == HIGH_CARD:
        return f"{_NAMES[first]} high"
    if category == PAIR:
        return f"a pair of {_PLURALS[first]}"
    if category == TWO_PAIR:
        return f"two pair, {_PLURALS[first]} and {_PLURALS[ranks[2]]}"
    if category == TRIPS:
        return f"three of a kind, {_PLURALS[first]}"
    if category == FLUSH:
        return f"a flush, {_NAMES[first]} high"
    if category == FULL_HOUSE:
        return f"a full house, {_PLURALS[first]} full of {_PLURALS[ranks[3]]}"
    if category == QUADS:
        return f"four of a kind, {_PLURALS[first]}"
    straight = f"{_NAMES[ranks[4]]} to {_NAMES[first]}"
    if category == STRAIGHT:
        return f"a straight, {straight}"
    return "a royal flush" if first == RANKS.index("A") else f"a straight flush, {straight}"


def _ranks_text(ranks: tuple[int, ...], symbols: str) -> str:
    """Ranks highest first in card symbols, like 8-6-4-3-A."""
    return "-".join(symbols[rank] for rank in sorted(ranks, reverse=True))


def _low_phrase(category: int, ranks: tuple[int, ...], symbols: str, suffix: str) -> str:
    """A clean low reads as its ranks; anything else also names what spoils it."""
    text = _ranks_text(ranks, symbols)
    if category == HIGH_CARD:
        return text + suffix
    return f"{text} ({_CATEGORY_NAMES[category]})"


def describe(kind: str, value: int | None) -> str:
    """Describe a value returned by the evaluator named ``kind`` (one of ``KINDS``).

    ``low8``'s None reads "no low" so a replayer can pass results straight through.
    """
    if value is None and kind == "low8":
        return "no low"
    if value not in valid_values(kind):
        raise ValueError(f"{value!r} is not a {kind} value")
    category, ranks = unpack(value)
    if kind == "high":
        return _high_phrase(category, ranks)
    if kind in ("badugi", "badugi27"):
        symbols = LOW_RANKS if kind == "badugi" else RANKS
        low = _ranks_text(tuple(12 - rank for rank in ranks[:category]), symbols)
        return f"badugi {low}" if category == 4 else f"{category}-card {low}"
    category, ranks = STRAIGHT_FLUSH - category, tuple(12 - rank for rank in ranks)
    if kind == "low27":
        return _low_phrase(category, ranks, RANKS, "")
    return _low_phrase(category, ranks, LOW_RANKS, " low")
