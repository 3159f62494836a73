"""The forced bets a hand must post, from the stakes rather than from the posts themselves.

A parsed record's `Stakes` holds the header's values where the room prints them and, where it
does not, the largest post of the hand: one player posting too much would then set the standard
and the players who posted correctly would be blamed. So the engine takes each forced bet, in
order of trust, from:

1. the room's stake table (`stakes.toml`: at a room's cash limits, the ante, bring-in and small
   blind it posts, each level with the corpus hands that show it), which `room_stakes` looks up;
2. the header, where it printed the value;
3. the size most players posted (the largest on a tie), never one player's outlier: the state
   judges the antes once all are posted (`HandState._judge_antes`).

The bet limits themselves (small and big bet, or the blinds of pot and no limit) are always the
header's. A table and a header agree wherever both exist: the table was learnt from the room's
hands at that level.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Final

from studdraw.parsers.model import HandRecord

_FILE: Final = "stakes.toml"
_FORCED: Final = ("ante", "bring_in", "small_blind", "big_blind")
_NONE: Final[dict[str, int]] = {}


@cache
def stake_tables() -> dict[tuple[str, str, int, int], dict[str, int]]:
    """(room, game kind, small bet, big bet) -> the forced bets the room posts there, in the
    hand's smallest unit (cents)."""
    text = resources.files(__package__).joinpath(_FILE).read_text(encoding="utf-8")
    tables: dict[tuple[str, str, int, int], dict[str, int]] = {}
    for room, kinds in tomllib.loads(text).items():
        for kind, levels in kinds.items():
            for level in levels:
                key = (room, kind, int(level["small_bet"]), int(level["big_bet"]))
                tables[key] = {name: int(level[name]) for name in _FORCED if name in level}
    return tables


def room_stakes(record: HandRecord, kind: str) -> dict[str, int]:
    """The forced bets the record's room posts at its limits (cash games in cents only: a
    tournament's stakes rise by level); empty when the table has no such level."""
    if record.tournament is not None or record.scale != 100:
        return _NONE
    stakes = record.stakes
    return stake_tables().get((record.room, kind, stakes.small_bet, stakes.big_bet), _NONE)
