"""The PHH vocabulary both directions share: variant codes, studdraw's `_`-field names, money
and card notation, and the order of the players.

PHH (the open Poker Hand History format, phh.readthedocs.io) is TOML. Its spec names 11 variants;
studdraw's games outside them (A-5 triple draw, five-card draw, five-card stud, A-5 single
draw, 2-7 razz, badacey, badeucey, drawmaha, other structures) get a code built the same way
plus `_game` and `_structure` fields, so a reader never has to guess. Both the exporter
(`studdraw.pipeline.phh`) and the PHH room (`studdraw.parsers.rooms.phh`) import this module;
docs/phh.md is the field-by-field mapping.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from decimal import Decimal
from typing import Final

from studdraw.parsers.model import Card, EventKind, Game, HandRecord, Seat, Stakes, Structure

SPEC_VARIANTS: Final[dict[str, tuple[Game, Structure]]] = {
    "F7S": (Game.STUD, Structure.FIXED),
    "F7S/8": (Game.STUD8, Structure.FIXED),
    "FR": (Game.RAZZ, Structure.FIXED),
    "F2L3D": (Game.TD27, Structure.FIXED),
    "FB": (Game.BADUGI, Structure.FIXED),
    "N2L1D": (Game.SD27, Structure.NO),
}
"""The spec's codes for studdraw's games (its hold'em and Omaha codes are other games: a PHH
room counts them as unsupported)."""

STRUCTURE_PREFIX: Final = {
    Structure.FIXED: "F",
    Structure.NO: "N",
    Structure.POT: "P",
    Structure.SPREAD: "S",
    Structure.HALF_POT: "H",
}
"""A variant code's first letter; the game's part follows (`GameSpec.phh`). The spec has F, N
and P; S (spread) and H (half-pot limit) are built the same way, with `_structure` beside."""
UNKNOWN_CARD: Final = "??"
RESHUFFLE_NOTE: Final = "# the dealer reshuffles the discards into the stub"
"""A no-op action (PHH commentary) standing for a room's reshuffle announcement."""

# Money: PHH amounts are numbers in currency units (decimals for cash), read back exactly with
# tomllib's parse_float=Decimal; `_scale` keeps the smallest unit (100 for cents).


def is_spec_variant(code: str) -> bool:
    return code in SPEC_VARIANTS


@functools.lru_cache(maxsize=1 << 16)
def money(amount: int, scale: int) -> str:
    """Smallest units as a TOML number in currency units: 150 at scale 100 -> 1.5, 200 -> 2."""
    if scale == 1:
        return str(amount)
    whole, part = divmod(amount, scale)
    if part == 0:
        return str(whole)
    digits = len(str(scale)) - 1
    return f"{whole}.{part:0{digits}d}".rstrip("0")


def to_units(value: int | Decimal, scale: int) -> int:
    """A PHH number back to exact smallest units; raises ValueError when it is finer than the
    scale (a fraction of a cent) or not finite."""
    scaled = Decimal(value) * scale
    if not scaled.is_finite() or scaled != scaled.to_integral_value():
        raise ValueError(f"amount {value} is not a whole number of 1/{scale} units")
    return int(scaled)


@functools.lru_cache(maxsize=1 << 16)
def cards_text(cards: tuple[Card | None, ...]) -> str:
    """Cards in PHH notation, unknown ones as `??`. Cached: a deal is mostly one up card, or
    one up card after two unknown ones."""
    return "".join([card or UNKNOWN_CARD for card in cards])


def parse_cards(text: str) -> tuple[Card | None, ...]:
    """PHH card notation ("As??Td") to cards, unknown as None; raises ValueError."""
    if len(text) % 2:
        raise ValueError(f"bad cards {text!r}")
    cards: list[Card | None] = []
    for at in range(0, len(text), 2):
        card = text[at : at + 2]
        if card == UNKNOWN_CARD:
            cards.append(None)
        elif card[0] in "23456789TJQKA" and card[1] in "cdhs":
            cards.append(card)
        else:
            raise ValueError(f"bad card {card!r} in {text!r}")
    return tuple(cards)


@functools.lru_cache(maxsize=1 << 16)
def toml_string(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's, except DEL, which TOML wants escaped);
    plain printable ASCII, most names and every action, needs no escaping. Cached: the same
    players, tables and rooms come back hand after hand."""
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


_TABLE_LIFE: Final = frozenset(
    {
        EventKind.SIT_OUT,
        EventKind.SIT_IN,
        EventKind.JOIN,
        EventKind.LEAVE,
        EventKind.CHAT,
        EventKind.NOTE,
    }
)


def players_in_order(record: HandRecord) -> list[Seat]:
    """The players dealt in, in PHH order: seat order in stud; in button games the seat after
    the button first and the button last (PHH's p1 is the small blind, or the big blind
    heads-up). Dealt in = seated, except sitting-out players who take no part in the play (the
    rules engine's rule, `rules.replay.start_state`)."""
    seats = record.seats
    if any(seat.sitting_out for seat in seats):
        taking_part = {e.player for e in record.events if e.kind not in _TABLE_LIFE}
        seats = [seat for seat in seats if not seat.sitting_out or seat.player in taking_part]
    ordered = sorted(seats, key=lambda seat: seat.seat)
    if record.game.is_stud:
        return ordered
    button = record.button
    if button is None:
        small = next((e.player for e in record.events if e.kind is EventKind.SMALL_BLIND), None)
        first = next((i for i, s in enumerate(ordered) if s.player == small), 0)
        return ordered[first:] + ordered[:first]
    return [s for s in ordered if s.seat > button] + [s for s in ordered if s.seat <= button]


def inferred_stakes(
    structure: Structure,
    antes: Sequence[int],
    blinds: Sequence[int],
    bring_in: int,
    bets: tuple[int, int],
) -> Stakes:
    """The table's stakes as a PHH hand implies them: the ante is the largest posted, the blinds
    are the first two of `blinds_or_straddles` (listed small first, heads-up too), the bets
    are `small_bet`/`big_bet`, or `min_bet` twice outside fixed limit. The exporter writes a
    `_` field for each stake that differs (a missing small blind, a short ante, ...)."""
    small_bet, big_bet = bets if structure is Structure.FIXED else (bets[0], bets[0])
    return Stakes(
        small_bet=small_bet,
        big_bet=big_bet,
        ante=max(antes, default=0),
        bring_in=bring_in,
        small_blind=blinds[0] if len(blinds) > 0 else 0,
        big_blind=blinds[1] if len(blinds) > 1 else 0,
    )


STAKE_FIELDS: Final = ("ante", "bring_in", "small_blind", "big_blind", "small_bet", "big_bet")
"""Stakes a hand may need as `_ante`, `_bring_in`, ... when the PHH fields do not imply them."""


def blind_kind(i: int, players: int, amount: int, stakes: Stakes) -> EventKind:
    """The kind of blind player `i` (PHH order) posting `amount` is taken for: the small blind
    at p1 (p2 heads-up) and the big blind at p2 (p1 heads-up), when no larger than the
    stakes' blind; any other live post otherwise. `_blind_kinds` overrides it."""
    small, big = (1, 0) if players == 2 else (0, 1)
    if i == small and amount <= stakes.small_blind:
        return EventKind.SMALL_BLIND
    if i == big and amount <= stakes.big_blind:
        return EventKind.BIG_BLIND
    return EventKind.POST
