"""The one pass over a hand's lines that every text room makes: classify each line, pin the
player it names, run the room reader's handler for its kind (`line_reader.LineReader`), and
yield the tokens whose order the room's grammar checks."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from studdraw.parsers.builder import HandParseError
from studdraw.parsers.problems import Code, quoting
from studdraw.parsers.text.tokens import LineToken

if TYPE_CHECKING:
    from studdraw.parsers.text.line_reader import LineReader

_ENDLESS_NUMBER: Final = re.compile(r"\d{65}")
"""A run of digits longer than any number a room prints (amounts beyond 64 bits are 20): the
line's patterns would take time cubic in it (a 24 KB header of such runs: 151 s of CPU), so
such a line is the hand's error without them."""
LONGEST_LINE: Final = 4096
"""Characters in the longest line the line patterns are tried on: four times the longest line
of any text room in the corpus (1,051). Their time grows faster than a line's length (a fuzz
input's 32 KB PokerStars header padded with NULs: 25 s of CPU), so a longer line is an
unknown line without them (the hand's error if it holds money or cards, else a warning)."""


def line_token(
    kind: str, text: str, found: re.Match[str], number: int, parts: frozenset[str]
) -> LineToken:
    """A line's token (built without an `__init__` call: this runs once per line)."""
    token: LineToken = str.__new__(LineToken, text)
    token.type = kind
    token.match = found
    token.number = number
    token.parts = parts
    token.player = None
    return token


def read_lines(reader: LineReader, lines: list[str], number: int) -> Iterator[LineToken]:
    """Classify each non-blank line of a hand (the first at file line `number`), pin the player
    it names and run the reader's handler for its kind, in text order; yield the tokens whose
    order the grammar checks.

    The grammar places some kinds singly (header, street markers); every other kind only ever
    repeats (`LineSyntax.repeating`, read from the rules). A run of consecutive lines of such a
    kind yields a single token (each line still goes through its handler): the grammar accepts
    exactly the same hands, with a third of the steps.
    """
    syntax = reader.syntax
    classify = syntax.classifier.match
    matchers = syntax.matchers
    parts_of = syntax.parts
    with_player = syntax.with_player
    repeating = syntax.repeating
    handlers = reader.handlers
    names, prefixes = reader.b.names, reader.b.prefixes  # filled as the seat lines are read
    previous = ""
    for text in lines:
        if text and not text.isspace():
            if _ENDLESS_NUMBER.search(text):
                raise HandParseError(quoting(Code.TXT002, text), number, code=Code.TXT002)
            found = classify(text) if len(text) <= LONGEST_LINE else None
            token: LineToken | None
            if found is not None:
                kind = found.lastgroup or ""
                own = matchers[kind](text)
                assert own is not None  # the same pattern, with capturing groups
                token = line_token(kind, text, own, number, parts_of[kind])
                if kind in with_player:
                    player = own["player"]
                    if player in names and player not in prefixes:
                        token.player = player  # the common case: a seated name
                    else:
                        kind = reader.pin(token)
            else:  # a problem, or a line whose seated player broke the classifier's guess
                token = reader.unknown_line(text, number)
                kind = "" if token is None else token.type
            if token is not None:
                handlers[kind](token)
                if kind != previous or kind not in repeating:
                    yield token
                previous = kind
        number += 1
