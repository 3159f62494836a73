"""The shared base of every site dialect.

A dialect is one module with one grammar file. Its hand texts are parsed in two layers:

1. a line lexer: each non-blank line becomes exactly one token, classified by one compiled
   regular expression (an alternation of the dialect's named line patterns; the first pattern
   that matches the whole line wins) and carrying its match object, so fields are read once;
2. a Lark LALR grammar over those line tokens that fixes the order of a hand's sections (header,
   seats, forced bets, streets, showdown, summary). Its rule callbacks, run inline while parsing,
   feed a `HandBuilder` that turns lines into site-neutral events.

A line no pattern knows, or a line in the wrong place, stops the parse with its line number;
semantic problems (an unsupported game, a cancelled hand) raise `HandParseError`. Nothing raises
out of `Dialect.parse`: every hand text becomes a record or a `ParseProblem`.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO, ClassVar, Final
from zoneinfo import ZoneInfo

from lark import Lark, Token
from lark.common import LexerConf
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer

from studdraw.parsers.files import (
    Encoding,
    Line,
    iter_lines,
    split_lines,
    split_stream,
    with_cut_lines,
)
from studdraw.parsers.model import (
    RANKS,
    SUITS,
    Card,
    Event,
    EventKind,
    Game,
    HandRecord,
    HandText,
    Outcome,
    ParsedHand,
    ParseProblem,
    Seat,
    SourceRef,
    Stakes,
    Structure,
    Tournament,
)

GRAMMAR_DIR: Final = Path(__file__).parent
HAND_ID_SPAN: Final = 400


class HandParseError(Exception):
    """A hand that cannot become a record, for a reason the dialect understands."""

    def __init__(
        self,
        message: str,
        line: int,
        outcome: Outcome = Outcome.ERROR,
        game_label: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.outcome = outcome
        self.game_label = game_label


class LineToken(Token):
    """A Lark token for one whole line, carrying the match of its line pattern."""

    __slots__ = ("match", "number")
    match: re.Match[str]
    number: int  # the line's number in the source file


def line_classifier(patterns: Sequence[tuple[str, str]]) -> re.Pattern[str]:
    """One regex for all line kinds: `(?P<KIND>pattern)$|...`, read back with `lastgroup`.

    Group names inside a pattern must be unique across the dialect (prefix them with the kind).
    """
    return re.compile("|".join(f"(?P<{kind}>{pattern})$" for kind, pattern in patterns))


def _new_token(kind: str, text: str, found: re.Match[str], number: int) -> LineToken:
    """Build a token without Lark's `Token.__new__`, whose keyword-compatibility shim costs a
    third of the lexer's time; the fields Lark reads (type, value, position) are all set."""
    token: LineToken = str.__new__(LineToken, text)
    token.type = kind
    token.value = text
    token.match = found
    token.number = number
    token.line = token.end_line = number
    token.column = token.end_column = 1
    token.start_pos = token.end_pos = 0
    return token


class HandLines:
    """The lexer's input: a hand's lines and the file line number of the first one."""

    __slots__ = ("first_line", "lines")

    def __init__(self, lines: list[str], first_line: int) -> None:
        self.lines = lines
        self.first_line = first_line


class LineLexer(Lexer):
    """Classifies each non-blank line and runs its callback (Lark's `lexer_callbacks`), so the
    callbacks see the lines in text order. Subclassed per dialect with its classifier.

    The grammar only counts section lines (header, street markers, ...); every other kind only
    ever repeats. A run of consecutive lines of such a kind is therefore fed to the parser as a
    single token (each line still goes through its callback): the grammar accepts exactly the
    same hands, with a third of the parser steps.
    """

    classifier: ClassVar[re.Pattern[str]]
    section_lines: ClassVar[frozenset[str]]

    def __init__(self, lexer_conf: LexerConf) -> None:
        self.callbacks: dict[str, Any] = lexer_conf.callbacks

    def lex(self, data: Any, *_: Any) -> Iterator[Token]:
        hand: HandLines = data
        match = self.classifier.match
        callbacks = self.callbacks
        sections = self.section_lines
        number = hand.first_line
        previous = ""
        for text in hand.lines:
            if text and not text.isspace():
                found = match(text)
                if found is None:
                    raise HandParseError(f"unrecognised line: {text.strip()!r}", number)
                kind = found.lastgroup or ""
                token = _new_token(kind, text, found, number)
                callbacks[kind](token)
                if kind != previous or kind in sections:
                    yield token
                previous = kind
            number += 1


