"""Merge Gaming (Carbon Poker and its skins): the XML export, a `<description>` followed by one
`<game>` after another with no root element. The schema, field by field, is in
docs/rooms/merge.md.

Each hand text is the `<game>` element followed by the `<description>` before it (game name and
stakes are only there). Players are named by seat number in events; the money is exact decimal
strings; start times are Eastern time.
"""

from __future__ import annotations

import functools
import re
from datetime import datetime
from typing import Final

from studdraw.parsers.builder import (
    HandBuilder,
    HandParseError,
    card_count,
    parse_card,
    seat_number,
    to_utc,
    unsupported,
)
from studdraw.parsers.model import Card, EventKind, Game, Outcome, Structure, Tournament
from studdraw.parsers.xml.room import Node, XmlRoom

GAMES: Final[dict[str, Game]] = {
    "7-Stud": Game.STUD,
    "7-Stud H/L8": Game.STUD8,
    "Razz": Game.RAZZ,
    "2-7 Lowball": Game.TD27,
    "A-5 Lowball": Game.TDA5,
    "Badugi": Game.BADUGI,
    "5-Draw": Game.DRAW5,
}
"""`<description type>` of the games in scope (FPDB-3 reads the same names; its "5-Draw
w/Joker" plays a joker, a card no evaluator here knows, so it stays unsupported)."""

GAME_CODES: Final[dict[str, str]] = {
    **dict.fromkeys(("1", "2", "9", "23"), "Holdem"),
    "4": "Omaha",
    **dict.fromkeys(("34", "35", "37"), "Omaha H/L8"),
    **dict.fromkeys(("38", "39", "41", "42"), "7-Stud"),
    **dict.fromkeys(("43", "45"), "7-Stud H/L8"),
    **dict.fromkeys(("46", "47", "49"), "Razz"),
    "55": "5-Draw",
    "63": "A-5 Lowball",
    "67": "2-7 Lowball",
    "71": "Badugi",
}
"""`<game gametype>` / `multigametype` codes -> the `<description type>` of the game they name,
for the hands of a mixed-game description (which names only the mix). The hold'em, Omaha and
stud codes are those FPDB-3's converter knows; 55, 63, 67 and 71 are the `gametype`s the
corpus prints beside `5-Draw`, `A-5 Lowball`, `2-7 Lowball` and `Badugi`. A mix's own code
(`gametype` 75 in cash HORSE, 77 in HORSE tournaments) names no game: `multigametype` does."""

MIXES: Final = frozenset({"HA", "RASH", "HO", "SHOE", "HORSE", "HOSE", "HAR"})

STRUCTURES: Final[dict[str, Structure]] = {
    "Limit": Structure.FIXED,
    "Pot Limit": Structure.POT,
    "No Limit": Structure.NO,
    "Half Pot Limit": Structure.HALF_POT,
}

_STAKES: Final = re.compile(
    r"(?P<limit>Half Pot Limit|Pot Limit|No Limit|Limit)(?: Level \d+ Blinds)?"
    r"(?: \(?(?P<amounts>[^()]*)\)?)?"
)

STUD_ROUNDS: Final[dict[str, int]] = {
    "BRING_IN": 0,
    "THIRD_STREET": 0,
    "FOURTH_STREET": 1,
    "FIFTH_STREET": 2,
    "SIXTH_STREET": 3,
    "SEVENTH_STREET": 4,
}
DRAW_ROUNDS: Final[dict[str, int]] = {
    "PRE_FIRST_DRAW": 0,
    "FIRST_DRAW": 1,
    "POST_FIRST_DRAW": 1,
    "SECOND_DRAW": 2,
    "POST_SECOND_DRAW": 2,
    "THIRD_DRAW": 3,
    "POST_THIRD_DRAW": 3,
}
_TIME_FIELDS: Final = ((0, 4), (4, 6), (6, 8), (8, 10), (10, 12), (12, 14))
"""`starttime` is YYYYMMDDhhmmss."""
_END_ROUNDS: Final = frozenset({"SHOWDOWN", "END_OF_GAME", "END_OF_FOLDED_GAME"})
_FORCED_ROUNDS: Final = frozenset({"BLINDS", "BRING_IN"})
_FORCED: Final = frozenset({"ANTE", "SMALL_BLIND", "BIG_BLIND", "BRING_IN"})
_SHOWN: Final = frozenset({"SHOWN", "MUCKED"})
_NOTES: Final = frozenset({"RECONNECTED", "DISCONNECTED", "TIME_BANK", "SIT_IN_REQUEST"})


