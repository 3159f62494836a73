"""Reading a hand's parts into a HandRecord: money, cards and times as rooms print them, and
the builder that collects a hand's events while its lines are read."""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta, timezone
from typing import Final
from zoneinfo import ZoneInfo

from studdraw.parsers.model import (
    RANKS,
    STUD_DEALS,
    SUITS,
    Card,
    Claim,
    Event,
    EventKind,
    Game,
    HandRecord,
    HandText,
    Outcome,
    Seat,
    Stakes,
    Structure,
    Tournament,
)
from studdraw.parsers.problems import Code, Problem, Stage


class HandParseError(Exception):
    """A hand that cannot become a record, for a reason the room's reader understands: its
    code is `code`, else UNS001 for a hand outside scope (`outcome` UNSUPPORTED), else
    PRS001."""

    def __init__(
        self,
        message: str,
        line: int,
        outcome: Outcome = Outcome.ERROR,
        game_label: str | None = None,
        code: Code | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.game_label = game_label
        if code is None:
            code = Code.UNS001 if outcome is Outcome.UNSUPPORTED else Code.PRS001
        self.code = code

    def problem(self, path: str, line: int | None = None) -> Problem:
        """The failure as the hand's problem, at its line (or at `line`)."""
        at = self.line if line is None else line
        return Problem(self.code, Stage.PARSE, path, at, self.message)


MAX_SEAT: Final = 255
"""The highest seat number (and table size) a hand may name: tables seat a dozen at most; a
larger number is damage, a finding at its line, never an overflow in the store."""
MAX_CARDS: Final = 52
"""The most cards one deal, discard or draw may count (a deck): "is dealt 300000000 cards"
is damage, never 300 million placeholders in memory."""


def no_game(line: int) -> HandParseError:
    """A street, a deal or an action before any header line named the game (a header cut
    short, or its game line lost)."""
    return HandParseError("this line comes before any header line that names the game", line)


def card_count(text: str, line: int) -> int:
    """A count of cards as printed, bounded by a deck; a finding at `line` otherwise."""
    if not text.isdigit() or not text.isascii():
        raise HandParseError(f"{text[:20]!r} is not a number of cards", line)
    if len(text) > 3 or int(text) > MAX_CARDS:
        raise HandParseError(f"{text[:20]} cards: more than a deck holds", line)
    return int(text)


def seat_number(text: str, line: int, what: str = "seat") -> int:
    """A seat number (or table size) as printed, bounded by `MAX_SEAT`; else a finding."""
    if not text.isdigit() or not text.isascii():
        raise HandParseError(f"the {what} number {text[:20]!r} is not a number", line)
    if len(text) > 3 or int(text) > MAX_SEAT:
        raise HandParseError(f"the {what} number {text[:20]} is beyond any table", line)
    return int(text)


NOT_READ: Final = "is not a stud or draw game studdraw reads"
"""What every room says of a hand of a game outside the stud and draw games it reads."""


def unsupported(label: str | None, line: int, reason: str | None = None) -> HandParseError:
    """The one way a room says that a hand deals a game studdraw does not read: the hand is
    counted unsupported under its game's label as the room prints it (None when it prints
    none), with `reason` where the room knows more than that (a stud or draw game without a
    definition yet, a betting structure that is not modelled)."""
    message = reason or f"{label or 'an unnamed game'} {NOT_READ}"
    return HandParseError(message, line, Outcome.UNSUPPORTED, game_label=label or None)


_AMOUNT: Final = re.compile(
    r"(?P<sign>-?)(?:Rs\.\s?|[A-Z]{3}\s?|[^\w\s.,\-]{1,3}\s?)?(?P<sign2>-?)"
    r"(?P<number>[\d.,]+(?:[ \u00a0\u202f][\d.,]+)*)"
    r"(?:\s?(?:[A-Z]{3,5}|[Cc]hips?|[^\w\s.,\-]{1,3}))?"
)
"""An amount as rooms print it: a sign, a currency (a symbol, an ISO code, "Rs."), the digits
with their separators, a currency after; one pass (no backtracking over a run of letters glued
to it: "$0.02abc" is no amount, and costs a glance, not time quadratic in the run)."""
_SEPARATORS: Final = re.compile(r"[\s\u00a0\u202f]")


@functools.lru_cache(maxsize=8192)
def stud_faces(game: Game, street: int, count: int, line: int) -> tuple[bool, ...]:
    """Which cards of a stud deal are face up, as the game deals them (`STUD_DEALS`): on the
    first street the down cards and the door card up (a deal of another size there is an error
    of the hand), then each later street's card(s) as that street deals them."""
    deals = STUD_DEALS[game]
    if street == 0:
        first = deals[0]
        if count != len(first):
            raise HandParseError(
                f"{stud_street_name(game, 0)} deals {len(first)} cards, not {count}", line
            )
        return first
    return deals[min(street, len(deals) - 1)][:1] * count


def stud_street_name(game: Game | None, street: int) -> str:
    """ "3rd street" for seven-card stud's first round, "2nd street" for five-card stud's (and
    seven-card stud's name while a hand's game is not known)."""
    number = len(STUD_DEALS.get(game or Game.STUD, STUD_DEALS[Game.STUD])[0]) + street
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number, 'th') } street"