# --- money, cards, time ----------------------------------------------------------------------

_MONEY_NOISE: Final = re.compile(r"[^\d.,\-]")


@functools.lru_cache(maxsize=8192)
def parse_amount(text: str, scale: int, decimal_mark: str = ".") -> int:
    """An amount as printed ("$1,425.50", "25", "0.10€", "1 425,50") in smallest units.

    Integer arithmetic only, so money stays exact; `scale` is a power of ten. Raises ValueError
    if the amount is malformed or finer than the scale allows. Cached: a history repeats the
    same few amounts (antes, bets) thousands of times.
    """
    cleaned = _MONEY_NOISE.sub("", text)
    if decimal_mark == ",":
        cleaned = cleaned.replace(".", "").replace(",", ".")
    else:
        cleaned = cleaned.replace(",", "")
    whole, _, fraction = cleaned.partition(".")
    digits = len(str(scale)) - 1
    negative = whole.startswith("-")
    whole = whole.lstrip("-")
    if not (whole or fraction) or not (whole.isdigit() or not whole):
        raise ValueError(f"not an amount: {text!r}")
    if fraction and not fraction.isdigit():
        raise ValueError(f"not an amount: {text!r}")
    fraction = fraction.rstrip("0")
    if len(fraction) > digits:
        raise ValueError(f"amount {text!r} is finer than 1/{scale} of the currency unit")
    value = int(whole or "0") * scale + int(fraction.ljust(digits, "0") or "0")
    return -value if negative else value


_UNKNOWN_CARDS: Final = frozenset({"x", "xx", "?", "??", "#", "##", "*", "**"})


def parse_card(text: str) -> Card | None:
    """A card as a room prints it ("As", "10d", "ah", "X") as "As"/"Td", or None when hidden."""
    raw = text.strip()
    if raw.lower() in _UNKNOWN_CARDS:
        return None
    rank, suit = raw[:-1].upper(), raw[-1].lower()
    if rank == "10":
        rank = "T"
    if len(rank) != 1 or rank not in RANKS or suit not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    return rank + suit


@functools.lru_cache(maxsize=8192)
def parse_cards(text: str) -> tuple[Card | None, ...]:
    """Space-separated cards, optionally in brackets: "[3d Th As]" -> ("3d", "Th", "As")."""
    return tuple(parse_card(part) for part in text.strip().strip("[]").split())


ZONES: Final[dict[str, str]] = {
    "ET": "America/New_York",
    "EST": "America/New_York",
    "EDT": "America/New_York",
    "CT": "America/Chicago",
    "CST": "America/Chicago",
    "CDT": "America/Chicago",
    "MT": "America/Denver",
    "MST": "America/Denver",
    "MDT": "America/Denver",
    "PT": "America/Los_Angeles",
    "PST": "America/Los_Angeles",
    "PDT": "America/Los_Angeles",
    "AKT": "America/Anchorage",
    "BRT": "America/Sao_Paulo",
    "ART": "America/Argentina/Buenos_Aires",
    "UTC": "UTC",
    "GMT": "UTC",
    "WET": "Europe/Lisbon",
    "WEST": "Europe/Lisbon",
    "BST": "Europe/London",
    "CET": "Europe/Paris",
    "CEST": "Europe/Paris",
    "EET": "Europe/Helsinki",
    "EEST": "Europe/Helsinki",
    "MSK": "Europe/Moscow",
    "IST": "Asia/Kolkata",
    "CCT": "Asia/Shanghai",
    "JST": "Asia/Tokyo",
    "KST": "Asia/Seoul",
    "AWST": "Australia/Perth",
    "ACST": "Australia/Adelaide",
    "AEST": "Australia/Sydney",
    "AEDT": "Australia/Sydney",
    "NZT": "Pacific/Auckland",
    "NZST": "Pacific/Auckland",
}
"""Zone abbreviations rooms print, mapped to IANA zones (DST applied by zoneinfo)."""


