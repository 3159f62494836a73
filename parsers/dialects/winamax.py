"""Winamax: cash games (real-money euro tables, the 8-Game rotation, play money) and
tournaments. Notes on the format, its time zone and its quirks are in docs/sites/winamax.md.
"""

from __future__ import annotations

import dataclasses
import re
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
from studdraw.parsers.model import EventKind, Game, HandText, Outcome, Structure, Tournament

_NAME: Final = r".+"  # greedy: the verb is anchored at the line end
_AMOUNT: Final = r"-?[$€]?\d[\d.,]*[$€]?"
_CARDS: Final = r"[^\]]*"

LINE_PATTERNS: Final = (
    (
        "HEADER",
        r"\ufeff?Winamax Poker - (?:CashGame(?: - HU)?|Go Fast \"[^\"]*\""
        r"|Tournament \"(?P<hdr_tname>[^\"]*)\" buyIn: (?P<hdr_buyin>.+?)"
        r"(?: level: (?P<hdr_level>\d+))?) - HandId: #(?P<hdr_id>\d+-\d+-\d+) - "
        r"(?P<hdr_game>.+) \((?P<hdr_stakes>[^()]*)\) - "
        r"(?P<hdr_time>\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{2}:\d{2}) (?P<hdr_zone>[A-Z]{2,5})",
    ),
    (
        "TABLE",
        r"Table: '(?P<tbl_name>.*)' (?P<tbl_max>\d+)-max \((?P<tbl_money>real|play) money\)"
        r"(?: Seat #(?P<tbl_button>\d+) is the button)?",
    ),
    (
        "SEAT",
        rf"Seat (?P<seat_no>\d+): (?P<seat_name>.+) \((?P<seat_stack>{_AMOUNT})(?:, [^()]*)?\)",
    ),
    ("SUMMARY_SEAT", r"Seat (?P<ss_seat>\d+): .*"),
    ("ANTE_BLINDS", r"\*\*\* ANTE/BLINDS \*\*\*"),
    (
        "STREET",
        r"\*\*\* (?P<street_name>3rd STREET|4th STREET|5th STREET|6th STREET|7th STREET"
        r"|THIRD|FOURTH|FIFTH|SIXTH|SEVENTH|FIRST-BET) \*\*\*",
    ),
    ("DRAW", r"\*\*\* (?P<draw_name>FIRST|SECOND|THIRD)-DRAW \*\*\*"),
    ("BET_ROUND", r"\*\*\* (?P<round_name>SECOND|THIRD|FOURTH)-BET \*\*\*"),
    ("SHOWDOWN", r"\*\*\* SHOW DOWN \*\*\*"),
    ("SUMMARY", r"\*\*\* SUMMARY \*\*\*"),
    (
        "DEALT",
        rf"Dealt to (?P<dealt_name>.+?) \[(?P<dealt_first>{_CARDS})\]"
        rf"(?: \[(?P<dealt_new>{_CARDS})\])?",
    ),
    (
        "SHOWS",
        rf"(?P<show_name>{_NAME}) shows \[(?P<show_cards>{_CARDS})\](?: \((?P<show_desc>.*)\))?",
    ),
    (
        "COLLECT",
        rf"(?P<col_name>{_NAME}) collected (?P<col_amt>{_AMOUNT}) from "
        r"(?P<col_pot>pot|main pot|side pot(?: #?\d+)?)",
    ),
    (
        "ACTION",
        rf"(?P<act_name>{_NAME}) (?P<act_verb>folds|checks|calls|bets|raises|brings in|bring-in)"
        rf"(?: (?P<act_amt>{_AMOUNT})(?: to (?P<act_to>{_AMOUNT}))?)?"
        r"(?P<act_allin> and is all-in)?",
    ),
    (
        "POST",
        rf"(?P<post_name>{_NAME}) posts (?P<post_kind>ante|small blind|big blind) "
        rf"(?P<post_amt>{_AMOUNT})(?P<post_oop> out of position)?(?P<post_allin> and is all-in)?",
    ),
    (
        "DISCARD",
        rf"(?P<dis_name>{_NAME}) discards? (?P<dis_count>\d+) cards?"
        rf"(?: \[(?P<dis_cards>{_CARDS})\])?",
    ),
    ("STAND_PAT", rf"(?P<pat_name>{_NAME}) stands pat"),
    (
        "TOTAL",
        rf"Total pot (?P<tot_amt>{_AMOUNT})(?: .*?)? \| (?:Rake (?P<tot_rake>{_AMOUNT})|No rake)",
    ),
    # last: the fallback keeps unknown announcements, never a section marker or a "name: text"
    ("NOTE", r"(?P<note_text>(?!\*\*\*)[^:]*)"),
)

