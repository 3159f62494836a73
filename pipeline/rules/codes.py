"""Violation codes, one source per code as in ruff: the `Code` enum names every code with its
headline, severity and family, and the prose of each (what it means, why it matters, a hand that
triggers it) sits beside it in `codes.toml`, from which `explain.py` writes docs/violations.md,
`studdraw validate --explain CODE` and the dashboard's codes page.

Severity "error" means the sequence is impossible under the rules of the game and the room;
"warning" means some room allows it, or the engine cannot check it from what the export shows.

Family "play" means the play broke the rules (an action, a forced bet, a deal or an award that
the rules of the game and the room forbid); "export" means the room printed something that
cannot have happened at any table (a card twice, a player acting after folding or while all-in,
amounts that do not add up, text that cannot be parsed): the export is broken, not the play.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final, Literal

from studdraw.parsers.findings import (
    HAND_ENDS_EARLY,
    LINE_OUT_OF_PLACE,
    UNKNOWN_LINE,
    UNKNOWN_MONEY_LINE,
    Finding,
    FindingCode,
)
from studdraw.parsers.findings import Severity as FindingSeverity

Severity = Literal["error", "warning"]

ERROR: Final = "error"
WARNING: Final = "warning"


class Family(StrEnum):
    """What a violation tells about the hand."""

    PLAY = "play"  # the play broke the rules of the game or the room
    EXPORT = "export"  # the room printed something impossible: a defect of the export


PLAY: Final = Family.PLAY
EXPORT: Final = Family.EXPORT


def _text(finding: FindingCode) -> tuple[str, str, Severity, Family]:
    """A reader's finding code as a violation code: its identity stays in parsers/findings.py."""
    severity: Severity = ERROR if finding.severity is FindingSeverity.ERROR else WARNING
    return finding.code, finding.title.capitalize(), severity, EXPORT


