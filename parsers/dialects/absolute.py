"""Absolute Poker: the 2009 "Stage #" exports (cash stud). Notes on the format, and on what its
single corpus hand leaves unproven, are in docs/sites/absolute.md.

Each street reprints every player's cards so far ("PLAYER1 - Pocket [H H Js 10d]", hidden cards
as H, tens as 10), the hero's even after folding: the reader deals only the cards a line adds.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Final

from studdraw.parsers.dialects.base import Dialect, LineToken, hand_start_pattern
from studdraw.parsers.dialects.builder import HandParseError, to_utc
from studdraw.parsers.dialects.transformer import (
    BET,
    CALL,
    CHECK,
    COMPLETE_TO,
    FOLD,
    RAISE_TO,
    DialectTransformer,
    Verb,
)
from studdraw.parsers.model import Card, EventKind, Game, HandText, Outcome, Structure

GAMES: Final = {
    "Seven Card Stud": Game.STUD,
    "Seven Card Hi/Lo": Game.STUD8,
    "Razz": Game.RAZZ,
}
"""The room's game label -> the game it deals; any other label is out of scope."""
STRUCTURES: Final = {
    "Normal": Structure.FIXED,
    "Pot Limit": Structure.POT,
    "No Limit": Structure.NO,
}
CURRENCIES: Final = {"$": "USD", "€": "EUR", "£": "GBP"}
STUD_STREETS: Final = {
    "3rd STREET": 0,
    "4TH STREET": 1,
    "5TH STREET": 2,
    "6TH STREET": 3,
    "RIVER": 4,
}
_TIME_FORMAT: Final = "%Y-%m-%d %H:%M:%S"
_HIDDEN: Final = re.compile(r"(?<!\S)H(?!\S)")

VERBS: Final = {
    "Folds": FOLD,
    "Checks": CHECK,
    "Calls": CALL,
    "Bets": BET,  # on 3rd street over the bring-in, the base reads it as the completion
    "Raises": RAISE_TO,  # "Raises $0.04 to $0.08": the `to` part
    "Completes": COMPLETE_TO,
    "Bring-In": Verb(EventKind.BRING_IN),
}
POSTS: Final = {"Ante": EventKind.ANTE}


class AbsoluteTransformer(DialectTransformer):
    site = "absolute"
    verbs = VERBS
    posts = POSTS
    stud_streets = STUD_STREETS

    def begin(self, hand: HandText) -> None:
        super().begin(hand)
        self._held: dict[str, int] = {}  # cards dealt to each player so far

    def on_header(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        b.site_hand_id = found("id") or ""
        label = " ".join((found("game") or "").split())
        game = GAMES.get(label)
        if game is None:
            raise HandParseError(
                f"{label} is not a stud or triple-draw game",
                token.number,
                Outcome.UNSUPPORTED,
                game_label=label,
            )
        b.game = game
        b.structure = STRUCTURES[found("limit") or ""]
        small, big = found("small") or "", found("big") or ""
        b.currency = next((iso for sign, iso in CURRENCIES.items() if small.startswith(sign)), "")
        if not b.currency:
            raise HandParseError(f"no currency in the stakes {small}/{big}", token.number)
        b.small_bet, b.big_bet = self.amount(token, "small"), self.amount(token, "big")
        zone = found("zone") or ""
        b.site_time = f"{found('time')} ({zone})"
        try:
            b.started_at = to_utc(datetime.strptime(found("time") or "", _TIME_FORMAT), zone)
        except ValueError as error:
            raise HandParseError(str(error), token.number) from None

    def on_pocket(self, token: LineToken) -> None:
        """A player's cards so far: the ones past what the player already holds are new; a
        line that adds none (the hero's, after folding) deals nothing."""
        b = self.b
        player, line = self.player(token), token.number
        cards: tuple[Card | None, ...] = b.cards(_HIDDEN.sub("X", token.field("cards") or ""), line)
        held = self._held.get(player, 0)
        new = cards[held:]
        if not new:
            return
        self._held[player] = len(cards)
        if b.street == 0:
            if len(cards) != 3:
                raise HandParseError(f"3rd street deals 3 cards, not {len(cards)}", line)
            if all(card is not None for card in cards):
                b.hero = player
            up: tuple[bool, ...] = (False, False, True)
        else:
            up = (b.street < 4,) * len(new)
        b.add(EventKind.DEAL, line, player, cards=new, up=up)

    def on_shows(self, token: LineToken) -> None:
        self.b.add(
            EventKind.SHOW,
            token.number,
            self.player(token),
            cards=self.b.cards(_HIDDEN.sub("X", token.field("cards") or ""), token.number),
            text=token.field("text"),
        )

    def on_summary_seat(self, token: LineToken) -> None:
        """ "Seat 3: PLAYER3 won Total ($0.19) HI:... LO:($0.19) [...]": the showdown's result
        told again; the replay settles the pots from the events."""


class Absolute(Dialect):
    name = "absolute"
    grammar_file = "absolute.lark"
    hand_start = hand_start_pattern("Stage #")
    hand_id_pattern = re.compile(r"Stage #(?P<hand_id>\d+)")
    transformer = AbsoluteTransformer
