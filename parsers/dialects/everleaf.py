"""Everleaf Gaming Network: the 2011 stud exports, USD ("$ 0.54 USD", no cards dealt printed)
and EUR ("€ 2.50 EURO", cp1252, with "Dealt to" lines). Notes on the format are in
docs/sites/everleaf.md.

The room prints no uncalled-bet line and no pot or rake summary: a bet nobody called goes back
silently (the next hand's stacks prove it), so the dialect adds the return as an UNCALLED event,
marked as inferred, on the line where the room starts settling the pot.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Final

from studdraw.parsers.dialects.base import (
    Dialect,
    DialectTransformer,
    HandParseError,
    LineToken,
    hand_start_pattern,
    to_utc,
)
from studdraw.parsers.model import EventKind, Game, HandText, Outcome

_NAME: Final = r".+"  # greedy: every verb is anchored at the line end
_MONEY: Final = r"[$€]? ?[\d.,]+(?: (?:USD|EURO?|Chips))?"  # "$ 0.01 USD", "€ 2.50 EURO", "25"

LINE_PATTERNS: Final = (
    ("HEADER", r"\ufeff?Everleaf Gaming Game #(?P<hdr_id>\d+)"),
    ("TITLE", r"\*{5} Hand history for game #(?P<title_id>\d+) \*{5}"),
    (
        "GAME",
        r"(?:Blinds )? ?(?P<game_cur>[$€]?) ?(?P<game_small>[\d.,]+) ?/ ?[$€]?"
        r"(?P<game_big>[\d.,]+) (?P<game_label>.+?)(?: - (?P<game_max>\d+) Max)?"
        r" - (?P<game_time>\d{4}/\d{2}/\d{2} - \d{2}:\d{2}:\d{2})",
    ),
    ("TABLE", r"Table (?P<tbl_name>.+)"),
    ("PLAYERS", r"Total number of players: \d+"),
    (
        "SEAT",
        r"Seat (?P<seat_no>\d+): (?P<seat_name>.+?) \( +(?:(?P<seat_state>new player|All-in)"
        rf"|(?P<seat_stack>{_MONEY})) \)",
    ),
    ("ANTE", rf"(?P<ante_name>{_NAME}): posts ante \[ ?(?P<ante_amt>{_MONEY})\]"),
    ("DEALING", r"\*\* Dealing down cards \*\*"),
    (
        "STREET",
        r"\*{2,4} (?i:dealing (?P<street_name>4th street|5th street|6th street|river))"
        r" \*{2,4}",
    ),
    ("DEALT", rf"Dealt to (?P<dealt_name>{_NAME}) \[ (?P<dealt_cards>[^\]]*) \]\.?"),
    ("BRING_IN", rf"(?P<bi_name>{_NAME}) posts bring-in (?P<bi_amt>[$€]?[\d.,]*\d)\."),
    ("COMPLETE", rf"(?P<cmp_name>{_NAME}) completes to (?P<cmp_amt>[$€]?[\d.,]*\d)\."),
    (
        "ACTION",
        rf"(?P<act_name>{_NAME})(?P<act_verb>: bets| raises| calls| checks| folds)"
        rf"(?: \[ ?(?P<act_amt>{_MONEY})\])?",
    ),
    (
        "SHOWS",
        rf"(?P<show_name>{_NAME}) shows \[ (?P<show_cards>[^\]]*) \] ?(?P<show_desc>.*)",
    ),
    ("MUCKS", rf"(?P<muck_name>{_NAME}) mucks \[ (?P<muck_cards>[^\]]*) \].*"),
    ("NO_SHOW", rf"(?P<ns_name>{_NAME}) does not show cards"),
    (
        "COLLECT",
        rf"(?P<col_name>{_NAME}) wins +(?P<col_amt>{_MONEY}) from "
        r"(?P<col_pot>main pot|side pot(?: #?\d+)?)(?: with .*)?",
    ),
    # last: announcements without money or cards (joins, leaves, disconnects) are kept as notes
    ("NOTE", r"(?P<note_text>[^:\[\]$€]+)"),
)

GAMES: Final = {"7 Card Stud": Game.STUD, "Razz": Game.RAZZ}
CURRENCIES: Final = {"$": "USD", "€": "EUR"}
STUD_STREETS: Final = {"4th street": 1, "5th street": 2, "6th street": 3, "river": 4}
STREET_NAMES: Final = ("3rd street", "4th street", "5th street", "6th street", "7th street")
_SIDE_POT: Final = re.compile(r"side pot(?: #?(\d+))?")
_TIME_FORMAT: Final = "%Y/%m/%d - %H:%M:%S"
ZONE: Final = "UTC"
"""Everleaf prints no zone; FPDB's Everleaf importer treats the times as GMT/UTC (see notes)."""


