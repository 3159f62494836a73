"""Bovada (formerly Bodog, also Ignition): anonymised stud hand histories, cash and tournaments.

Players are seat labels ("Seat+3"), the hero's carries "[ME]", every card dealt is printed, the
header carries no stakes (they are read off the hand's own bets) and no time zone (ET assumed),
and older exports print no street markers (streets follow from the deals). Notes are in
docs/rooms/bovada.md.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Final

from studdraw.parsers.builder import HandParseError, stud_street_name, unsupported
from studdraw.parsers.model import (
    STUD_DEALS,
    Card,
    Claim,
    Event,
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
from studdraw.parsers.text.verbs import CALL, CHECK, FOLD, Reads, Verb

GAMES: Final = {"7CARD": Game.STUD, "7CARD HiLo": Game.STUD8, "7CARD_HL": Game.STUD8}
STRUCTURES: Final = {
    "Fixed Limit": Structure.FIXED,
    "Pot Limit": Structure.POT,
    "No Limit": Structure.NO,
}
STREETS: Final = {
    "HOLE CARDS": 0,
    "3RD STREET": 0,
    "4TH STREET": 1,
    "5TH STREET": 2,
    "6TH STREET": 3,
    "7TH STREET": 4,
    "RIVER": 4,
}

_HALF: Final = re.compile(r"\b(?P<half>HI|LO) (?P<amt>\$?[\d,.]+)")
_RAISING: Final = frozenset({EventKind.BET, EventKind.RAISE, EventKind.COMPLETE})


VERBS: Final = {
    "Folds": FOLD,
    "Fold": FOLD,
    "Checks": CHECK,
    "Calls": CALL,  # the chips put in
    "Call": CALL,
    **dict.fromkeys(("Bets", "bets", "Bets chip info"), Verb(EventKind.BET, quirk="opening_bet")),
    **dict.fromkeys(("D bets", "Double bets"), Verb(EventKind.BET, quirk="double_bet")),
    **dict.fromkeys(("Raises", "raises"), Verb(EventKind.RAISE, Reads.TOTAL_TO, quirk="raise_to")),
    "All-in": Verb(EventKind.CALL, quirk="all_in"),
}
"""Bovada's amounts: calls and plain all-ins give the chips put in, bets the bet, raises and
raising all-ins the player's new total on the street. Which wager a bet or raise is depends on
the street so far (the stakes are not in the header), hence the quirks."""
POSTS: Final = {
    "Ante chip": EventKind.ANTE,
    "Bring_in chip": EventKind.BRING_IN,
    "Big blind/Bring in": EventKind.BRING_IN,
    "Bring in": EventKind.BRING_IN,
}


class BovadaReader(LineReader):
    verbs = VERBS
    posts = POSTS
    stud_streets = STREETS
    games = GAMES
    structures = STRUCTURES
    time_formats = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d-%H:%M:%S")
    zone = "ET"  # the room prints no zone in most exports

    def begin(self, hand: HandText) -> None:
        super().begin(hand)
        self._held: dict[str, list[Card | None]] = {}
        self._opener: int | None = None  # index of a 3rd-street "Bets" with no bring-in before
        self._side_pots = 0

    def start(self, _: list[Any]) -> HandRecord:
        b = self.b
        if b.structure is Structure.FIXED:  # the sizes below hold for fixed limit only
            small, big = _bet_sizes(b.events, self._opener)
            if self._opener is not None:
                self._resolve_opener(small)
                small, big = _bet_sizes(b.events, None)
            b.small_bet, b.big_bet = small, big
        if not b.small_bet:
            b.notes.append("stakes unknown: no full-size bet in the hand")
        return b.finish()

    def _resolve_opener(self, small: int) -> None:
        """A 3rd-street "Bets" with no bring-in line before it is the bring-in player's first
        action: a completion when it is the small bet, else the bring-in. The small bet comes
        from the hand's other bets; when none tells (all fold), a completion is assumed, as
        Bovada prints a forced bring-in with its own line in every other hand."""
        b = self.b
        assert self._opener is not None
        opener = b.events[self._opener]
        if small and opener.amount < small:
            b.events[self._opener] = replace(opener, kind=EventKind.BRING_IN)
            # The first raise after a bring-in is the completion.
            for index in range(self._opener + 1, len(b.events)):
                event = b.events[index]
                if event.street != 0:
                    break
                if event.kind is EventKind.RAISE:
                    b.events[index] = replace(event, kind=EventKind.COMPLETE)
                    break

    # --- header and seats -------------------------------------------------------------------
    def on_header(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        line = token.number
        b.room_hand_id = found("id") or ""
        rest, name = (found("rest") or "").strip(), found("game")
        game = self.games.get(name or "")
        if game is None:
            if any(label in rest for label in self.games):
                raise HandParseError(f"unreadable game: {rest!r}", line)
            raise unsupported(f"{name} {found('limit') or ''}".strip() if name else rest, line)
        b.game = game
        if found("limit") is None:
            raise HandParseError(f"no betting structure in {rest!r}", line)
        b.structure = self.read_structure(found("limit") or "", line, rest)
        if found("tid"):
            b.currency, b.scale = "CHIPS", 1
            level = f"Level {found('level')}" if found("level") else None
            # The buy-in is only in the export's file name, never in the hand.
            b.tournament = Tournament(found("tid") or "", level=level)
            b.table = found("tournament_table") or ""
        else:
            b.table = found("table") or ""
        if found("room") != "Bovada":
            b.notes.append(f"exported as {found('room')}")
        text, zone = found("time") or "", found("zone")
        b.room_time = f"{text} {zone}" if zone else text
        self.read_time(text, zone, line)

    def on_seat(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        if not b.seats and b.tournament is None and "$" not in (found("stack") or ""):
            b.currency, b.scale = "PLAY", 1
        player = f"Seat+{found('seat')}"
        if found("me"):
            b.hero = player
        b.seat(int(found("seat") or 0), player, self.amount(token, "stack"))

    # --- streets --------------------------------------------------------------------------
    def on_dealt(self, token: LineToken) -> None:
        b = self.b
        player, line = self.player(token), token.number
        cards = self.cards(token)
        held = self._held.setdefault(player, [])
        up: tuple[bool, ...]
        if not held and len(cards) == 3:
            street, up = 0, (False, False, True)
        elif held and len(cards) == 1:
            street = len(held) - 2
            up = (street < 4,)
        else:
            raise HandParseError(f"{len(cards)} cards dealt after {len(held)}", line)
        if street >= len(STUD_DEALS[Game.STUD]):  # the room deals seven-card games only
            raise HandParseError(f"a card dealt to {player} after the last street", line)
        if street > b.street:
            # Exports without street markers: the first card of a street opens it.
            b.new_stud_street(street, line)
        elif street < b.street:
            raise HandParseError(f"a card of {stud_street_name(b.game, street)} dealt later", line)
        held.extend(cards)
        b.add(EventKind.DEAL, line, player, cards=cards, up=up)

    def on_bring_in(self, token: LineToken) -> None:
        """Read "Bring_in chip $0.02" as the posts table says."""
        self.on_post(token)

    def opening_bet(self, token: LineToken) -> None:
        """ "Bets": a bet, the completion over a lone bring-in, or (3rd street's first wager)
        the bring-in player's opening, bring-in or completion, decided from the amounts once
        the hand is read (see `_resolve_opener`)."""
        b = self.b
        player, line, amount = self.player(token), token.number, self.amount(token)
        kind = self._wager_kind(EventKind.BET) if b.street == 0 else EventKind.BET
        if kind is EventKind.BET and b.street == 0:
            kind, self._opener = EventKind.COMPLETE, len(b.events)
        b.wager(kind, line, player, amount=amount)

    def double_bet(self, token: LineToken) -> None:
        """ "D bets", "Double bets": the big bet on 4th street after an open pair."""
        event = self.b.wager(
            EventKind.BET, token.number, self.player(token), amount=self.amount(token)
        )
        self.b.events[-1] = replace(event, text="double bet")

    def raise_to(self, token: LineToken) -> None:
        """ "Raises 800" or "Raises $1 to $1": the player's new total on the street; over a
        lone bring-in the completion (the stakes are known only once the hand is read)."""
        to = self.amount(token, "to" if token.field("to") else "amount")
        kind = self._wager_kind(EventKind.RAISE)
        self.b.wager(kind, token.number, self.player(token), to=to)

    def all_in(self, token: LineToken) -> None:
        """ "All-in 58" puts chips in (a call, or a bet or raise above what the player faces);
        "All-in(raise) 1054" and "All-in(raise) 80 to 80" give the new total."""
        b = self.b
        player, line, amount = self.player(token), token.number, self.amount(token)
        if (token.field("note") or "").startswith("raise"):
            to = self.amount(token, "to") if token.field("to") else amount
            b.wager(self._wager_kind(EventKind.BET), line, player, to=to, all_in=True)
            return
        facing = max(b.contributed.values(), default=0)
        total = b.contributed.get(player, 0) + amount
        kind = EventKind.CALL if total <= facing else self._wager_kind(EventKind.BET)
        b.wager(kind, line, player, amount=amount, all_in=True)

    def _wager_kind(self, opening: EventKind) -> EventKind:
        """What a wager above the current bet is: a raise once the street has a bet, the
        completion over a lone bring-in, else `opening` (the verb's own meaning)."""
        b = self.b
        kinds = {e.kind for e in b.events if e.street == b.street}
        if kinds & _RAISING:
            return EventKind.RAISE
        if b.street == 0 and EventKind.BRING_IN in kinds:
            return EventKind.COMPLETE
        return opening

    # --- showdown and money out -------------------------------------------------------------
    def on_showdown(self, token: LineToken) -> None:
        """Bovada shows the best five cards, for hi/lo the best high five then the best low
        five (repeating cards). The event carries the player's whole hand as dealt, which the
        export prints in full, and the room's hand name."""
        found = token.field
        b = self.b
        player = self.player(token)
        printed = self.cards(token)
        held = self._held.get(player, [])
        missing = [card for card in dict.fromkeys(printed) if card not in held]
        cards = (*held, *missing)
        b.add(EventKind.SHOW, token.number, player, cards=cards, text=found("text"))

    def on_no_show(self, token: LineToken) -> None:
        self.b.add(EventKind.NOTE, token.number, self.player(token), text="does not show")

    def on_result(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        pot = "main"
        if found("side"):
            self._side_pots += 1
            pot = f"side{self._side_pots}"
        amount = self.amount(token, "amount")
        b.add(EventKind.COLLECT, token.number, self.player(token), amount=amount, pot=pot)

    def on_ranking(self, token: LineToken) -> None:
        found = token.field
        text = f"finished in place {found('place')}"
        self.b.add(EventKind.NOTE, token.number, self.player(token), text=text)

    def on_sit_out(self, token: LineToken) -> None:
        """Sitting out before the deal: listed, but not dealt in."""
        super().on_sit_out(token)
        b = self.b
        if not any(e.kind is EventKind.STREET for e in b.events):
            player = token.player
            b.seats = [replace(s, sitting_out=True) if s.player == player else s for s in b.seats]

    def on_info(self, token: LineToken) -> None:
        """ "Table enter user", "Table leave user": the client's view of the table."""
        text = token.strip().rpartition(" : ")[2].lower()
        self.b.add(EventKind.NOTE, token.number, token.player, text=text)

    # --- summary ----------------------------------------------------------------------------
    def on_summary_seat(self, token: LineToken) -> None:
        """What the line says its player won is held against the collects (`Claim`). In hi/lo
        the summary tells which half each result was ("HI $2.33", "LO $2.32"), which the
        showdown's "Hand result" lines do not: the collects get their half here."""
        b = self.b
        player = f"Seat+{token.field('seat')}"
        won, line = token.field("won"), token.number
        if won is not None or token.field("no_win") is not None:
            b.claims.append(Claim(line, 0 if won is None else b.money(won, line), player))
            return
        halves = [
            (found["half"].lower(), b.money(found["amt"], line))
            for found in _HALF.finditer(token.field("text") or "")
        ]
        if not halves:
            return
        b.claims.append(Claim(line, sum(amount for _, amount in halves), player))
        collects = [
            i for i, e in enumerate(b.events) if e.kind is EventKind.COLLECT and e.player == player
        ]
        if (
            len(collects) != 1
            or b.events[collects[0]].pot != "main"
            or sum(amount for _, amount in halves) != b.events[collects[0]].amount
        ):
            b.notes.append(f"hi/lo summary of {player} does not match its results")
            return
        collect = b.events[collects[0]]
        b.events[collects[0] : collects[0] + 1] = [
            replace(collect, amount=amount, pot=f"main:{half}") for half, amount in halves
        ]


def _bet_sizes(events: list[Event], opener: int | None) -> tuple[int, int]:
    """The small and big bet as the hand's full-size bets show them (all-ins excluded): the
    3rd-street completion and 4th-street bets are small bets, a 4th-street double bet and
    later bets are big bets; a missing one is derived from the other (fixed limit is 1:2).
    The unresolved 3rd-street opener (`opener`) is left out."""
    small = big = 0
    for index, event in enumerate(events):
        if event.all_in or index == opener or event.to is None:
            continue
        if event.kind is EventKind.COMPLETE and event.street == 0 and not small:
            small = event.to
        elif event.kind is EventKind.BET and event.street == 1:
            if event.text == "double bet":
                big = big or event.amount
            else:
                small = small or event.amount
        elif event.kind is EventKind.BET and event.street >= 2:
            big = big or event.amount
    if small and not big:
        big = 2 * small
    elif big and not small:
        small = big // 2
    return small, big


class Bovada(TextRoom):
    name = "bovada"
    title = "Bovada"
    grammar_file = "bovada.lark"
    reader_class = BovadaReader
