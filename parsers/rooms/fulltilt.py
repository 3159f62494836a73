"""Full Tilt Poker: cash games and tournaments (2008-2013), including the "FullTiltPoker Game #"
headers and "# n" separators of archived exports. Notes on the format are in
docs/rooms/fulltilt.md.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from typing import Final

from studdraw.parsers.builder import HandParseError, parse_amount, unsupported
from studdraw.parsers.files import without_blank_tail
from studdraw.parsers.model import EventKind, Game, HandText, Outcome, Structure, Tournament
from studdraw.parsers.rooms.pokerstars import SUMMARY_NO_WIN, SUMMARY_WON
from studdraw.parsers.text.line_reader import LineReader, lower_keys
from studdraw.parsers.text.room import TextRoom
from studdraw.parsers.text.tokens import LineToken
from studdraw.parsers.text.verbs import BET, BRING_IN, CALL, CHECK, COMPLETE_TO, FOLD, RAISE_TO

GAMES: Final = {
    "Stud Hi": Game.STUD,
    "7 Card Stud": Game.STUD,
    "7 Card Stud Hi": Game.STUD,
    "Stud H/L": Game.STUD8,
    "Stud Hi/Lo": Game.STUD8,
    "7 Card Stud H/L": Game.STUD8,
    "7 Card Stud Hi/Lo": Game.STUD8,
    "Razz": Game.RAZZ,
    "2-7 Triple Draw": Game.TD27,
    "A-5 Triple Draw": Game.TDA5,
    "Badugi": Game.BADUGI,
    "2-7 Single Draw": Game.SD27,
    "5 Card Draw": Game.DRAW5,
    "5 Card Stud": Game.STUD5,
}
"""The room's game labels as it prints them, read whatever their case (`any_case`); a game's
first label is the one its exports print, which its renderer writes (parsers/render/fulltilt.py)."""
STRUCTURES: Final = {
    "Limit": Structure.FIXED,
    "FL": Structure.FIXED,
    "Fixed Limit": Structure.FIXED,
    "Pot Limit": Structure.POT,
    "PL": Structure.POT,
    "No Limit": Structure.NO,
    "NL": Structure.NO,
}
STUD_STREETS: Final = {
    "2ND STREET": -1,
    "3RD STREET": 0,
    "4TH STREET": 1,
    "5TH STREET": 2,
    "6TH STREET": 3,
    "7TH STREET": 4,
}
DRAW_STREETS: Final = {
    "HOLE CARDS": 0,
    "FIRST DRAW": 1,
    "DRAW": 1,
    "SECOND DRAW": 2,
    "THIRD DRAW": 3,
}
CURRENCY_SYMBOLS: Final = {"$": "USD", "€": "EUR", "£": "GBP"}

_SUMMARY_POTS: Final = re.compile(
    r"(?P<pot>Main pot|Side pot(?: \d+)?) (?P<amount>\S+?)\.(?= |$)", re.IGNORECASE
)
"""The total's split: "Total pot 224 Main pot 144. Side pot 80. | Rake 0"."""
_SUMMARY_MUCKED: Final = re.compile(r" mucked \[(?P<cards>[^\]]*)\]")
_SITTING_OUT: Final = re.compile(r".* is sitting out")
_ARCHIVE_SEPARATOR: Final = re.compile(r"^\*+ # \d+ \*+$", re.MULTILINE)

VERBS: Final = {
    "folds": FOLD,
    "checks": CHECK,
    "calls": CALL,
    "bets": BET,
    "raises to": RAISE_TO,
    "completes it to": COMPLETE_TO,
    "brings in for": BRING_IN,
}
POSTS: Final = {
    "antes": EventKind.ANTE,
    "the small blind of ": EventKind.SMALL_BLIND,
    "the big blind of ": EventKind.BIG_BLIND,
    "a dead small blind of ": EventKind.DEAD,
    "": EventKind.POST,  # "posts $5": a live big blind to come into the game
}