GAMES: Final = {
    "7-card stud": Game.STUD,
    "7stud": Game.STUD,
    "7-card stud hi/lo": Game.STUD8,
    "razz": Game.RAZZ,
    "2-7 triple draw": Game.TD27,
    "lowball27": Game.TD27,
}
FIXED_LIMIT_ONLY: Final = frozenset({"lowball27"})
"""Names read as a game only in fixed limit: the play-money "Lowball27 fixed limit" tables deal
three draws (corpus: cash/Winamax/Draw), but a no-limit "Lowball27" may well be single draw."""
STRUCTURES: Final = {
    "fixed limit": Structure.FIXED,
    "pot limit": Structure.POT,
    "no limit": Structure.NO,
}
STUD_STREETS: Final = {
    "3rd STREET": 0,
    "4th STREET": 1,
    "5th STREET": 2,
    "6th STREET": 3,
    "7th STREET": 4,
    "THIRD": 0,
    "FOURTH": 1,
    "FIFTH": 2,
    "SIXTH": 3,
    "SEVENTH": 4,
}
DRAW_ROUNDS: Final = {"FIRST": 1, "SECOND": 2, "THIRD": 3}
BET_ROUNDS: Final = {"SECOND": 1, "THIRD": 2, "FOURTH": 3}

_GAME_LIMIT: Final = re.compile(r"(?P<name>.+) (?P<limit>fixed limit|pot limit|no limit)")
_BUY_IN: Final = re.compile(r"(?P<buyin>\d[\d.,]*)€? ?\+ ?(?P<fee>\d[\d.,]*)")
_SIDE_POT: Final = re.compile(r"side pot(?: #?(\d+))?")
_TOURNAMENT_TABLE: Final = re.compile(r".*\((?P<tid>\d+)\)#\d+")
_TIME_FORMAT: Final = ("%Y/%m/%d %H:%M:%S",)


