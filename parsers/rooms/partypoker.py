"""PartyPoker: the "Game #... starts." / "***** Hand History for Game ... *****" format, cash and
tournaments. Party prints no summary: no total pot, no rake, and each win includes the winner's
uncalled bet, which the reader splits back out. Notes are in docs/rooms/partypoker.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any, Final

from studdraw.parsers.builder import HandParseError, parse_amount, unsupported
from studdraw.parsers.files import without_blank_tail
from studdraw.parsers.model import (
    Card,
    EventKind,
    Game,
    HandRecord,
    HandText,
    Structure,
    Tournament,
)
from studdraw.parsers.text.line_reader import LineReader
from studdraw.parsers.text.room import TextRoom
from studdraw.parsers.text.tokens import LineToken
from studdraw.parsers.text.verbs import BRING_IN, CALL, CHECK, FOLD, Verb

GAMES: Final = {"7 Card Stud": Game.STUD, "7 Card Stud Hi-Lo": Game.STUD8}
STRUCTURES: Final = {"FL": Structure.FIXED, "PL": Structure.POT, "NL": Structure.NO}
"""The structure a game line names before the game; a line naming none is fixed limit."""
FIXED: Final = Structure.FIXED
STREETS: Final = {
    None: (0, "3rd street"),
    "Fourth street": (1, "4th street"),
    "Fifth street": (2, "5th street"),
    "Sixth street": (3, "6th street"),
    "River": (4, "7th street"),
}
CURRENCY_SYMBOLS: Final = {"$": "USD", "€": "EUR", "£": "GBP"}
_INTRO_RANK: Final = {"G": 0, "#": 1, "*": 2}  # the order of a hand's three opening lines
_TABLE_LIFE: Final = frozenset(
    {
        EventKind.CHAT,
        EventKind.JOIN,
        EventKind.LEAVE,
        EventKind.SIT_OUT,
        EventKind.SIT_IN,
        EventKind.NOTE,
    }
)
"""Events that do not make a seated player part of the hand."""


VERBS: Final = {
    "folds": FOLD,
    "checks": CHECK,
    "calls": CALL,
    "bets": Verb(EventKind.BET),
    "raises": Verb(EventKind.RAISE),  # the chips put in, not the total
    "completes": Verb(EventKind.COMPLETE),
    "bring-ins": BRING_IN,
    "double bets": Verb(EventKind.BET, quirk="double_bet"),
    "is all-In": Verb(EventKind.CALL, quirk="all_in_action"),
}
"""Party's bracketed amount is always the chips the action puts in."""