class FullTiltReader(LineReader):
    verbs = VERBS
    posts = POSTS
    stud_streets = STUD_STREETS
    draw_streets = DRAW_STREETS
    counts_known_draws = True
    games = lower_keys(GAMES)
    any_case = True
    structures = lower_keys(STRUCTURES)
    currencies = CURRENCY_SYMBOLS
    summary_won = SUMMARY_WON  # "collected ($0.50), mucked", "showed [...] and won ($4)"
    summary_no_win = SUMMARY_NO_WIN
    summary_pots = _SUMMARY_POTS
    time_formats = (
        "%Y/%m/%d %H:%M:%S",
        "%Y/%m/%d %H:%M",
        "%A, %B %d, %Y %H:%M",  # 2010: "9:05 ET - Tuesday, June 1, 2010"
        "%a, %B %d, %Y %H:%M",  # July 2010: "15:13 ET - Wed, July 21, 2010"
    )

    def begin(self, hand: HandText) -> None:
        super().begin(hand)
        self._streets_seen = False

    # --- header and seats -------------------------------------------------------------------
    def on_header(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        line = token.number
        b.room_hand_id = found("id") or ""
        label, name, limit = found("label") or "", found("name"), found("limit")
        if name is None or limit is None:
            raise unsupported(label, line)
        b.game = self.read_game(name, line, label)
        b.structure = self.read_structure(limit, line, label)
        b.mixed = found("mixed")
        if found("partial"):
            # FTP marks hands its client saved only in part: here, only the summary.
            raise HandParseError(
                "partial hand: the room exported it without its action",
                line,
                game_label=str(self.b.game),
            )
        if found("tid"):
            self._tournament(found, line)
        elif found("symbol"):
            b.currency = self.currencies[found("symbol") or ""]
        else:
            b.currency = "PLAY"
        if found("ante"):
            b.ante = self.amount(token, "ante")
        b.header_stakes(self.amount(token, "small"), self.amount(token, "big"))
        b.table = found("table") or ""
        self._table_attributes(found)
        self._time(found, line)

    def on_header_game_first(self, token: LineToken) -> None:
        """The same parts, the game named before the stakes; or a header of no form the grammar
        knows (`rest`): a game studdraw does not read, unless it names one that it does."""
        rest = token.field("rest")
        if rest is None:
            self.on_header(token)
        elif any(label in rest.lower() for label in self.games):
            raise HandParseError(f"unreadable table and game: {rest!r}", token.number)
        else:
            raise unsupported(rest, token.number)

    def _tournament(self, found: Callable[[str], str | None], line: int) -> None:
        b = self.b
        b.scale, b.currency = 1, "CHIPS"
        buy_in = fee = None
        currency = self.currencies.get(found("price_symbol") or "")
        # Only "$3 + $0.30" itemises the fee; a lone "$10" is the whole price.
        if currency and found("fee"):
            try:
                buy_in = parse_amount(found("buyin") or "", 100)
                fee = parse_amount(found("fee") or "", 100)
            except ValueError as error:
                raise HandParseError(str(error), line) from None
        b.tournament = Tournament(found("tid") or "", buy_in, fee, currency)
        b.notes.append(f"tournament {found('tournament')!r}")

    def _table_attributes(self, found: Callable[[str], str | None]) -> None:
        b = self.b
        attributes, tournament = found("attributes"), found("tournament")
        if found("max"):
            b.max_seats = int(found("max") or 0)
        elif found("heads_up") or (tournament and "heads-up" in tournament.lower()):
            b.max_seats = 2
        if attributes and not (found("max") or found("heads_up")):
            b.notes.append(f"table attributes: {attributes}")

    def _time(self, found: Callable[[str], str | None], line: int) -> None:
        b = self.b
        # The bracketed time, when present, is ET: the room's reference clock.
        suffix = "2" if found("time2") else ""
        clock, zone, date = (found(f"{part}{suffix}") or "" for part in ("time", "zone", "date"))
        b.room_time = f"{clock} {zone} - {date}"
        self.read_time(f"{date} {clock}", zone, line)

    def on_button(self, token: LineToken) -> None:
        self.b.button = int(token.field("seat") or 0)

    # --- streets --------------------------------------------------------------------------
    def on_street(self, token: LineToken) -> None:
        self._streets_seen = True
        super().on_street(token)

    def on_low_high(self, token: LineToken) -> None:
        """The room names the bring-in's door card; the DEAL events already hold it."""
        self.b.add(EventKind.NOTE, token.number, self.player(token), text=token.strip())

    # --- summary ----------------------------------------------------------------------------
    def on_summary(self, token: LineToken) -> None:
        """A hand that reaches its summary without a street was never dealt (a dead hand)."""
        if not self._streets_seen:
            game = str(self.b.game) if self.b.game else None
            raise HandParseError(
                "dead hand: no cards were dealt", token.number, Outcome.UNSUPPORTED, game
            )

    def on_total(self, token: LineToken) -> None:
        """The total, and how the summary splits it into main and side pots."""
        super().on_total(token)
        self.claim_pots(token, token.number)

    def on_duration(self, token: LineToken) -> None:
        """Archived exports time the hand; the header's start time is what the record keeps."""

    def on_summary_seat(self, token: LineToken) -> None:
        """The summary is the room's last word on who sat out (seat lines do not always say
        so) and shows the cards of players whose showdown line was only "mucks"."""
        rest = token.field("text") or ""
        b = self.b
        seat_no = int(token.field("seat") or 0)
        index = next((i for i, s in enumerate(b.seats) if s.seat == seat_no), None)
        if index is None:
            raise HandParseError(f"summary names seat {seat_no}, which is empty", token.number)
        seat = b.seats[index]
        if _SITTING_OUT.fullmatch(rest):
            if not seat.sitting_out:
                b.seats[index] = dataclasses.replace(seat, sitting_out=True)
            return
        if rest.startswith(seat.player):
            self.claim(seat.player, rest[len(seat.player) :], token.number)
        mucked = _SUMMARY_MUCKED.search(rest)
        if mucked:
            cards = b.cards(mucked["cards"], token.number)
            b.add(EventKind.MUCK, token.number, seat.player, cards=cards)


class FullTilt(TextRoom):
    name = "fulltilt"
    title = "Full Tilt Poker"
    grammar_file = "fulltilt.lark"
    reader_class = FullTiltReader

    def tidy(self, hands: Iterator[HandText]) -> Iterator[HandText]:
        """Blank the "**** # 2 ****" separators of archived exports, which belong to no hand
        (every line keeps its number; see docs/rooms/fulltilt.md): text before the first hand
        that holds nothing else is no finding."""
        for hand in hands:
            # The separator's middle, found at C speed, spares most hands the line search.
            if " # " not in hand.text or _ARCHIVE_SEPARATOR.search(hand.text) is None:
                yield hand
            elif text := without_blank_tail(_ARCHIVE_SEPARATOR.sub("", hand.text)):
                yield dataclasses.replace(hand, text=text)