@functools.lru_cache(maxsize=8192)
def parse_amount(text: str, scale: int, decimal_mark: str = ".") -> int:
    """An amount as printed ("$1,425.50", "25", "0.10€", "1 425,50") in smallest units.

    Integer arithmetic only, so money stays exact; `scale` is a power of ten. Raises ValueError
    if the amount is malformed or finer than the scale allows. Cached: a history repeats the
    same few amounts (antes, bets) thousands of times.
    """
    found = _AMOUNT.fullmatch(text.strip())
    if found is None:
        raise ValueError(f"not an amount: {text[:40]!r}")
    cleaned = found["sign"] + found["sign2"] + _SEPARATORS.sub("", found["number"])
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
    "MEZ": "Europe/Berlin",  # German clients: CET
    "MESZ": "Europe/Berlin",  # and CEST
    "EET": "Europe/Helsinki",
    "EEST": "Europe/Helsinki",
    "MSK": "Europe/Moscow",
    "MSKS": "Europe/Moscow",  # Moscow summer time: zoneinfo knows when it applied
    "YEKST": "Asia/Yekaterinburg",
    "ICT": "Asia/Bangkok",
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


_OFFSET: Final = re.compile(r"GMT(?P<sign>[+-])(?P<hours>\d{2})(?P<minutes>\d{2})")
"""A zone printed as its offset from UTC ("GMT+0100", "GMT-0500")."""


def to_utc(local: datetime, zone: str) -> datetime:
    """A room's naive local time in its printed zone (an abbreviation `ZONES` knows, or an
    offset: "GMT+0100"), as an aware UTC time."""
    offset = _OFFSET.fullmatch(zone)
    if offset:
        delta = timedelta(hours=int(offset["hours"]), minutes=int(offset["minutes"]))
        return local.replace(
            tzinfo=timezone(delta if offset["sign"] == "+" else -delta)
        ).astimezone(UTC)
    try:
        tz = ZoneInfo(ZONES[zone.upper()])
    except KeyError:
        raise ValueError(f"unknown time zone {zone!r}") from None
    return local.replace(tzinfo=tz).astimezone(UTC)


_PADDED_DATE_TIME: Final = re.compile(r"\d{4}([-/])\d{2}\1\d{2} \d{2}:\d{2}:\d{2}")
_PADDED_FORMATS: Final = {"-": "%Y-%m-%d %H:%M:%S", "/": "%Y/%m/%d %H:%M:%S"}


def parse_local_time(text: str, formats: Sequence[str]) -> datetime:
    """`text` read by the first of `formats` (strptime's) that reads it.

    The rooms' most common form, a zero-padded "2010/06/11 12:06:20" or "2010-06-11 12:06:20",
    is read by `datetime.fromisoformat` when its format comes first: the same time at C speed,
    where strptime costs a twentieth of parsing the hand. A date it refuses goes to strptime
    like any other, so the reason of a reject stays the same."""
    padded = _PADDED_DATE_TIME.fullmatch(text)
    if padded and formats and formats[0] == _PADDED_FORMATS[padded[1]]:
        try:
            return datetime.fromisoformat(text.replace("/", "-"))
        except ValueError:
            pass
    for fmt in formats:
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    raise ValueError(f"unreadable date/time {text!r}")


# --- building a record ------------------------------------------------------------------------

_STAKE_POSTS: Final = frozenset(
    {EventKind.ANTE, EventKind.BRING_IN, EventKind.SMALL_BLIND, EventKind.BIG_BLIND}
)
"""The forced bets whose size a hand's posts tell when its header does not."""


