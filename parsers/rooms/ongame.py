"""OnGame network: the 2010-2012 exports ("***** History for hand R5-82086688-607 *****"), cash
stud and five-card draw. Notes on the format are in docs/rooms/ongame.md.

Habits of the room that shape this module:

- the showdown's cards are told only in the summary's seat lines ("Seat 2: Hero ($3.47), net:
  +$1.47, [Jh, 9d, Ac, 7h, Js, 5c, 9h] (TWO_PAIR JACK, NINE)"), read here as shows;
- the pot line names the pot before rake and each winner's share after it ("Main pot: $2.35 won
  by Hero ($2.24)");
- an uncalled bet is paid back without a line (the summary's nets prove it): the reader adds
  the return, marked as inferred, where the betting round is over (next street, summary);
- the low card chooses between a "small bring in" and a "big bring in" (the completion).
"""

from __future__ import annotations

import re
from typing import Final

from studdraw.parsers.builder import HandParseError, no_game, parse_amount
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
    "SEVEN_CARD_STUD": Game.STUD,
    "SEVEN_CARD_STUD_HI_LO": Game.STUD8,
    "FIVE_CARD_DRAW": Game.DRAW5,
}
"""The room's game label -> the game it deals (the corpus shows no other stud or draw game);
any other label (hold'em, Omaha) is out of scope."""
STRUCTURES: Final = {
    "LIMIT": Structure.FIXED,
    "POT_LIMIT": Structure.POT,
    "NO_LIMIT": Structure.NO,
}
_BLINDS: Final = (EventKind.SMALL_BLIND, EventKind.BIG_BLIND)
CURRENCIES: Final = {"$": "USD", "€": "EUR", "£": "GBP"}
STUD_STREETS: Final = {
    "pocket cards": 0,
    "4th street": 1,
    "5th street": 2,
    "6th street": 3,
    "river": 4,
}
DRAW_STREETS: Final = {"pocket cards": 0}
"""The draw rounds have no marker: the first draw after a betting round opens the next."""
_WINNER: Final = re.compile(r" \((?P<amount>[^()\s]+)(?: (?P<half>High|Low))?\)(?:, |$)")
"""One winner's share after the name: "($1.37)", "($1.37 High)", then ", " or the end."""

VERBS: Final = {
    "folds": FOLD,
    "checks": CHECK,
    "calls": CALL,
    "bets": BET,  # on 3rd street over the bring-in, the base reads it as the completion
    # "raises $1 to $1.37": the chips put in; the "to" is not always the street total (see docs)
    "raises": Verb(EventKind.RAISE),
    "small bring in": Verb(EventKind.BRING_IN),
    "big bring in": COMPLETE_TO,  # the low card completes instead of bringing in
}
POSTS: Final = {
    "ante": EventKind.ANTE,
    "small blind": EventKind.SMALL_BLIND,
    "big blind": EventKind.BIG_BLIND,
    "dead blind": EventKind.DEAD,
}


def cards_text(text: str) -> str:
    """The room's card list ("-, -, Kh") in the shared form ("X X Kh")."""
    return " ".join("X" if card == "-" else card for card in text.replace(",", " ").split())


