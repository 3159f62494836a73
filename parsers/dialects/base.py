"""The shared base of every room with a text grammar.

A room's hand texts are parsed in two layers:

1. a line lexer: each non-blank line becomes exactly one token, classified by one compiled
   regular expression built from the line terminals of the room's `.lark` grammar (see
   `lines.py`; the first terminal that matches the whole line wins). The token carries its
   match, so fields are read once, and the player it names, pinned to the seat list;
2. a Lark LALR grammar over those line tokens that fixes the order of a hand's sections
   (header, seats, forced bets, streets, showdown, summary). The room's reader (a
   `DialectTransformer`, see `transformer.py`) handles each token as it is lexed, in text order,
   and feeds a `HandBuilder` that turns lines into site-neutral events.

No line is read silently: a line no terminal knows is a finding (`parsers/findings.py`), a
warning on the record, or an error of the hand when it could carry money or cards. A line in
the wrong place stops the parse with its line number; semantic problems (an unsupported game, a
cancelled hand) raise `HandParseError`. Nothing raises out of `Dialect.parse`: every hand text
becomes a record or a `ParseProblem`.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, ClassVar, Final

from lark import Lark, Token
from lark.common import LexerConf
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer

from studdraw.parsers.dialects.builder import (
    HandBuilder,
    HandParseError,
    parse_amount,
    parse_card,
    parse_cards,
    parse_local_time,
    to_utc,
)
from studdraw.parsers.dialects.grammar_cache import load_parser
from studdraw.parsers.dialects.lines import LineSyntax
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
    SourceRef,
)

if TYPE_CHECKING:
    from studdraw.parsers.dialects.transformer import DialectTransformer

__all__ = [  # the helpers every room, text or XML, reads money, cards and times with
    "GRAMMAR_DIR",
    "Dialect",
    "HandBuilder",
    "HandLines",
    "HandParseError",
    "LineLexer",
    "LineToken",
    "Room",
    "hand_start_pattern",
    "line_token",
    "parse_amount",
    "parse_card",
    "parse_cards",
    "parse_local_time",
    "to_utc",
]

GRAMMAR_DIR: Final = Path(__file__).parent
HAND_ID_SPAN: Final = 400


class LineToken(Token):
    """A Lark token for one whole line, carrying the match of its line terminal."""

    __slots__ = ("match", "number", "parts", "player")
    match: re.Match[str]  # the match of the line's kind's own pattern
    number: int  # the line's number in the source file
    parts: frozenset[str]  # the named groups of that pattern
    player: str | None  # the player the line names, pinned to the seat list

    def field(self, part: str) -> str | None:
        """A part of the line by its name (`amount`, `cards`); None when the line's terminal
        has no such part or the line leaves it out."""
        return self.match[part] if part in self.parts else None


def line_token(
    kind: str, text: str, found: re.Match[str], number: int, parts: frozenset[str]
) -> LineToken:
    """Build a token without Lark's `Token.__new__`, whose keyword-compatibility shim costs a
    third of the lexer's time; the fields Lark reads (type, value, position) are all set."""
    token: LineToken = str.__new__(LineToken, text)
    token.type = kind
    token.value = text
    token.match = found
    token.number = number
    token.parts = parts
    token.player = None
    token.line = token.end_line = number
    token.column = token.end_column = 1
    token.start_pos = token.end_pos = 0
    return token


class HandLines:
    """The lexer's input: a hand's lines, the file line number of the first one, and the
    room's reader that handles each line as it is lexed."""

    __slots__ = ("first_line", "lines", "reader")

    def __init__(self, lines: list[str], first_line: int, reader: DialectTransformer) -> None:
        self.lines = lines
        self.first_line = first_line
        self.reader = reader


class LineLexer(Lexer):
    """Classifies each non-blank line, pins the player it names and runs the reader's handler
    for its kind, so handlers see the lines in text order.

    The grammar places some kinds singly (header, street markers); every other kind only ever
    repeats (`LineSyntax.repeating`, read from the rules). A run of consecutive lines of such a
    kind is fed to the parser as a single token (each line still goes through its handler): the
    grammar accepts exactly the same hands, with a third of the parser steps.
    """

    def __init__(self, lexer_conf: LexerConf) -> None:
        """Everything the lexer needs comes with its input (`HandLines.reader`)."""

    def lex(self, data: Any, *_: Any) -> Iterator[Token]:
        hand: HandLines = data
        reader = hand.reader
        syntax = reader.syntax
        classify = syntax.classifier.match
        matchers = syntax.matchers
        parts_of = syntax.parts
        with_player = syntax.with_player
        repeating = syntax.repeating
        handlers = reader.handlers
        names, prefixes = reader.b.names, reader.b.prefixes  # filled as the seat lines are read
        number = hand.first_line
        previous = ""
        for text in hand.lines:
            if text and not text.isspace():
                found = classify(text)
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
                else:  # a finding, or a line whose seated player broke the classifier's guess
                    token = reader.unknown_line(text, number)
                    kind = "" if token is None else token.type
                if token is not None:
                    handlers[kind](token)
                    if kind != previous or kind not in repeating:
                        yield token
                    previous = kind
            number += 1


