"""Everleaf Gaming Network: the 2011 stud exports, USD ("$ 0.54 USD", no cards dealt printed)
and EUR ("€ 2.50 EURO", cp1252, with "Dealt to" lines). Notes on the format are in
docs/rooms/everleaf.md.

The room prints no uncalled-bet line and no pot or rake summary: a bet nobody called goes back
silently (the next hand's stacks prove it), so the reader adds the return as an UNCALLED event,
marked as inferred (`LineReader.infer_uncalled`), on the line where the room starts settling
the pot.
"""

from __future__ import annotations

from typing import Final

from studdraw.parsers.builder import HandParseError, stud_faces
from studdraw.parsers.model import EventKind, Game
from studdraw.parsers.text.line_reader import LineReader
from studdraw.parsers.text.room import TextRoom
from studdraw.parsers.text.tokens import LineToken
from studdraw.parsers.text.verbs import CALL, CHECK, COMPLETE_TO, FOLD, Reads, Verb

GAMES: Final = {"7 Card Stud": Game.STUD, "Razz": Game.RAZZ}
CURRENCIES: Final = {"$": "USD", "€": "EUR"}
STUD_STREETS: Final = {"4th street": 1, "5th street": 2, "6th street": 3, "river": 4}

VERBS: Final = {
    " folds": FOLD,
    " checks": CHECK,
    " calls": CALL,
    ": bets": Verb(EventKind.BET, quirk="opening_bet"),
    " raises": Verb(EventKind.RAISE),
    # The first chips of the street: the total printed is also what the player puts in.
    " posts bring-in": Verb(EventKind.BRING_IN, Reads.TOTAL_TO),
    " completes to": COMPLETE_TO,
}
"""A bracketed amount is what the player puts in now: "raises [$ 0.10]" over a 0.05 bet of the
player's own makes 0.15 (a call of 0.05 completes the round). The bring-in and the completion
print their total, with a full stop."""
_OPENING: Final = frozenset({EventKind.COMPLETE, EventKind.BET, EventKind.RAISE})


class EverleafReader(LineReader):
    verbs = VERBS
    games = GAMES
    currencies = CURRENCIES
    time_formats = ("%Y/%m/%d - %H:%M:%S",)
    zone = "UTC"  # Everleaf prints no zone; FPDB's Everleaf importer reads UTC (see notes)

    # --- header and seats -------------------------------------------------------------------
    def on_header(self, token: LineToken) -> None:
        self.b.room_hand_id = token.field("id") or ""
        skin = token.field("skin")
        if skin:
            self.b.notes.append(f"skin {skin}")

    def on_title(self, token: LineToken) -> None:
        if token.field("id") != self.b.room_hand_id:
            raise HandParseError(
                f"hand #{token.field('id')} inside game #{self.b.room_hand_id}", token.number
            )

    def on_game(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        b.game = self.read_game(found("game") or "", token.number)
        symbol = found("currency")
        if symbol:
            b.currency = self.currencies[symbol]
        else:
            b.currency, b.scale = "CHIPS", 1
            b.notes.append("no currency in the header: tournament chips, tournament not named")
        b.small_bet = self.amount(token, "small")
        b.big_bet = self.amount(token, "big")
        b.max_seats = int(found("max") or 0) or None
        b.room_time = found("time") or ""
        self.read_time(b.room_time, None, token.number)

    def on_table(self, token: LineToken) -> None:
        self.b.table = token.field("table") or ""

    def on_players(self, token: LineToken) -> None:
        """The seat lines that follow are the roster; the count adds nothing to them."""

    def on_seat(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        state = found("state")
        if state:  # "( new player )" waits for the next hand; "( All-in )" has no chips left
            b.seat(int(found("seat") or 0), self.player(token), 0, sitting_out=True)
            b.notes.append(f"{self.player(token)} listed as {state!r}")
            return
        b.seat(int(found("seat") or 0), self.player(token), self.amount(token, "stack"))

    def on_ante(self, token: LineToken) -> None:
        amount = self.amount(token, "amount")
        self.b.add(EventKind.ANTE, token.number, self.player(token), amount=amount)

    # --- streets ----------------------------------------------------------------------------
    def on_dealing(self, token: LineToken) -> None:
        self.b.new_stud_street(0, token.number)

    def on_street(self, token: LineToken) -> None:
        b = self.b
        index = STUD_STREETS[(token.field("street") or "").lower()]
        b.new_stud_street(index, token.number)

    def on_dealt(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        player = self.player(token)
        cards = b.cards((found("cards") or "").replace(",", " "), token.number)
        up: tuple[bool, ...]
        if b.street == 0:
            if len(cards) == 3:
                b.hero = player
                up = (False, False, True)
            elif len(cards) == 1:  # an opponent: only the door card is shown
                cards, up = (None, None, *cards), (False, False, True)
            else:
                raise HandParseError(f"3rd street deals 3 cards, not {len(cards)}", token.number)
        else:
            up = stud_faces(b.game, b.street, len(cards), token.number)
        b.add(EventKind.DEAL, token.number, player, cards=cards, up=up)

    def opening_bet(self, token: LineToken) -> None:
        """On 3rd street the first "bets" completes, bring-in or not: the low card may
        complete instead of bringing in (Everleaf writes "completes to" after a bring-in)."""
        b = self.b
        opened = any(e.kind in _OPENING for e in b.events if e.street == 0)
        kind = EventKind.COMPLETE if b.street == 0 and not opened else EventKind.BET
        b.wager(kind, token.number, self.player(token), amount=self.amount(token))

    # --- settling the pot: the room's lines that award it return the uncalled bet first ---
    def on_shows(self, token: LineToken) -> None:
        self.infer_uncalled(token.number)
        found = token.field
        cards = self.b.cards((found("cards") or "").replace(",", " "), token.number)
        self.b.add(
            EventKind.SHOW,
            token.number,
            self.player(token),
            cards=cards,
            text=found("text") or None,
        )

    def on_mucks(self, token: LineToken) -> None:
        self.infer_uncalled(token.number)
        found = token.field
        cards = self.b.cards((found("cards") or "").replace(",", " "), token.number)
        self.b.add(EventKind.MUCK, token.number, self.player(token), cards=cards)

    def on_no_show(self, token: LineToken) -> None:
        self.infer_uncalled(token.number)
        self.b.add(EventKind.NOTE, token.number, self.player(token), text="does not show cards")

    def on_collect(self, token: LineToken) -> None:
        self.infer_uncalled(token.number)
        super().on_collect(token)

    def on_win_wrapped(self, token: LineToken) -> None:
        """The end of the win line above it (the grammar checks it follows one): its hand
        description and best five, which the record does not keep."""


class Everleaf(TextRoom):
    name = "everleaf"
    title = "Everleaf"
    grammar_file = "everleaf.lark"
    reader_class = EverleafReader
