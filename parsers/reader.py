"""From paths to parsed hands: sniff each file's room, split it, parse each hand.

This is the parsers stage's whole public surface for the pipeline:
`open_history(path).hand_texts()` streams hand texts, `parse_hand` turns one into a
`ParsedHand`, and `parse_file` chains both.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from studdraw.parsers.dialects import BY_NAME, sniff
from studdraw.parsers.dialects.base import Room
from studdraw.parsers.files import Encoding, read_head
from studdraw.parsers.model import HandText, Outcome, ParsedHand, ParseProblem, SourceRef


@dataclass(slots=True, frozen=True)
class HistoryFile:
    """A hand-history file with its encoding and the room that wrote it (None if unknown)."""

    path: Path
    encoding: Encoding
    room: Room | None
    head: str

    def hand_texts(self) -> Iterator[HandText]:
        """Stream the file's hands. A file no room recognises becomes one unsupported item
        holding its first few thousand characters, so it is counted and never silently lost."""
        if self.room is None:
            yield HandText(self.head, SourceRef(str(self.path), 0, 1), None)
            return
        with self.path.open("rb") as stream:
            yield from self.room.hand_texts(stream, self.encoding, str(self.path))


def open_history(path: Path) -> HistoryFile:
    """Sniff a file; raises OSError when it cannot be read."""
    encoding, head = read_head(path)
    return HistoryFile(path, encoding, sniff(head), head)


def parse_hand(hand: HandText) -> ParsedHand:
    """Parse one hand text with its room's dialect; never raises."""
    room = BY_NAME.get(hand.site) if hand.site else None
    if room is None:
        problem = ParseProblem(
            Outcome.UNSUPPORTED, "no dialect recognises this file", hand.source.line
        )
        return ParsedHand(hand, None, problem=problem)
    return room.parse(hand)


def parse_file(path: Path) -> Iterator[ParsedHand]:
    for hand in open_history(path).hand_texts():
        yield parse_hand(hand)