class Room:
    """What every room entry in the registry can do: recognise its files, cut them into hand
    texts, read a hand's id cheaply from its first line, and parse a hand (never raising)."""

    name: str
    hand_start: re.Pattern[str]
    """Matches at the start of a hand's first line; must not match line ends (no bare \\s)."""
    hand_id_pattern: re.Pattern[str]
    whole_files: bool = False
    """Whether the room's files hold its hands only, in a form of their own (XML, PHH): a file
    it sniffs goes to it whole, never searched for other rooms' hand starts line by line."""

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
        """Cut a file's lines into hand texts; rooms with other hand boundaries override this."""
        return split_lines(lines, self.hand_start, path, self.name)

    def hand_texts(self, stream: BinaryIO, encoding: Encoding, path: str) -> Iterator[HandText]:
        """Stream a file's hands: the fast chunked splitter unless the room has its own `split`
        (held to the shared splitter's bounds on lines and hands: `with_cut_lines`)."""
        if type(self).split is not Room.split:
            lines = iter_lines(stream, encoding)
            return with_cut_lines(lines, lambda part: self.split(part, path), self.hand_start)
        return split_stream(stream, encoding, self.hand_start, path, self.name)

    def parse(self, hand: HandText) -> ParsedHand:
        raise NotImplementedError


class Dialect(Room):
    """A room with a text grammar: subclasses name the grammar file and the reader class.

    The Lark parser is built once per thread (its inline callbacks hold per-parse state) and
    reused for every hand; the line syntax read from the grammar is shared by all threads.
    """

    grammar_file: ClassVar[str]
    transformer: ClassVar[type[DialectTransformer]]

    def __init__(self) -> None:
        self._local = threading.local()
        self._syntax: LineSyntax | None = None

    @property
    def syntax(self) -> LineSyntax:
        """The line kinds of the room's grammar (builds the parser on first use)."""
        return self._parser()[1].syntax

    def _parser(self) -> tuple[Lark, DialectTransformer]:
        cached: tuple[Lark, DialectTransformer] | None = getattr(self._local, "parser", None)
        if cached is None:
            reader = self.transformer()
            grammar = GRAMMAR_DIR / self.grammar_file
            lark, self._syntax = load_parser(grammar, LineLexer, reader, self._syntax)
            reader.attach(self._syntax)
            cached = (lark, reader)
            self._local.parser = cached
        return cached

    def parse(self, hand: HandText) -> ParsedHand:
        """Parse one hand text; never raises."""
        lines = hand.text.split("\n")
        site_hand_id = self.hand_id(hand.text)
        try:
            record = self._parse_record(hand, lines)
        except HandParseError as failure:
            problem = ParseProblem(
                failure.outcome, failure.message, failure.line, failure.game_label, failure.code
            )
            return ParsedHand(hand, site_hand_id, problem=problem)
        except UnexpectedInput as error:
            last_line = hand.source.line + len(lines) - 1
            problem = _grammar_problem(error, hand.source, last_line)
            return ParsedHand(hand, site_hand_id, problem=problem)
        except Exception as error:  # a reader bug must not stop an import: report it as data
            message = f"internal parser error: {type(error).__name__}: {error}"
            return ParsedHand(
                hand, site_hand_id, problem=ParseProblem(Outcome.ERROR, message, hand.source.line)
            )
        return ParsedHand(hand, record.site_hand_id, record=record)

    def _parse_record(self, hand: HandText, lines: list[str]) -> HandRecord:
        lark, reader = self._parser()
        reader.begin(hand)
        try:
            # With an inline transformer, Lark returns what the `start` callback returns.
            record = lark.parse(HandLines(lines, hand.source.line, reader))
        finally:
            del reader.b  # nothing of one hand outlives its parse
        assert isinstance(record, HandRecord)
        return record


def _grammar_problem(error: UnexpectedInput, source: SourceRef, last_line: int) -> ParseProblem:
    """A grammar error as data: a hand that stops too early is reported at its last line (where
    the text ends), a line out of place at that line."""
    token = error.token if isinstance(error, UnexpectedToken) else None
    if isinstance(error, UnexpectedEOF) or (token is not None and token.type == "$END"):
        expected = ", ".join(sorted(error.expected)[:6])  # type: ignore[attr-defined]
        message = f"hand ends early (truncated?): expected {expected}"
        return ParseProblem(Outcome.ERROR, message, last_line, code=HAND_ENDS_EARLY.code)
    if token is not None:
        line = token.number if isinstance(token, LineToken) else source.line
        return ParseProblem(
            Outcome.ERROR,
            f"line out of place ({token.type}): {str(token).strip()!r}",
            line,
            code=LINE_OUT_OF_PLACE.code,
        )
    return ParseProblem(Outcome.ERROR, f"unreadable hand: {error}", source.line)


def hand_start_pattern(*prefixes: str) -> re.Pattern[str]:
    """A hand-start matcher for headers beginning with one of the given literal prefixes,
    tolerating a stray byte-order mark left at the start of a line."""
    return re.compile("\ufeff?(?:" + "|".join(re.escape(prefix) for prefix in prefixes) + ")")
