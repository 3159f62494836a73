"""Absolute Poker: the 2007-2011 "Stage #" exports. Notes on the format, and on what its single
corpus stud hand leaves unproven, are in docs/rooms/absolute.md.

Each stud street reprints every player's cards so far ("PLAYER1 - Pocket [H H Js 10d]", hidden
cards as H, tens as 10), the hero's even after folding: the reader deals only the cards a line
adds. "All-In $X" names no action: it is a bet, a call or a raise by what it puts in.
"""

from __future__ import annotations

import re
from typing import Final

from studdraw.parsers.builder import HandParseError, stud_faces, unsupported
from studdraw.parsers.model import (
    Card,
    Claim,
    EventKind,
    Game,
    HandText,
    Structure,
    Tournament,
)
from studdraw.parsers.text.line_reader import LineReader
from studdraw.parsers.text.room import TextRoom
from studdraw.parsers.text.tokens import LineToken
from studdraw.parsers.text.verbs import BET, CALL, CHECK, COMPLETE_TO, FOLD, Verb

GAMES: Final = {
    "seven card stud": Game.STUD,
    "seven card hi/lo": Game.STUD8,
    "razz": Game.RAZZ,
}
"""The room's game label, in any case -> the game it deals; any other label is out of scope."""
STRUCTURES: Final = {
    "normal": Structure.FIXED,
    "pot limit": Structure.POT,
    "no limit": Structure.NO,
}
CURRENCIES: Final = {"$": "USD", "€": "EUR", "£": "GBP"}
STUD_STREETS: Final = {
    "3rd STREET": 0,
    "4TH STREET": 1,
    "5TH STREET": 2,
    "6TH STREET": 3,
    "RIVER": 4,
}
_HIDDEN: Final = re.compile(r"(?<!\S)H(?!\S)")

VERBS: Final = {
    "Folds": FOLD,
    "Checks": CHECK,
    "Calls": CALL,
    "Bets": BET,  # on 3rd street over the bring-in, the base reads it as the completion
    # "Raises $400 to $400": the first amount is the chips put in (FPDB reads it so too)
    "Raises": Verb(EventKind.RAISE),
    "All-In(Raise)": Verb(EventKind.RAISE, quirk="all_in"),
    "All-In": Verb(EventKind.BET, quirk="all_in"),
    "Completes to": COMPLETE_TO,
    "Bring-In": Verb(EventKind.BRING_IN),
}
POSTS: Final = {"Ante": EventKind.ANTE}


class AbsoluteReader(LineReader):
    verbs = VERBS
    posts = POSTS
    stud_streets = STUD_STREETS
    games = GAMES
    any_case = True
    structures = STRUCTURES
    currencies = CURRENCIES
    time_formats = ("%Y-%m-%d %H:%M:%S",)

    def begin(self, hand: HandText) -> None:
        super().begin(hand)
        self._held: dict[str, int] = {}  # cards dealt to each player so far

    def on_header(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        line = token.number
        b.room_hand_id = found("id") or ""
        label = " ".join((found("game") or found("rest") or "").split())
        if found("game") is None:
            raise unsupported(label, line)
        b.game = self.read_game(label, line)
        b.structure = self.read_structure(found("limit") or "", line, label)
        small, big = found("small"), found("big")
        if small is None or big is None:
            raise HandParseError(f"unreadable stakes {found('stakes')!r}", line)
        if found("tid"):
            b.tournament = Tournament(found("tid") or "")
            b.currency, b.scale = "CHIPS", 1
        else:
            sign = found("sign")
            if sign is None:
                raise HandParseError(f"no currency in the stakes {small}/{big}", line)
            b.currency = self.currencies[sign]
        b.small_bet, b.big_bet = b.money(small, line), b.money(big, line)
        zone = found("zone") or ""
        b.room_time = f"{found('time')} ({zone})"
        self.read_time(found("time") or "", zone, line)

    def on_table(self, token: LineToken) -> None:
        self.b.table = token.field("table") or ""
        self.b.button = int(token.field("button") or 0) or None

    def all_in(self, token: LineToken) -> None:
        """ "All-In $X" (and "All-In(Raise) $X to $Y"): the player's last chips, X of them put
        in; a bet when nothing is to call, a call when X does not top the bet, else a raise."""
        b = self.b
        player, line = self.player(token), token.number
        amount = self.amount(token)
        to = b.contributed.get(player, 0) + amount
        facing = max((v for p, v in b.contributed.items() if p != player), default=0)
        if to <= facing:
            kind = EventKind.CALL
        elif self._bring_in_open() and to <= b.small_bet:
            kind = EventKind.COMPLETE
        else:
            kind = EventKind.RAISE if facing else EventKind.BET
        b.wager(kind, line, player, amount=amount, all_in=True)

    def on_action(self, token: LineToken) -> None:
        """ "Folds (Fold & Show [9s 8c])" folds and shows the cards."""
        super().on_action(token)
        if token.field("cards"):
            self.b.add(EventKind.SHOW, token.number, self.player(token), cards=self.cards(token))

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
        up = stud_faces(b.game, b.street, len(new), line)
        if b.street == 0 and all(card is not None for card in cards):
            b.hero = player
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
        told again (the replay settles the pots from the events), and what the player won,
        held against the collects (`Claim`)."""
        b, line = self.b, token.number
        won = token.field("won")
        amount = 0 if won is None else b.money(won, line)
        b.claims.append(Claim(line, amount, token.player or self.player(token)))

    def on_summary_other(self, token: LineToken) -> None:
        """Any other summary seat line: the showdown told again."""


class Absolute(TextRoom):
    name = "absolute"
    title = "Absolute Poker"
    grammar_file = "absolute.lark"
    reader_class = AbsoluteReader
