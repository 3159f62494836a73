"""PokerStars: the legacy "PokerStars Game #" (2008-2013) and the current "PokerStars Hand #"
formats, cash, tournaments, home games and mixed games (each hand takes its game from its own
header). Notes on the format are in docs/rooms/pokerstars.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from studdraw.parsers.builder import HandParseError, parse_amount, unsupported
from studdraw.parsers.model import (
    EventKind,
    Game,
    Structure,
    Tournament,
)
from studdraw.parsers.text.line_reader import LineReader, lower_keys
from studdraw.parsers.text.room import TextRoom
from studdraw.parsers.text.tokens import LineToken
from studdraw.parsers.text.verbs import BET, CALL, CHECK, COMPLETE_TO, FOLD, RAISE_TO, Verb

GAMES: Final = {
    "7 Card Stud": Game.STUD,
    "7 Card Stud Hi/Lo": Game.STUD8,
    "Razz": Game.RAZZ,
    "Triple Draw 2-7 Lowball": Game.TD27,
    "Triple Draw 2-7": Game.TD27,
    "Triple Draw A-5 Lowball": Game.TDA5,
    "Badugi": Game.BADUGI,
    "Single Draw 2-7 Lowball": Game.SD27,
    "Single Draw 2-7": Game.SD27,
    "5 Card Draw": Game.DRAW5,
}
"""The room's game labels as it prints them, read whatever their case (`any_case`); a game's
first label is the one it prints today, which its renderer writes (parsers/render/pokerstars.py)."""
UNMARKED_DRAW: Final = frozenset({Game.SD27, Game.DRAW5})
"""Single-draw games: the room prints no street line for their one draw; the first discard
(or stand pat) after the deal opens it."""
STRUCTURES: Final = {
    "Limit": Structure.FIXED,
    "Fixed Limit": Structure.FIXED,
    "Pot Limit": Structure.POT,
    "No Limit": Structure.NO,
    "Spread Limit": Structure.SPREAD,
}
STUD_STREETS: Final = {
    "3rd STREET": 0,
    "4th STREET": 1,
    "5th STREET": 2,
    "6th STREET": 3,
    "7th STREET": 4,
    "RIVER": 4,
}
DRAW_STREETS: Final = {"DEALING HANDS": 0, "FIRST DRAW": 1, "SECOND DRAW": 2, "THIRD DRAW": 3}
CURRENCIES: Final = {
    **{code: code for code in ("USD", "EUR", "GBP", "CAD", "INR", "CNY", "FPP", "SC")},
    **{"$": "USD", "€": "EUR", "£": "GBP", "₹": "INR", "Rs.": "INR", "¥": "CNY"},
}
"""ISO codes of the cash tables and the room's own points (FPP, StarsCoin) of tournament
buy-ins, then the signs: a text's code is its currency before any sign it holds."""

SUMMARY_WON: Final = re.compile(r"\b(?:won|collected) \((?P<won>[^)]+)\)")
"""A summary seat line's winnings: "collected ($0.07)", "won ($0.21) with ..., and won
($0.20) with ..." (hi/lo); Full Tilt prints them alike."""
SUMMARY_NO_WIN: Final = re.compile(r"\b(?:folded|lost|mucked)\b|didn't bet")
"""A summary seat line of a player who won nothing."""
SUMMARY_POTS: Final = re.compile(r"(?P<pot>Main pot|Side pot(?:-\d+)?) (?P<amount>\S+?)\.(?= |$)")
"""The total's split: "Total pot $1.08 Main pot $0.42. Side pot $0.61. | Rake $0.05" (each pot
after the rake, as collected); "Side pot-1 1140. Side pot-2 1140." """
_SUMMARY_CARDS: Final = re.compile(r" (?P<verb>showed|mucked) \[(?P<cards>[^\]]*)\]")


VERBS: Final = {
    "folds": FOLD,
    "checks": CHECK,
    "calls": CALL,
    "bets": BET,  # on 3rd street over the bring-in, the base reads it as the completion
    "raises": RAISE_TO,  # "raises $2 to $4": the `to` part
    "completes it to": COMPLETE_TO,
    **{
        verb: Verb(EventKind.BRING_IN)
        for verb in ("brings in for", "brings-in for", "brings in low for", "brings-in low for")
    },
}
POSTS: Final = {
    "the ante": EventKind.ANTE,
    "small blind": EventKind.SMALL_BLIND,
    "big blind": EventKind.BIG_BLIND,
    "button blind": EventKind.POST,
    "straddle": EventKind.POST,
    "small & big blinds": EventKind.POST,  # split into dead and live money by `on_post`
}