def to_utc(local: datetime, zone: str) -> datetime:
    """A room's naive local time in its printed zone, as an aware UTC time."""
    try:
        tz = ZoneInfo(ZONES[zone.upper()])
    except KeyError:
        raise ValueError(f"unknown time zone {zone!r}") from None
    return local.replace(tzinfo=tz).astimezone(UTC)


# --- building a record ------------------------------------------------------------------------

_BET_KINDS: Final = frozenset(
    {
        EventKind.SMALL_BLIND,
        EventKind.BIG_BLIND,
        EventKind.POST,
        EventKind.BRING_IN,
        EventKind.CALL,
        EventKind.BET,
        EventKind.RAISE,
        EventKind.COMPLETE,
    }
)


class HandBuilder:
    """Collects a hand's parts while the grammar's callbacks run, then makes the HandRecord.

    It tracks each player's contribution on the current street, so that a dialect can give
    whichever of "chips put in" and "total to" the room printed and get both on the event.
    """

    def __init__(self, hand: HandText, site: str) -> None:
        self.hand = hand
        self.site = site
        self.site_hand_id = ""
        self.game: Game | None = None
        self.structure = Structure.FIXED
        self.currency = "USD"
        self.scale = 100
        self.decimal_mark = "."
        self.small_bet = 0
        self.big_bet = 0
        self.small_blind = 0
        self.big_blind = 0
        self.ante = 0
        self.bring_in = 0
        self.started_at: datetime | None = None
        self.site_time = ""
        self.table = ""
        self.max_seats: int | None = None
        self.button: int | None = None
        self.tournament: Tournament | None = None
        self.mixed: str | None = None
        self.hero: str | None = None
        self.total_pot: int | None = None
        self.rake: int | None = None
        self.seats: list[Seat] = []
        self.events: list[Event] = []
        self.notes: list[str] = []
        self.street = 0
        self.contributed: dict[str, int] = {}

    # money
    def money(self, text: str, line: int) -> int:
        try:
            return parse_amount(text, self.scale, self.decimal_mark)
        except ValueError as error:
            raise HandParseError(str(error), line) from None

    def cards(self, text: str, line: int) -> tuple[Card | None, ...]:
        try:
            return parse_cards(text)
        except ValueError as error:
            raise HandParseError(str(error), line) from None

    # structure
    def seat(self, seat: int, player: str, stack: int, sitting_out: bool = False) -> None:
        self.seats.append(Seat(seat, player, stack, sitting_out))

    def new_street(self, index: int, line: int, name: str) -> None:
        """Start a betting round. Blinds posted before the first street marker stay in."""
        if index != self.street:
            self.contributed = {}
        self.street = index
        self.events.append(Event(EventKind.STREET, line, index, text=name))

    def add(self, kind: EventKind, line: int, player: str | None = None, **fields: Any) -> Event:
        event = Event(kind, line, self.street, player, **fields)
        self.events.append(event)
        return event

    def wager(
        self,
        kind: EventKind,
        line: int,
        player: str,
        *,
        amount: int | None = None,
        to: int | None = None,
        all_in: bool = False,
    ) -> Event:
        """A bet-like event; give `amount` (chips put in) or `to` (street total), or both."""
        before = self.contributed.get(player, 0)
        if amount is None:
            if to is None:
                raise HandParseError(f"{kind} without an amount", line)
            amount = to - before
        if to is None:
            to = before + amount
        self.contributed[player] = to
        return self.add(kind, line, player, amount=amount, to=to, all_in=all_in)

    def finish(self) -> HandRecord:
        first = self.hand.source.line
        if self.game is None:
            raise HandParseError("no game in the hand header", first)
        if self.started_at is None:
            raise HandParseError("no start time in the hand header", first)
        if not self.seats:
            raise HandParseError("no seated players", first)
        stakes = Stakes(
            small_bet=self.small_bet,
            big_bet=self.big_bet,
            ante=self.ante or self._largest(EventKind.ANTE),
            bring_in=self.bring_in or self._largest(EventKind.BRING_IN),
            small_blind=self.small_blind or self._largest(EventKind.SMALL_BLIND),
            big_blind=self.big_blind or self._largest(EventKind.BIG_BLIND),
        )
        return HandRecord(
            site=self.site,
            site_hand_id=self.site_hand_id,
            game=self.game,
            structure=self.structure,
            currency=self.currency,
            scale=self.scale,
            stakes=stakes,
            started_at=self.started_at,
            site_time=self.site_time,
            table=self.table,
            seats=self.seats,
            events=self.events,
            source=self.hand.source,
            max_seats=self.max_seats,
            button=self.button,
            tournament=self.tournament,
            mixed=self.mixed,
            hero=self.hero,
            total_pot=self.total_pot,
            rake=self.rake,
            notes=self.notes,
        )

    def _largest(self, kind: EventKind) -> int:
        """A forced bet's size as posted, when the header does not state it: the largest
        complete post (an all-in post is short of the stake), else the largest post at all."""
        complete = [e.amount for e in self.events if e.kind is kind and not e.all_in]
        return max(complete or [e.amount for e in self.events if e.kind is kind], default=0)