class PartyPokerReader(LineReader):
    verbs = VERBS
    games = GAMES
    structures = STRUCTURES
    currencies = CURRENCY_SYMBOLS
    time_formats = ("%Y %B %d %H:%M:%S", "%Y %b %d %H:%M:%S")
    zone = "ET"  # of the 2013 tournaments' times, printed without one, as FPDB's reader assumes

    def begin(self, hand: HandText) -> None:
        super().begin(hand)
        self._refunds: dict[str, int] = {}  # uncalled bets returned, folded into a later win
        self._settled = False

    def start(self, _: list[Any]) -> HandRecord:
        b = self.b
        collect = EventKind.COLLECT  # looked up once: an enum member costs a class look-up
        los = {e.pot for e in b.events if e.kind is collect and e.pot and ":lo" in e.pot}
        if los:
            # Party names only the low half ("wins Lo (...)"); the plain wins of that pot are
            # its high half.
            b.events = [
                replace(e, pot=f"{e.pot}:hi")
                if e.kind is EventKind.COLLECT and f"{e.pot}:lo" in los
                else e
                for e in b.events
            ]
        acting = {e.player for e in b.events if e.player and e.kind not in _TABLE_LIFE}
        for index, seat in enumerate(b.seats):
            if seat.player not in acting:
                # Listed without ante, cards or action: not dealt in. Party has no marker.
                b.seats[index] = replace(seat, sitting_out=True)
                b.notes.append(f"{seat.player} listed but takes no part: sitting out")
        return b.finish()

    # --- header ---------------------------------------------------------------------------
    def _hand_id(self, hand_id: str, line: int) -> None:
        b = self.b
        if b.room_hand_id and b.room_hand_id != hand_id:
            raise HandParseError(f"hand id {hand_id} differs from {b.room_hand_id}", line)
        b.room_hand_id = hand_id

    def on_start(self, token: LineToken) -> None:
        self._hand_id(token.field("id") or "", token.number)

    def on_game_no(self, token: LineToken) -> None:
        self._hand_id(token.field("id") or "", token.number)

    def on_history(self, token: LineToken) -> None:
        self._hand_id(token.field("id") or "", token.number)

    def on_tournament_game(self, token: LineToken) -> None:
        b = self.b
        found, line = token.field, token.number
        self._game(token)
        b.currency, b.scale = "CHIPS", 1
        buyin = found("buyin")
        currency = found("iso") or (self.currency_in(buyin) if buyin else None)
        try:
            buy_in = parse_amount(buyin, 100) if buyin else None
        except ValueError as error:
            raise HandParseError(str(error), line) from None
        # Party prints one buy-in amount, the fee included and not given apart.
        level = f"Level {found('level')}"
        b.tournament = Tournament(found("tournament") or "", buy_in, None, currency, level)
        self._stakes(token)
        self._time(token)

    def on_cash_game(self, token: LineToken) -> None:
        b = self.b
        self._game(token)
        currency = token.field("iso") or self.currency_in(token)
        if currency is None:
            b.currency, b.scale = "PLAY", 1
        else:
            b.currency = currency
        self._stakes(token)
        self._time(token)

    def on_game(self, token: LineToken) -> None:
        """A game line of another form than the tournaments' and the cash tables'."""
        text = (token.field("game") or "").strip()
        if any(name in text for name in self.games):
            raise HandParseError(f"unreadable game and stakes: {text!r}", token.number)
        raise unsupported(text, token.number)

    def _game(self, token: LineToken) -> None:
        name, limit = (token.field("game") or "").strip(), token.field("limit")
        label = f"{limit} {name}" if limit else name
        self.b.game = self.read_game(name, token.number, label)
        self.b.structure = self.read_structure(limit, token.number, label) if limit else FIXED

    def _stakes(self, token: LineToken) -> None:
        self.b.header_stakes(self.amount(token, "small"), self.amount(token, "big"))
        if token.field("ante"):
            self.b.ante = self.amount(token, "ante")

    def _time(self, token: LineToken) -> None:
        """ "Monday, April 25, 14:20:12 EDT 2011" or "Mon Jul 12 13:38:32 EDT 2010"."""
        found = token.field
        self.b.room_time = found("time") or ""
        stamp = f"{found('year')} {found('month')} {found('day')} {found('clock')}"
        self.read_time(stamp, found("zone"), token.number)

    def on_table(self, token: LineToken) -> None:
        found = token.field
        self.b.table = " ".join((found("table") or "").split())
        if found("money") == "Play":
            self.b.currency = "PLAY"

    def on_button(self, token: LineToken) -> None:
        """Party prints "Seat 0 is the button" in stud, which has no button."""

    def on_players(self, token: LineToken) -> None:
        found = token.field
        self.b.max_seats = int(found("max") or 0) or None

    def on_trny(self, token: LineToken) -> None:
        found = token.field
        tournament = self.b.tournament
        if tournament is None or tournament.tournament_id != found("tournament"):
            raise HandParseError("tournament line in a hand of another game", token.number)
        self.b.tournament = replace(tournament, level=f"Level {found('level')}")

    def on_level(self, token: LineToken) -> None:
        """The level line repeats the header's stakes; it is the one in force for the hand."""
        self._stakes(token)

    # --- streets --------------------------------------------------------------------------
    def on_street(self, token: LineToken) -> None:
        index, name = STREETS[token.field("street")]
        b = self.b
        if b.contributed:
            # A closed round where one player's bet tops every other: nobody could match it
            # (the others folded or are all in), so it goes back before the next card.
            self._return(self._excess(b.contributed), token.number)
        b.new_street(index, token.number, name)

    def _cards(self, text: str, line: int) -> tuple[Card | None, ...]:
        return self.b.cards(text.replace(",", " "), line)

    def on_dealt(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        player = self.player(token)
        cards = self._cards(found("cards") or "", token.number)
        up: tuple[bool, ...]
        if b.street == 0:
            if len(cards) == 3:
                b.hero = player
                up = (False, False, True)
            elif len(cards) == 1:  # an opponent's door card
                cards, up = (None, None, *cards), (False, False, True)
            else:
                raise HandParseError(f"3rd street deals 3 cards, not {len(cards)}", token.number)
        else:
            up = (b.street < 4,) * len(cards)
        b.add(EventKind.DEAL, token.number, player, cards=cards, up=up)

    def on_post(self, token: LineToken) -> None:
        amount = self.amount(token)
        self.b.add(EventKind.ANTE, token.number, self.player(token), amount=amount)

    def on_opens(self, token: LineToken) -> None:
        """Party names the first player to act on each street."""
        self.b.add(EventKind.NOTE, token.number, self.player(token), text="opens")

    def double_bet(self, token: LineToken) -> None:
        """ "double bets": the room's word that 4th street shows an open pair, which the export
        cannot show (it prints no opponent's cards): kept as the room's announcement."""
        line = token.number
        self.b.add(EventKind.OPEN_PAIR, line)
        event = self.b.wager(EventKind.BET, line, self.player(token), amount=self.amount(token))
        self.b.events[-1] = replace(event, text="double bet")

    def all_in_action(self, token: LineToken) -> None:
        """ "is all-In": the kind follows from the amount against the street's bets."""
        player, amount = self.player(token), self.amount(token)
        kind = self._all_in_kind(player, amount)
        self.b.wager(kind, token.number, player, amount=amount, all_in=True)

    def _all_in_kind(self, player: str, amount: int) -> EventKind:
        b = self.b
        facing = max(b.contributed.values(), default=0)
        if b.contributed.get(player, 0) + amount <= facing:
            return EventKind.CALL
        if facing == 0:
            return EventKind.BET
        street_kinds = {e.kind for e in b.events if e.street == b.street}
        if b.street == 0 and not street_kinds & {EventKind.COMPLETE, EventKind.RAISE}:
            return EventKind.COMPLETE
        return EventKind.RAISE

    # --- showdown and money out -------------------------------------------------------------
    def on_shows(self, token: LineToken) -> None:
        found = token.field
        cards = self._cards(found("cards") or "", token.number)
        kind = EventKind.SHOW if found("verb") == "shows" else EventKind.MUCK
        desc = (found("text") or "").strip() or None
        self.b.add(kind, token.number, self.player(token), cards=cards, text=desc)

    def on_no_show(self, token: LineToken) -> None:
        self.b.add(EventKind.NOTE, token.number, self.player(token), text="does not show")

    def on_wins(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        player, line = self.player(token), token.number
        low = found("low")
        amount = b.money(low or found("amount") or "", line)
        pot = f"side{found('side') or 1}" if found("side_pot") else "main"
        if low:
            pot += ":lo"
        if not self._settled:
            self._settled = True
            self._return(self._excess(self._totals()), line)
        # Party's win includes the player's own uncalled bet: it was returned apart.
        amount -= self._refunds.pop(player, 0)
        b.add(EventKind.COLLECT, line, player, amount=amount, pot=pot)

    def _totals(self) -> dict[str, int]:
        """What each player has put in the pot so far, returns taken back."""
        totals: dict[str, int] = {}
        uncalled = EventKind.UNCALLED  # looked up once: an enum member costs a class look-up
        for event in self.b.events:
            player, kind = event.player, event.kind
            if player and kind.puts_in:
                totals[player] = totals.get(player, 0) + event.amount
            elif player and kind is uncalled:
                totals[player] = totals.get(player, 0) - event.amount
        return totals

    @staticmethod
    def _excess(put_in: dict[str, int]) -> tuple[str, int] | None:
        """The largest contribution's excess over the second largest, if any."""
        ranked = sorted(put_in.items(), key=lambda item: item[1], reverse=True)
        if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
            return None
        second = ranked[1][1] if len(ranked) > 1 else 0
        return ranked[0][0], ranked[0][1] - second

    def _return(self, excess: tuple[str, int] | None, line: int) -> None:
        """Return a bet nobody matched, which Party never prints, as an UNCALLED event, and
        keep it to take off the player's win (Party's win amount includes it)."""
        if excess is None:
            return
        player, amount = excess
        self.b.add(EventKind.UNCALLED, line, player, amount=amount)
        self._refunds[player] = self._refunds.get(player, 0) + amount
        self.b.notes.append("uncalled bet derived: Party's win amount includes it")

    def on_no_low(self, token: LineToken) -> None:
        self.b.add(EventKind.NOTE, token.number, text="no qualifying low hand")


class PartyPoker(TextRoom):
    name = "partypoker"
    title = "PartyPoker"
    grammar_file = "partypoker.lark"
    reader_class = PartyPokerReader
    tidy_per_hand = False  # a hand's opening lines are texts of their own, joined here

    def tidy(self, hands: Iterator[HandText]) -> Iterator[HandText]:
        """The shared splitter's texts without Party's NUL padding, each hand's opening lines
        joined into one text."""
        return _joined_openings(_unpadded(hands), self.hand_start)


def _unpadded(hands: Iterator[HandText]) -> Iterator[HandText]:
    """Party pads hands with NUL bytes: they are dropped from the text, and text before the
    first hand that is only padding is no finding."""
    for hand in hands:
        if "\x00" not in hand.text:
            yield hand
        elif text := without_blank_tail(hand.text.replace("\x00", "")):
            yield replace(hand, text=text)


def _joined_openings(hands: Iterator[HandText], start: re.Pattern[str]) -> Iterator[HandText]:
    """A hand opens with up to three lines ("Game #N starts.", "#Game No : N",
    "***** Hand History for Game N *****"), any of which may be the first one present, and each
    is a hand start (`start`): a text of opening lines only is continued by the next text if
    that one opens with a later kind of opening line. (A text may hold two of them when NUL
    padding inside the second kept it from starting a text of its own.)"""
    held: HandText | None = None  # a hand of opening lines only, so far
    held_rank = -1  # the rank of its last opening line
    for hand in hands:
        rank = -1 if hand.stray else _INTRO_RANK[hand.text[0]]
        if held is not None and rank > held_rank:
            # The lines between them are blank: the splitter left them out of `held`.
            gap = hand.source.line - held.source.line - held.text.count("\n")
            joined = held.text + "\n" * gap + hand.text
            held = replace(hand, text=joined, source=held.source)
        else:
            if held is not None:
                yield held
            held = hand
        held_rank = -1 if hand.stray else _last_opening(hand.text, start)
        if held_rank < 0:
            yield held
            held = None
    if held is not None:
        yield held


def _last_opening(text: str, start: re.Pattern[str]) -> int:
    """The rank of a text's last opening line when it holds nothing else (blank lines aside),
    else -1: the hand's body follows."""
    lines = [line for line in text.split("\n") if line.strip()]
    if not all(start.match(line) for line in lines):
        return -1
    return _INTRO_RANK[lines[-1][0]]