class WinamaxTransformer(DialectTransformer):
    site = "winamax"

    def begin(self, hand: HandText) -> None:
        super().begin(hand)
        self._bring_in: tuple[str, int] | None = None  # who brought in, and for how much
        self._completed = False  # 3rd street has seen its completion (or a bet above it)

    # --- header, table and seats ------------------------------------------------------------
    def on_header(self, token: LineToken) -> None:
        found = token.match
        b = self.b
        line = token.number
        b.site_hand_id = found["hdr_id"]
        self._game(found["hdr_game"], line)
        if found["hdr_tname"] is not None:
            self._tournament(found, line)
        self._stakes(found["hdr_stakes"], line)
        b.site_time = f"{found['hdr_time']} {found['hdr_zone']}"
        try:
            local = parse_local_time(found["hdr_time"], _TIME_FORMAT)
            b.started_at = to_utc(local, found["hdr_zone"])
        except ValueError as error:
            raise HandParseError(str(error), line) from None

    def _game(self, text: str, line: int) -> None:
        limit = _GAME_LIMIT.fullmatch(text)
        name = limit["name"].lower() if limit else ""
        game = GAMES.get(name)
        if name in FIXED_LIMIT_ONLY and limit and limit["limit"] != "fixed limit":
            game = None
        if limit is None or game is None:
            raise HandParseError(
                f"{text} is not a stud or triple-draw game",
                line,
                Outcome.UNSUPPORTED,
                game_label=text,
            )
        self.b.game = game
        self.b.structure = STRUCTURES[limit["limit"]]

    def _tournament(self, found: re.Match[str], line: int) -> None:
        b = self.b
        b.scale, b.currency = 1, "CHIPS"
        buy_in = fee = None
        price = _BUY_IN.match(found["hdr_buyin"])
        if price:
            try:
                buy_in, fee = parse_amount(price["buyin"], 100), parse_amount(price["fee"], 100)
            except ValueError as error:
                raise HandParseError(str(error), line) from None
        currency = "EUR" if price else None
        # The id is printed in the table's name: set by `on_table`.
        b.tournament = Tournament("", buy_in, fee, currency, found["hdr_level"])
        b.notes.append(f"tournament {found['hdr_tname']!r}")

    def _stakes(self, text: str, line: int) -> None:
        """The header's "(0.50/1)" gives the bets of a fixed-limit game (the blinds of a pot-
        or no-limit one); stud puts the ante first: "(5€/25€/50€)"."""
        b = self.b
        amounts = [b.money(part, line) for part in text.split("/")]
        if len(amounts) == 3:
            b.ante = amounts.pop(0)
        if len(amounts) != 2:
            raise HandParseError(f"unreadable stakes {text!r}", line)
        small, big = amounts
        if b.structure is Structure.FIXED:
            b.small_bet, b.big_bet = small, big
        else:
            b.small_blind, b.big_blind = small, big
            b.small_bet = b.big_bet = big

    def on_table(self, token: LineToken) -> None:
        found = token.match
        b = self.b
        b.table = found["tbl_name"]
        b.max_seats = int(found["tbl_max"])
        if b.tournament is None:
            b.currency = "EUR" if found["tbl_money"] == "real" else "PLAY"
        else:  # "Table: 'Freeroll(17060078)#004'": the tournament's id, then the table's number
            numbered = _TOURNAMENT_TABLE.fullmatch(b.table)
            if numbered is None:
                raise HandParseError(f"no tournament id in table {b.table!r}", token.number)
            b.tournament = dataclasses.replace(b.tournament, tournament_id=numbered["tid"])
        # Stud tables print "Seat #0 is the button": there is no seat 0.
        b.button = int(found["tbl_button"] or 0) or None

    def on_seat(self, token: LineToken) -> None:
        found = token.match
        stack = self.b.money(found["seat_stack"], token.number)
        self.b.seat(int(found["seat_no"]), found["seat_name"], stack)

    def on_ante_blinds(self, token: LineToken) -> None:
        """A section marker: the grammar checks its place; it carries no event."""

    def on_post(self, token: LineToken) -> None:
        found = token.match
        b = self.b
        line, player, kind = token.number, found["post_name"], found["post_kind"]
        amount = b.money(found["post_amt"], line)
        all_in = found["post_allin"] is not None
        out_of_position = found["post_oop"] is not None
        if kind == "ante":
            b.add(EventKind.ANTE, line, player, amount=amount, all_in=all_in)
        elif kind == "small blind" and out_of_position:
            # A small blind posted out of position is dead money; a big blind stays live.
            b.add(EventKind.DEAD, line, player, amount=amount, all_in=all_in)
        elif kind == "small blind":
            b.wager(EventKind.SMALL_BLIND, line, player, amount=amount, all_in=all_in)
        else:
            kind_of = EventKind.POST if out_of_position else EventKind.BIG_BLIND
            b.wager(kind_of, line, player, amount=amount, all_in=all_in)

    # --- streets --------------------------------------------------------------------------
    def on_street(self, token: LineToken) -> None:
        name = token.match["street_name"]
        b = self.b
        assert b.game is not None
        if name == "FIRST-BET":
            index = 0 if b.game.is_draw else None
        else:
            index = STUD_STREETS[name] if b.game.is_stud else None
        if index is None:
            raise HandParseError(f"{name} is not a street of {b.game}", token.number)
        b.new_street(index, token.number, name)

    def on_draw(self, token: LineToken) -> None:
        name = token.match["draw_name"]
        b = self.b
        assert b.game is not None
        if not b.game.is_draw:
            raise HandParseError(f"{name}-DRAW in a {b.game} hand", token.number)
        b.new_street(DRAW_ROUNDS[name], token.number, f"{name}-DRAW")

    def on_bet_round(self, token: LineToken) -> None:
        """The betting after a draw belongs to the draw's street; the marker must follow it."""
        name = token.match["round_name"]
        if BET_ROUNDS[name] != self.b.street:
            raise HandParseError(f"{name}-BET after draw {self.b.street}", token.number)

    def on_dealt(self, token: LineToken) -> None:
        found = token.match
        b = self.b
        assert b.game is not None
        line, player = token.number, found["dealt_name"]
        first = b.cards(found["dealt_first"], line)
        new = b.cards(found["dealt_new"], line) if found["dealt_new"] is not None else None
        if b.game.is_draw:
            cards = first if new is None else new
            if any(cards):
                b.hero = player
            if b.street == 0:
                b.add(EventKind.DEAL, line, player, cards=cards, up=(False,) * len(cards))
            else:
                b.add(
                    EventKind.DRAW,
                    line,
                    player,
                    cards=cards,
                    up=(False,) * len(cards),
                    count=len(cards),
                )
            return
        up: tuple[bool, ...]
        if b.street == 0:
            if len(first) != 3 or new is not None:
                raise HandParseError("3rd street deals 3 cards", line)
            if first[0] is not None or first[1] is not None:  # "[X X 8h]" for the others
                b.hero = player
            cards, up = first, (False, False, True)
        else:  # "[cards so far] [new card]"; the 7th street card shows as "[X]"
            cards = first if new is None else new
            up = (b.street < 4,) * len(cards)
        b.add(EventKind.DEAL, line, player, cards=cards, up=up)

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
        opening = self._bring_in is not None and not self._completed and b.street == 0
        if verb == "calls":
            b.wager(EventKind.CALL, line, player, amount=amount, all_in=all_in)
        elif verb == "bets":
            kind = EventKind.COMPLETE if opening else EventKind.BET
            self._completed = self._completed or b.street == 0
            b.wager(kind, line, player, amount=amount, all_in=all_in)
        elif verb == "raises":
            if found["act_to"] is None:
                raise HandParseError("raise without a total", line)
            to = b.money(found["act_to"], line)
            if self._bring_in and self._bring_in[0] == player and b.street == 0:
                # The room's total leaves out the raiser's own bring-in (docs/sites/winamax.md).
                to += self._bring_in[1]
                b.notes.append(f"line {line}: raise total read as printed + bring-in")
            kind = EventKind.COMPLETE if opening else EventKind.RAISE
            self._completed = self._completed or b.street == 0
            b.wager(kind, line, player, to=to, all_in=all_in)
        else:  # "brings in" (8-Game tables) or "bring-in" (export files)
            self._bring_in = (player, amount)
            b.wager(EventKind.BRING_IN, line, player, amount=amount, all_in=all_in)

    def on_discard(self, token: LineToken) -> None:
        found = token.match
        count = int(found["dis_count"])
        cards = self.b.cards(found["dis_cards"], token.number) if found["dis_cards"] else ()
        # "discard 0 card" is how the export files say that a player stands pat.
        kind = EventKind.DISCARD if count else EventKind.STAND_PAT
        self.b.add(kind, token.number, found["dis_name"], count=count, cards=cards)

    def on_stand_pat(self, token: LineToken) -> None:
        self.b.add(EventKind.STAND_PAT, token.number, token.match["pat_name"], count=0)

    # --- showdown and money out -------------------------------------------------------------
    def on_showdown(self, token: LineToken) -> None:
        """A section marker: the grammar checks its place; it carries no event."""

    def on_shows(self, token: LineToken) -> None:
        found = token.match
        cards = self.b.cards(found["show_cards"], token.number)
        self.b.add(
            EventKind.SHOW, token.number, found["show_name"], cards=cards, text=found["show_desc"]
        )

    def on_collect(self, token: LineToken) -> None:
        found = token.match
        side = _SIDE_POT.fullmatch(found["col_pot"])
        pot = f"side{side.group(1) or 1}" if side else "main"
        amount = self.b.money(found["col_amt"], token.number)
        self.b.add(EventKind.COLLECT, token.number, found["col_name"], amount=amount, pot=pot)

    # --- summary ----------------------------------------------------------------------------
    def on_summary(self, token: LineToken) -> None:
        """A section marker: the grammar checks its place; it carries no event."""

    def on_total(self, token: LineToken) -> None:
        """Winamax prints the pot after the rake: the record keeps the whole pot."""
        found = token.match
        b = self.b
        b.rake = b.money(found["tot_rake"], token.number) if found["tot_rake"] else 0
        b.total_pot = b.money(found["tot_amt"], token.number) + b.rake

    def on_summary_seat(self, token: LineToken) -> None:
        """Summary lines repeat the showdown and the collections already read."""


class Winamax(Dialect):
    name = "winamax"
    grammar_file = "winamax.lark"
    line_patterns = LINE_PATTERNS
    section_lines = frozenset(
        {"HEADER", "TABLE", "ANTE_BLINDS", "STREET", "DRAW", "BET_ROUND", "SHOWDOWN", "SUMMARY"}
    )
    hand_start = hand_start_pattern("Winamax Poker - ")
    hand_id_pattern = re.compile(r"HandId: #(?P<hand_id>\d+-\d+-\d+)")
    transformer = WinamaxTransformer
