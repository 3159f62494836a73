"""Winamax: cash games (real-money euro tables, the 8-Game rotation, play money) and
tournaments. Notes on the format, its time zone and its quirks are in docs/sites/winamax.md.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Final

from studdraw.parsers.dialects.base import Dialect, LineToken, hand_start_pattern
from studdraw.parsers.dialects.builder import (
    HandParseError,
    parse_amount,
    parse_local_time,
    to_utc,
)
from studdraw.parsers.dialects.transformer import DialectTransformer
from studdraw.parsers.model import EventKind, Game, HandText, Outcome, Structure, Tournament

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
        found = token.field
        b = self.b
        line = token.number
        b.site_hand_id = found("id") or ""
        self._game(found("game") or "", line)
        if found("tournament") is not None:
            self._tournament(found, line)
        self._stakes(found("stakes") or "", line)
        b.site_time = f"{found('time')} {found('zone')}"
        try:
            local = parse_local_time(found("time") or "", _TIME_FORMAT)
            b.started_at = to_utc(local, found("zone") or "")
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

    def _tournament(self, found: Callable[[str], str | None], line: int) -> None:
        b = self.b
        b.scale, b.currency = 1, "CHIPS"
        buy_in = fee = None
        price = _BUY_IN.match(found("buyin") or "")
        if price:
            try:
                buy_in, fee = parse_amount(price["buyin"], 100), parse_amount(price["fee"], 100)
            except ValueError as error:
                raise HandParseError(str(error), line) from None
        currency = "EUR" if price else None
        # The id is printed in the table's name: set by `on_table`.
        b.tournament = Tournament("", buy_in, fee, currency, found("level"))
        b.notes.append(f"tournament {found('tournament')!r}")

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
        found = token.field
        b = self.b
        b.table = found("table") or ""
        b.max_seats = int(found("max") or 0) or None
        if b.tournament is None:
            b.currency = "EUR" if found("money") == "real" else "PLAY"
        else:  # "Table: 'Freeroll(17060078)#004'": the tournament's id, then the table's number
            numbered = _TOURNAMENT_TABLE.fullmatch(b.table)
            if numbered is None:
                raise HandParseError(f"no tournament id in table {b.table!r}", token.number)
            b.tournament = dataclasses.replace(b.tournament, tournament_id=numbered["tid"])
        # Stud tables print "Seat #0 is the button": there is no seat 0.
        b.button = int(found("button") or 0) or None

    def on_ante_blinds(self, token: LineToken) -> None:
        """A section marker: the grammar checks its place; it carries no event."""

    def on_post(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        line, player, kind = token.number, self.player(token), found("post")
        amount = self.amount(token)
        all_in = found("all_in") is not None
        out_of_position = found("out_of_position") is not None
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
        name = token.field("street") or ""
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
        name = token.field("draw") or ""
        b = self.b
        assert b.game is not None
        if not b.game.is_draw:
            raise HandParseError(f"{name}-DRAW in a {b.game} hand", token.number)
        b.new_street(DRAW_ROUNDS[name], token.number, f"{name}-DRAW")

    def on_bet_round(self, token: LineToken) -> None:
        """The betting after a draw belongs to the draw's street; the marker must follow it."""
        name = token.field("round") or ""
        if BET_ROUNDS[name] != self.b.street:
            raise HandParseError(f"{name}-BET after draw {self.b.street}", token.number)

    def on_dealt(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        assert b.game is not None
        line, player = token.number, self.player(token)
        first = self.cards(token)
        new = self.cards(token, "new") if found("new") is not None else None
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
        found = token.field
        b = self.b
        player, verb, line = self.player(token), found("verb"), token.number
        all_in = found("all_in") is not None
        if verb == "folds":
            b.add(EventKind.FOLD, line, player)
            return
        if verb == "checks":
            b.add(EventKind.CHECK, line, player)
            return
        if found("amount") is None:
            raise HandParseError(f"{verb} without an amount", line)
        amount = self.amount(token)
        opening = self._bring_in is not None and not self._completed and b.street == 0
        if verb == "calls":
            b.wager(EventKind.CALL, line, player, amount=amount, all_in=all_in)
        elif verb == "bets":
            kind = EventKind.COMPLETE if opening else EventKind.BET
            self._completed = self._completed or b.street == 0
            b.wager(kind, line, player, amount=amount, all_in=all_in)
        elif verb == "raises":
            if found("to") is None:
                raise HandParseError("raise without a total", line)
            to = self.amount(token, "to")
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
        found = token.field
        count = int(found("count") or 0)
        cards = self.cards(token)
        # "discard 0 card" is how the export files say that a player stands pat.
        kind = EventKind.DISCARD if count else EventKind.STAND_PAT
        self.b.add(kind, token.number, self.player(token), count=count, cards=cards)

    def on_stand_pat(self, token: LineToken) -> None:
        self.b.add(EventKind.STAND_PAT, token.number, self.player(token), count=0)

    def on_total(self, token: LineToken) -> None:
        """Winamax prints the pot after the rake: the record keeps the whole pot."""
        found = token.field
        b = self.b
        b.rake = self.amount(token, "rake") if found("rake") else 0
        b.total_pot = self.amount(token) + b.rake

    def on_summary_seat(self, token: LineToken) -> None:
        """Summary lines repeat the showdown and the collections already read."""


class Winamax(Dialect):
    name = "winamax"
    grammar_file = "winamax.lark"
    hand_start = hand_start_pattern("Winamax Poker - ")
    hand_id_pattern = re.compile(r"HandId: #(?P<hand_id>\d+-\d+-\d+)")
    transformer = WinamaxTransformer
