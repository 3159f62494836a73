"""Money as people read it: an amount with its currency, never a bare number.

Every money figure the analytics return comes with a `currency` column (`hands.currency`: an ISO
code for cash games, `PLAY` for play money, `CHIPS` for tournament chips), and every report
writes it with `money_text`, so "$12.50", "€3.00", "1,500 chips" and "200 play money" can never
be read as one number.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Final

SYMBOLS: Final = {"USD": "$", "EUR": "€", "GBP": "£"}
"""Currencies written with a symbol before the amount."""
UNITS: Final = {"PLAY": "play money", "CHIPS": "chips"}
"""Money that is not a currency: written after the amount."""
NAMES: Final = {"PLAY": "play money", "CHIPS": "tournament chips"}


def currency_label(code: str) -> str:
    """What to call a currency in a heading or a picker: "$ (USD)", "tournament chips"."""
    if code in SYMBOLS:
        return f"{SYMBOLS[code]} ({code})"
    return NAMES.get(code, code)


def money_text(value: Decimal | float | int | None, currency: str, *, signed: bool = False) -> str:
    """An amount in currency units with its currency: "$1.25", "-€0.50", "+1,500 chips".
    Chips and play money have no cents worth showing unless the amount has them."""
    if value is None:
        return "-"
    number = Decimal(str(value))
    sign = "-" if number < 0 else "+" if signed and number > 0 else ""
    whole = number == number.to_integral_value()
    digits = f"{abs(number):,.0f}" if whole and currency in UNITS else f"{abs(number):,.2f}"
    if currency in SYMBOLS:
        return f"{sign}{SYMBOLS[currency]}{digits}"
    return f"{sign}{digits} {UNITS.get(currency, currency)}"


def units_text(amount: int, scale: int, currency: str, *, signed: bool = False) -> str:
    """An exact amount of the hand's smallest unit (`scale` per currency unit), as `money_text`
    writes it."""
    return money_text(Decimal(amount) / Decimal(scale), currency, signed=signed)
