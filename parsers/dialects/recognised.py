"""Rooms studdraw recognises but cannot read yet.

Each entry knows how to sniff the room's files and where its hands start, so an import counts
every hand of those files as unsupported (with the reason) instead of losing them. Giving a room
a real dialect replaces its entry here.
"""

from __future__ import annotations

import re

from studdraw.parsers.dialects.base import Room
from studdraw.parsers.model import HandText, Outcome, ParsedHand, ParseProblem


class RecognisedRoom(Room):
    """A room without a dialect: sniffing and splitting only; every hand is unsupported."""

    label: str

    def __init__(self, name: str, label: str, hand_start: str, hand_id: str) -> None:
        self.name = name
        self.label = label
        self.hand_start = re.compile(hand_start)
        self.hand_id_pattern = re.compile(hand_id)

    def parse(self, hand: HandText) -> ParsedHand:
        problem = ParseProblem(
            Outcome.UNSUPPORTED, f"no dialect for {self.label} hand histories yet", hand.source.line
        )
        return ParsedHand(hand, self.hand_id(hand.text), problem=problem)


RECOGNISED_ROOMS: tuple[RecognisedRoom, ...] = (
    RecognisedRoom("absolute", "Absolute Poker", r"Stage #\d+:", r"Stage #(?P<hand_id>\d+)"),
    RecognisedRoom(
        "kingsclub",
        "KingsClub",
        r"#\d+: (?:Limit|No Limit|Pot Limit|Fixed Limit) ",
        r"#(?P<hand_id>\d+):",
    ),
    RecognisedRoom(
        "ongame",
        "OnGame",
        r"\*{5} History for hand ",
        r"History for hand (?P<hand_id>[\w-]+)",
    ),
)