class HandBuilder:
    """Collects a hand's parts while its lines are read, then makes the HandRecord.

    It tracks each player's contribution on the current street, so that a room's reader can give
    whichever of "chips put in" and "total to" the room printed and get both on the event.
    """

    def __init__(self, hand: HandText, room: str) -> None:
        self.hand = hand
        self.room = room
        self.room_hand_id = ""
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
        self.room_time = ""
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
        self.problems: list[Problem] = []
        self.claims: list[Claim] = []
        self.names: set[str] = set()  # every name a seat line printed
        self.prefixes: set[str] = set()  # names that begin another seated name
        self._sorted: list[str] = []
        self.street = 0
        self.contributed: dict[str, int] = {}

    # money
    def money(self, text: str, line: int) -> int:
        try:
            return parse_amount(text, self.scale, self.decimal_mark)
        except ValueError as error:
            raise HandParseError(str(error), line) from None

    def header_stakes(self, small: int, big: int, limit_blind: bool = False) -> None:
        """The two stakes a header prints, once the game and structure are known: the small
        and the big bet in fixed and spread limit (with `limit_blind`, a limit draw game's big
        blind is its small bet; else the posts tell the blinds), the blinds in pot and no
        limit, whose smallest bet is the big blind."""
        if self.structure is Structure.FIXED or self.structure is Structure.SPREAD:
            self.small_bet, self.big_bet = small, big
            if limit_blind and self.game is not None and self.game.is_draw:
                self.big_blind = small
        else:
            self.small_blind, self.big_blind = small, big
            self.small_bet = self.big_bet = big

    def cards(self, text: str, line: int) -> tuple[Card | None, ...]:
        try:
            return parse_cards(text)
        except ValueError as error:
            raise HandParseError(str(error), line) from None

    # structure
    def seat(
        self, seat: int, player: str, stack: int, sitting_out: bool = False, line: int = 0
    ) -> None:
        """A seat of the seat list (`line`: its line, else the hand's first)."""
        if not 0 <= seat <= MAX_SEAT:
            raise HandParseError(
                f"the seat number {seat} is beyond any table", line or self.hand.source.line
            )
        self.seats.append(Seat(seat, player, stack, sitting_out))
        self.seated_name(player)

    def seated_name(self, player: str) -> None:
        """A name the seat list printed, whose lines are read against it (see
        `LineReader.pin`). In sorted order, the names a name begins follow it at once,
        so only its neighbours can make it, or them, a prefix of another name."""
        if player in self.names:
            return
        index = bisect.bisect(self._sorted, player)
        if index < len(self._sorted) and self._sorted[index].startswith(player):
            self.prefixes.add(player)
        if index and player.startswith(self._sorted[index - 1]):
            self.prefixes.add(self._sorted[index - 1])
        self._sorted.insert(index, player)
        self.names.add(player)

    def new_street(self, index: int, line: int, name: str) -> None:
        """Start a betting round. Blinds posted before the first street marker stay in."""
        if index != self.street:
            self.contributed = {}
        self.street = index
        self.events.append(Event(EventKind.STREET, line, index, text=name))

    def new_stud_street(self, index: int, line: int) -> None:
        """Start stud betting round `index`, named by the cards a player then holds ("3rd
        street"), as every room's street event is."""
        self.new_street(index, line, stud_street_name(self.game, index))

    def add(
        self,
        kind: EventKind,
        line: int,
        player: str | None = None,
        *,
        amount: int = 0,
        to: int | None = None,
        all_in: bool = False,
        cards: tuple[Card | None, ...] = (),
        up: tuple[bool, ...] = (),
        count: int | None = None,
        pot: str | None = None,
        text: str | None = None,
        run: int = 0,
    ) -> Event:
        """A new event on the street in play. Its fields are named here, not passed on as
        `**fields`: the compiled `Event` is then made by a direct call (~30 a hand)."""
        event = Event(
            kind, line, self.street, player, amount, to, all_in, cards, up, count, pot, text, run
        )
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
        for what, number in (("table size", self.max_seats), ("button seat", self.button)):
            if number is not None and not 0 <= number <= MAX_SEAT:
                raise HandParseError(f"the {what} {number} is beyond any table", first)
        posted = self._posted()
        stakes = Stakes(
            small_bet=self.small_bet,
            big_bet=self.big_bet,
            ante=self.ante or posted[EventKind.ANTE],
            bring_in=self.bring_in or posted[EventKind.BRING_IN],
            small_blind=self.small_blind or posted[EventKind.SMALL_BLIND],
            big_blind=self.big_blind or posted[EventKind.BIG_BLIND],
        )
        return HandRecord(
            room=self.room,
            room_hand_id=self.room_hand_id,
            game=self.game,
            structure=self.structure,
            currency=self.currency,
            scale=self.scale,
            stakes=stakes,
            started_at=self.started_at,
            room_time=self.room_time,
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
            problems=self.problems,
            claims=self.claims,
            runs=max((event.run for event in self.events), default=1) or 1,
        )

    def _posted(self) -> dict[EventKind, int]:
        """Each forced bet's size as posted, for when the header does not state it: the largest
        complete post (an all-in post is short of the stake), else the largest post at all;
        but 0 (unknown) for a bring-in only ever posted all in: one player brings in, so a
        short all-in bring-in says nothing of the table's."""
        complete: dict[EventKind, int] = {}
        short: dict[EventKind, int] = {}
        for event in self.events:
            if event.kind in _STAKE_POSTS:
                sizes = short if event.all_in else complete
                sizes[event.kind] = max(sizes.get(event.kind, event.amount), event.amount)
        short.pop(EventKind.BRING_IN, None)
        return {kind: complete.get(kind, short.get(kind, 0)) for kind in _STAKE_POSTS}
