"""Absolute Poker: the 2007-2011 "Stage #" exports. Notes on the format, and on what its single
corpus stud hand leaves unproven, are in docs/rooms/absolute.md.

Each stud street reprints every player's cards so far ("PLAYER1 - Pocket [H H Js 10d]", hidden
cards as H, tens as 10), the hero's even after folding: the reader deals only the cards a line
adds. "All-In $X" names no action: it is a bet, a call or a raise by what it puts in.
"""

from __future__ import annotations

import re
from typing import Final

from studdraw.parsers.builder import HandParseError, parse_local_time, stud_faces, to_utc
from studdraw.parsers.model import (
    Card,
    EventKind,
    Game,
    HandText,
    Outcome,
    Structure,
    Tournament,
)
from studdraw.parsers.text.line_reader import (
    BET,
    CALL,
    CHECK,
    COMPLETE_TO,
    FOLD,
    LineReader,
    Verb,
)
from studdraw.parsers.text.room import TextRoom
from studdraw.parsers.text.tokens import LineToken

GAMES: Final = {
    "Seven Card Stud": Game.STUD,
    "Seven Card Hi/Lo": Game.STUD8,
    "Razz": Game.RAZZ,
}
"""The room's game label -> the game it deals; any other label is out of scope."""
STRUCTURES: Final = {
    "normal": Structure.FIXED,
    "pot limit": Structure.POT,
    "no limit": Structure.NO,
}
_GAME_STAKES: Final = re.compile(
    r"(?:Tourney ID (?P<tid>\d+) +)?(?P<game>.+?) +"
    r"(?:\(1 on 1\) +|Single Tournament +|Multi Normal Tournament +)?"
    r"(?P<limit>No Limit|Pot Limit|Normal) *(?P<stakes>.*)",
    re.IGNORECASE,
)
_STAKES: Final = re.compile(r"(?P<small>[^\s/]+)/(?P<big>[^\s/]+)")
CURRENCIES: Final = {"$": "USD", "€": "EUR", "£": "GBP"}
STUD_STREETS: Final = {
    "3rd STREET": 0,
    "4TH STREET": 1,
    "5TH STREET": 2,
    "6TH STREET": 3,
    "RIVER": 4,
}
_TIME_FORMATS: Final = ("%Y-%m-%d %H:%M:%S",)
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

    def begin(self, hand: HandText) -> None:
        super().begin(hand)
        self._held: dict[str, int] = {}  # cards dealt to each player so far

    def on_header(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        b.room_hand_id = found("id") or ""
        rest = " ".join((found("rest") or "").split())
        parts = _GAME_STAKES.fullmatch(rest)
        label = parts["game"] if parts else rest
        game = next((g for name, g in GAMES.items() if name.lower() == label.lower()), None)
        if parts is None or game is None:
            raise HandParseError(
                f"{label} is not a stud or triple-draw game",
                token.number,
                Outcome.UNSUPPORTED,
                game_label=label,
            )
        b.game = game
        b.structure = STRUCTURES[parts["limit"].lower()]
        stakes = _STAKES.match(parts["stakes"])
        if stakes is None:
            raise HandParseError(f"unreadable stakes {parts['stakes']!r}", token.number)
        if parts["tid"]:
            b.tournament = Tournament(parts["tid"])
            b.currency, b.scale = "CHIPS", 1
        else:
            sign = stakes["small"][0]
            if sign not in CURRENCIES:
                raise HandParseError(f"no currency in the stakes {stakes[0]}", token.number)
            b.currency = CURRENCIES[sign]
        b.small_bet = b.money(stakes["small"], token.number)
        b.big_bet = b.money(stakes["big"], token.number)
        zone = found("zone") or ""
        b.room_time = f"{found('time')} ({zone})"
        try:
            b.started_at = to_utc(parse_local_time(found("time") or "", _TIME_FORMATS), zone)
        except ValueError as error:
            raise HandParseError(str(error), token.number) from None

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
        up = stud_faces(b.street, len(new), line)
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
        told again; the replay settles the pots from the events."""


class Absolute(TextRoom):
    name = "absolute"
    grammar_file = "absolute.lark"
    reader_class = AbsoluteReader
