"""Winning Poker Network: the "Game started at:" exports of the 2016 client (UTF-16, a blank
line after every line). Notes on the format are in docs/rooms/winning.md.

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
from typing import Final

from studdraw.parsers.builder import HandParseError, stud_street_name
from studdraw.parsers.model import (
    Card,
    Claim,
    Event,
    EventKind,
    Game,
    HandText,
    ParsedHand,
    Tournament,
)
from studdraw.parsers.rooms.winning2019 import Winning2019
from studdraw.parsers.text.line_reader import LineReader
from studdraw.parsers.text.lines import LineSyntax, Opening
from studdraw.parsers.text.room import TextRoom
from studdraw.parsers.text.tokens import LineToken
from studdraw.parsers.text.verbs import BET, CALL, CHECK, FOLD, Verb

GAMES: Final = {"Seven Cards Stud": Game.STUD, "Seven Cards Stud HiLow": Game.STUD8}
MARKERS: Final = {"Third": 1, "Fourth": 2, "Fifth": 3, "Sixth": 4}
"""Each marker opens the street after the one it names (see the module docstring)."""
UP_CARDS: Final = ((False, False, True), (True,), (True,), (True,), (False,))
"""Which cards of each stud street are dealt face up, in the order the room deals them."""
_TOURNAMENT_FILE: Final = re.compile(r"HH\d{8} T(?P<tid>\d+)-G\d+")


VERBS: Final = {
    "folds": FOLD,
    "checks": CHECK,
    "calls": CALL,  # "calls (0.60)" after a 0.40 bring-in calls to 1
    "bets": BET,  # over a lone bring-in, the base reads it as the completion
    **dict.fromkeys(("raises", "caps", "cap"), Verb(EventKind.RAISE, quirk="raise_put_in")),
    "allin": Verb(EventKind.CALL, quirk="all_in"),
}
POSTS: Final = {
    "ante": EventKind.ANTE,
    "posts ante": EventKind.ANTE,
    "bring in": EventKind.BRING_IN,
}


class WinningReader(LineReader):
    verbs = VERBS
    posts = POSTS
    games = GAMES
    time_formats = ("%Y/%m/%d %H:%M:%S",)
    zone = "ET"  # the room prints no zone; WPN runs on Eastern time (docs/rooms/winning.md)

    def begin(self, hand: HandText) -> None:
        super().begin(hand)
        self._cards: dict[str, list[tuple[Card | None, int]]] = {}  # one street's deal so far
        self._dealing = False  # the first card has opened 3rd street
        self._pots: list[_Pot] | None = None  # what is left of each pot to award, main first

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
        b.room_time = token.field("time") or ""
        self.read_time(b.room_time, None, token.number)

    def on_game(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        b.room_hand_id = found("id") or ""
        b.game = self.read_game(found("game") or "", token.number)
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

    def on_bring_in(self, token: LineToken) -> None:
        """Read "bring in (0.40)" as the posts table says."""
        self.on_post(token)

    # --- cards --------------------------------------------------------------------------------
    def on_card(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        if not self._dealing:  # no marker opens 3rd street: its first card does
            self._dealing = True
            b.new_stud_street(0, token.number)
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
                    f"{player} gets {len(dealt)} cards on {stud_street_name(b.game, b.street)}, "
                    f"not {len(up)}",
                    dealt[0][1],
                )
            cards = tuple(card for card, _ in dealt)
            if b.street == 0 and cards[0] is not None:
                b.hero = player
            b.add(EventKind.DEAL, dealt[0][1], player, cards=cards, up=up)
        self._cards = {}

    def on_street(self, token: LineToken) -> None:
        index = MARKERS[token.field("street") or ""]
        self.b.new_stud_street(index, token.number)

    # --- betting: every amount is what the player puts in now ----------------------------------
    def raise_put_in(self, token: LineToken) -> None:
        """ "raises (1)": the chips put in; 3rd street's first raise over the bring-in is the
        completion."""
        b = self.b
        kind = EventKind.COMPLETE if self._bring_in_open() else EventKind.RAISE
        b.wager(kind, token.number, self.player(token), amount=self.amount(token))

    def all_in(self, token: LineToken) -> None:
        """ "allin (0.05)", or "allin" with no amount after "is disconnected and ALL IN." (the
        rest of the stack): a call, bet, completion or raise by what the player faces."""
        b = self.b
        player, line = self.player(token), token.number
        amount = self.amount(token) if token.field("amount") else self._behind(player)
        facing = max(b.contributed.values(), default=0) - b.contributed.get(player, 0)
        if amount <= facing:
            kind = EventKind.CALL
        elif self._bring_in_open():
            kind = EventKind.COMPLETE
        else:
            kind = EventKind.RAISE if facing else EventKind.BET
        b.wager(kind, line, player, amount=amount, all_in=True)

    def _behind(self, player: str) -> int:
        """A player's chips not yet in the pot: the stack less what the events put in."""
        b = self.b
        stack = next((s.stack for s in b.seats if s.player == player), None)
        if stack is None:
            raise HandParseError(f"{player} is not seated", b.hand.source.line)
        return stack - sum(_put_in(e) for e in b.events if e.player == player)

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
        player bet checks the events: a disagreement is kept as a note. What the line says the
        player won or lost ("Wins: 4.40.", "Loses: 0.02.") is a net claim (`Claim`)."""
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
            self._collect(player, won, line)
        net = self.amount(token, "net")
        said = -net if found("result") == "Loses" else net
        b.claims.append(Claim(line, said, player, net=True))  # held against the collects
        bets = self.amount(token, "bets")
        spent = sum(_put_in(e) for e in b.events if e.player == player)
        if bets != spent:
            b.notes.append(f"the room says {player} bet {bets}, the events put in {spent}")

    def _collect(self, player: str, won: int, line: int) -> None:
        """The room prints one `Collects` figure per player for every pot together: with side
        pots it is shared out over the pots the player can win, main pot first, each up to
        what is left of it (the rake leaves the last one short)."""
        if self._pots is None:
            self._pots = _pots(self.b.events)
        awards: list[tuple[str, int]] = []
        left = won
        for index, pot in enumerate(self._pots):
            if left and player in pot.eligible and pot.amount:
                take = min(left, pot.amount)
                pot.amount -= take
                left -= take
                awards.append(("main" if index == 0 else f"side{index}", take))
        if not awards:  # nothing left to win: the room's figure stands, the engine judges it
            awards = [("main", 0)]
        name, last = awards[-1]
        awards[-1] = (name, last + left)
        for name, amount in awards:
            self.b.add(EventKind.COLLECT, line, player, amount=amount, pot=name)

    def on_ended(self, token: LineToken) -> None:
        """The end time has no place in the record; the grammar uses the line to close the
        hand, so a hand cut short is caught."""


@dataclasses.dataclass(slots=True)
class _Pot:
    amount: int
    eligible: frozenset[str]


def _pots(events: list[Event]) -> list[_Pot]:
    """The main pot and the side pots the events make: one layer per distinct amount put in
    by a player still in the hand (the all-ins), each open to those who put in that much."""
    put: dict[str, int] = {}
    for event in events:
        if event.player is not None:
            put[event.player] = put.get(event.player, 0) + _put_in(event)
    folded = {e.player for e in events if e.kind is EventKind.FOLD}
    levels = sorted({c for player, c in put.items() if player not in folded and c > 0})
    pots, below = [], 0
    for level in levels:
        amount = sum(min(c, level) - min(c, below) for c in put.values())
        eligible = frozenset(p for p, c in put.items() if p not in folded and c >= level)
        pots.append(_Pot(amount, eligible))
        below = level
    return pots


def _put_in(event: Event) -> int:
    """Chips an event moves from the player into the pot (negative for a returned bet)."""
    if event.kind.puts_in:
        return event.amount
    if event.kind is EventKind.UNCALLED:
        return -event.amount
    return 0


class Winning(TextRoom):
    """Both exports of the room: the 2016 one read here, the 2019 one by `Winning2019`, each
    hand by its own header."""

    name = "winning"
    title = "Winning Poker Network"
    grammar_file = "winning.lark"
    reader_class = WinningReader

    def __init__(self) -> None:
        super().__init__()
        self._newer = Winning2019()

    def openings(self) -> list[Opening]:
        """Either export's: a file of the room holds one or the other."""
        return [*super().openings(), *self._newer.openings()]

    def parse(self, hand: HandText) -> ParsedHand:
        if self._newer.hand_start.match(hand.text):
            return self._newer.parse(hand)
        return super().parse(hand)