class Code(StrEnum):
    """Every violation code. The value is the code itself (`Code.SIZ001 == "SIZ001"`)."""

    headline: str
    severity: Severity
    family: Family

    def __new__(cls, code: str, headline: str, severity: Severity, family: Family) -> Code:
        member = str.__new__(cls, code)
        member._value_ = code
        member.headline = headline
        member.severity = severity
        member.family = family
        return member

    # structure of the hand
    STR001 = "STR001", "Street out of order", ERROR, EXPORT
    STR002 = "STR002", "Missing bring-in", ERROR, PLAY
    STR003 = "STR003", "Missing big blind", ERROR, PLAY
    STR004 = "STR004", "Action after the hand ended", ERROR, EXPORT
    STR005 = "STR005", "Betting round left unfinished", ERROR, PLAY
    STR006 = "STR006", "Hand ends before the last street", ERROR, EXPORT
    STR007 = "STR007", "Forced bet out of place", ERROR, PLAY
    STR008 = "STR008", "Missing ante", ERROR, PLAY
    STR009 = "STR009", "More players than the game seats", ERROR, EXPORT
    # order of play
    ORD001 = "ORD001", "Wrong player to act", ERROR, PLAY
    ORD002 = "ORD002", "Action after folding", ERROR, EXPORT
    ORD003 = "ORD003", "Bring-in by the wrong player", ERROR, PLAY
    ORD004 = "ORD004", "Wrong first actor on a later street", ERROR, PLAY
    ORD005 = "ORD005", "Tied boards: first actor differs from the house tie-break", WARNING, PLAY
    ORD006 = "ORD006", "Player not in the hand", ERROR, EXPORT
    ORD007 = "ORD007", "Action while all-in", ERROR, EXPORT
    ORD008 = "ORD008", "Draw out of turn", ERROR, PLAY
    ORD009 = "ORD009", "Raise after a short all-in that did not reopen the betting", WARNING, PLAY
    ORD010 = "ORD010", "Blind out of position", ERROR, PLAY
    # bet sizes
    SIZ001 = "SIZ001", "Wrong bet size", ERROR, PLAY
    SIZ002 = "SIZ002", "Wrong bring-in size", ERROR, PLAY
    SIZ003 = "SIZ003", "Wrong completion size", ERROR, PLAY
    SIZ004 = "SIZ004", "Wrong call amount", ERROR, PLAY
    SIZ005 = "SIZ005", "Raise below the minimum", ERROR, PLAY
    SIZ006 = "SIZ006", "Raise above the limit", ERROR, PLAY
    SIZ007 = "SIZ007", "Pot-limit overbet", ERROR, PLAY
    SIZ008 = "SIZ008", "Check facing a bet", ERROR, PLAY
    SIZ009 = "SIZ009", "Call with nothing to call", ERROR, PLAY
    SIZ010 = "SIZ010", "Bet facing a bet", ERROR, PLAY
    SIZ011 = "SIZ011", "Raise with no bet to raise", ERROR, PLAY
    SIZ012 = "SIZ012", "Wrong ante", ERROR, PLAY
    SIZ013 = "SIZ013", "Wrong blind", ERROR, PLAY
    SIZ014 = "SIZ014", "All-in with chips behind", ERROR, EXPORT
    SIZ015 = "SIZ015", "Raise with every opponent all-in", ERROR, PLAY
    # the raise cap
    CAP001 = "CAP001", "Raise after the cap", ERROR, PLAY
    CAP002 = "CAP002", "Cap announcement disagrees with the raise count", WARNING, EXPORT
    # cards
    CRD001 = "CRD001", "Duplicate card", ERROR, EXPORT
    CRD002 = "CRD002", "Wrong cards for the street", ERROR, PLAY
    CRD003 = "CRD003", "Draw count differs from the discard count", ERROR, EXPORT
    CRD004 = "CRD004", "Discard count out of range", ERROR, PLAY
    CRD005 = "CRD005", "Shown cards differ from the cards dealt", ERROR, EXPORT
    CRD006 = "CRD006", "Cards dealt to a player out of the hand", ERROR, EXPORT
    CRD007 = "CRD007", "More cards dealt than the deck holds", ERROR, PLAY
    CRD008 = "CRD008", "Community card while the deck could serve every player", WARNING, PLAY
    CRD009 = "CRD009", "Reshuffle disagrees with the deck count", WARNING, PLAY
    CRD010 = "CRD010", "Draw outside a draw round", ERROR, EXPORT
    CRD011 = "CRD011", "Draw names cards the player does not hold", ERROR, EXPORT
    # money
    MNY001 = "MNY001", "Stack goes negative", ERROR, EXPORT
    MNY002 = "MNY002", "Total pot differs from the room's", ERROR, EXPORT
    MNY003 = "MNY003", "Collected plus rake differs from the pot", ERROR, EXPORT
    MNY004 = "MNY004", "Uncalled bet wrong", ERROR, PLAY
    MNY005 = "MNY005", "Collect from a pot the player is not eligible for", ERROR, PLAY
    MNY006 = "MNY006", "Rake above the house model", WARNING, PLAY
    MNY007 = "MNY007", "Pot collected beyond its size", ERROR, EXPORT
    MNY008 = "MNY008", "Rake in a tournament hand", ERROR, PLAY
    # showdown
    SHW001 = "SHW001", "Pot awarded to a hand that is not the best", ERROR, PLAY
    SHW002 = "SHW002", "Hi/lo split wrong", ERROR, PLAY
    SHW003 = "SHW003", "Odd chip to the low half", ERROR, PLAY
    SHW004 = "SHW004", "Winner not checkable", WARNING, EXPORT
    SHW005 = "SHW005", "Tied hands split unevenly", ERROR, PLAY
    # the text of the export, as the room's reader found it (parsers/findings.py)
    TXT001 = _text(UNKNOWN_LINE)
    TXT002 = _text(UNKNOWN_MONEY_LINE)
    TXT003 = _text(LINE_OUT_OF_PLACE)
    TXT004 = _text(HAND_ENDS_EARLY)
    # parsing (reported by validate, never by replay)
    PRS001 = "PRS001", "Hand could not be parsed", ERROR, EXPORT


@dataclass(frozen=True, slots=True)
class Violation:
    """One finding of the rules engine, located like a linter message.

    street: index of the betting round in play (as on `Event.street`), None for hand-level checks.
    event_index: position in `HandRecord.events`, None for hand-level checks (pot totals, rake).
    line: the source line of the event, or of the hand's first line for hand-level checks.
    """

    code: Code
    severity: Severity
    street: int | None
    event_index: int | None
    line: int
    message: str

    @property
    def family(self) -> Family:
        return self.code.family


def from_finding(finding: Finding) -> Violation:
    """A reader's finding on a parsed hand as a violation of the hand (no street, no event)."""
    code = Code[finding.code]  # the member of that name (names are the codes)
    return Violation(code, code.severity, None, None, finding.line, finding.message)
