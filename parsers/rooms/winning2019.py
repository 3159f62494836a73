"""Winning Poker Network, the newer export (2019 on): "Hand #N - 7Stud(Fixed Limit) - $0.10/$0.20
- 2019/07/28 17:00:00 UTC", PokerStars-like, read almost wholly by the shared reader. The room
(`winning.py`) sends each hand to this reader or the 2016 one by its header. Notes on the
format are in docs/rooms/winning.md.
"""

from __future__ import annotations

import re
from typing import Final

from studdraw.parsers.builder import HandParseError
from studdraw.parsers.model import Claim, EventKind, Game, HandText, Structure, Tournament
from studdraw.parsers.text.line_reader import LineReader
from studdraw.parsers.text.room import TextRoom
from studdraw.parsers.text.tokens import LineToken
from studdraw.parsers.text.verbs import BET, BRING_IN, CALL, CHECK, FOLD, RAISE_TO

GAMES: Final = {"7Stud": Game.STUD, "7Stud H/L": Game.STUD8}
STRUCTURES: Final = {
    "Fixed Limit": Structure.FIXED,
    "Pot Limit": Structure.POT,
    "No Limit": Structure.NO,
}
CURRENCIES: Final = {"$": "USD"}
"""Cash tables print dollars; play money prints bare numbers."""
STUD_STREETS: Final = {
    "3rd STREET": 0,
    "4th STREET": 1,
    "5th STREET": 2,
    "6th STREET": 3,
    "7th STREET": 4,
}
VERBS: Final = {
    "folds": FOLD,
    "checks": CHECK,
    "calls": CALL,
    "bets": BET,  # over a lone bring-in, the base reads it as the completion
    "raises": RAISE_TO,  # "raises $0.10 to $0.10" over the bring-in completes
    "caps": RAISE_TO,
    "cap": RAISE_TO,
    **dict.fromkeys(("brings in", "brings-in", "brings in low", "brings-in low"), BRING_IN),
}
POSTS: Final = {
    "ante": EventKind.ANTE,
    "the small blind": EventKind.SMALL_BLIND,
    "the big blind": EventKind.BIG_BLIND,
    "dead": EventKind.DEAD,
}
_WON: Final = re.compile(r"\b(?:won|collected) (?P<won>\$?[\d.,]*\d)")
"""A summary seat line's winnings: "did not show and won $1.31", "showed [...] and won $8.00"."""
_NO_WIN: Final = re.compile(r"\b(?:folded|lost|mucked)\b")
_SIDE_POT: Final = re.compile(
    r"(?P<pot>Side pot)(?:\((?P<side>\d+)\)|-(?P<dash>\d+))? (?P<amount>\S+)"
)
"""ACR's side pot line in the summary: "Side pot(1) $0.60 | Rake $0.00" (what its winner
collects)."""
_SUMMARY_WON: Final = re.compile(
    r"(?: \((?:button|small blind|big blind|bring-in)\))*"
    r" (?:did not show and won|(?:showed|mucked) \[[^\]]*\] and (?:won|collected))"
    r" (?P<amount>[^\s,]+).*"
)


class Winning2019Reader(LineReader):
    verbs = VERBS
    posts = POSTS
    stud_streets = STUD_STREETS
    games = GAMES
    structures = STRUCTURES
    currencies = CURRENCIES
    time_formats = ("%Y/%m/%d %H:%M:%S",)
    summary_won = _WON
    summary_no_win = _NO_WIN

    def __init__(self, room: str) -> None:
        super().__init__(room)
        self._in_summary = False  # whether the hand's summary has begun

    def begin(self, hand: HandText) -> None:
        super().begin(hand)
        self._in_summary = False

    def on_summary(self, token: LineToken) -> None:
        self._in_summary = True

    def on_header(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        line = token.number
        b.room_hand_id = found("id") or ""
        label = f"{found('game')}({found('limit')})"
        b.game = self.read_game(found("game") or "", line, label)
        b.structure = self.read_structure(found("limit") or "", line, label)
        small, big = found("small") or "", found("big") or ""
        if found("tid"):
            b.currency, b.scale = "CHIPS", 1
            b.tournament = Tournament(found("tid") or "", level=found("level"))
        else:
            b.currency = self.currency_in(small) or "PLAY"
        b.header_stakes(b.money(small, line), b.money(big, line))
        text, zone = found("time") or "", found("zone") or ""
        b.room_time = f"{text} {zone}"
        self.read_time(text, zone, line)

    def on_table(self, token: LineToken) -> None:
        b = self.b
        b.table = token.field("table") or ""
        b.max_seats = int(token.field("max") or 0) or None
        b.button = int(token.field("button") or 0) or None
        if token.field("play") and b.tournament is None:
            b.currency = "PLAY"

    def on_pots(self, token: LineToken) -> None:
        """The pot so far repeats what the actions put in: checked by the rules engine from
        the actions, not from this line. In the summary, a side pot's line is how the room
        split the pot (held against the collects)."""
        found = _SIDE_POT.match(token) if self._in_summary else None
        if found is not None:
            number = int(found["side"] or found["dash"] or 1)
            amount = self.b.money(found["amount"], token.number)
            self.b.claims.append(Claim(token.number, amount, pot=f"side{number}"))

    def on_total(self, token: LineToken) -> None:
        """The room's total is what the winners share, after the rake and the jackpot fee: the
        record's total pot is before both, and its rake is both together."""
        b = self.b
        taken = self.amount(token, "rake")
        if token.field("jp"):
            taken += self.amount(token, "jp")
        b.rake = taken
        b.total_pot = self.amount(token) + taken

    def on_no_show(self, token: LineToken) -> None:
        self.b.add(EventKind.NOTE, token.number, self.player(token), text="does not show")

    def on_summary_seat(self, token: LineToken) -> None:
        """A pot won without a showdown has no "collected" line: the summary's "did not show
        and won $1.31" is its only record. Every other summary line repeats what was read."""
        b = self.b
        seat = int(token.field("seat") or 0)
        player = next((s.player for s in b.seats if s.seat == seat), None)
        text = token.field("text") or ""
        if player is None or not text.startswith(player):
            raise HandParseError(f"summary names seat {seat}, which is not seated", token.number)
        self.claim(player, text[len(player) :], token.number)
        won = _SUMMARY_WON.fullmatch(text, len(player))
        # Only a hand without a collected line is paid from the summary: where the showdown
        # printed its collects, a summary winner without one is the summary's error (SUM001).
        if won is None or any(e.kind is EventKind.COLLECT for e in b.events):
            return
        amount = b.money(won["amount"], token.number)
        b.add(EventKind.COLLECT, token.number, player, amount=amount, pot="main")


class Winning2019(TextRoom):
    """The 2019 export's reader; not in the registry: the Winning room sends it its hands."""

    name = "winning"
    grammar_file = "winning2019.lark"
    reader_class = Winning2019Reader
