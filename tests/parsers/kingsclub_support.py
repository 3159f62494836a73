"""What both halves of the KingsClub tests read: a corpus hand's record, and each player's
net as the room's summary prints it."""

from __future__ import annotations

import re

from studdraw.parsers.model import HandRecord
from studdraw.parsers.reader import parse_file
from tests.conftest import corpus_file

FOLDER = ("cash", "KingsClub")
_SUMMARY_NET = re.compile(r"^Seat \d+: (?P<player>.+) \([\d,.]+\) (?P<net>[+-][\d,.]+)$", re.M)


def corpus_record(*parts: str) -> HandRecord:
    [parsed] = parse_file(corpus_file(*FOLDER, *parts))
    assert parsed.record is not None, parsed.problem
    return parsed.record


def summary_nets(text: str) -> dict[str, int]:
    """Each player's net as the room's summary prints it ("Seat 1: Player0 (2,079.98) -66.32"),
    in cents, read here independently of the room's reader."""
    return {
        found["player"]: round(float(found["net"].replace(",", "")) * 100)
        for found in _SUMMARY_NET.finditer(text)
    }