class Merge(XmlRoom):
    name = "merge"
    title = "Merge Gaming"
    hand_tag = "game"
    context_tags = frozenset({"description"})
    hand_start = re.compile(r'[ \t]*<description type=|[ \t]*<game id="\d+-\d+"')
    hand_id_pattern = re.compile(r'<game id="(?P<hand_id>[\d-]+)"')
    resync = re.compile(rb"<game[\s>]")

    def build(self, element: Node, context: dict[str, Node], b: HandBuilder) -> None:
        description = context.get("description")
        if description is None:
            raise HandParseError("no <description> before this game", element.line)
        b.room_hand_id = element.get("id")
        _read_game(element, description, b)
        _read_header(element, b)
        seats = _read_players(element, b)
        reader = _Rounds(seats, b)
        for node in element.findall("round"):
            reader.read(node)
        reader.settle()


def _read_game(element: Node, description: Node, b: HandBuilder) -> None:
    label = description.get("type")
    stakes = description.get("stakes")
    tournament = label.endswith(" Tournament")
    name = label.removesuffix(" Tournament")
    if name in MIXES:
        b.mixed = name
        code = element.get("multigametype") or element.get("gametype")
        named = GAME_CODES.get(code)
        label = f"{label} (gametype {code})" if named is None else f"{label}: {named}"
        name = named or ""
    game = GAMES.get(name)
    found = _STAKES.fullmatch(stakes)
    if game is None or found is None or found["limit"] not in STRUCTURES:
        shown = f"{label} {stakes}".strip()
        modelled = (
            None if game is None else f"{shown} has a betting structure studdraw does not model"
        )
        raise unsupported(shown, description.line, modelled)
    b.game = game
    b.structure = STRUCTURES[found["limit"]]
    if tournament:
        b.currency, b.scale = "CHIPS", 1
    elif element.get("realmoney") == "false":
        b.currency = "PLAY"
    # A tournament of a mix prints the structure alone ("Limit"): the forced bets are then the
    # posts', the bet sizes unstated.
    printed = found["amounts"]
    amounts = [b.money(part, description.line) for part in printed.split("/")] if printed else []
    if b.structure is Structure.FIXED and len(amounts) == 2:
        b.small_bet, b.big_bet = amounts
    elif len(amounts) == 2 and b.structure is Structure.HALF_POT:
        # Half-pot badugi ("($0.50/$0.50)") is dealt with antes and no blinds: the first
        # amount is the ante every player posts, the second the smallest bet.
        b.ante = amounts[0]
        b.small_bet = b.big_bet = amounts[1]
    elif len(amounts) == 3 and game.is_stud:  # ante / bring-in / smallest bet
        b.ante, b.bring_in = amounts[0], amounts[1]
        b.small_bet = b.big_bet = amounts[2]
    elif len(amounts) == 2:  # pot and no limit draw: the blinds
        b.small_blind, b.big_blind = amounts
        b.small_bet = b.big_bet = amounts[1]


def _read_header(element: Node, b: HandBuilder) -> None:
    text = element.get("starttime")
    try:
        year, month, day, hour, minute, second = (int(text[a:b]) for a, b in _TIME_FIELDS)
        local = datetime(year, month, day, hour, minute, second)
    except ValueError:
        raise HandParseError(f"unreadable starttime {text!r}", element.line) from None
    b.started_at = to_utc(local, "ET")  # Merge's server clock: FPDB-3 reads it as ET too
    b.room_time = text
    data = element.get("data").split("|")
    b.table = data[1] if len(data) > 1 else ""
    seats = element.get("seats")
    b.max_seats = seat_number(seats, element.line, "table size") if seats else None
    if b.currency == "CHIPS":
        code = data[2].split("-")[0] if len(data) > 2 else ""
        if not code:
            raise HandParseError("a tournament game without its tournament id", element.line)
        b.tournament = Tournament(code)


def _read_players(element: Node, b: HandBuilder) -> dict[str, str]:
    """Seat number -> name; players not dealt in are seated but sitting out."""
    listed = element.find("players")
    if listed is None:
        raise HandParseError("<game> without <players>", element.line)
    dealer = listed.get("dealer")
    b.button = int(dealer) if dealer.isdigit() and b.game is not None and b.game.is_draw else None
    forced = _forced_bets(element, b) if b.currency == "CHIPS" else {}
    seats: dict[str, str] = {}
    for node in listed.findall("player"):
        name, seat = node.get("nickname"), node.get("seat")
        stack = b.money(node.get("balance") or "0", node.line) + forced.get(seat, 0)
        b.seat(seat_number(seat, node.line), name, stack, sitting_out=node.get("dealtin") != "true")
        seats[seat] = name
    return seats


