"""The shared base of every room with a text grammar.

A room's hand texts are read in one pass over their lines (`line_reader.read_lines`):

1. each non-blank line becomes one token, classified by one compiled regular expression built
   from the line terminals of the room's `.lark` grammar (see `lines.py`; the first terminal
   that matches the whole line wins). The token carries its match, so fields are read once, and
   the player it names, pinned to the seat list;
2. the room's reader (a `LineReader`, see `line_reader.py`) handles each token at once, in
   text order, and feeds a `HandBuilder` that turns lines into site-neutral events;
3. the grammar's rules fix the order of a hand's sections (header, seats, forced bets, streets,
   showdown, summary): each token is checked against the table of moves of Lark's LALR parser
   for those rules (`order.py`), and the hand's end likewise.

No line is read silently: a line no terminal knows is a finding (`parsers/findings.py`), a
warning on the record, or an error of the hand when it could carry money or cards. A line in
the wrong place stops the parse with its line number; semantic problems (an unsupported game, a
cancelled hand) raise `HandParseError`. Nothing raises out of `TextRoom.parse`: every hand text
becomes a record or a `ParseProblem`.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, ClassVar, Final

from lark import Lark, Token
from lark.common import LexerConf
from lark.exceptions import UnexpectedToken
from lark.lexer import Lexer

from studdraw.parsers.files import (
    Encoding,
    Line,
    iter_lines,
    split_lines,
    split_stream,
    with_cut_lines,
)
from studdraw.parsers.findings import HAND_ENDS_EARLY, LINE_OUT_OF_PLACE
from studdraw.parsers.model import (
    HandRecord,
    HandText,
    Outcome,
    ParsedHand,
    ParseProblem,
)
from studdraw.parsers.rooms.builder import (
    HandBuilder,
    HandParseError,
    parse_amount,
    parse_card,
    parse_cards,
    parse_local_time,
    to_utc,
)
from studdraw.parsers.rooms.grammar_cache import load_parser
from studdraw.parsers.rooms.line_reader import LineReader, read_lines
from studdraw.parsers.rooms.lines import LineSyntax
from studdraw.parsers.rooms.order import END, SectionOrder
from studdraw.parsers.rooms.tokens import LineToken

__all__ = [  # the helpers every room, text or XML, reads money, cards and times with
    "GRAMMAR_DIR",
    "HandBuilder",
    "HandParseError",
    "LineToken",
    "Room",
    "RoomGrammar",
    "TextRoom",
    "hand_start_pattern",
    "parse_amount",
    "parse_card",
    "parse_cards",
    "parse_local_time",
    "to_utc",
]

GRAMMAR_DIR: Final = Path(__file__).parent
HAND_ID_SPAN: Final = 400


class TokenFeed(Lexer):
    """Lark's lexer for a room grammar: the tokens come ready-made from `read_lines`. Lark's
    parser is only run over them to check `SectionOrder` against it (tests)."""

    def __init__(self, lexer_conf: LexerConf) -> None:
        """Nothing to configure: the tokens are the input."""

    def lex(self, data: Any, *_: Any) -> Iterator[Token]:
        tokens: Iterable[Token] = data
        return iter(tokens)


@dataclass(frozen=True, slots=True)
class RoomGrammar:
    """What a room's `.lark` file defines, read once: the Lark parser (its tables), the line
    kinds and the order of the sections."""

    lark: Lark
    syntax: LineSyntax
    order: SectionOrder

    @classmethod
    def open(cls, path: Path) -> RoomGrammar:
        """The room's grammar, from the per-machine cache when it holds it (grammar_cache)."""
        lark, syntax = load_parser(path, TokenFeed)
        return cls(lark, syntax, SectionOrder(lark))


