"""The shared base of every room with a text grammar.

A room's hand texts are read in one pass over their lines (`classify.read_lines`):

1. each non-blank line becomes one token, classified by one compiled regular expression built
   from the line terminals of the room's `.lark` grammar (see `lines.py`; the first terminal
   that matches the whole line wins). The token carries its match, so fields are read once, and
   the player it names, pinned to the seat list;
2. the room's reader (a `LineReader`, see `line_reader.py`) handles each token at once, in
   text order, and feeds a `HandBuilder` that turns lines into room-neutral events;
3. the grammar's rules fix the order of a hand's sections (header, seats, forced bets, streets,
   showdown, summary): each token is checked against the table of moves of Lark's LALR parser
   for those rules (`order.py`), and the hand's end likewise.

No line is read silently: a line no terminal knows is a problem (`parsers/problems.py`): a
warning on the record, or an error of the hand when it could carry money or cards. A line in
the wrong place stops the parse with its line number; semantic problems (an unsupported game, a
cancelled hand) raise `HandParseError`. Nothing raises out of `TextRoom.parse`: every hand text
becomes a record or a `Problem`.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Final

from lark import Lark, Token
from lark.common import LexerConf
from lark.exceptions import UnexpectedToken
from lark.lexer import Lexer

from studdraw.parsers.builder import HandParseError
from studdraw.parsers.model import HandRecord, HandText, ParsedHand
from studdraw.parsers.problems import Code, Problem, Stage
from studdraw.parsers.room import HAND_ID_SPAN, Room
from studdraw.parsers.text.classify import read_lines
from studdraw.parsers.text.grammar_cache import load_opening, load_parser
from studdraw.parsers.text.line_reader import LineReader
from studdraw.parsers.text.lines import LineSyntax, Opening
from studdraw.parsers.text.order import END, SectionOrder
from studdraw.parsers.text.tokens import LineToken

GRAMMAR_DIR: Final = Path(__file__).parents[1] / "rooms"
"""Where the rooms' grammars are (each beside its room's module)."""


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
    kinds, the order of the sections and how a hand opens."""

    lark: Lark
    syntax: LineSyntax
    order: SectionOrder
    opening: Opening

    @classmethod
    def open(cls, path: Path) -> RoomGrammar:
        """The room's grammar, from the per-machine cache when it holds it (grammar_cache)."""
        lark, syntax, opening = load_parser(path, TokenFeed)
        return cls(lark, syntax, SectionOrder(lark), opening)


class TextRoom(Room):
    """A room whose hands are lines read with a Lark grammar (the XML and PHH rooms are plain
    `Room`s): subclasses name the grammar file and the reader class (a `LineReader`). The
    grammar declares everything about the room's text, its hand start and hand id included.

    The grammar is read once per room and shared; the reader holds one hand's state while it is
    read, so each thread has its own.
    """

    grammar_file: ClassVar[str]
    reader_class: ClassVar[type[LineReader]]

    def __init__(self) -> None:
        self._local = threading.local()
        self._grammar: RoomGrammar | None = None
        self._opening: tuple[re.Pattern[str], re.Pattern[str]] | None = None
        self._loading = threading.Lock()

    @property
    def hand_start(self) -> re.Pattern[str]:
        """The grammar's `hand_start`: where the splitters cut the room's files."""
        return (self._opening or self._open())[0]

    def hand_id(self, head: str) -> str | None:
        """The part `id` of the grammar's `hand_id` terminals, searched in the start of a hand's
        text without parsing the hand."""
        found = (self._opening or self._open())[1].search(head, 0, HAND_ID_SPAN)
        if found is None:
            return None
        return next((part for part in found.groupdict().values() if part is not None), None)

    def openings(self) -> list[Opening]:
        """How the room's hands open: its grammar's opening (from the cache when it holds it,
        without loading the parser: sniffing a file needs every room's hand start)."""
        opening = None if self._grammar else load_opening(GRAMMAR_DIR / self.grammar_file)
        return [opening or self.grammar.opening]

    def _open(self) -> tuple[re.Pattern[str], re.Pattern[str]]:
        starts, ids, numbered = [], [], 0
        for opening in self.openings():
            starts.append(f"(?:{opening.hand_start})")
            ids.append(opening.hand_id_pattern(numbered))
            numbered += len(opening.hand_ids)
        self._opening = (re.compile("|".join(starts)), re.compile("|".join(ids)))
        return self._opening

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
            reader = self._local.reader = self.reader_class(self.name)
            reader.attach(self.syntax)
        return reader

    def parse(self, hand: HandText) -> ParsedHand:
        """Parse one hand text; never raises. A parsed hand's id comes from its record; a
        failed hand's is read from its text."""
        lines = hand.text.split("\n")
        try:
            record = self._parse_record(hand, lines)
        except HandParseError as failure:
            problem = failure.problem(hand.source.path)
            return ParsedHand(hand, self.hand_id(hand.text), None, problem, failure.game_label)
        except UnexpectedToken as error:
            problem = _grammar_problem(error, hand.source.path, hand.source.line + len(lines) - 1)
        except Exception as error:  # a reader bug must not stop an import: report it as data
            message = f"internal parser error: {type(error).__name__}: {error}"
            problem = Problem(Code.INT001, Stage.PARSE, hand.source.path, hand.source.line, message)
        else:
            return ParsedHand(hand, record.room_hand_id, record=record)
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


def _grammar_problem(error: UnexpectedToken, path: str, last_line: int) -> Problem:
    """A line out of order as data: a hand that stops too early is reported at its last line
    (where the text ends), a line out of place at that line."""
    token = error.token
    if token.type == END:
        expected = ", ".join(sorted(error.expected)[:6])
        message = f"hand ends early (truncated?): expected {expected}"
        return Problem(Code.TXT004, Stage.PARSE, path, last_line, message)
    assert isinstance(token, LineToken)  # the order is only ever checked on line tokens
    message = f"line out of place ({token.type}): {token.strip()!r}"
    return Problem(Code.TXT003, Stage.PARSE, path, token.number, message)
