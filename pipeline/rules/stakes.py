"""The forced bets a hand must post, from the stakes rather than from the posts themselves.

A parsed record's `Stakes` holds the header's values where the room prints them and, where it
does not, the largest post of the hand: one player posting too much would then set the standard
and the players who posted correctly would be blamed. So each forced bet is taken, in order of
trust, from:

1. the header, where it printed the value (the record's value differs from the largest post);
2. the room's stake table (`stakes.toml`, each level with the corpus hands that show it), for
   cash games: the ante, bring-in and small blind the room posts at those limits;
3. the size most players posted (the largest on a tie), never one player's outlier.

The bet limits themselves (small and big bet, or the blinds of pot and no limit) are always the
header's.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections import Counter
from functools import cache
from importlib import resources
from typing import Final

from studdraw.parsers.model import EventKind, HandRecord, Stakes

_FILE: Final = "stakes.toml"
_FORCED: Final = (
    ("ante", EventKind.ANTE),
    ("bring_in", EventKind.BRING_IN),
    ("small_blind", EventKind.SMALL_BLIND),
    ("big_blind", EventKind.BIG_BLIND),
)


@cache
def stake_tables() -> dict[tuple[str, str, int, int], dict[str, int]]:
    """(room, game family, small bet, big bet) -> the forced bets the room posts there, in the
    hand's smallest unit (cents)."""
    text = resources.files(__package__).joinpath(_FILE).read_text(encoding="utf-8")
    tables: dict[tuple[str, str, int, int], dict[str, int]] = {}
    for room, families in tomllib.loads(text).items():
        for family, levels in families.items():
            for level in levels:
                key = (room, family, int(level["small_bet"]), int(level["big_bet"]))
                tables[key] = {name: int(level[name]) for name, _ in _FORCED if name in level}
    return tables


def _posted(record: HandRecord, kind: EventKind) -> tuple[int, int]:
    """(the size most complete posts of `kind` share, the largest complete post); 0s if none."""
    sizes = Counter(e.amount for e in record.events if e.kind is kind and not e.all_in)
    if not sizes:
        return 0, 0
    most = max(sizes.values())
    return max(size for size, count in sizes.items() if count == most), max(sizes)


def forced_bets(record: HandRecord, family: str) -> Stakes:
    """The record's stakes with each forced bet taken from the most trusted source."""
    stakes = record.stakes
    table: dict[str, int] = {}
    if record.tournament is None and record.scale == 100:
        key = (record.site, family, stakes.small_bet, stakes.big_bet)
        table = stake_tables().get(key, {})
    changes: dict[str, int] = {}
    for name, kind in _FORCED:
        value: int = getattr(stakes, name)
        common, largest = _posted(record, kind)
        if value and value != largest:
            continue  # printed by the header
        if name in table:
            changes[name] = table[name]
        elif common and common != value:
            changes[name] = common
    return dataclasses.replace(stakes, **changes) if changes else stakes