class Room:
    """What every room entry in the registry can do: recognise its files, cut them into hand
    texts, read a hand's id cheaply from its first line, and parse a hand (never raising)."""

    name: ClassVar[str]
    hand_start: ClassVar[re.Pattern[str]]
    """Matches at the start of a hand's first line; must not match line ends (no bare \\s)."""
    hand_id_pattern: ClassVar[re.Pattern[str]]
    whole_files: ClassVar[bool] = False
    """Whether the room's files hold its hands only, in a form of their own (XML, PHH): a file
    it sniffs goes to it whole, never searched for other rooms' hand starts line by line."""
    tidy_per_hand: ClassVar[bool] = True
    """Whether `tidy` reads each text on its own (never joins texts): then the hands of a file
    cut at any hand start are those of the whole file (the Dask engine's byte ranges)."""

    def sniff(self, head: str) -> bool:
        """Whether a file whose decoded start is `head` was written by this room."""
        return any(self.hand_start.match(line) for line in head.splitlines()[:50])

    def hand_id(self, head: str) -> str | None:
        """The room's hand id read from the start of a hand's text, without parsing the hand.

        `head` is the hand text, or at least its first lines; only its first few hundred
        characters are searched, since rooms print the id in the header.
        """
        found = self.hand_id_pattern.search(head, 0, HAND_ID_SPAN)
        return found.group("hand_id") if found else None

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


class TextRoom(Room):
    """A room whose hands are lines read with a Lark grammar (the XML and PHH rooms are plain
    `Room`s): subclasses name the grammar file and the reader class (a `LineReader`).

    The grammar is read once per room and shared; the reader holds one hand's state while it is
    read, so each thread has its own.
    """

    grammar_file: ClassVar[str]
    reader_class: ClassVar[type[LineReader]]

    def __init__(self) -> None:
        self._local = threading.local()
        self._grammar: RoomGrammar | None = None
        self._loading = threading.Lock()

    @property
    def grammar(self) -> RoomGrammar:
        """The room's grammar (read on first use)."""
        if self._grammar is None:
            with self._loading:
                if self._grammar is None:
                    self._grammar = RoomGrammar.open(GRAMMAR_DIR / self.grammar_file)
        return self._grammar

    @property
    def syntax(self) -> LineSyntax:
        """The line kinds of the room's grammar."""
        return self.grammar.syntax

    def reader(self) -> LineReader:
        """This thread's reader of the room, bound to the grammar's line kinds."""
        reader: LineReader | None = getattr(self._local, "reader", None)
        if reader is None:
            reader = self._local.reader = self.reader_class()
            reader.attach(self.syntax)
        return reader

    def parse(self, hand: HandText) -> ParsedHand:
        """Parse one hand text; never raises. A parsed hand's id comes from its record; a
        failed hand's is read from its text."""
        lines = hand.text.split("\n")
        try:
            record = self._parse_record(hand, lines)
        except HandParseError as failure:
            problem = ParseProblem(
                failure.outcome, failure.message, failure.line, failure.game_label, failure.code
            )
        except UnexpectedToken as error:
            problem = _grammar_problem(error, hand.source.line + len(lines) - 1)
        except Exception as error:  # a reader bug must not stop an import: report it as data
            message = f"internal parser error: {type(error).__name__}: {error}"
            problem = ParseProblem(Outcome.ERROR, message, hand.source.line)
        else:
            return ParsedHand(hand, record.site_hand_id, record=record)
        return ParsedHand(hand, self.hand_id(hand.text), problem=problem)

    def _parse_record(self, hand: HandText, lines: list[str]) -> HandRecord:
        """Read the lines into the record while the grammar checks their order."""
        reader = self.reader()
        reader.begin(hand)
        try:
            self.grammar.order.check(read_lines(reader, lines, hand.source.line))
            return reader.start([])
        finally:
            del reader.b  # nothing of one hand outlives its parse


def _grammar_problem(error: UnexpectedToken, last_line: int) -> ParseProblem:
    """A line out of order as data: a hand that stops too early is reported at its last line
    (where the text ends), a line out of place at that line."""
    token = error.token
    if token.type == END:
        expected = ", ".join(sorted(error.expected)[:6])
        message = f"hand ends early (truncated?): expected {expected}"
        return ParseProblem(Outcome.ERROR, message, last_line, code=HAND_ENDS_EARLY.code)
    assert isinstance(token, LineToken)  # the order is only ever checked on line tokens
    return ParseProblem(
        Outcome.ERROR,
        f"line out of place ({token.type}): {token.strip()!r}",
        token.number,
        code=LINE_OUT_OF_PLACE.code,
    )


def hand_start_pattern(*prefixes: str) -> re.Pattern[str]:
    """A hand-start matcher for headers beginning with one of the given literal prefixes,
    tolerating a stray byte-order mark left at the start of a line."""
    return re.compile("\ufeff?(?:" + "|".join(re.escape(prefix) for prefix in prefixes) + ")")
