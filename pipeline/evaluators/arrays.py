"""The stud evaluators over numpy arrays: many hands of 5 to 7 cards scored at once, with the
values `high`, `low_a5` and `low8` give one hand at a time (the same tables, `_tables.py`).

A hand is a row of card indices into `DECK` (rank-major: index // 4 is the ace-high rank,
index % 4 the suit). The all-in equities (`studdraw.pipeline.analytics.cards`) score every
runout of a spot in one call instead of one evaluator call per hand and runout.
"""

from __future__ import annotations

from functools import cache
from typing import Final

import numpy as np

from ._tables import LOW8_WORST, RANKS, SUITS, high_tables, low_a5_table

DECK: Final = tuple(rank + suit for rank in RANKS for suit in SUITS)
"""Card strings by index: 2c 2d 2h 2s 3c ... As."""
INDEX: Final = {card: i for i, card in enumerate(DECK)}
_RANK = np.arange(52, dtype=np.int64) // 4
_SUIT = np.arange(52, dtype=np.int64) % 4
_RANK_DIGIT = np.int64(1) << (3 * _RANK)
"""A card's digit in the rank-multiset key (the tables' key, as `_tables.CODES` has it)."""
_RANK_BIT = np.int64(1) << _RANK
_SUITS = np.arange(4, dtype=np.int64)
NO_LOW: Final = -1


@cache
def _multiset(kind: str) -> tuple[np.ndarray, np.ndarray]:
    """A table by rank-multiset key as two sorted arrays (keys, values) for `searchsorted`."""
    table = high_tables()[1] if kind == "high" else low_a5_table()
    keys = np.fromiter(sorted(table), dtype=np.int64, count=len(table))
    return keys, np.fromiter((table[key] for key in keys.tolist()), np.int64, len(table))


@cache
def _flushes() -> np.ndarray:
    return np.array(high_tables()[0], dtype=np.int64)


def _lookup(kind: str, keys: np.ndarray) -> np.ndarray:
    known, values = _multiset(kind)
    return values[np.searchsorted(known, keys)]


def high(hands: np.ndarray) -> np.ndarray:
    """`high` of each row: once five cards share a suit, the flush table decides (no full
    house or quads fit beside a flush in seven cards); otherwise the rank multiset."""
    value = _lookup("high", _RANK_DIGIT[hands].sum(axis=1))
    suits = _SUIT[hands]
    counts = (suits[:, :, None] == _SUITS).sum(axis=1)  # hand, suit
    flush = np.flatnonzero(counts.max(axis=1) >= 5)  # at most one suit of 5+ in 7 cards
    if len(flush):
        suit = counts[flush].argmax(axis=1)
        same = suits[flush] == suit[:, None]
        masks = np.where(same, _RANK_BIT[hands[flush]], 0).sum(axis=1)
        value[flush] = _flushes()[masks]
    return value


def low_a5(hands: np.ndarray) -> np.ndarray:
    """`low_a5` of each row (suits never matter)."""
    return _lookup("low_a5", _RANK_DIGIT[hands].sum(axis=1))


def low8(hands: np.ndarray) -> np.ndarray:
    """`low8` of each row, `NO_LOW` where no eight-or-better low qualifies."""
    value = low_a5(hands)
    return np.where(value >= LOW8_WORST, value, NO_LOW)