class DialectTransformer:
    """The callbacks of one dialect: one `HandBuilder` per parse, reset by `begin`.

    Each line kind `KIND` is handled by a method `on_kind(token)`, registered as Lark's lexer
    callback for that terminal, so handlers run in text order and feed the builder line by
    line. The grammar's rules need no callbacks except `start`, which finishes the record.

    Beware: Lark takes any attribute named like a grammar rule as that rule's callback (an
    attribute `_settle` would serve a rule `_settle`), so helpers must not share rule names.
    """

    site: ClassVar[str]

    def __init__(self) -> None:
        self.builder: HandBuilder | None = None

    def begin(self, hand: HandText) -> None:
        self.builder = HandBuilder(hand, self.site)

    @property
    def b(self) -> HandBuilder:
        assert self.builder is not None, "begin() must be called before parsing"
        return self.builder

    def start(self, _: list[Any]) -> HandRecord:
        return self.b.finish()

    def line_callbacks(self, kinds: Iterable[str]) -> dict[str, Any]:
        """The handler of every line kind; a kind without an `on_kind` method is a bug."""
        return {kind: getattr(self, f"on_{kind.lower()}") for kind in kinds}

    # --- table life and notes: lines every room prints alike, read from the pattern groups
    # `chat_name`/`chat_text`, `join_name`, `leave_name`, `out_name`, `in_name`, `note_text`
    # (a dialect whose line says more overrides its handler).

    def on_chat(self, token: LineToken) -> None:
        found = token.match
        self.b.add(EventKind.CHAT, token.number, found["chat_name"], text=found["chat_text"])

    def on_join(self, token: LineToken) -> None:
        self.b.add(EventKind.JOIN, token.number, token.match["join_name"])

    def on_leave(self, token: LineToken) -> None:
        self.b.add(EventKind.LEAVE, token.number, token.match["leave_name"])

    def on_sit_out(self, token: LineToken) -> None:
        self.b.add(EventKind.SIT_OUT, token.number, token.match["out_name"])

    def on_sit_in(self, token: LineToken) -> None:
        self.b.add(EventKind.SIT_IN, token.number, token.match["in_name"])

    def on_note(self, token: LineToken) -> None:
        self.b.add(EventKind.NOTE, token.number, text=token.match["note_text"])


