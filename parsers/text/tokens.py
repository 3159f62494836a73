"""A hand's line as the reader hands it on: its own module, since mypyc compiles the reader
but cannot compile a subclass of `str` (setup.py)."""

from __future__ import annotations

import re


class LineToken(str):
    """One whole line of a hand (the str is its text): its kind (`type`), the match of its
    kind's own pattern, its line number, and the player it names, pinned to the seat list.

    Lark's parser takes it as a token (it reads `type`); the positions Lark copies onto its
    end-of-input token are class defaults, since lines have no column.
    """

    __slots__ = ("match", "number", "parts", "player", "type")
    type: str  # the line kind: the name of its terminal in the room's grammar
    match: re.Match[str]  # the match of the line's kind's own pattern
    number: int  # the line's number in the source file
    parts: frozenset[str]  # the named groups of that pattern
    player: str | None  # the player the line names, pinned to the seat list
    line = end_line = column = end_column = start_pos = end_pos = None

    def field(self, part: str) -> str | None:
        """A part of the line by its name (`amount`, `cards`); None when the line's terminal
        has no such part or the line leaves it out."""
        return self.match[part] if part in self.parts else None
