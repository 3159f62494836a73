"""Card encodings, the packed value format and the lookup tables behind the evaluators.

Every hand value is packed as ``category << 20`` followed by five 4-bit rank nibbles in the
order the rules compare them, so plain integer comparison is the poker comparison and
``describe`` can unpack a value without any table. Low games store ``8 - category`` and
``12 - rank`` (badugi: the card count and ``12 - rank``) so that, as for high hands, a higher
value is always the better hand.
"""

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from itertools import combinations_with_replacement
from operator import eq
from pathlib import Path
from typing import TypeVar

from studdraw.parsers import cache as built_once

T = TypeVar("T")

RANKS = "23456789TJQKA"
"""Rank characters in ace-high order: the index is the rank used by ``high`` and ``low27``."""
LOW_RANKS = "A23456789TJQK"
"""Rank characters in ace-low order: the index is the rank used by the ace-to-five games."""
SUITS = "cdhs"

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
"""High-hand categories, weakest first; low games store ``STRAIGHT_FLUSH - category``."""

_SHAPE_CATEGORY = {
    (1, 1, 1, 1, 1): HIGH_CARD,
    (2, 1, 1, 1): PAIR,
    (2, 2, 1): TWO_PAIR,
    (3, 1, 1): TRIPS,
    (3, 2): FULL_HOUSE,
    (4, 1): QUADS,
}

# A card's code packs three fields, so that the sum of a hand's codes carries everything an
# evaluator needs: bits 0-38 count each rank in a 3-bit digit (the rank-multiset key), bits
# 39-54 count each suit in a 4-bit nibble, and bits 55-106 hold one bit per card, 13 per suit.
RANK_DIGITS = (1 << 39) - 1
SUIT_SHIFT = 39
CARD_SHIFT = 55
SUIT_BIAS = 0x3333 << SUIT_SHIFT
"""Adding 3 to each suit count sets a nibble's top bit exactly when the suit has 5+ cards."""
FLUSH_BITS = 0x8888 << SUIT_SHIFT

CODES: dict[str, int] = {
    rank + suit: (1 << (3 * r)) | (1 << (SUIT_SHIFT + 4 * s)) | (1 << (CARD_SHIFT + 13 * s + r))
    for s, suit in enumerate(SUITS)
    for r, rank in enumerate(RANKS)
}
"""Card string -> summable code for ``high``, ``low_a5``, ``low8`` and ``low27``."""

BADUGI_CODES: dict[str, int] = {
    rank + suit: (1 << s) | (1 << (4 + r))
    for s, suit in enumerate(SUITS)
    for r, rank in enumerate(LOW_RANKS)
}
"""Card string -> suit bit (bits 0-3) | ace-low rank bit (bits 4-16), for OR-ing subsets."""
BADUGI27_CODES: dict[str, int] = {
    rank + suit: (1 << s) | (1 << (4 + r))
    for s, suit in enumerate(SUITS)
    for r, rank in enumerate(RANKS)
}
"""The same with the ace-high rank bit: badeucey's badugi, where the ace is the worst card."""


def pack(category: int, ranks: Sequence[int]) -> int:
    """Pack a category and up to five ranks, most significant first, into one int."""
    value = category
    for rank in ranks:
        value = (value << 4) | rank
    return value << (4 * (5 - len(ranks)))


def unpack(value: int) -> tuple[int, tuple[int, ...]]:
    """Split a packed value back into its category and its five rank nibbles."""
    return value >> 20, tuple((value >> shift) & 0xF for shift in (16, 12, 8, 4, 0))


def invert(value: int) -> int:
    """Turn a packed high-style value into a low value: a worse high hand is a better low."""
    category, ranks = unpack(value)
    return pack(STRAIGHT_FLUSH - category, [12 - rank for rank in ranks])


_WHEEL = 0b1_0000_0000_1111
"""Rank mask of A-2-3-4-5 in ace-high indices."""


def _bits(mask: int) -> list[int]:
    """The set bit positions of a rank mask, highest first."""
    return [rank for rank in range(12, -1, -1) if (mask >> rank) & 1]


def _straight(ranks: list[int], wheel: bool) -> list[int] | None:
    """The five ranks of a straight, highest first (the wheel plays its ace low), or None."""
    if ranks[0] - ranks[4] == 4:
        return ranks
    if wheel and ranks == [12, 3, 2, 1, 0]:
        return [3, 2, 1, 0, 12]
    return None


def _high_five(ranks: Iterable[int], wheel: bool) -> int:
    """Non-flush high value of five ranks (ace-high indices); ``wheel``: A-2-3-4-5 is a straight."""
    counts = Counter(ranks)
    order = sorted(counts.elements(), key=lambda rank: (counts[rank], rank), reverse=True)
    category = _SHAPE_CATEGORY[tuple(sorted(counts.values(), reverse=True))]
    straight = _straight(order, wheel) if category == HIGH_CARD else None
    return pack(STRAIGHT, straight) if straight else pack(category, order)