class Room:
    """What every room entry in the registry can do: recognise its files, cut them into hand
    texts, read a hand's id cheaply from its first line, and parse a hand (never raising)."""

    name: str
    hand_start: re.Pattern[str]
    """Matches at the start of a hand's first line; must not match line ends (no bare \\s)."""
    hand_id_pattern: re.Pattern[str]

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
    """A room with a grammar: subclasses set the class attributes. The Lark parser is built
    once per thread (its inline callbacks hold per-parse state) and reused for every hand."""

    grammar_file: ClassVar[str]
    line_patterns: ClassVar[Sequence[tuple[str, str]]]
    section_lines: ClassVar[frozenset[str]]
    """Line kinds the grammar places singly (header, street markers); all others repeat."""
    transformer: ClassVar[type[DialectTransformer]]

    def __init__(self) -> None:
        self._local = threading.local()
        self._lexer = type(
            f"{type(self).__name__}Lexer",
            (LineLexer,),
            {
                "classifier": line_classifier(self.line_patterns),
                "section_lines": self.section_lines,
            },
        )

    def _parser(self) -> tuple[Lark, DialectTransformer]:
        cached: tuple[Lark, DialectTransformer] | None = getattr(self._local, "parser", None)
        if cached is None:
            transformer = self.transformer()
            grammar = (GRAMMAR_DIR / self.grammar_file).read_text(encoding="utf-8")
            lark = Lark(
                grammar,
                parser="lalr",
                lexer=self._lexer,
                transformer=transformer,
                lexer_callbacks=transformer.line_callbacks(kind for kind, _ in self.line_patterns),
            )
            cached = (lark, transformer)
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
                failure.outcome, failure.message, failure.line, failure.game_label
            )
            return ParsedHand(hand, site_hand_id, problem=problem)
        except UnexpectedInput as error:
            last_line = hand.source.line + len(lines) - 1
            problem = _grammar_problem(error, hand.source, last_line)
            return ParsedHand(hand, site_hand_id, problem=problem)
        except Exception as error:  # a dialect bug must not stop an import: report it as data
            message = f"internal parser error: {type(error).__name__}: {error}"
            return ParsedHand(
                hand, site_hand_id, problem=ParseProblem(Outcome.ERROR, message, hand.source.line)
            )
        return ParsedHand(hand, record.site_hand_id, record=record)

    def _parse_record(self, hand: HandText, lines: list[str]) -> HandRecord:
        lark, transformer = self._parser()
        transformer.begin(hand)
        try:
            # With an inline transformer, Lark returns what the `start` callback returns.
            record = lark.parse(HandLines(lines, hand.source.line))
        finally:
            transformer.builder = None
        assert isinstance(record, HandRecord)
        return record


def _grammar_problem(error: UnexpectedInput, source: SourceRef, last_line: int) -> ParseProblem:
    """A grammar error as data: a hand that stops too early is reported at its last line (where
    the text ends), a line out of place at that line."""
    token = error.token if isinstance(error, UnexpectedToken) else None
    if isinstance(error, UnexpectedEOF) or (token is not None and token.type == "$END"):
        expected = ", ".join(sorted(error.expected)[:6])  # type: ignore[attr-defined]
        message = f"hand ends early (truncated?): expected {expected}"
        return ParseProblem(Outcome.ERROR, message, last_line)
    if token is not None:
        line = token.number if isinstance(token, LineToken) else source.line
        return ParseProblem(
            Outcome.ERROR, f"line out of place ({token.type}): {str(token).strip()!r}", line
        )
    return ParseProblem(Outcome.ERROR, f"unreadable hand: {error}", source.line)


def hand_start_pattern(*prefixes: str) -> re.Pattern[str]:
    """A hand-start matcher for headers beginning with one of the given literal prefixes,
    tolerating a stray byte-order mark left at the start of a line."""
    return re.compile("\ufeff?(?:" + "|".join(re.escape(prefix) for prefix in prefixes) + ")")


def parse_local_time(text: str, formats: Sequence[str]) -> datetime:
    for fmt in formats:
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    raise ValueError(f"unreadable date/time {text!r}")
