"""Violation codes: stable, grouped by family like ruff's rule codes, documented in
docs/violations.md (one section per code, each with a PokerStars hand that triggers it).

Severity "error" means the sequence is impossible under the rules of the game and the room;
"warning" means some room allows it, or the engine cannot check it from what the export shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Severity = Literal["error", "warning"]

ERROR: Final = "error"
WARNING: Final = "warning"


@dataclass(frozen=True, slots=True)
class Violation:
    """One finding of the rules engine, located like a linter message.

    street: index of the betting round in play (as on `Event.street`), None for hand-level checks.
    event_index: position in `HandRecord.events`, None for hand-level checks (pot totals, rake).
    line: the source line of the event, or of the hand's first line for hand-level checks.
    """

    code: str
    severity: Severity
    street: int | None
    event_index: int | None
    line: int
    message: str


@dataclass(frozen=True, slots=True)
class CodeInfo:
    code: str
    severity: Severity
    title: str


def _catalogue(*entries: tuple[str, Severity, str]) -> dict[str, CodeInfo]:
    return {code: CodeInfo(code, severity, title) for code, severity, title in entries}


CODES: Final[dict[str, CodeInfo]] = _catalogue(
    # structure of the hand
    ("STR001", "error", "Street out of order"),
    ("STR002", "error", "Missing bring-in"),
    ("STR003", "error", "Missing big blind"),
    ("STR004", "error", "Action after the hand ended"),
    ("STR005", "error", "Betting round left unfinished"),
    ("STR006", "error", "Hand ends before the last street"),
    ("STR007", "error", "Forced bet out of place"),
    ("STR008", "error", "Missing ante"),
    # order of play
    ("ORD001", "error", "Wrong player to act"),
    ("ORD002", "error", "Action after folding"),
    ("ORD003", "error", "Bring-in by the wrong player"),
    ("ORD004", "error", "Wrong first actor on a later street"),
    ("ORD005", "warning", "Tied boards: first actor differs from the house tie-break"),
    ("ORD006", "error", "Player not in the hand"),
    ("ORD007", "error", "Action while all-in"),
    ("ORD008", "error", "Draw out of turn"),
    ("ORD009", "warning", "Raise after a short all-in that did not reopen the betting"),
    # bet sizes
    ("SIZ001", "error", "Wrong bet size"),
    ("SIZ002", "error", "Wrong bring-in size"),
    ("SIZ003", "error", "Wrong completion size"),
    ("SIZ004", "error", "Wrong call amount"),
    ("SIZ005", "error", "Raise below the minimum"),
    ("SIZ006", "error", "Raise above the limit"),
    ("SIZ007", "error", "Pot-limit overbet"),
    ("SIZ008", "error", "Check facing a bet"),
    ("SIZ009", "error", "Call with nothing to call"),
    ("SIZ010", "error", "Bet facing a bet"),
    ("SIZ011", "error", "Raise with no bet to raise"),
    ("SIZ012", "error", "Wrong ante"),
    ("SIZ013", "error", "Wrong blind"),
    ("SIZ014", "error", "All-in with chips behind"),
    # the raise cap
    ("CAP001", "error", "Raise after the cap"),
    ("CAP002", "warning", "Cap announcement disagrees with the raise count"),
    # cards
    ("CRD001", "error", "Duplicate card"),
    ("CRD002", "error", "Wrong cards for the street"),
    ("CRD003", "error", "Draw count differs from the discard count"),
    ("CRD004", "error", "Discard count out of range"),
    ("CRD005", "error", "Shown cards differ from the cards dealt"),
    ("CRD006", "error", "Cards dealt to a player out of the hand"),
    ("CRD007", "error", "More cards dealt than the deck holds"),
    ("CRD008", "warning", "Community card while the deck could serve every player"),
    ("CRD009", "warning", "Reshuffle disagrees with the deck count"),
    ("CRD010", "error", "Draw outside a draw round"),
    ("CRD011", "error", "Draw names cards the player does not hold"),
    # money
    ("MNY001", "error", "Stack goes negative"),
    ("MNY002", "error", "Total pot differs from the room's"),
    ("MNY003", "error", "Collected plus rake differs from the pot"),
    ("MNY004", "error", "Uncalled bet wrong"),
    ("MNY005", "error", "Collect from a pot the player is not eligible for"),
    ("MNY006", "warning", "Rake above the house model"),
    ("MNY007", "error", "Pot collected beyond its size"),
    ("MNY008", "error", "Rake in a tournament hand"),
    # showdown
    ("SHW001", "error", "Pot awarded to a hand that is not the best"),
    ("SHW002", "error", "Hi/lo split wrong"),
    ("SHW003", "error", "Odd chip to the low half"),
    ("SHW004", "warning", "Winner not checkable"),
    ("SHW005", "error", "Tied hands split unevenly"),
    # parsing (reported by validate, never by replay)
    ("PRS001", "error", "Hand could not be parsed"),
)
