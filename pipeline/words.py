"""Words that every layer writes to people the same way (the command line, the import's
messages, the dashboard)."""

from __future__ import annotations

from decimal import Decimal
from typing import Final

SYMBOLS: Final = {"USD": "$", "EUR": "€", "GBP": "£"}
"""Currencies written with a symbol before the amount."""
UNITS: Final = {"PLAY": "play money", "CHIPS": "chips"}
"""Money that is not a currency: written after the amount."""


def plural(count: int, noun: str) -> str:
    """The count with its noun, singular or plural: "1 warning", "3 warnings", "2 summaries"
    (the last word takes the plural)."""
    if count == 1:
        return f"{count:,} {noun}"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "o", "u"):
        return f"{count:,} {noun[:-1]}ies"
    return f"{count:,} {noun}s"


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
    writes it: what every message about a hand's money says ("$1.70", never "170")."""
    return money_text(Decimal(amount) / Decimal(scale), currency, signed=signed)
