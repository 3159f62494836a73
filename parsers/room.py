"""The base of every room in the registry: what a room can do, whatever its files look like.

A room recognises its files (`sniff`), cuts them into hand texts (the shared splitters of
`files.py`, cut at the room's hand starts, or a `split` of its own), reads a hand's id cheaply
from its first line, and parses a hand into a `HandRecord` or its `Problem`, never raising.
Text rooms build on `studdraw.parsers.text.room.TextRoom`, XML rooms on
`studdraw.parsers.xml.room.XmlRoom`; the PHH room is a plain `Room`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import BinaryIO, ClassVar, Final

from studdraw.parsers.chunked import split_stream
from studdraw.parsers.files import (
    LINE_END_BLANKS,
    Encoding,
    Line,
    iter_lines,
    split_lines,
    with_cut_lines,
)
from studdraw.parsers.model import HandText, ParsedHand

HAND_ID_SPAN: Final = 400


class Room:
    """What every room entry in the registry can do: recognise its files, cut them into hand
    texts, read a hand's id cheaply from its first line, and parse a hand (never raising)."""

    name: ClassVar[str]
    title: ClassVar[str | None] = None
    """The room as its players name it ("PokerStars"): a PHH export's `venue`. None for the
    PHH room, whose hands name their own."""
    whole_files: ClassVar[bool] = False
    """Whether the room's files hold its hands only, in a form of their own (XML, PHH): a file
    it sniffs goes to it whole, never searched for other rooms' hand starts line by line."""
    tidy_per_hand: ClassVar[bool] = True
    """Whether `tidy` reads each text on its own (never joins texts): then the hands of a file
    cut at any hand start are those of the whole file (the Dask engine's byte ranges)."""

    @property
    def hand_start(self) -> re.Pattern[str]:
        """Matches at the start of a hand's first line; must not match line ends (no bare \\s).
        A text room's comes from its grammar; the others name theirs."""
        raise NotImplementedError

    def sniff(self, head: str) -> bool:
        """Whether a file whose decoded start is `head` was written by this room."""
        lines = head.splitlines()[:50]
        return any(self.hand_start.match(line.rstrip(LINE_END_BLANKS)) for line in lines)

    def hand_id(self, head: str) -> str | None:
        """The room's hand id read from the start of a hand's text, without parsing the hand.

        `head` is the hand text, or at least its first lines; only its first `HAND_ID_SPAN`
        characters are searched, since rooms print the id in the header.
        """
        raise NotImplementedError

    def split(self, lines: Iterable[Line], path: str) -> Iterator[HandText]:
        """Cut a file's lines into hand texts (the line path, which a file of several rooms
        takes); a room whose hands are not cut at their starts at all overrides this."""
        return self.tidy(split_lines(lines, self.hand_start, path, self.name))

    def tidy(self, hands: Iterator[HandText]) -> Iterator[HandText]:
        """The texts the shared splitter cuts at every hand start, as this room's hands.

        A room whose files hold more than hands (padding, separators between hands) or whose
        hand can open with several hand starts overrides this, and so keeps the shared
        splitters, chunked and line by line, whose texts it gets alike: one step after
        either, so a room's hands never depend on a file's encoding."""
        return hands

    def hand_texts(self, stream: BinaryIO, encoding: Encoding, path: str) -> Iterator[HandText]:
        """Stream a file's hands: the fast chunked splitter unless the room has its own `split`
        (held to the shared splitter's bounds on lines and hands: `with_cut_lines`)."""
        if type(self).split is not Room.split:
            lines = iter_lines(stream, encoding)
            return with_cut_lines(lines, lambda part: self.split(part, path), self.hand_start)
        return self.tidy(split_stream(stream, encoding, self.hand_start, path, self.name))

    def parse(self, hand: HandText) -> ParsedHand:
        raise NotImplementedError
