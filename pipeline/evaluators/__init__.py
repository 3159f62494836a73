"""Hand evaluators for the stud and draw games.

Every evaluator returns an ``int`` where higher is better, so winners are always picked with
``max()``; equal hands get equal values. Cards are strings like ``"As"``, ``"Td"``, ``"2c"``.
`omaha_high` alone reads two sequences, the player's cards and the board.
A malformed card, a repeated card or a wrong card count raises ``ValueError``: callers
validate hand data first, so reaching an evaluator with bad cards is a programming error.
Lookup tables are built on an evaluator's first call (well under a second), not at import,
and kept in the user's cache folder for later processes (`studdraw.parsers.cache`).
"""

from ._describe import KINDS, describe
from ._hands import badugi, badugi27, high, low8, low27, low_a5, omaha_high

__all__ = [
    "KINDS",
    "badugi",
    "badugi27",
    "describe",
    "high",
    "low8",
    "low27",
    "low_a5",
    "omaha_high",
]
