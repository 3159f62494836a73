"""Money as people read it: an amount with its currency, never a bare number.

Every money figure the analytics return comes with a `currency` column (`hands.currency`: an ISO
code for cash games, `PLAY` for play money, `CHIPS` for tournament chips), and every report
writes it with `money_text`, so "$12.50", "€3.00", "1,500 chips" and "200 play money" can never
be read as one number.
"""

from __future__ import annotations

from typing import Final

from studdraw.pipeline.words import SYMBOLS, UNITS, money_text, units_text

__all__ = ["NAMES", "SYMBOLS", "UNITS", "currency_label", "money_text", "units_text"]

NAMES: Final = {"PLAY": "play money", "CHIPS": "tournament chips"}


def currency_label(code: str) -> str:
    """What to call a currency in a heading or a picker: "$ (USD)", "tournament chips"."""
    if code in SYMBOLS:
        return f"{SYMBOLS[code]} ({code})"
    return NAMES.get(code, code)
