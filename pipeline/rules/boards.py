"""Ranking the face-up cards of stud: who brings in, and who opens the later streets.

Only pairs, trips, quads and high cards count on a board (never straights or flushes), so this
is a small ranking of its own, separate from the showdown evaluators.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from studdraw.parsers.model import RANKS, Card

from .specs import BringIn

_ACE_HIGH = {rank: index for index, rank in enumerate(RANKS)}
_ACE_LOW = {rank: (index + 1) % 13 for index, rank in enumerate(RANKS)}  # A=0, 2=1, .. K=12
_BY_COUNT_THEN_RANK = itemgetter(1, 0)
_CATEGORY = 13**5  # above any five ranks (four up cards and a community card)


def bring_in_key(card: Card, rule: BringIn, suits: str | None) -> int:
    """A number that is largest for the door card that must bring in; `suits` (lowest first)
    breaks ties of rank, None leaves them tied (the first dealt then brings in)."""
    suit = suits.index(card[1]) if suits is not None else 0
    if rule is BringIn.LOW_CARD:
        return (12 - _ACE_HIGH[card[0]]) * 4 + (3 - suit)
    if rule is BringIn.HIGH_CARD_ACES_HIGH:
        return _ACE_HIGH[card[0]] * 4 + suit
    return _ACE_LOW[card[0]] * 4 + suit


def board_key(cards: Sequence[Card], ace_low: bool) -> int:
    """A number ranking a board: the category (high card, pair, two pair, trips, quads) first,
    then the ranks, paired ranks before single ones. Higher is the better high board; for
    the low games' boards lower is better (razz's with aces low, 2-7 razz's with aces high)."""
    order = _ACE_LOW if ace_low else _ACE_HIGH
    ranks = sorted([order[card[0]] for card in cards], reverse=True)
    key = 0
    if len(set(ranks)) == len(ranks):  # no pair: the common case
        for rank in ranks:
            key = key * 13 + rank
        return key
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    groups = sorted(counts.items(), key=_BY_COUNT_THEN_RANK, reverse=True)
    shape = [count for _, count in groups]
    category = 4 if 4 in shape else 3 if 3 in shape else shape.count(2)
    for rank, _ in groups:
        key = key * 13 + rank
    return category * _CATEGORY + key


def has_open_pair(cards: Sequence[Card]) -> bool:
    return len({card[0] for card in cards}) < len(cards)