def _low_five(ranks: Iterable[int]) -> int:
    """Ace-to-five low value of five ranks given as ace-high indices."""
    low_ranks = [(rank + 1) % 13 for rank in ranks]
    counts = Counter(low_ranks)
    order = sorted(low_ranks, key=lambda rank: (counts[rank], rank), reverse=True)
    return invert(pack(_SHAPE_CATEGORY[tuple(sorted(counts.values(), reverse=True))], order))


def _flush_value(mask: int, wheel: bool) -> int:
    """Best straight flush or flush among the ranks of one suit (5 to 7 bits set)."""
    ranks = _bits(mask)
    for start in range(len(ranks) - 4):
        straight = _straight(ranks[start : start + 5], wheel=False)
        if straight:
            return pack(STRAIGHT_FLUSH, straight)
    if wheel and (mask & _WHEEL) == _WHEEL:
        return pack(STRAIGHT_FLUSH, [3, 2, 1, 0, 12])
    return pack(FLUSH, ranks[:5])


def _multiset_table(five: Callable[[tuple[int, ...]], int], sizes: range) -> dict[int, int]:
    """Map every rank multiset of the given sizes (at most 4 of a rank) to its best 5-card value.

    The key is the sum of the cards' rank digits. A multiset of n > 5 ranks takes the best of
    its (n-1)-rank sub-multisets, so each size costs one lookup per distinct rank.
    """
    digits = [1 << (3 * rank) for rank in range(13)]
    table: dict[int, int] = {}
    for size in sizes:
        for combo in combinations_with_replacement(range(13), size):
            if any(map(eq, combo, combo[4:])):
                continue
            key = sum(map(digits.__getitem__, combo))
            if size == 5:
                table[key] = five(combo)
            else:
                table[key] = max(map(table.__getitem__, {key - digits[rank] for rank in combo}))
    return table


def _kept(name: str, build: Callable[[], T], kind: type) -> T:
    """A table built by `build`, or loaded from the user's cache when this module built it
    before (a tenth of a second or more each, paid by every process otherwise; issue 15)."""
    folder = built_once.cache_folder("tables")
    if folder is None:
        return build()
    path = folder / f"{name}-{built_once.digest([Path(__file__)])}.pickle"
    table = built_once.load(path)
    if isinstance(table, kind):
        return table  # type: ignore[return-value]
    table = build()
    built_once.save(path, table)
    return table


@cache
def high_tables() -> tuple[list[int], dict[int, int]]:
    """``high``: values by one suit's rank mask (flushes) and by rank multiset (5-7 cards)."""
    return _kept("high", _build_high_tables, tuple)


def _build_high_tables() -> tuple[list[int], dict[int, int]]:
    flush = [
        _flush_value(mask, wheel=True) if mask.bit_count() >= 5 else 0 for mask in range(1 << 13)
    ]
    return flush, _multiset_table(lambda combo: _high_five(combo, wheel=True), range(5, 8))


@cache
def low27_tables() -> tuple[list[int], dict[int, int]]:
    """``low27``: the high tables for exactly five cards without the wheel, inverted."""
    return _kept("low27", _build_low27_tables, tuple)


def _build_low27_tables() -> tuple[list[int], dict[int, int]]:
    flush = [
        invert(_flush_value(mask, wheel=False)) if mask.bit_count() == 5 else 0
        for mask in range(1 << 13)
    ]
    return flush, _multiset_table(lambda combo: invert(_high_five(combo, wheel=False)), range(5, 6))


@cache
def low_a5_table() -> dict[int, int]:
    """``low_a5`` (and ``low8``): values by rank multiset of 5-7 cards."""
    return _kept("low_a5", lambda: _multiset_table(_low_five, range(5, 8)), dict)


LOW8_WORST = _low_five([RANKS.index(rank) for rank in "87654"])
"""Every ace-to-five value at least this good is an unpaired low with all cards 8 or under."""


@cache
def badugi_table() -> list[int]:
    """Badugi value by the ace-low rank mask of a valid (rainbow, unpaired) subset."""
    return [
        pack(mask.bit_count(), [12 - rank for rank in _bits(mask)])
        if 0 < mask.bit_count() <= 4
        else 0
        for mask in range(1 << 13)
    ]


@cache
def valid_values(kind: str) -> frozenset[int]:
    """Every value the evaluator named ``kind`` can return, so ``describe`` rejects the rest."""
    if kind == "high":
        flush, ranks = high_tables()
        return frozenset(flush).union(ranks.values()) - {0}
    if kind == "low27":
        flush, ranks = low27_tables()
        return frozenset(flush).union(ranks.values()) - {0}
    if kind == "low_a5":
        return frozenset(low_a5_table().values())
    if kind == "low8":
        return frozenset(value for value in low_a5_table().values() if value >= LOW8_WORST)
    if kind in ("badugi", "badugi27"):
        return frozenset(badugi_table()) - {0}
    raise ValueError(
        f"unknown evaluator kind {kind!r}; expected high, low_a5, low8, low27, badugi or badugi27"
    )
