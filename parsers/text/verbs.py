"""What a room's verb table says of each action verb it prints (`LineReader.verbs`): the
action, and how its amount reads; the verbs most rooms print alike are named once here."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from studdraw.parsers.model import EventKind


class Reads(Enum):
    """How an action line states its amount."""

    NOTHING = "nothing"  # folds, checks
    PUT_IN = "put in"  # the chips this action adds ("calls 2", "bets 4")
    TOTAL_TO = "total to"  # the player's street total after it ("raises 2 to 4", "raises to 4")


@dataclass(frozen=True, slots=True)
class Verb:
    """One entry of a room's verb table. `quirk` names a method of the room's reader that
    reads the line itself, for a verb that says more than an action (Party's "double bets")."""

    kind: EventKind
    reads: Reads = Reads.PUT_IN
    quirk: str | None = None


FOLD: Final = Verb(EventKind.FOLD, Reads.NOTHING)
CHECK: Final = Verb(EventKind.CHECK, Reads.NOTHING)
CALL: Final = Verb(EventKind.CALL)
BET: Final = Verb(EventKind.BET)
RAISE_TO: Final = Verb(EventKind.RAISE, Reads.TOTAL_TO)
COMPLETE_TO: Final = Verb(EventKind.COMPLETE, Reads.TOTAL_TO)
BRING_IN: Final = Verb(EventKind.BRING_IN)