def _forced_bets(element: Node, b: HandBuilder) -> dict[str, int]:
    """Seat -> the antes, blinds and bring-in it posted. A tournament's `balance` is the stack
    after them (an all-in player puts in that much beyond its ante; FPDB-3 adds them back
    too), so the stack dealt in is the two together."""
    posted: dict[str, int] = {}
    for node in element.findall("round"):
        if node.get("id") not in _FORCED_ROUNDS:
            continue
        for event in node.children:
            if event.tag == "event" and event.get("type") in _FORCED:
                seat = event.get("player")
                posted[seat] = posted.get(seat, 0) + b.money(event.get("amount"), event.line)
    return posted


class _Rounds:
    """Reads `<round>`s in order: deals first (Merge prints a round's cards after its actions),
    then events by `sequence`; winners at the end."""

    def __init__(self, seats: dict[str, str], b: HandBuilder) -> None:
        assert b.game is not None
        self.game = b.game
        self.seats = seats
        self.b = b
        self.known: dict[str, tuple[Card | None, ...]] = {}  # each player's cards so far
        self.after_draw: dict[str, tuple[Card | None, ...]] = {}
        self.street: int | None = None
        self.wins: list[Node] = []

    def name(self, node: Node) -> str:
        seat = node.get("player")
        if seat not in self.seats:
            raise HandParseError(f"no player in seat {seat!r}", node.line)
        return self.seats[seat]

    def read(self, node: Node) -> None:
        round_id = node.get("id")
        rounds = STUD_ROUNDS if self.game.is_stud else DRAW_ROUNDS
        if round_id == "GAME_CANCELLED":
            raise HandParseError(
                "hand cancelled by the room", node.line, Outcome.UNSUPPORTED, str(self.game)
            )
        if round_id in rounds:
            street = rounds[round_id]
            if street != self.street:
                self.b.new_street(street, node.line, round_id)
                self.street = street
        elif round_id not in _END_ROUNDS and round_id != "BLINDS":
            raise HandParseError(f"unknown round {round_id!r}", node.line)
        # The cards a SHOW or MUCK of this round reveals: every list of an end round, and the
        # SHOWN lists of the betting round where an all-in turns the cards up.
        shown: dict[str, Node] = {}
        end = round_id in _END_ROUNDS
        for child in node.children:
            if child.tag != "cards":
                continue
            if end or child.get("type") in _SHOWN:
                shown[self.name(child)] = child
            else:
                self._cards(child, round_id)
        for child in node.children:
            if child.tag == "event":
                self._event(child, shown)
            elif child.tag == "winner":
                self.wins.append(child)
            elif child.tag != "cards":
                raise HandParseError(f"unknown element <{child.tag}> in a round", child.line)

    # --- cards --------------------------------------------------------------------------
    def _parse(self, text: str, line: int) -> tuple[Card | None, ...]:
        try:
            return _cards(text)
        except ValueError as error:
            raise HandParseError(str(error), line) from None

    def _cards(self, node: Node, round_id: str) -> None:
        kind = node.get("type")
        if kind not in ("HOLE", "DRAW_DRAWN_CARDS"):
            raise HandParseError(f"unknown cards type {kind!r}", node.line)
        player = self.name(node)
        cards = self._parse(node.get("cards"), node.line)
        before = self.known.get(player, ())
        if kind == "HOLE":
            self.b.hero = player
        if self.game.is_stud:
            new = cards[len(before) :]
            if new:
                first = len(before)
                up = tuple(2 <= first + i <= 5 for i in range(len(new)))
                self.b.add(EventKind.DEAL, node.line, player, cards=new, up=up)
                self.known[player] = cards
        elif not before:
            self.b.add(EventKind.DEAL, node.line, player, cards=cards, up=(False,) * len(cards))
            self.known[player] = cards
        else:
            self.after_draw[player] = cards  # the hand after this round's draw

    # --- events -------------------------------------------------------------------------
    def _event(self, node: Node, shown: dict[str, Node]) -> None:
        kind, line, b = node.get("type"), node.line, self.b
        if kind == "CHAT":
            b.add(EventKind.CHAT, line, node.get("player"), text=node.get("text"))
            return
        if kind == "GAME_CANCELLED":
            raise HandParseError("hand cancelled by the room", line, Outcome.UNSUPPORTED)
        player = self.name(node)
        amount = b.money(node.get("amount") or "0", line)
        if kind == "ANTE":
            b.add(EventKind.ANTE, line, player, amount=amount)
        elif kind == "SMALL_BLIND":
            b.wager(EventKind.SMALL_BLIND, line, player, amount=amount)
        elif kind == "BIG_BLIND":
            b.wager(EventKind.BIG_BLIND, line, player, amount=amount)
        elif kind == "INITIAL_BLIND":  # a new player's post to play
            b.wager(EventKind.POST, line, player, amount=amount)
        elif kind == "BRING_IN":
            b.wager(EventKind.BRING_IN, line, player, amount=amount)
        elif kind == "FOLD":
            b.add(EventKind.FOLD, line, player)
        elif kind == "CHECK":
            b.add(EventKind.CHECK, line, player)
        elif kind == "CALL":
            b.wager(EventKind.CALL, line, player, amount=amount)
        elif kind in ("BET", "COMPLETE"):
            third = self.game.is_stud and self.street == 0
            b.wager(EventKind.COMPLETE if third else EventKind.BET, line, player, amount=amount)
        elif kind == "RAISE":  # the only amount that is the street total
            b.wager(EventKind.RAISE, line, player, to=amount)
        elif kind == "ALL_IN":
            b.wager(self._all_in_kind(player, amount), line, player, amount=amount, all_in=True)
        elif kind == "DRAW":
            self._draw(node, player)
        elif kind in ("SHOW", "MUCK"):
            self._showdown(kind, node, player, shown)
        elif kind in ("SIT_OUT", "LEAVE", "PLAYER_OUT"):
            b.add(EventKind.SIT_OUT if kind == "SIT_OUT" else EventKind.LEAVE, line, player)
        elif kind in _NOTES:
            b.add(EventKind.NOTE, line, player, text=kind.lower())
        else:
            raise HandParseError(f"unknown event type {kind!r}", line)

    def _all_in_kind(self, player: str, amount: int) -> EventKind:
        """ALL_IN states the chips put in; the amounts tell a call from a bet or a raise."""
        b = self.b
        highest = max(b.contributed.values(), default=0)
        if b.contributed.get(player, 0) + amount <= highest:
            return EventKind.CALL
        if self.game.is_stud and self.street == 0:
            done = any(e.kind is EventKind.COMPLETE for e in b.events if e.street == 0)
            return EventKind.RAISE if done else EventKind.COMPLETE
        return EventKind.BET if highest == 0 else EventKind.RAISE

    def _draw(self, node: Node, player: str) -> None:
        count = card_count(node.get("text") or "0", node.line)
        b, line = self.b, node.line
        if count == 0:
            b.add(EventKind.STAND_PAT, line, player, count=0)
            return
        held, hand = self.known.get(player), self.after_draw.pop(player, None)
        if held is None or hand is None:  # an opponent: only the count is printed
            b.add(EventKind.DISCARD, line, player, count=count)
            return
        thrown = tuple(card for card in held if card not in hand)
        drawn = tuple(card for card in hand if card not in held)
        if len(thrown) != count or len(drawn) != count:
            raise HandParseError(
                f"{player} draws {count}, but the hand changes by {len(drawn)} cards", line
            )
        b.add(EventKind.DISCARD, line, player, count=count, cards=thrown)
        b.add(EventKind.DRAW, line, player, cards=drawn, up=(False,) * len(drawn))
        self.known[player] = hand

    def _showdown(self, kind: str, node: Node, player: str, shown: dict[str, Node]) -> None:
        cards_node = shown.get(player)
        cards = self._parse(cards_node.get("cards"), cards_node.line) if cards_node else ()
        if kind == "SHOW":
            self.b.add(EventKind.SHOW, node.line, player, cards=cards)
        elif cards:
            self.b.add(EventKind.MUCK, node.line, player, cards=cards)
        else:  # a winner nobody called keeps its cards hidden
            self.b.add(EventKind.NOTE, node.line, player, text="does not show")

    def settle(self) -> None:
        b = self.b
        total_win = 0
        # Returns first (the 2014 exports print them after the pot they follow): a bet is
        # returned before the pot is paid.
        wins = sorted(self.wins, key=lambda node: node.get("uncalled") != "true")
        for node in wins:
            player = self.name(node)
            amount = b.money(node.get("amount"), node.line)
            if node.get("uncalled") == "true":
                b.add(EventKind.UNCALLED, node.line, player, amount=amount)
                continue
            number = node.number("potnumber", "1")
            pot = "main" if number <= 1 else f"side{number - 1}"
            half = {"h": ":hi", "l": ":lo"}.get(node.get("pottype"), "")
            b.add(EventKind.COLLECT, node.line, player, amount=amount, pot=pot + half)
            total_win += amount
        put_in = sum(e.amount for e in b.events if e.kind.puts_in)
        returned = sum(e.amount for e in b.events if e.kind is EventKind.UNCALLED)
        b.total_pot = put_in - returned
        if b.currency != "CHIPS" and self.wins:
            b.rake = b.total_pot - total_win


@functools.lru_cache(maxsize=4096)
def _cards(text: str) -> tuple[Card | None, ...]:
    """Merge's comma-separated cards; hidden ones are "null" (2013 exports: empty)."""
    return tuple(None if part in ("", "null") else parse_card(part) for part in text.split(","))
