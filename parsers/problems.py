"""Problems: what studdraw finds wrong in what it reads, as data, and the one catalogue of codes.

A problem is one type wherever it is found, located like a linter message (beancount's errors):
its code, the stage that found it, the source file and line, a one-line message, and for what
the replay finds, the street and the event. Its code comes from `Code`, the catalogue of every
code, as in ruff: each code's headline, severity and origin here, its prose (what it means, why
it matters, an example hand) beside it in problems.toml, from which
`studdraw.pipeline.rules.explain` writes docs/violations.md, `studdraw validate --explain CODE`
and the dashboard's codes page. Codes are stable: stores and users' scripts keep them.

Severity "error" means the hand is impossible as printed, under the rules of the game and the
room or as a text (it cannot be read); "warning" means some room allows it, the export does not
show enough to check it, or nothing is lost (an unknown line with neither money nor cards).

Where a problem goes: a warning the reader found stays on the hand's record
(`HandRecord.problems`); what stops a text from becoming a record is its
`ParsedHand.problem`; the replay's are `ReplayResult.problems`. In the store, the problems of a
stored hand are rows of `violations`; a hand that could not be stored is a row of `rejects`,
with its problem's message and line (`kind` says which kind of problem); a hand of a game
outside scope is a row of `unsupported`. (A record's `notes` are not problems: they say what
the reader assumed, such as an unprinted time zone, or which skin printed the hand.)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


class Origin(StrEnum):
    """What a problem tells about the hand: where the wrong comes from."""

    PLAY = "play"  # the play broke the rules of the game or the room
    EXPORT = "export"  # the room printed something impossible: a defect of the export
    SCOPE = "scope"  # a game, hand kind, room or text studdraw does not read: counted, not replayed
    INTERNAL = "internal"  # studdraw failed on the hand: its bug, never blamed on the hand


class Stage(StrEnum):
    """Which stage found a problem."""

    READ = "read"  # cutting a file into hands (studdraw.parsers.files, reader)
    PARSE = "parse"  # a room's reader (studdraw.parsers.rooms)
    REPLAY = "replay"  # the rules engine (studdraw.pipeline.rules)
    IMPORT = "import"  # the import into the store (studdraw.pipeline.importer, store)


ERROR: Final = Severity.ERROR
WARNING: Final = Severity.WARNING
PLAY: Final = Origin.PLAY
EXPORT: Final = Origin.EXPORT
SCOPE: Final = Origin.SCOPE
INTERNAL: Final = Origin.INTERNAL


class Code(StrEnum):
    """Every problem code. The value is the code itself (`Code.SIZ001 == "SIZ001"`)."""

    headline: str
    severity: Severity
    origin: Origin

    def __new__(cls, code: str, headline: str, severity: Severity, origin: Origin) -> Code:
        member = str.__new__(cls, code)
        member._value_ = code
        member.headline = headline
        member.severity = severity
        member.origin = origin
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
    SHW006 = "SHW006", "Hands shown out of order", ERROR, PLAY
    SHW007 = "SHW007", "Pot run twice not shared between the runs", ERROR, PLAY
    # the summary held against the play
    SUM001 = "SUM001", "Summary names the wrong winner", ERROR, EXPORT
    SUM002 = "SUM002", "Summary's amount won differs from the collects", ERROR, EXPORT
    SUM003 = "SUM003", "Summary splits the pot unlike the collects", ERROR, EXPORT
    # the text of the export, as the room's reader found it
    TXT001 = "TXT001", "Unknown line", WARNING, EXPORT
    TXT002 = "TXT002", "Unknown line with money or cards", ERROR, EXPORT
    TXT003 = "TXT003", "Line out of place", ERROR, EXPORT
    TXT004 = "TXT004", "Hand ends early", ERROR, EXPORT
    # parsing
    PRS001 = "PRS001", "Hand could not be parsed", ERROR, EXPORT
    # what a PHH file states beside its actions
    PHH001 = "PHH001", "Finishing stacks differ from the play", ERROR, EXPORT
    PHH002 = "PHH002", "No result stated for a showdown", WARNING, EXPORT
    # the file around the hands, as it is cut into hands
    FIL001 = "FIL001", "Text that starts no room's hand", WARNING, SCOPE
    FIL002 = "FIL002", "Text too long to read", ERROR, EXPORT
    # outside what studdraw reads
    UNS001 = "UNS001", "Game, hand kind or room not read", WARNING, SCOPE
    # the import into the store
    IMP001 = "IMP001", "Amount beyond what the store holds", ERROR, EXPORT
    # studdraw itself
    INT001 = "INT001", "Studdraw failed on this hand", ERROR, INTERNAL


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem, located like a linter message.

    path and line: the source file and the line the problem is at (the hand's first line for a
    problem of the whole hand). street: the betting round in play (as on `Event.street`) and
    event_index: the position in `HandRecord.events`, for what the replay finds at an event;
    None for the rest (the hand's totals, and every problem found before the replay).
    """

    code: Code
    stage: Stage
    path: str
    line: int
    message: str
    street: int | None = None
    event_index: int | None = None

    @property
    def severity(self) -> Severity:
        return self.code.severity

    @property
    def origin(self) -> Origin:
        return self.code.origin


MAX_EXCERPT: Final = 200
"""Characters of a line quoted in a problem's message."""


def quoting(code: Code, text: str) -> str:
    """A message naming a line by its text: the code's headline and the line cut to an excerpt
    (a message is a sentence, even when the line is a megabyte of junk)."""
    text = text.strip()
    if len(text) > MAX_EXCERPT:
        text = text[: MAX_EXCERPT - 1] + "…"
    return f"{code.headline.lower()}: {text!r}"
