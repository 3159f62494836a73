"""Parse findings: what a room's reader noticed in a hand's text, with stable codes.

A room reads no line silently. A line that no line kind of the room knows is a finding: a
warning kept on the record when it cannot carry money or cards (no digit, no bracket once the
seated names are taken out), else an error that rejects the hand, since reading on could get
the money or the cards wrong. Codes are stable, like the rules engine's violation codes, and
reach the store: warnings as rows of `violations`, errors as the reason of a `rejects` row.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class Severity(StrEnum):
    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class FindingCode:
    """A finding's identity. Its prose (meaning, why, an example hand) is documented with the
    rules engine's codes in pipeline/rules/codes.toml, where `Code.TXT...` takes these."""

    code: str
    severity: Severity
    title: str


UNKNOWN_LINE: Final = FindingCode(
    "TXT001",
    Severity.WARNING,
    "unknown line",
)
UNKNOWN_MONEY_LINE: Final = FindingCode(
    "TXT002",
    Severity.ERROR,
    "unknown line with money or cards",
)
LINE_OUT_OF_PLACE: Final = FindingCode(
    "TXT003",
    Severity.ERROR,
    "line out of place",
)
HAND_ENDS_EARLY: Final = FindingCode(
    "TXT004",
    Severity.ERROR,
    "hand ends early",
)
MAX_EXCERPT: Final = 200
"""Characters of an unknown line quoted in a finding's message."""
CODES: Final = {
    c.code: c for c in (UNKNOWN_LINE, UNKNOWN_MONEY_LINE, LINE_OUT_OF_PLACE, HAND_ENDS_EARLY)
}


@dataclass(frozen=True, slots=True)
class Finding:
    """One finding on a parsed hand: its code, the source line and the raw text of the line."""

    code: str
    severity: Severity
    line: int
    text: str

    @property
    def message(self) -> str:
        """The title and the line, the line cut to an excerpt: a message is a sentence, even
        when the line is a megabyte of junk."""
        text = self.text.strip()
        if len(text) > MAX_EXCERPT:
            text = text[: MAX_EXCERPT - 1] + "…"
        return f"{CODES[self.code].title}: {text!r}"
