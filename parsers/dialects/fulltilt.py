"""Full Tilt Poker: cash games and tournaments (2008-2013), including the "FullTiltPoker Game #"
headers and "# n" separators of archived exports. Notes on the format are in
docs/sites/fulltilt.md.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator
from typing import Final

from studdraw.parsers.dialects.base import (
    Dialect,
    DialectTransformer,
    HandParseError,
    LineToken,
    hand_start_pattern,
    parse_amount,
    parse_local_time,
    to_utc,
)
from studdraw.parsers.files import Line, split_lines
from studdraw.parsers.model import EventKind, Game, HandText, Outcome, Structure, Tournament

_NAME: Final = r".+"  # greedy: the verb is anchored at the line end
_AMOUNT: Final = r"[$€£]?\d[\d,.]*"
_CARDS: Final = r"[^\]]*"

LINE_PATTERNS: Final = (
    (
        "HEADER",
        r"\ufeff?(?:Full Tilt Poker|FullTiltPoker) Game #(?P<hdr_id>\d+): (?P<hdr_rest>.+) - "
        r"(?P<hdr_time>\d{1,2}:\d{2}(?::\d{2})?) (?P<hdr_zone>[A-Z]{2,5}) - "
        r"(?P<hdr_date>\d{4}/\d{1,2}/\d{1,2}|[A-Z][a-z]+, [A-Z][a-z]+ \d{1,2}, \d{4})"
        r"(?: \[(?P<hdr_time2>\d{1,2}:\d{2}(?::\d{2})?) (?P<hdr_zone2>[A-Z]{2,5}) - "
        r"(?P<hdr_date2>\d{4}/\d{1,2}/\d{1,2})\])?(?P<hdr_partial> \(partial\))?",
    ),
    (
        "SEAT",
        # Not summary lines: "Seat 3: Bob (big blind) collected ($150)", and a shown hand
        # won without a description, "Seat 4: Al showed [Ah 2h 3h 4h 5h] and won ($9)".
        rf"Seat (?P<seat_no>\d+): (?P<seat_name>.+?)(?<! collected)(?<! and won)"
        rf" \((?P<seat_stack>{_AMOUNT})\)"
        r"(?P<seat_out>, is sitting out)?",
    ),
    ("SUMMARY_SEAT", r"Seat (?P<ss_seat>\d+): (?P<ss_rest>.*)"),
    (
        "STREET",
        r"\*\*\* (?P<street_name>3RD STREET|4TH STREET|5TH STREET|6TH STREET|7TH STREET"
        r"|HOLE CARDS|FIRST DRAW|SECOND DRAW|THIRD DRAW) \*\*\*(?: \((?:Total )?Pot: [^)]*\))?",
    ),
    ("SHOWDOWN", r"\*\*\* SHOW ?DOWN \*\*\*"),
    ("SUMMARY", r"\*\*\* SUMMARY \*\*\*"),
    ("BUTTON", r"The button is in seat #(?P<btn_seat>\d+)"),
    (
        "DEALT",
        rf"Dealt to (?P<dealt_name>.+?) \[(?P<dealt_first>{_CARDS})\]"
        rf"(?: \[(?P<dealt_new>{_CARDS})\])?",
    ),
    # Before CHAT: their free text (badugi hands: "a 3-Card: 7, 2, A") may hold ": ".
    (
        "SHOWS",
        rf"(?P<show_name>.+?) shows \[(?P<show_cards>{_CARDS})\](?: (?P<show_desc>.+))?",
    ),
    (
        "COLLECT",
        r"(?P<col_name>.+?) (?:wins|ties for) the (?:(?P<col_half>high|low) )?"
        r"(?:(?P<col_pot>main|side) )?pot(?: #?(?P<col_no>\d+))? \((?P<col_amt>[^()]+)\)"
        r"(?: with .*)?",
    ),
    (
        "UNCALLED",
        rf"(?:Uncalled bet|Ante) of (?P<unc_amt>{_AMOUNT}) returned to (?P<unc_name>{_NAME})",
    ),
    ("TOTAL", rf"Total pot (?P<tot_amt>{_AMOUNT})(?: .*)? \| Rake (?P<tot_rake>{_AMOUNT})"),
    ("DURATION", r"Duration \d+s"),
    # Before the actions: "Bob: Alice folds" is chat, not a fold.
    ("CHAT", r"(?P<chat_name>[^:]+?): (?P<chat_text>.*)"),
    (
        "ACTION",
        rf"(?P<act_name>{_NAME}) (?P<act_verb>folds|checks|calls|bets|raises to|completes it to"
        rf"|brings in for)(?: (?P<act_amt>{_AMOUNT}))?(?P<act_allin>, and is all in)?",
    ),
    (
        "ANTE",
        rf"(?P<ante_name>{_NAME}) antes (?P<ante_amt>{_AMOUNT})(?P<ante_allin>, and is all in)?",
    ),
    (
        "POST",
        rf"(?P<post_name>{_NAME}) posts (?P<post_kind>the small blind of |the big blind of "
        rf"|a dead small blind of |)(?P<post_amt>{_AMOUNT})(?P<post_allin>, and is all in)?",
    ),
    (
        "DISCARD",
        rf"(?P<dis_name>{_NAME}) discards (?P<dis_count>\d+) cards?"
        rf"(?: \[(?P<dis_cards>{_CARDS})\])?",
    ),
    ("DRAWN", rf"(?P<drawn_name>{_NAME}) is dealt (?P<drawn_count>\d+) cards?"),
    ("STAND_PAT", rf"(?P<pat_name>{_NAME}) stands pat(?: on \[(?P<pat_cards>{_CARDS})\])?"),
    ("MUCKS", rf"(?P<muck_name>{_NAME}) mucks"),
    ("LOW_HIGH", rf"(?P<lh_text>{_NAME} is (?:low|high) with \[{_CARDS}\])"),
    ("JOIN", rf"(?P<join_name>{_NAME}) sits down"),
    ("LEAVE", rf"(?P<leave_name>{_NAME}) stands up"),
    ("SIT_OUT", rf"(?P<out_name>{_NAME}) is sitting out"),
    ("SIT_IN", rf"(?P<in_name>{_NAME}) has returned"),
    (
        "NOTE",
        r"(?P<note_text>.+ (?:has \d+ seconds left to act|has timed out|has requested TIME"
        r"|has been disconnected|has reconnected|adds \S+)|\d+ seconds left to act"
        r"|(?!\*\*\*)[^:$€£]*)",
    ),  # last: the fallback keeps unknown announcements, never a section marker or money
)

GAMES: Final = {
    "stud hi": Game.STUD,
    "7 card stud": Game.STUD,
    "7 card stud hi": Game.STUD,
    "stud h/l": Game.STUD8,
    "stud hi/lo": Game.STUD8,
    "7 card stud h/l": Game.STUD8,
    "7 card stud hi/lo": Game.STUD8,
    "razz": Game.RAZZ,
    "2-7 triple draw": Game.TD27,
    "a-5 triple draw": Game.TDA5,
    "badugi": Game.BADUGI,
}
STRUCTURES: Final = {
    "limit": Structure.FIXED,
    "fl": Structure.FIXED,
    "fixed limit": Structure.FIXED,
    "pot limit": Structure.POT,
    "pl": Structure.POT,
    "no limit": Structure.NO,
    "nl": Structure.NO,
}
STUD_STREETS: Final = {
    "3RD STREET": 0,
    "4TH STREET": 1,
    "5TH STREET": 2,
    "6TH STREET": 3,
    "7TH STREET": 4,
}
DRAW_STREETS: Final = {"HOLE CARDS": 0, "FIRST DRAW": 1, "SECOND DRAW": 2, "THIRD DRAW": 3}
CURRENCY_SYMBOLS: Final = {"$": "USD", "€": "EUR", "£": "GBP"}
MIXED_GAMES: Final = frozenset(
    {"HORSE", "HOSE", "HA", "HO", "HOE", "OA", "OE", "SE", "HEROS", "7-Game", "8-Game", "9-Game"}
)

_TABLE_PART: Final = re.compile(
    r"(?:(?P<tname>.+?) \((?P<tid>\d+)\), )?(?:Table |Match )?(?P<table>.+?)"
    r"(?: \((?P<attrs>[^()]*)\))? - (?P<pieces>.+)"
)
_STAKES: Final = re.compile(
    r"(?P<symbol>[$€£]?)(?P<small>\d[\d,.]*)/[$€£]?(?P<big>\d[\d,.]*)"
    r"(?: Ante [$€£]?(?P<ante>\d[\d,.]*))?"
)
_LIMIT_PREFIX: Final = re.compile(
    r"(?P<limit>Fixed Limit|Pot Limit|No Limit|Limit|FL|PL|NL) (?P<name>.+)", re.IGNORECASE
)
_MAX_SEATS: Final = re.compile(r"(\d+) max|(heads up)", re.IGNORECASE)
_BUY_IN: Final = re.compile(
    r"(?P<symbol>[$€£])(?P<buyin>\d[\d,.]*)(?: ?\+ ?[$€£]?(?P<fee>\d[\d,.]*))?"
)
_SUMMARY_MUCKED: Final = re.compile(r" mucked \[(?P<cards>[^\]]*)\]")
_SITTING_OUT: Final = re.compile(r".* is sitting out")
_ARCHIVE_SEPARATOR: Final = re.compile(r"\*+ # \d+ \*+")
_TIME_FORMATS: Final = ("%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M", "%A, %B %d, %Y %H:%M")


class FullTiltTransformer(DialectTransformer):
    site = "fulltilt"

    def begin(self, hand: HandText) -> None:
        super().begin(hand)
        self._streets_seen = False

    # --- header and seats -------------------------------------------------------------------
    def on_header(self, token: LineToken) -> None:
        found = token.match
        b = self.b
        line = token.number
        b.site_hand_id = found["hdr_id"]
        parts = _TABLE_PART.fullmatch(found["hdr_rest"])
        if parts is None:
            raise HandParseError(f"unreadable table and game: {found['hdr_rest']!r}", line)
        stakes, label = None, None
        for piece in parts["pieces"].split(" - "):
            if stakes is None and (pair := _STAKES.fullmatch(piece)):
                stakes = pair
            elif piece in MIXED_GAMES:
                b.mixed = piece
            else:
                label = piece
        self._game(label, line)
        if found["hdr_partial"]:
            # FTP marks hands its client saved only in part: here, only the summary.
            raise HandParseError(
                "partial hand: the room exported it without its action",
                line,
                game_label=str(self.b.game),
            )
        if parts["tid"]:
            self._tournament(parts["tname"], parts["tid"], line)
        if stakes is None:
            raise HandParseError(f"no stakes in {found['hdr_rest']!r}", line)
        self._stakes(stakes, line)
        b.table = parts["table"]
        self._table_attributes(parts["attrs"], parts["tname"])
        self._time(found, line)

    def _game(self, label: str | None, line: int) -> None:
        limit = _LIMIT_PREFIX.fullmatch(label) if label else None
        game = GAMES.get(limit["name"].lower()) if limit else None
        if limit is None or game is None:
            raise HandParseError(
                f"{label} is not a stud or triple-draw game",
                line,
                Outcome.UNSUPPORTED,
                game_label=label,
            )
        self.b.game = game
        self.b.structure = STRUCTURES[limit["limit"].lower()]

    def _tournament(self, name: str, tournament_id: str, line: int) -> None:
        b = self.b
        b.scale, b.currency = 1, "CHIPS"
        buy_in = fee = None
        currency = None
        price = _BUY_IN.match(name)
        if price:
            currency = CURRENCY_SYMBOLS[price["symbol"]]
            # Only "$3 + $0.30" itemises the fee; a lone "$10" is the whole price.
            if price["fee"]:
                try:
                    buy_in = parse_amount(price["buyin"], 100)
                    fee = parse_amount(price["fee"], 100)
                except ValueError as error:
                    raise HandParseError(str(error), line) from None
        b.tournament = Tournament(tournament_id, buy_in, fee, currency)
        b.notes.append(f"tournament {name!r}")

    def _stakes(self, pair: re.Match[str], line: int) -> None:
        b = self.b
        if b.tournament is None:
            symbol = pair["symbol"]
            b.currency = CURRENCY_SYMBOLS[symbol] if symbol else "PLAY"
        small, big = b.money(pair["small"], line), b.money(pair["big"], line)
        if pair["ante"]:
            b.ante = b.money(pair["ante"], line)
        if b.structure is Structure.FIXED:
            b.small_bet, b.big_bet = small, big
        else:
            # Pot- and no-limit headers give the blinds; the minimum bet is the big blind.
            b.small_blind, b.big_blind = small, big
            b.small_bet = b.big_bet = big

    def _table_attributes(self, attrs: str | None, tournament: str | None) -> None:
        b = self.b
        seats = _MAX_SEATS.search(attrs or "")
        if seats:
            b.max_seats = int(seats[1]) if seats[1] else 2
        elif tournament and "heads-up" in tournament.lower():
            b.max_seats = 2
        if attrs and not seats:
            b.notes.append(f"table attributes: {attrs}")

    def _time(self, found: re.Match[str], line: int) -> None:
        b = self.b
        # The bracketed time, when present, is ET: the room's reference clock.
        suffix = "2" if found["hdr_time2"] else ""
        clock, zone, date = (found[f"hdr_{part}{suffix}"] for part in ("time", "zone", "date"))
        b.site_time = f"{clock} {zone} - {date}"
        try:
            b.started_at = to_utc(parse_local_time(f"{date} {clock}", _TIME_FORMATS), zone)
        except ValueError as error:
            raise HandParseError(str(error), line) from None

    def on_seat(self, token: LineToken) -> None:
        found = token.match
        self.b.seat(
            int(found["seat_no"]),
            found["seat_name"],
            self.b.money(found["seat_stack"], token.number),
            sitting_out=found["seat_out"] is not None,
        )

    def on_button(self, token: LineToken) -> None:
        self.b.button = int(token.match["btn_seat"])

    # --- streets --------------------------------------------------------------------------
    def on_street(self, token: LineToken) -> None:
        name = token.match["street_name"]
        b = self.b
        assert b.game is not None
        streets = STUD_STREETS if b.game.is_stud else DRAW_STREETS
        if name not in streets:
            raise HandParseError(f"{name} is not a street of {b.game}", token.number)
        self._streets_seen = True
        b.new_street(streets[name], token.number, name)

    def on_dealt(self, token: LineToken) -> None:
        found = token.match
        b = self.b
        assert b.game is not None
        line, player = token.number, found["dealt_name"]
        first = b.cards(found["dealt_first"], line)
        new = b.cards(found["dealt_new"], line) if found["dealt_new"] is not None else None
        if b.game.is_draw:
            if b.street == 0:
                b.hero = player
                cards = first + (new or ())
                b.add(EventKind.DEAL, line, player, cards=cards, up=(False,) * len(cards))
            else:  # "Dealt to Hero [kept] [drawn]"
                drawn = first if new is None else new
                b.add(
                    EventKind.DRAW,
                    line,
                    player,
                    cards=drawn,
                    up=(False,) * len(drawn),
                    count=len(drawn),
                )
            return
        if b.street == 0:
            if new is not None:  # the hero: "[down down] [door]"
                b.hero = player
                cards, up = first + new, (False,) * len(first) + (True,) * len(new)
            elif len(first) == 1:  # an opponent: only the door card is shown
                cards, up = (None, None, *first), (False, False, True)
            else:
                raise HandParseError(f"3rd street deals 3 cards, not {len(first)}", line)
        else:  # "[cards so far] [new card]"
            cards = first if new is None else new
            up = (b.street < 4,) * len(cards)
        b.add(EventKind.DEAL, line, player, cards=cards, up=up)

    def on_ante(self, token: LineToken) -> None:
        found = token.match
        amount = self.b.money(found["ante_amt"], token.number)
        all_in = found["ante_allin"] is not None
        self.b.add(EventKind.ANTE, token.number, found["ante_name"], amount=amount, all_in=all_in)

    def on_post(self, token: LineToken) -> None:
        found = token.match
        b = self.b
        line, player, kind = token.number, found["post_name"], found["post_kind"]
        amount = b.money(found["post_amt"], line)
        all_in = found["post_allin"] is not None
        if kind == "the small blind of ":
            b.wager(EventKind.SMALL_BLIND, line, player, amount=amount, all_in=all_in)
        elif kind == "the big blind of ":
            b.wager(EventKind.BIG_BLIND, line, player, amount=amount, all_in=all_in)
        elif kind == "a dead small blind of ":
            b.add(EventKind.DEAD, line, player, amount=amount, all_in=all_in)
        else:  # "posts $5": a live big blind to come into the game
            b.wager(EventKind.POST, line, player, amount=amount, all_in=all_in)

    def on_action(self, token: LineToken) -> None:
        found = token.match
        b = self.b
        player, verb, line = found["act_name"], found["act_verb"], token.number
        all_in = found["act_allin"] is not None
        if verb == "folds":
            b.add(EventKind.FOLD, line, player)
            return
        if verb == "checks":
            b.add(EventKind.CHECK, line, player)
            return
        if found["act_amt"] is None:
            raise HandParseError(f"{verb} without an amount", line)
        amount = b.money(found["act_amt"], line)
        if verb == "calls":
            b.wager(EventKind.CALL, line, player, amount=amount, all_in=all_in)
        elif verb == "bets":
            b.wager(EventKind.BET, line, player, amount=amount, all_in=all_in)
        elif verb == "raises to":
            b.wager(EventKind.RAISE, line, player, to=amount, all_in=all_in)
        elif verb == "completes it to":
            b.wager(EventKind.COMPLETE, line, player, to=amount, all_in=all_in)
        else:  # brings in for
            b.wager(EventKind.BRING_IN, line, player, amount=amount, all_in=all_in)

    def on_discard(self, token: LineToken) -> None:
        found = token.match
        count = int(found["dis_count"])
        cards = self.b.cards(found["dis_cards"], token.number) if found["dis_cards"] else ()
        self.b.add(EventKind.DISCARD, token.number, found["dis_name"], count=count, cards=cards)

    def on_drawn(self, token: LineToken) -> None:
        found = token.match
        count = int(found["drawn_count"])
        self.b.add(
            EventKind.DRAW,
            token.number,
            found["drawn_name"],
            count=count,
            cards=(None,) * count,
            up=(False,) * count,
        )

    def on_stand_pat(self, token: LineToken) -> None:
        found = token.match
        cards = self.b.cards(found["pat_cards"], token.number) if found["pat_cards"] else ()
        self.b.add(EventKind.STAND_PAT, token.number, found["pat_name"], count=0, cards=cards)

    def on_low_high(self, token: LineToken) -> None:
        """The room names the bring-in's door card; the DEAL events already hold it."""
        self.b.add(EventKind.NOTE, token.number, text=token.match["lh_text"])

    # --- showdown and money out -------------------------------------------------------------
    def on_showdown(self, token: LineToken) -> None:
        """A section marker: the grammar checks its place; it carries no event."""

    def on_shows(self, token: LineToken) -> None:
        found = token.match
        cards = self.b.cards(found["show_cards"], token.number)
        self.b.add(
            EventKind.SHOW, token.number, found["show_name"], cards=cards, text=found["show_desc"]
        )

    def on_mucks(self, token: LineToken) -> None:
        self.b.add(EventKind.MUCK, token.number, token.match["muck_name"])

    def on_uncalled(self, token: LineToken) -> None:
        found = token.match
        amount = self.b.money(found["unc_amt"], token.number)
        self.b.add(EventKind.UNCALLED, token.number, found["unc_name"], amount=amount)

    def on_collect(self, token: LineToken) -> None:
        found = token.match
        pot = f"side{found['col_no'] or 1}" if found["col_pot"] == "side" else "main"
        if found["col_half"]:
            pot += ":hi" if found["col_half"] == "high" else ":lo"
        amount = self.b.money(found["col_amt"], token.number)
        self.b.add(EventKind.COLLECT, token.number, found["col_name"], amount=amount, pot=pot)

    # --- summary ----------------------------------------------------------------------------
    def on_summary(self, token: LineToken) -> None:
        """A hand that reaches its summary without a street was never dealt (a dead hand)."""
        if not self._streets_seen:
            game = str(self.b.game) if self.b.game else None
            raise HandParseError(
                "dead hand: no cards were dealt", token.number, Outcome.UNSUPPORTED, game
            )

    def on_total(self, token: LineToken) -> None:
        found = token.match
        self.b.total_pot = self.b.money(found["tot_amt"], token.number)
        self.b.rake = self.b.money(found["tot_rake"], token.number)

    def on_duration(self, token: LineToken) -> None:
        """Archived exports time the hand; the header's start time is what the record keeps."""

    def on_summary_seat(self, token: LineToken) -> None:
        """The summary is the room's last word on who sat out (seat lines do not always say
        so) and shows the cards of players whose showdown line was only "mucks"."""
        rest = token.match["ss_rest"]
        b = self.b
        seat_no = int(token.match["ss_seat"])
        index = next((i for i, s in enumerate(b.seats) if s.seat == seat_no), None)
        if index is None:
            raise HandParseError(f"summary names seat {seat_no}, which is empty", token.number)
        seat = b.seats[index]
        if _SITTING_OUT.fullmatch(rest):
            if not seat.sitting_out:
                b.seats[index] = dataclasses.replace(seat, sitting_out=True)
            return
        mucked = _SUMMARY_MUCKED.search(rest)
        if mucked:
            cards = b.cards(mucked["cards"], token.number)
            b.add(EventKind.MUCK, token.number, seat.player, cards=cards)


def _blank_archive_separators(lines: Iterable[Line]) -> Iterator[Line]:
    """Blank the "**** # 2 ****" separators of archived exports, which belong to no hand,
    keeping every line's number and offset (see docs/sites/fulltilt.md)."""
    for line in lines:
        if line.text[:1] == "*" and _ARCHIVE_SEPARATOR.fullmatch(line.text):
            yield Line("", line.offset, line.number)
        else:
            yield line


class FullTilt(Dialect):
    name = "fulltilt"
    grammar_file = "fulltilt.lark"
    line_patterns = LINE_PATTERNS
    section_lines = frozenset({"HEADER", "STREET", "SHOWDOWN", "SUMMARY"})
    hand_start = hand_start_pattern("Full Tilt Poker Game #", "FullTiltPoker Game #")
    hand_id_pattern = re.compile(r"Game #(?P<hand_id>\d+):")
    transformer = FullTiltTransformer

    def split(self, lines: Iterable[Line], path: str) -> Iterator[HandText]:
        return split_lines(_blank_archive_separators(lines), self.hand_start, path, self.name)