def _local_time(text: str, line: int) -> datetime:
    try:
        return datetime.strptime(text, _TIME_FORMAT)
    except ValueError as error:
        raise HandParseError(str(error), line) from None


class EverleafTransformer(DialectTransformer):
    site = "everleaf"

    def begin(self, hand: HandText) -> None:
        super().begin(hand)
        self._opened = False  # 3rd street has a completion (or a bet) above the bring-in
        self._settled = False  # the uncalled bet, if any, has been returned
        self._last_round: dict[str, int] = {}  # contributions of the last round with wagers

    # --- header and seats -------------------------------------------------------------------
    def on_header(self, token: LineToken) -> None:
        self.b.site_hand_id = token.match["hdr_id"]

    def on_title(self, token: LineToken) -> None:
        if token.match["title_id"] != self.b.site_hand_id:
            raise HandParseError(
                f"hand #{token.match['title_id']} inside game #{self.b.site_hand_id}", token.number
            )

    def on_game(self, token: LineToken) -> None:
        found = token.match
        b = self.b
        label = found["game_label"]
        game = GAMES.get(label)
        if game is None:
            raise HandParseError(
                f"{label} is not a stud or triple-draw game",
                token.number,
                Outcome.UNSUPPORTED,
                game_label=label,
            )
        b.game = game
        symbol = found["game_cur"]
        if symbol:
            b.currency = CURRENCIES[symbol]
        else:
            b.currency, b.scale = "CHIPS", 1
            b.notes.append("no currency in the header: tournament chips, tournament not named")
        b.small_bet = b.money(found["game_small"], token.number)
        b.big_bet = b.money(found["game_big"], token.number)
        b.max_seats = int(found["game_max"]) if found["game_max"] else None
        b.site_time = found["game_time"]
        b.started_at = to_utc(_local_time(b.site_time, token.number), ZONE)
        b.notes.append(f"no time zone printed; {ZONE} assumed")

    def on_table(self, token: LineToken) -> None:
        self.b.table = token.match["tbl_name"]

    def on_players(self, token: LineToken) -> None:
        """The seat lines that follow are the roster; the count adds nothing to them."""

    def on_seat(self, token: LineToken) -> None:
        found = token.match
        b = self.b
        state = found["seat_state"]
        if state:  # "( new player )" waits for the next hand; "( All-in )" has no chips left
            b.seat(int(found["seat_no"]), found["seat_name"], 0, sitting_out=True)
            b.notes.append(f"{found['seat_name']} listed as {state!r}")
            return
        b.seat(
            int(found["seat_no"]), found["seat_name"], b.money(found["seat_stack"], token.number)
        )

    def on_ante(self, token: LineToken) -> None:
        found = token.match
        amount = self.b.money(found["ante_amt"], token.number)
        self.b.add(EventKind.ANTE, token.number, found["ante_name"], amount=amount)

    # --- streets ----------------------------------------------------------------------------
    def on_dealing(self, token: LineToken) -> None:
        self.b.new_street(0, token.number, STREET_NAMES[0])

    def on_street(self, token: LineToken) -> None:
        b = self.b
        if b.contributed:
            self._last_round = b.contributed
        index = STUD_STREETS[token.match["street_name"].lower()]
        b.new_street(index, token.number, STREET_NAMES[index])

    def on_dealt(self, token: LineToken) -> None:
        found = token.match
        b = self.b
        player = found["dealt_name"]
        cards = b.cards(found["dealt_cards"].replace(",", " "), token.number)
        up: tuple[bool, ...]
        if b.street == 0:
            if len(cards) == 3:
                b.hero = player
                up = (False, False, True)
            elif len(cards) == 1:  # an opponent: only the door card is shown
                cards, up = (None, None, *cards), (False, False, True)
            else:
                raise HandParseError(f"3rd street deals 3 cards, not {len(cards)}", token.number)
        else:
            up = (b.street < 4,) * len(cards)
        b.add(EventKind.DEAL, token.number, player, cards=cards, up=up)

    def on_bring_in(self, token: LineToken) -> None:
        found = token.match
        amount = self.b.money(found["bi_amt"], token.number)
        self.b.wager(EventKind.BRING_IN, token.number, found["bi_name"], amount=amount)

    def on_complete(self, token: LineToken) -> None:
        found = token.match
        to = self.b.money(found["cmp_amt"], token.number)
        self.b.wager(EventKind.COMPLETE, token.number, found["cmp_name"], to=to)
        self._opened = True

    def on_action(self, token: LineToken) -> None:
        found = token.match
        b = self.b
        player, verb, line = found["act_name"], found["act_verb"], token.number
        if verb == " folds":
            b.add(EventKind.FOLD, line, player)
            return
        if verb == " checks":
            b.add(EventKind.CHECK, line, player)
            return
        if found["act_amt"] is None:
            raise HandParseError(f"{verb.strip(': ')} without an amount", line)
        # Every amount is what the player puts in now: "raises [$ 0.10]" over a 0.05 bet of
        # the player's own makes 0.15 (a call of 0.05 completes the round).
        amount = b.money(found["act_amt"], line)
        if verb == " calls":
            b.wager(EventKind.CALL, line, player, amount=amount)
        elif verb == ": bets":
            # On 3rd street "bets" opens above the ante: the low card completing instead of
            # bringing in (Everleaf writes "completes to" after a bring-in).
            kind = EventKind.COMPLETE if b.street == 0 and not self._opened else EventKind.BET
            b.wager(kind, line, player, amount=amount)
            self._opened = True
        else:
            b.wager(EventKind.RAISE, line, player, amount=amount)
            self._opened = True

    # --- settling the pot -------------------------------------------------------------------
    def _return_uncalled(self, line: int) -> None:
        """Return the part of the last bet nobody matched, which the room never prints."""
        if self._settled:
            return
        self._settled = True
        b = self.b
        bets = b.contributed or self._last_round
        if not bets:
            return
        ranked = sorted(bets.items(), key=lambda item: item[1], reverse=True)
        top_player, top = ranked[0]
        second = ranked[1][1] if len(ranked) > 1 else 0
        if top > second:
            b.add(
                EventKind.UNCALLED,
                line,
                top_player,
                amount=top - second,
                text="inferred: the room does not print uncalled bets",
            )

    def on_shows(self, token: LineToken) -> None:
        self._return_uncalled(token.number)
        found = token.match
        cards = self.b.cards(found["show_cards"].replace(",", " "), token.number)
        self.b.add(
            EventKind.SHOW,
            token.number,
            found["show_name"],
            cards=cards,
            text=found["show_desc"] or None,
        )

    def on_mucks(self, token: LineToken) -> None:
        self._return_uncalled(token.number)
        found = token.match
        cards = self.b.cards(found["muck_cards"].replace(",", " "), token.number)
        self.b.add(EventKind.MUCK, token.number, found["muck_name"], cards=cards)

    def on_no_show(self, token: LineToken) -> None:
        self._return_uncalled(token.number)
        self.b.add(EventKind.NOTE, token.number, token.match["ns_name"], text="does not show cards")

    def on_collect(self, token: LineToken) -> None:
        self._return_uncalled(token.number)
        found = token.match
        side = _SIDE_POT.fullmatch(found["col_pot"])
        pot = f"side{side[1] or 1}" if side else "main"
        amount = self.b.money(found["col_amt"], token.number)
        self.b.add(EventKind.COLLECT, token.number, found["col_name"], amount=amount, pot=pot)


class Everleaf(Dialect):
    name = "everleaf"
    grammar_file = "everleaf.lark"
    line_patterns = LINE_PATTERNS
    section_lines = frozenset({"HEADER", "TITLE", "GAME", "TABLE", "PLAYERS", "DEALING", "STREET"})
    hand_start = hand_start_pattern("Everleaf Gaming Game #")
    hand_id_pattern = re.compile(r"Game #(?P<hand_id>\d+)")
    transformer = EverleafTransformer