class PokerStarsReader(LineReader):
    verbs = VERBS
    posts = POSTS
    stud_streets = STUD_STREETS
    draw_streets = DRAW_STREETS
    games = lower_keys(GAMES)
    limit_blind = True  # a limit draw game's big blind is the small bet
    any_case = True
    structures = lower_keys(STRUCTURES)
    currencies = CURRENCIES
    time_formats = ("%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M")
    zone = "ET"  # the room's reference clock, of the few headers printed without a zone
    summary_won = SUMMARY_WON
    summary_no_win = SUMMARY_NO_WIN
    summary_pots = SUMMARY_POTS

    # --- header and seats -------------------------------------------------------------------
    def on_header(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        line = token.number
        b.room_hand_id = found("id") or ""
        if found("rest") is not None:
            raise HandParseError(f"unreadable game and stakes: {found('rest')!r}", line)
        b.mixed = found("mixed")
        label, name, limit = found("label") or "", found("name"), found("limit")
        if name is None or limit is None:
            raise unsupported(label, line)
        b.game = self.read_game(name, line, label)
        b.structure = self.read_structure(limit, line, label)
        if found("tid"):
            self._tournament(found, line)
        if found("small") is None or found("big") is None:
            raise HandParseError(f"unreadable stakes {found('stakes')!r}", line)
        if b.tournament is None:
            currency = found("iso") or self.currency_in(found("stakes") or "")
            if currency is None:
                b.currency, b.scale = "PLAY", 1
            else:
                b.currency = currency
        b.header_stakes(self.amount(token, "small"), self.amount(token, "big"), self.limit_blind)
        if found("club"):
            b.notes.append(f"home game club {found('club')}")
        self._time(found, line)

    def on_header_mixed(self, token: LineToken) -> None:
        """The same parts, the game beside the stakes."""
        self.on_header(token)

    def on_header_rotation(self, token: LineToken) -> None:
        """The same parts, the game in its rotation's parentheses."""
        self.on_header(token)

    def _tournament(self, found: Callable[[str], str | None], line: int) -> None:
        b = self.b
        b.scale = 1
        b.currency = "CHIPS"
        buyin = found("buyin") or ""
        currency = self.currency_in(buyin)
        if currency is None and found("play") is not None:
            currency = "PLAY"  # "1000+100": a play-money tournament
        buy_in = fee = None
        if buyin.lower() == "freeroll":
            buy_in = fee = 0
        elif found("price") and currency:
            parts = [found(part) for part in ("price", "bounty", "fee")]
            cents = [self._cents(part, line) for part in parts if part is not None]
            buy_in = sum(cents[:-1]) if len(cents) > 1 else cents[0]
            fee = cents[-1] if len(cents) > 1 else 0
        b.tournament = Tournament(found("tid") or "", buy_in, fee, currency, found("level"))

    def _cents(self, amount: str, line: int) -> int:
        try:
            return parse_amount(amount, 100)
        except ValueError as error:
            raise HandParseError(str(error), line) from None

    def _time(self, found: Callable[[str], str | None], line: int) -> None:
        b = self.b
        # The bracketed time, when present, is ET: the room's reference clock.
        text, zone = (
            (found("time2") or "", found("zone2"))
            if found("time2")
            else ((found("time") or "").replace(" - ", " "), found("zone") or found("pzone"))
        )
        b.room_time = f"{text} {zone}" if zone else text
        self.read_time(text, zone, line)

    def on_table(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        b.table = found("table") or ""
        b.max_seats = int(found("max") or 0) or None
        b.button = int(found("button") or 0) or None

    def on_seat(self, token: LineToken) -> None:
        # "out of hand" players were moved in after the deal: listed, but not in this hand.
        if token.field("out_of_hand"):
            player = self.player(token)
            self.b.seated_name(player)
            self.b.notes.append(f"{player} listed but out of hand")
            return
        super().on_seat(token)

    def on_post(self, token: LineToken) -> None:
        """One line for a dead small blind plus a live big blind: "posts small & big blinds"."""
        if token.field("post") != "small & big blinds":
            super().on_post(token)
            return
        b = self.b
        player, amount = self.player(token), self.amount(token)
        live = min(amount, b.small_bet if b.structure is Structure.FIXED else b.big_blind)
        b.add(EventKind.DEAD, token.number, player, amount=amount - live)
        b.wager(
            EventKind.POST, token.number, player, amount=live, all_in=self.flag(token, "all_in")
        )

    # --- the unmarked draw of single-draw games ----------------------------------------------
    def _open_unmarked_draw(self, token: LineToken) -> None:
        b = self.b
        if b.street == 0 and b.game in UNMARKED_DRAW:
            b.new_street(1, token.number, "DRAW")

    def on_discard(self, token: LineToken) -> None:
        self._open_unmarked_draw(token)
        super().on_discard(token)

    def on_stand_pat(self, token: LineToken) -> None:
        self._open_unmarked_draw(token)
        super().on_stand_pat(token)

    # --- summary ----------------------------------------------------------------------------

    def on_total(self, token: LineToken) -> None:
        """The total, and how the summary splits it into main and side pots."""
        super().on_total(token)
        self.claim_pots(token, token.number)

    def on_summary_seat(self, token: LineToken) -> None:
        """Summary lines say what each player won (held against the collects) and reveal
        mucked hands the showdown section only calls "mucks hand"."""
        text = token.field("text") or ""
        seat = int(token.field("seat") or 0)
        player = next((s.player for s in self.b.seats if s.seat == seat), None)
        if player is not None and text.startswith(player):
            self.claim(player, text[len(player) :], token.number)
        found = _SUMMARY_CARDS.search(text)
        if found is None or found["verb"] != "mucked":
            return
        if player is None:
            raise HandParseError(f"summary names seat {seat}, which is empty", token.number)
        cards = self.b.cards(found["cards"], token.number)
        self.b.add(EventKind.MUCK, token.number, player, cards=cards)


class PokerStars(TextRoom):
    name = "pokerstars"
    title = "PokerStars"
    grammar_file = "pokerstars.lark"
    reader_class = PokerStarsReader
