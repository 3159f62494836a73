"""Betting structures as data, the second axis beside the games (`specs.py`): what sizes a bet,
a raise or a completion may take. The replay loop (`core.py`, `forced.py`, `betting.py`), the
generator and the exporters read a structure's facts from `STRUCTURE_SPECS`, never its name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from studdraw.parsers.model import Structure


@dataclass(frozen=True, slots=True)
class StructureSpec:
    """One betting structure.

    title: its name as reports and the dashboard write it.
    limit: bets and raises are sized by the stakes (fixed and spread limit), and capped.
    fixed: every bet and raise is exactly the street's unit (fixed limit).
    pot_divisor: a bet or raise may add at most the pot after the call divided by this (1: pot
        limit; 2: half-pot limit, "a bet or raise at most half the pot"); 0 where the pot
        bounds nothing (fixed, spread and no limit).
    """

    structure: Structure
    title: str
    limit: bool
    fixed: bool
    pot_divisor: int


STRUCTURE_SPECS: Final[dict[Structure, StructureSpec]] = {
    Structure.FIXED: StructureSpec(Structure.FIXED, "Limit", True, True, 0),
    Structure.POT: StructureSpec(Structure.POT, "Pot limit", False, False, 1),
    # Merge's badugi (cash/Merge/Draw/Badugi-HPL-USD-0.50-0.50-201104): the antes make a pot
    # of $1.50, the first bet is $0.75; after it is called, $1.50 into $3.00.
    Structure.HALF_POT: StructureSpec(Structure.HALF_POT, "Half-pot limit", False, False, 2),
    Structure.NO: StructureSpec(Structure.NO, "No limit", False, False, 0),
    Structure.SPREAD: StructureSpec(Structure.SPREAD, "Spread limit", True, False, 0),
}
"""Every structure, in the order reports list them."""


def pot_capped_to(current: int, pot: int, to_call: int, divisor: int) -> int:
    """The largest street total a pot-capped bet or raise may reach: the call, then the pot
    after the call divided by `divisor` (the pot counts every chip in, the bets of this street
    included)."""
    return current + (pot + to_call) // divisor
