"""Words that every layer writes to people the same way (the command line, the import's
messages, the dashboard)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Final

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


def duration_text(seconds: float) -> str:
    """A time played as people say it: "2 h 05 min", "45 min"."""
    minutes = round(seconds / 60)
    return f"{minutes // 60:,} h {minutes % 60:02d} min" if minutes >= 60 else f"{minutes} min"


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


def stakes_text(hand: Mapping[str, Any]) -> str:
    """The stakes of a hand (a `hands` row or any mapping with its `structure`, `small_bet`,
    `big_bet`, `small_blind`, `big_blind`, `scale` and `currency`) as the rooms name them: fixed
    and spread limit by the small and big bet ("$0.10/$0.20"), pot, half-pot and no limit by the
    blinds ("$0.05/$0.10"; their bets have no fixed size, and the store keeps the big blind as
    both).
    Chips and play money name the unit once: "10/20 chips". Every label of stakes, in the
    dashboard and the command line, is this one."""
    low, high = hand["small_bet"], hand["big_bet"]
    if hand["structure"] in ("pot", "half_pot", "no") and hand["big_blind"]:
        low, high = hand["small_blind"], hand["big_blind"]
    scale, currency = hand["scale"], hand["currency"]
    if currency in SYMBOLS:
        return f"{units_text(low, scale, currency)}/{units_text(high, scale, currency)}"
    unit = UNITS.get(currency, currency)
    bare = [units_text(amount, scale, currency).removesuffix(f" {unit}") for amount in (low, high)]
    return f"{bare[0]}/{bare[1]} {unit}"
