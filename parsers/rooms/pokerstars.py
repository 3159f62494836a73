"""PokerStars: the legacy "PokerStars Game #" (2008-2013) and the current "PokerStars Hand #"
formats, cash, tournaments, home games and mixed games (each hand takes its game from its own
header). Notes on the format are in docs/rooms/pokerstars.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from studdraw.parsers.builder import (
    HandParseError,
    parse_amount,
    parse_local_time,
    to_utc,
)
from studdraw.parsers.model import (
    EventKind,
    Game,
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
    RAISE_TO,
    LineReader,
    Verb,
)
from studdraw.parsers.text.room import TextRoom
from studdraw.parsers.text.tokens import LineToken

GAMES: Final = {
    "7 card stud": Game.STUD,
    "7 card stud hi/lo": Game.STUD8,
    "razz": Game.RAZZ,
    "triple draw 2-7 lowball": Game.TD27,
    "triple draw 2-7": Game.TD27,
    "triple draw a-5 lowball": Game.TDA5,
    "badugi": Game.BADUGI,
    "single draw 2-7 lowball": Game.SD27,
    "single draw 2-7": Game.SD27,
    "5 card draw": Game.DRAW5,
}
UNMARKED_DRAW: Final = frozenset({Game.SD27, Game.DRAW5})
"""Single-draw games: the room prints no street line for their one draw; the first discard
(or stand pat) after the deal opens it."""
STRUCTURES: Final = {
    "limit": Structure.FIXED,
    "fixed limit": Structure.FIXED,
    "pot limit": Structure.POT,
    "no limit": Structure.NO,
    "spread limit": Structure.SPREAD,
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
CURRENCY_CODES: Final = ("USD", "EUR", "GBP", "CAD", "INR", "CNY", "FPP", "SC")
"""ISO codes of the cash tables, and the room's own points (FPP, StarsCoin) of tournament
buy-ins."""
CURRENCY_SYMBOLS: Final = {"$": "USD", "€": "EUR", "£": "GBP", "₹": "INR", "Rs.": "INR", "¥": "CNY"}

_TOURNAMENT: Final = re.compile(
    r"(?:Zoom |Rush )?Tournament #(?P<tid>\d+), (?:Table #\d+, )?"
    r"(?P<buyin>Freeroll|[^\s]+(?: (?:USD|EUR|GBP|CAD|INR|CNY|FPP|SC))?) +(?P<rest>.+)",
    re.IGNORECASE,
)
_LEVELLED: Final = re.compile(
    r"(?P<game>.+?) - (?P<level>(?:Match Round [IVXLC\d]+, )?Level [IVXLC\d]+)"
    r" \((?P<stakes>[^)]*)\)",
    re.IGNORECASE,
)
_GAME_STAKES: Final = re.compile(r"(?P<game>.+?) \((?P<inner>[^)]*)\)")
_LIMIT_SUFFIX: Final = re.compile(
    r"(?P<name>.+?) (?P<limit>fixed limit|pot limit|no limit|spread limit|limit)", re.IGNORECASE
)
_STAKE_PAIR: Final = re.compile(
    r"(?P<small>(?:Rs\. )?[^\s/]+)/(?P<big>(?:Rs\. )?[^\s/]+)"
    r"(?: - [^\s]+ Cap -)?(?: (?P<iso>[A-Z]{3}))?"
)
_HAS_STAKES: Final = re.compile(r"\d/\S*\d")  # "$0.50/$1", not "Hi/Lo"
_BUYIN_PART: Final = re.compile(r"[^\d.,]*([\d.,]+)")
_PLAY_BUYIN: Final = re.compile(r"[\d+]+")
_SUMMARY_CARDS: Final = re.compile(r" (?P<verb>showed|mucked) \[(?P<cards>[^\]]*)\]")
_TIME_FORMATS: Final = ("%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M")


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

    # --- header and seats -------------------------------------------------------------------
    def on_header(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        b.room_hand_id = found("id") or ""
        rest = found("rest") or ""
        tournament = _TOURNAMENT.fullmatch(rest)
        if tournament:
            rest = tournament["rest"]
        levelled = _LEVELLED.fullmatch(rest)
        if levelled:
            game_text, stakes_text = levelled["game"], levelled["stakes"]
        else:
            plain = _GAME_STAKES.fullmatch(rest)
            if plain is None:
                raise HandParseError(f"unreadable game and stakes: {rest!r}", token.number)
            game_text, stakes_text = plain["game"], plain["inner"]
        # Mixed games name the rotation and put the hand's own game in parentheses:
        # "HORSE (Razz Limit, $2/$4 USD)", "8-Game (Razz Limit) - Level IV (200/400)".
        rotation = _GAME_STAKES.fullmatch(game_text)
        if rotation:
            b.mixed, game_text = rotation["game"], rotation["inner"]
        elif ", " in stakes_text:
            inner_game, _, inner_stakes = stakes_text.partition(", ")
            if not _HAS_STAKES.search(inner_game):
                b.mixed, game_text, stakes_text = game_text, inner_game, inner_stakes
        self._game(game_text, token.number)
        if tournament:
            self._tournament(tournament, levelled["level"] if levelled else None, token.number)
        self._stakes(stakes_text, token.number)
        if found("club"):
            b.notes.append(f"home game club {found('club')}")
        self._time(found, token.number)

    def _game(self, text: str, line: int) -> None:
        limit = _LIMIT_SUFFIX.fullmatch(text.strip())
        name = limit["name"] if limit else text
        game = GAMES.get(name.lower())
        if game is None or limit is None:
            raise HandParseError(
                f"{text} is not a stud or triple-draw game",
                line,
                Outcome.UNSUPPORTED,
                game_label=text,
            )
        self.b.game = game
        self.b.structure = STRUCTURES[limit["limit"].lower()]

    def _tournament(self, found: re.Match[str], level: str | None, line: int) -> None:
        b = self.b
        b.scale = 1
        b.currency = "CHIPS"
        buyin = found["buyin"]
        amounts = _BUYIN_PART.findall(buyin.replace("Rs.", ""))
        currency = next((iso for iso in CURRENCY_CODES if iso in buyin), None)
        if currency is None:
            currency = next((CURRENCY_SYMBOLS[s] for s in CURRENCY_SYMBOLS if s in buyin), None)
        if currency is None and amounts and _PLAY_BUYIN.fullmatch(buyin):
            currency = "PLAY"  # "1000+100": a play-money tournament
        buy_in = fee = None
        if buyin.lower() == "freeroll":
            buy_in = fee = 0
        elif amounts and currency:
            cents = [self._cents(amount, line) for amount in amounts]
            buy_in = sum(cents[:-1]) if len(cents) > 1 else cents[0]
            fee = cents[-1] if len(cents) > 1 else 0
        b.tournament = Tournament(found["tid"], buy_in, fee, currency, level)

    def _cents(self, amount: str, line: int) -> int:
        try:
            return parse_amount(amount, 100)
        except ValueError as error:
            raise HandParseError(str(error), line) from None

    def _stakes(self, text: str, line: int) -> None:
        b = self.b
        pair = _STAKE_PAIR.search(text)
        if pair is None:
            raise HandParseError(f"unreadable stakes {text!r}", line)
        if b.tournament is None:
            symbol = next((s for s in CURRENCY_SYMBOLS if s in text), None)
            if pair["iso"]:
                b.currency = pair["iso"]
            elif symbol:
                b.currency = CURRENCY_SYMBOLS[symbol]
            else:
                b.currency, b.scale = "PLAY", 1
        small, big = b.money(pair["small"], line), b.money(pair["big"], line)
        if b.structure in (Structure.FIXED, Structure.SPREAD):
            b.small_bet, b.big_bet = small, big
            if b.game is not None and b.game.is_draw:
                b.big_blind = small  # limit draw: the big blind is the small bet
        else:
            # Pot- and no-limit headers give the blinds; the minimum bet is the big blind.
            b.small_blind, b.big_blind = small, big
            b.small_bet = b.big_bet = big

    def _time(self, found: Callable[[str], str | None], line: int) -> None:
        b = self.b
        # The bracketed time, when present, is ET: the room's reference clock.
        text, zone = (
            (found("time2") or "", found("zone2"))
            if found("time2")
            else ((found("time") or "").replace(" - ", " "), found("zone") or found("pzone"))
        )
        b.room_time = f"{text} {zone}" if zone else text
        try:
            b.started_at = to_utc(parse_local_time(text, _TIME_FORMATS), zone or "ET")
        except ValueError as error:
            raise HandParseError(str(error), line) from None
        if zone is None:
            b.notes.append("no time zone printed; ET assumed")

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

    def on_summary_seat(self, token: LineToken) -> None:
        """Summary lines reveal mucked hands the showdown section only calls "mucks hand"."""
        found = _SUMMARY_CARDS.search(token.field("text") or "")
        if found is None or found["verb"] != "mucked":
            return
        seat = int(token.field("seat") or 0)
        player = next((s.player for s in self.b.seats if s.seat == seat), None)
        if player is None:
            raise HandParseError(f"summary names seat {seat}, which is empty", token.number)
        cards = self.b.cards(found["cards"], token.number)
        self.b.add(EventKind.MUCK, token.number, player, cards=cards)


class PokerStars(TextRoom):
    name = "pokerstars"
    grammar_file = "pokerstars.lark"
    reader_class = PokerStarsReader
