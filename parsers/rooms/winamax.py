"""Winamax: cash games (real-money euro tables, the 8-Game rotation, play money) and
tournaments. Notes on the format, its time zone and its quirks are in docs/rooms/winamax.md.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Final

from studdraw.parsers.builder import (
    HandParseError,
    parse_amount,
    unsupported,
)
from studdraw.parsers.model import EventKind, Game, Structure, Tournament
from studdraw.parsers.text.line_reader import LineReader
from studdraw.parsers.text.room import TextRoom
from studdraw.parsers.text.tokens import LineToken
from studdraw.parsers.text.verbs import BET, BRING_IN, CALL, CHECK, FOLD, Reads, Verb

GAMES: Final = {
    "7-card stud": Game.STUD,
    "7stud": Game.STUD,
    "7-card stud hi/lo": Game.STUD8,
    "7stud8": Game.STUD8,
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
DRAW_STREETS: Final = {"FIRST-BET": 0, "FIRST-DRAW": 1, "SECOND-DRAW": 2, "THIRD-DRAW": 3}
BET_ROUNDS: Final = {"SECOND": 1, "THIRD": 2, "FOURTH": 3}

VERBS: Final = {
    "folds": FOLD,
    "checks": CHECK,
    "calls": CALL,
    "bets": BET,  # on 3rd street over the bring-in, the base reads it as the completion
    "raises": Verb(EventKind.RAISE, Reads.TOTAL_TO, quirk="raise_to"),
    "brings in": BRING_IN,  # the 8-Game tables
    "bring-in": BRING_IN,  # the play-money exports
}
POSTS: Final = {
    "ante": EventKind.ANTE,
    "small blind": EventKind.SMALL_BLIND,
    "big blind": EventKind.BIG_BLIND,
}


_WON: Final = re.compile(r"\bwon (?P<won>[$€]?\d[\d.,]*[$€]?)")
"""A summary seat line's winnings: "showed [...] and won 70.30€ with ...", "won 458€"."""
_NO_WIN: Final = re.compile(r"\b(?:folded|lost|mucked)\b")


class WinamaxReader(LineReader):
    summary_won = _WON
    summary_no_win = _NO_WIN
    verbs = VERBS
    posts = POSTS
    stud_streets = STUD_STREETS
    draw_streets = DRAW_STREETS
    counts_known_draws = True
    games = GAMES
    any_case = True
    structures = STRUCTURES
    time_formats = ("%Y/%m/%d %H:%M:%S",)

    # --- header, table and seats ------------------------------------------------------------
    def on_header(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        line = token.number
        b.room_hand_id = found("id") or ""
        label, name = found("game") or "", found("name")
        if name is None or (name.lower() in FIXED_LIMIT_ONLY and found("limit") != "fixed limit"):
            raise unsupported(label, line)
        b.game = self.read_game(name, line, label)
        b.structure = self.read_structure(found("limit") or "", line, label)
        if found("tournament") is not None:
            self._tournament(found, line)
        if found("stakes") is not None:
            raise HandParseError(f"unreadable stakes {found('stakes')!r}", line)
        if found("ante") is not None:
            b.ante = self.amount(token, "ante")
        b.header_stakes(self.amount(token, "small"), self.amount(token, "big"))
        b.room_time = f"{found('time')} {found('zone')}"
        self.read_time(found("time") or "", found("zone"), line)

    def _tournament(self, found: Callable[[str], str | None], line: int) -> None:
        b = self.b
        b.scale, b.currency = 1, "CHIPS"
        buy_in = fee = None
        if found("buyin"):
            try:
                buy_in, fee = (
                    parse_amount(found("buyin") or "", 100),
                    parse_amount(found("fee") or "", 100),
                )
            except ValueError as error:
                raise HandParseError(str(error), line) from None
        currency = "EUR" if found("buyin") else None
        # The id is printed in the table's name: set by `on_table`.
        b.tournament = Tournament("", buy_in, fee, currency, found("level"))
        b.notes.append(f"tournament {found('tournament')!r}")

    def on_table(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        b.table = found("table") or ""
        b.max_seats = int(found("max") or 0) or None
        if b.tournament is None:
            b.currency = "EUR" if found("money") == "real" else "PLAY"
        else:  # "Table: 'Freeroll(17060078)#004'": the tournament's id, then the table's number
            if found("tid") is None:
                raise HandParseError(f"no tournament id in table {b.table!r}", token.number)
            b.tournament = dataclasses.replace(b.tournament, tournament_id=found("tid") or "")
        # Stud tables print "Seat #0 is the button": there is no seat 0.
        b.button = int(found("button") or 0) or None

    def on_ante_blinds(self, token: LineToken) -> None:
        """A section marker: the grammar checks its place; it carries no event."""

    def on_post(self, token: LineToken) -> None:
        """A blind "out of position" (a player coming in): the small blind is dead money, the
        big blind a live post."""
        if token.field("out_of_position") is None:
            super().on_post(token)
            return
        b, player, amount = self.b, self.player(token), self.amount(token)
        all_in = self.flag(token, "all_in")
        if token.field("post") == "small blind":
            b.add(EventKind.DEAD, token.number, player, amount=amount, all_in=all_in)
        else:
            b.wager(EventKind.POST, token.number, player, amount=amount, all_in=all_in)

    # --- streets and actions ----------------------------------------------------------------
    def on_draw(self, token: LineToken) -> None:
        """Open the draw's street at "*** FIRST-DRAW ***"."""
        self.on_street(token)

    def on_bet_round(self, token: LineToken) -> None:
        """The betting after a draw belongs to the draw's street; the marker must follow it."""
        name = token.field("round") or ""
        if BET_ROUNDS[name] != self.b.street:
            raise HandParseError(f"{name}-BET after draw {self.b.street}", token.number)

    def raise_to(self, token: LineToken) -> None:
        """ "raises X to Y": Y is the street total, except that the room leaves the raiser's
        own bring-in out of it (docs/rooms/winamax.md, "Quirks")."""
        b = self.b
        player, line = self.player(token), token.number
        to = self.amount(token, "to" if token.field("to") is not None else "amount")
        brought = next(
            (
                e.amount
                for e in b.events
                if e.street == 0 and e.kind is EventKind.BRING_IN and e.player == player
            ),
            0,
        )
        if brought and b.street == 0:
            to += brought
            b.notes.append(f"line {line}: raise total read as printed + bring-in")
        kind = EventKind.COMPLETE if self._bring_in_open() else EventKind.RAISE
        b.wager(kind, line, player, to=to, all_in=self.flag(token, "all_in"))

    # --- summary ----------------------------------------------------------------------------
    def on_total(self, token: LineToken) -> None:
        """Winamax prints the pot after the rake: the record keeps the whole pot."""
        b = self.b
        b.rake = self.amount(token, "rake") if token.field("rake") else 0
        b.total_pot = self.amount(token) + b.rake

    def on_summary_seat(self, token: LineToken) -> None:
        """Summary lines repeat the showdown and the collections already read: what they say
        each player won is held against the collects."""
        seat = int(token.field("seat") or 0)
        player = next((s.player for s in self.b.seats if s.seat == seat), None)
        text = token.field("text") or ""
        if player is not None and text.startswith(player):
            self.claim(player, text[len(player) :], token.number)


class Winamax(TextRoom):
    name = "winamax"
    title = "Winamax"
    grammar_file = "winamax.lark"
    reader_class = WinamaxReader
