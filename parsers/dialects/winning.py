"""Winning Poker Network: the "Game started at:" exports of the 2016 client (UTF-16, a blank
line after every line). Notes on the format are in docs/sites/winning.md.

Two habits of the room shape this module:

- cards are dealt one line per card ("received card: [5d]" for the hero and every up card,
  "received a card." for a hidden one); a player's cards of one street become one DEAL event;
- the street markers lag one street behind: the 3rd-street deal and betting come before any
  marker, "*** Third street ***" opens 4th street, ..., "*** Sixth street ***" opens 7th.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from datetime import datetime
from typing import Final

from studdraw.parsers.dialects.base import Dialect, LineToken, hand_start_pattern
from studdraw.parsers.dialects.builder import HandParseError, to_utc
from studdraw.parsers.dialects.lines import LineSyntax
from studdraw.parsers.dialects.transformer import DialectTransformer
from studdraw.parsers.model import (
    Card,
    Event,
    EventKind,
    Game,
    HandText,
    Outcome,
    Tournament,
)

GAMES: Final = {"Seven Cards Stud": Game.STUD, "Seven Cards Stud HiLow": Game.STUD8}
STREET_NAMES: Final = ("3rd street", "4th street", "5th street", "6th street", "7th street")
MARKERS: Final = {"Third": 1, "Fourth": 2, "Fifth": 3, "Sixth": 4}
"""Each marker opens the street after the one it names (see the module docstring)."""
UP_CARDS: Final = ((False, False, True), (True,), (True,), (True,), (False,))
"""Which cards of each stud street are dealt face up, in the order the room deals them."""
ZONE: Final = "ET"
"""The room prints no zone; WPN runs on Eastern time (see docs/sites/winning.md)."""
_TIME_FORMAT: Final = "%Y/%m/%d %H:%M:%S"
_TOURNAMENT_FILE: Final = re.compile(r"HH\d{8} T(?P<tid>\d+)-G\d+")
_GAME_ID: Final = re.compile(r"Game ID: (?P<hand_id>\d+)")


class WinningTransformer(DialectTransformer):
    site = "winning"

    def begin(self, hand: HandText) -> None:
        super().begin(hand)
        self._cards: dict[str, list[tuple[Card | None, int]]] = {}  # one street's deal so far
        self._opened = False  # 3rd street has a completion above the bring-in
        self._dealing = False  # the first card has opened 3rd street

    def attach(self, syntax: LineSyntax) -> None:
        """A run of card lines is one deal: every other line first closes the pending deal."""
        super().attach(syntax)
        self.handlers = {
            kind: handler if kind == "CARD" else self._after_deal(handler)
            for kind, handler in self.handlers.items()
        }

    def _after_deal(self, handler: Callable[[LineToken], None]) -> Callable[[LineToken], None]:
        def run(token: LineToken) -> None:
            if self._cards:
                self._deal()
            handler(token)

        return run

    # --- header and seats -------------------------------------------------------------------
    def on_header(self, token: LineToken) -> None:
        b = self.b
        b.site_time = token.field("time") or ""
        try:
            local = datetime.strptime(b.site_time, _TIME_FORMAT)
        except ValueError as error:
            raise HandParseError(str(error), token.number) from None
        b.started_at = to_utc(local, ZONE)
        b.notes.append(f"no time zone printed; {ZONE} assumed")

    def on_game(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        b.site_hand_id = found("id") or ""
        label = found("game") or ""
        game = GAMES.get(label)
        if game is None:
            raise HandParseError(
                f"{label} is not a stud or triple-draw game",
                token.number,
                Outcome.UNSUPPORTED,
                game_label=label,
            )
        b.game = game
        b.table = found("table") or ""
        # Tournament hands say nothing of their tournament: only the file name has its id.
        tournament = _TOURNAMENT_FILE.search(b.hand.source.path)
        if tournament:
            b.currency, b.scale = "CHIPS", 1
            b.tournament = Tournament(tournament["tid"])
        b.small_bet = self.amount(token, "small")
        b.big_bet = self.amount(token, "big")

    def on_sit_out(self, token: LineToken) -> None:
        b = self.b
        player = self.player(token)
        b.add(EventKind.SIT_OUT, token.number, player)
        if not any(e.kind is EventKind.DEAL for e in b.events):  # not dealt in this hand
            b.seats = [
                dataclasses.replace(s, sitting_out=True) if s.player == player else s
                for s in b.seats
            ]

    def on_ante(self, token: LineToken) -> None:
        amount = self.amount(token, "amount")
        self.b.add(EventKind.ANTE, token.number, self.player(token), amount=amount)

    # --- cards --------------------------------------------------------------------------------
    def on_card(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        if not self._dealing:  # no marker opens 3rd street: its first card does
            self._dealing = True
            b.new_street(0, token.number, STREET_NAMES[0])
        known = found("cards")
        card = b.cards(known, token.number)[0] if known else None
        self._cards.setdefault(self.player(token), []).append((card, token.number))

    def _deal(self) -> None:
        """One DEAL per player for the street just dealt, at the line of the player's first
        card; players follow in the order of their first cards."""
        b = self.b
        up = UP_CARDS[b.street]
        for player, dealt in self._cards.items():
            if len(dealt) != len(up):
                raise HandParseError(
                    f"{player} gets {len(dealt)} cards on {STREET_NAMES[b.street]}, not {len(up)}",
                    dealt[0][1],
                )
            cards = tuple(card for card, _ in dealt)
            if b.street == 0 and cards[0] is not None:
                b.hero = player
            b.add(EventKind.DEAL, dealt[0][1], player, cards=cards, up=up)
        self._cards = {}

    def on_street(self, token: LineToken) -> None:
        index = MARKERS[token.field("street") or ""]
        self.b.new_street(index, token.number, STREET_NAMES[index])

    # --- betting --------------------------------------------------------------------------
    def on_bring_in(self, token: LineToken) -> None:
        amount = self.amount(token, "amount")
        self.b.wager(EventKind.BRING_IN, token.number, self.player(token), amount=amount)

    def on_action(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        player, verb, line = self.player(token), found("verb"), token.number
        if verb == "folds":
            b.add(EventKind.FOLD, line, player)
            return
        if verb == "checks":
            b.add(EventKind.CHECK, line, player)
            return
        all_in = verb == "allin"
        if found("amount") is not None:
            amount = self.amount(token, "amount")
        elif all_in:  # a disconnected player's all-in names no amount: it is the whole stack
            amount = self._behind(player)
        else:
            raise HandParseError(f"{verb} without an amount", line)
        # Every amount is what the player puts in now ("calls (0.60)" after a 0.40 bring-in).
        facing = max(b.contributed.values(), default=0) - b.contributed.get(player, 0)
        if verb == "calls" or (all_in and amount <= facing):
            b.wager(EventKind.CALL, line, player, amount=amount, all_in=all_in)
            return
        # 3rd street's first raise over the bring-in is the completion.
        if b.street == 0 and not self._opened:
            kind = EventKind.COMPLETE
        elif verb == "bets" or (all_in and facing == 0):
            kind = EventKind.BET
        else:
            kind = EventKind.RAISE
        b.wager(kind, line, player, amount=amount, all_in=all_in)
        self._opened = True

    def _behind(self, player: str) -> int:
        """A player's chips not yet in the pot: the stack less what the events put in."""
        b = self.b
        stack = next((s.stack for s in b.seats if s.player == player), None)
        if stack is None:
            raise HandParseError(f"{player} is not seated", b.hand.source.line)
        return stack - sum(_put_in(e) for e in b.events if e.player == player)

    def on_uncalled(self, token: LineToken) -> None:
        amount = self.amount(token, "amount")
        self.b.add(EventKind.UNCALLED, token.number, self.player(token), amount=amount)

    def on_mucks(self, token: LineToken) -> None:
        """The room writes "mucks cards" both for a loser at showdown and for the last player
        left, who has nothing to muck against: only the first is a muck."""
        b = self.b
        player = self.player(token)
        folded = {e.player for e in b.events if e.kind is EventKind.FOLD}
        dealt = {e.player for e in b.events if e.kind is EventKind.DEAL}
        if len(dealt - folded) > 1:
            b.add(EventKind.MUCK, token.number, player)
        else:
            b.add(EventKind.NOTE, token.number, player, text="does not show cards")

    # --- summary ----------------------------------------------------------------------------
    def on_summary(self, token: LineToken) -> None:
        """A section marker: the grammar checks its place; it carries no event."""

    def on_pot(self, token: LineToken) -> None:
        """The room's pot is what the winners share, after the rake and the jackpot fee; the
        record's total pot is before both, and its rake is both together."""
        found = token.field
        b = self.b
        taken = self.amount(token, "rake")
        if found("jp"):
            taken += self.amount(token, "jp")
        b.rake = taken
        b.total_pot = self.amount(token, "amount") + taken

    def on_result(self, token: LineToken) -> None:
        """Shown hands and the money won appear only here. The room's own total of what each
        player bet checks the events: a disagreement is kept as a note."""
        found = token.field
        b = self.b
        player, line = self.player(token), token.number
        if found("cards") is not None:
            cards = self.cards(token)
            description = found("text")
            if found("low"):
                description = f"{description}; low {(found('low') or '').strip()}"
            b.add(EventKind.SHOW, line, player, cards=cards, text=description)
        won = self.amount(token, "won")
        if won:
            b.add(EventKind.COLLECT, line, player, amount=won, pot="main")
        bets = self.amount(token, "bets")
        spent = sum(_put_in(e) for e in b.events if e.player == player)
        if bets != spent:
            b.notes.append(f"the room says {player} bet {bets}, the events put in {spent}")

    def on_ended(self, token: LineToken) -> None:
        """The end time has no place in the record; the grammar uses the line to close the
        hand, so a hand cut short is caught."""


def _put_in(event: Event) -> int:
    """Chips an event moves from the player into the pot (negative for a returned bet)."""
    if event.kind.is_forced or event.kind.is_betting:
        return event.amount
    if event.kind is EventKind.UNCALLED:
        return -event.amount
    return 0


class Winning(Dialect):
    name = "winning"
    grammar_file = "winning.lark"
    hand_start = hand_start_pattern("Game started at: ")
    hand_id_pattern = _GAME_ID
    transformer = WinningTransformer