class OnGameReader(LineReader):
    verbs = VERBS
    posts = POSTS
    stud_streets = STUD_STREETS
    draw_streets = DRAW_STREETS
    """The draw rounds have no marker: the first draw after a betting round opens the next."""
    games = GAMES
    structures = STRUCTURES
    currencies = CURRENCIES
    time_formats = ("%a %b %d %H:%M:%S %Y",)

    def begin(self, hand: HandText) -> None:
        super().begin(hand)
        self._summary = False
        self._drawing = False  # draw games: a draw round is under way
        self._time_error: HandParseError | None = None  # an unreadable start time
        self._hands: dict[str, tuple[Card | None, ...]] = {}  # draw games: each hand held

    # --- header and seats -------------------------------------------------------------------
    def on_header(self, token: LineToken) -> None:
        """ "***** History for hand T5-17631959-1 (TOURNAMENT: "Freeroll", R-274-69, buy-in:
        €0) *****": a tournament hand names its tournament (or nothing) and the buy-in."""
        found = token.field
        b = self.b
        b.room_hand_id = found("id") or ""
        if found("tournament") is None:
            return
        if found("tid") is None:  # "(TOURNAMENT: )": the hand id's middle part is the tournament's
            b.tournament = Tournament(b.room_hand_id.split("-")[1])
            return
        sign = found("sign")
        try:
            cents = parse_amount(found("buyin") or "", 100)
        except ValueError as error:
            raise HandParseError(str(error), token.number) from None
        b.tournament = Tournament(found("tid") or "", cents, None, self.currencies.get(sign or ""))

    def on_end(self, token: LineToken) -> None:
        if token.field("id") != self.b.room_hand_id:
            raise HandParseError(
                f"hand {token.field('id')} ends inside hand {self.b.room_hand_id}", token.number
            )

    def on_start_time(self, token: LineToken) -> None:
        """ "Start hand: Mon Sep 13 22:31:30 GMT+0100 2010" (an offset) or "... CET 2012" (a
        zone). A zone studdraw does not know fails the hand only once the table line has shown
        its game in scope: an out-of-scope hand stays unsupported."""
        found = token.field
        b = self.b
        zone = found("zone") or ""
        b.room_time = f"{found('time')} {zone} {found('year')}"
        try:
            self.read_time(f"{found('time')} {found('year')}", zone, token.number)
        except HandParseError as error:
            self._time_error = error

    def on_table(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        game = self.read_game(found("game") or "", token.number)
        if self._time_error is not None:
            raise self._time_error
        b.game = game
        b.table = found("table") or ""
        structure = self.structures.get(found("limit") or "")
        if structure is None:
            raise HandParseError(f"unknown betting structure {found('limit')}", token.number)
        b.structure = structure
        money = found("money")
        if money == "Play money":
            b.currency, b.scale = "PLAY", 1
        elif money in ("TC", "Chips"):  # tournament chips
            b.currency, b.scale = "CHIPS", 1
        elif found("sign") is None:
            raise HandParseError(f"no currency in the stakes {found('small')}", token.number)
        else:
            b.currency = self.currencies[found("sign") or ""]
        b.header_stakes(self.amount(token, "small"), self.amount(token, "big"))
        if found("ante"):
            b.ante = self.amount(token, "ante")

    def on_user(self, token: LineToken) -> None:
        self.b.hero = token.field("player")

    def on_button(self, token: LineToken) -> None:
        """ "Button: seat 1": the dealer's seat, which only a draw game's order depends on (a
        record's button is a draw game's; stud tables print it too)."""
        b = self.b
        if b.game is not None and b.game.is_draw:
            b.button = int(token.field("button") or 0) or None

    def on_players(self, token: LineToken) -> None:
        """ "Players in round: 2 (5)": the seat lines that follow are the roster."""

    def on_seat(self, token: LineToken) -> None:
        """In the summary, a player without a net result is listed as on a seat line: the
        summary says the player neither won nor lost (held against the play, `Claim`)."""
        if not self._summary:
            super().on_seat(token)
            return
        player = token.field("player")
        if player is not None:
            self.b.claims.append(Claim(token.number, 0, player, net=True))

    def on_post(self, token: LineToken) -> None:
        """A table whose blinds are equal ("POT_LIMIT FIVE_CARD_DRAW $1/$1") prints both as
        "big blind": the first, posted from the seat left of the button, is the small blind."""
        b = self.b
        if (
            token.field("post") == "big blind"
            and b.small_blind is not None
            and b.small_blind == b.big_blind
            and not any(event.kind in _BLINDS for event in b.events)
            and self.player(token) == self._small_blind_player()
        ):
            amount = self.amount(token)
            b.wager(EventKind.SMALL_BLIND, token.number, self.player(token), amount=amount)
            return
        super().on_post(token)

    def _small_blind_player(self) -> str | None:
        """Who sits first left of the button (heads-up, none: the button posts it)."""
        b = self.b
        if b.button is None or len(b.seats) < 3:
            return None
        ordered = sorted(b.seats, key=lambda seat: seat.seat)
        after = [seat for seat in ordered if seat.seat > b.button] or ordered
        return after[0].player

    # --- streets and cards ------------------------------------------------------------------
    def on_section_end(self, token: LineToken) -> None:
        """ "---" closes a section; the grammar checks its place."""

    def on_action(self, token: LineToken) -> None:
        self._drawing = False
        super().on_action(token)

    def on_discard(self, token: LineToken) -> None:
        """ "Hero changed 2 cards": the first draw after a betting round opens the next round
        (the room prints no marker, and sometimes not even the "---" before it)."""
        self._open_draw_round(token.number)
        super().on_discard(token)

    def _open_draw_round(self, line: int) -> None:
        """The round's first draw line closes the betting before it and opens the draw."""
        b = self.b
        if not self._drawing:
            self._drawing = True
            self.infer_uncalled(line)
            b.new_street(b.street + 1, line, f"draw {b.street + 1}")

    def on_dealt(self, token: LineToken) -> None:
        """ "Dealing to X: [-, -, Kh]" (3rd street, hidden cards as -), then the new card of
        each street; a draw game's first hand (the hero's only)."""
        b = self.b
        if b.game is None:
            raise no_game(token.number)
        player, line = self.player(token), token.number
        cards = b.cards(cards_text(token.field("cards") or ""), line)
        if b.game.is_draw:
            self._hands[player] = cards
            b.add(EventKind.DEAL, line, player, cards=cards, up=(False,) * len(cards))
            return
        if b.street == 0:
            if len(cards) != 3:
                raise HandParseError(f"3rd street deals 3 cards, not {len(cards)}", line)
            up: tuple[bool, ...] = (False, False, True)
        else:
            up = (b.street < 4,) * len(cards)
        b.add(EventKind.DEAL, line, player, cards=cards, up=up)

    def on_new_hand(self, token: LineToken) -> None:
        """ "New hand for Hero: [...]" after a draw: the cards not held before are the ones
        drawn, the cards gone the ones discarded (the room may leave out "changed N cards")."""
        b = self.b
        player, line = self.player(token), token.number
        cards = b.cards(cards_text(token.field("cards") or ""), line)
        held = self._hands.get(player, ())
        drawn = tuple(card for card in cards if card not in held)
        self._hands[player] = cards
        self._open_draw_round(line)
        if not any(
            event.player == player
            and event.street == b.street
            and event.kind in (EventKind.DISCARD, EventKind.STAND_PAT)
            for event in b.events
        ):  # the room sometimes omits "changed N cards": the new hand shows what went
            dropped = tuple(card for card in held if card not in cards)
            kind = EventKind.DISCARD if dropped else EventKind.STAND_PAT
            b.add(
                kind,
                line,
                player,
                count=len(dropped),
                cards=dropped,
                text="inferred: the room printed the new hand without the discard",
            )
        b.add(EventKind.DRAW, line, player, cards=drawn, up=(False,) * len(drawn))

    # --- summary ----------------------------------------------------------------------------
    def on_summary(self, token: LineToken) -> None:
        self._summary = True
        self.infer_uncalled(token.number)

    def on_street(self, token: LineToken) -> None:
        """A street marker closes the betting round before it; "Dealing pocket cards" closes
        none (the blinds before it are live bets, not an uncalled wager)."""
        if self.street_index(token) > 0:
            self.infer_uncalled(token.number)
        super().on_street(token)

    def on_pot(self, token: LineToken) -> None:
        """ "Main pot: $2.35 won by Hero ($2.24)", "Side pot 1: ...", "won by A ($1.37 High),
        B ($1.36 Low)": the pot before rake, then each winner's share (a winner's name may hold
        anything, so each is read against the seat list)."""
        b = self.b
        pot = self.pot_name(token)
        total = self.amount(token)
        b.total_pot = total if b.total_pot is None else b.total_pot + total
        winners = token.field("winners") or ""
        names = sorted(b.names, key=lambda name: (-len(name), name))
        while winners:
            found = next(
                (
                    (name, share)
                    for name in names
                    if winners.startswith(name)
                    and (share := _WINNER.match(winners, len(name))) is not None
                ),
                None,
            )
            if found is None:
                raise HandParseError(f"unreadable winners {winners!r}", token.number)
            name, share = found
            amount = b.money(share["amount"], token.number)
            half = {"High": ":hi", "Low": ":lo"}.get(share["half"] or "", "")
            b.add(EventKind.COLLECT, token.number, name, amount=amount, pot=pot + half)
            winners = winners[share.end() :]

    def on_rake(self, token: LineToken) -> None:
        self.b.rake = self.amount(token, "rake")

    def on_summary_seat(self, token: LineToken) -> None:
        """ "Seat 2: Hero ($3.47), net: +$1.47, [Jh, 9d, ...] (TWO_PAIR JACK, NINE)": the only
        place the room tells the cards shown down. The net result is the summary's word on
        what the player won, held against the collects read from the pot lines (`Claim`)."""
        net = token.field("net") or ""
        amount = self.b.money(net[1:], token.number)
        self.b.claims.append(
            Claim(token.number, -amount if net[0] == "-" else amount, self.player(token), net=True)
        )
        shown = token.field("cards")
        if shown is None:
            return
        cards = self.b.cards(cards_text(shown), token.number)
        rank = token.field("text")
        self.b.add(EventKind.SHOW, token.number, self.player(token), cards=cards, text=rank)


class OnGame(TextRoom):
    name = "ongame"
    title = "OnGame"
    grammar_file = "ongame.lark"
    reader_class = OnGameReader
