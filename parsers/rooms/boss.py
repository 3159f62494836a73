"""Boss Media (Opoker and the other skins of the network): the XML export, `<HISTORY>` elements
one after another or inside a `<ROOT>`. The schema is in docs/rooms/boss.md.

Of the network's games (`GAME`: hold'em, Omaha, five-card draw, per its exports and FPDB-3's
reader) five-card draw is in scope and read in full; the others are read as XML (so a malformed
or refused file is still an error with its reason) and counted as unsupported with their game.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Final

from studdraw.parsers.builder import (
    NOT_READ,
    HandBuilder,
    HandParseError,
    card_count,
    seat_number,
    unsupported,
)
from studdraw.parsers.model import RANKS, Card, Claim, EventKind, Game, Structure, Tournament
from studdraw.parsers.xml.room import Node, XmlRoom

GAME_NAMES: Final[dict[str, str]] = {
    "GAME_THM": "Texas Hold'em",
    "GAME_OMA": "Omaha",
    "GAME_OMAHL": "Omaha Hi/Lo",
    "GAME_OMATU": "Omaha",
    "GAME_FCD": "Five Card Draw",
}
"""`<HISTORY GAME>` codes seen in Boss Media exports (FPDB-3 knows the same five)."""

GAMES: Final[dict[str, Game]] = {"GAME_FCD": Game.DRAW5}
STRUCTURES: Final[dict[str, Structure]] = {
    "FL": Structure.FIXED,
    "PL": Structure.POT,
    "NL": Structure.NO,
}
CARD_RANKS: Final = "A" + RANKS[:-1]
"""`<CARD LINK>` n is rank n % 13 (ace first, king last) of suit n // 13, diamonds, clubs, hearts,
spades; "b" is a hidden card (checked on the corpus's named showdown hands)."""
CARD_SUITS: Final = "dchs"
BLINDS: Final[dict[str, EventKind]] = {
    "HAND_SB": EventKind.SMALL_BLIND,
    "HAND_BB": EventKind.BIG_BLIND,
}
BETS: Final[dict[str, EventKind]] = {
    "ACTION_CALL": EventKind.CALL,
    "ACTION_BET": EventKind.BET,
    "ACTION_RAISE": EventKind.RAISE,
}
"""Wagers whose `VALUE` is the player's total on the street (a call "4.00" from the 2.00 big
blind puts in 2.00: the pots of `HAND_BOARD` prove it)."""
_UNCONTESTED: Final = "$(STR_BY_DEFAULT)"
_MUCK: Final = "$(STR_G_MUCK)"
"""`<RESULT HAND>` of a player who won uncontested, or mucked (the cards, when listed, are the
mucked hand)."""


class Boss(XmlRoom):
    name = "boss"
    title = "Boss Media"
    hand_tag = "HISTORY"
    hand_start = re.compile(r'[ \t]*<HISTORY ID="\d+" SESSION=')
    hand_id_pattern = re.compile(r'<HISTORY ID="(?P<hand_id>\d+)"')
    resync = re.compile(rb"<HISTORY[\s>]")

    def build(self, element: Node, context: dict[str, Node], b: HandBuilder) -> None:
        b.room_hand_id = element.get("ID")
        _read_game(element, b)
        _read_players(element, b)
        actions = element.findall("ACTION")
        # Blinds are listed in no fixed order: the small blind posts first.
        blinds = sorted(
            (node for node in actions if node.get("TYPE") == "HAND_BLINDS"),
            key=lambda node: node.get("KIND") != "HAND_SB",
        )
        reader = _Actions(b)
        for node in blinds:
            reader.blind(node)
        b.new_street(0, element.line, "deal")
        for node in actions:
            if node.get("TYPE") != "HAND_BLINDS":
                reader.action(node)
        showdown = element.find("SHOWDOWN")
        if showdown is None:
            raise HandParseError("a hand without its <SHOWDOWN>", element.line)
        reader.settle(showdown)
        _claim_hero_net(element, b)


def _claim_hero_net(element: Node, b: HandBuilder) -> None:
    """`<HISTORY WIN LOSS>` are the hero's net result (what the export's owner won or lost on
    the hand, after the rake): held against the collects (`Claim`)."""
    won, lost = element.get("WIN"), element.get("LOSS")
    if b.hero is None or not (won or lost):
        return
    line = element.line
    net = b.money(won or "0", line) - b.money(lost or "0", line)
    b.claims.append(Claim(line, net, b.hero, net=True))


def _read_game(element: Node, b: HandBuilder) -> None:
    code, limit, stakes = element.get("GAME"), element.get("LIMIT"), element.get("STAKES")
    label = " ".join(part for part in (code, limit, stakes) if part)
    game = GAMES.get(code)
    if game is None or limit not in STRUCTURES:
        name = GAME_NAMES.get(code, "an unknown Boss Media game")
        reason = (
            f"{label}: {name} {NOT_READ}"
            if game is None
            else f"{label}: the betting structure {limit!r} is unknown"
        )
        raise unsupported(label, element.line, reason)
    b.game, b.structure = game, STRUCTURES[limit]
    b.table = element.get("TABLE")
    if element.get("GAMEKIND") == "GAMEKIND_TOURNAMENT":
        b.currency, b.scale = "CHIPS", 1
        b.tournament = Tournament(element.get("TABLETOURNEYID") or element.get("SESSION"))
    else:
        b.currency = element.get("TABLECURRENCY") or "EUR"
    small, _, big = stakes.partition("/")
    low, high = b.money(small, element.line), b.money(big, element.line)
    if b.structure is Structure.FIXED:  # "2.00/4.00": the bets; the blinds are half of each
        b.small_bet, b.big_bet = low, high
        b.small_blind, b.big_blind = low // 2, low
    else:  # "0.50/1.00": the blinds
        b.small_blind, b.big_blind = low, high
        b.small_bet = b.big_bet = high
    stamp = element.get("DATE")
    if not stamp.isdigit() or len(stamp) > 11:  # Unix time, in seconds
        raise HandParseError(f"unreadable DATE {stamp[:20]!r}", element.line)
    b.started_at = datetime.fromtimestamp(int(stamp), UTC)
    b.room_time = stamp


def _read_players(element: Node, b: HandBuilder) -> None:
    """Every seat of the table is listed; empty ones as `STATE_EMPTY`."""
    players = element.findall("PLAYER")
    b.max_seats = len(players) or None
    for node in players:
        state = node.get("STATE")
        if state == "STATE_EMPTY":
            continue
        if state not in ("STATE_PLAYING", "STATE_SITOUT"):
            raise HandParseError(f"unknown player state {state!r}", node.line)
        seat = seat_number(node.get("SEAT"), node.line)
        stack = b.money(node.get("AMOUNT"), node.line)
        b.seat(seat, node.get("NAME"), stack, sitting_out=state == "STATE_SITOUT")
        if node.get("DEALER") == "Y":
            b.button = seat


def card(link: str, line: int) -> Card | None:
    if link == "b":
        return None
    if not link.isdigit() or int(link) > 51:
        raise HandParseError(f"unknown card {link!r}", line)
    number = int(link)
    return CARD_RANKS[number % 13] + CARD_SUITS[number // 13]


def cards(node: Node) -> tuple[Card | None, ...]:
    return tuple(card(child.get("LINK"), child.line) for child in node.findall("CARD"))


class _Actions:
    """Reads the `<ACTION>`s in order: blinds, deals, bets, the draw; then the showdown."""

    def __init__(self, b: HandBuilder) -> None:
        self.b = b
        self.held: dict[str, tuple[Card | None, ...]] = {}

    def blind(self, node: Node) -> None:
        kind = BLINDS.get(node.get("KIND"))
        if kind is None:
            raise HandParseError(f"unknown blind {node.get('KIND')!r}", node.line)
        self.b.wager(
            kind, node.line, node.get("PLAYER"), amount=self.b.money(node.get("VALUE"), node.line)
        )

    def action(self, node: Node) -> None:
        b, kind, line, player = self.b, node.get("TYPE"), node.line, node.get("PLAYER")
        if kind == "HAND_DEAL":
            dealt = cards(node)
            if any(dealt):
                b.hero = player
            self.held[player] = dealt
            b.add(EventKind.DEAL, line, player, cards=dealt, up=(False,) * len(dealt))
        elif kind == "HAND_ANTE":
            b.add(EventKind.ANTE, line, player, amount=b.money(node.get("VALUE"), line))
        elif kind == "HAND_BOARD":  # the draw: the pot so far, then the players' draws
            b.new_street(b.street + 1, line, "draw")
        elif kind == "ACTION_FOLD":
            b.add(EventKind.FOLD, line, player)
        elif kind == "ACTION_CHECK":
            b.add(EventKind.CHECK, line, player)
        elif kind in BETS or kind == "ACTION_ALLIN":
            to = b.money(node.get("VALUE"), line)
            wager = BETS.get(kind) or self._all_in_kind(to)
            b.wager(wager, line, player, to=to, all_in=kind == "ACTION_ALLIN")
        elif kind == "CHANGECARD":
            self._draw(node, player)
        else:
            raise HandParseError(f"unknown action {kind!r}", line)

    def _all_in_kind(self, to: int) -> EventKind:
        highest = max(self.b.contributed.values(), default=0)
        if to <= highest:
            return EventKind.CALL
        return EventKind.BET if highest == 0 or self.b.street > 0 else EventKind.RAISE

    def _draw(self, node: Node, player: str) -> None:
        """`COUNT` cards exchanged; the `<CARD>`s are the hand after the draw, in place."""
        b, line = self.b, node.line
        count = card_count(node.get("COUNT") or "0", line)
        if count == 0:
            b.add(EventKind.STAND_PAT, line, player, count=0)
            return
        before, after = self.held.get(player, ()), cards(node)
        if all(before) and all(after) and len(before) == len(after):
            thrown = tuple(c for c in before if c not in after)
            drawn = tuple(c for c in after if c not in before)
            if len(thrown) != count or len(drawn) != count:
                raise HandParseError(
                    f"{player} draws {count}, but the hand changes by {len(drawn)} cards", line
                )
            b.add(EventKind.DISCARD, line, player, count=count, cards=thrown)
            b.add(EventKind.DRAW, line, player, cards=drawn, up=(False,) * count, count=count)
            self.held[player] = after
            return
        b.add(EventKind.DISCARD, line, player, count=count)
        b.add(EventKind.DRAW, line, player, cards=(None,) * count, up=(False,) * count, count=count)

    def claim_main_pot(self, showdown: Node) -> None:
        """`MAINPOT` is the main pot after the rake, what its winners' `WIN`s add up to: the
        showdown's word on the split, held against the collects (`Claim`). Where `LEFTPOT` or
        `RIGHTPOT` holds an amount (no file seen prints one), the split is not read."""
        main = showdown.get("MAINPOT")
        if main and not (showdown.get("LEFTPOT") or showdown.get("RIGHTPOT")):
            b = self.b
            b.claims.append(Claim(showdown.line, b.money(main, showdown.line), pot="main"))

    def settle(self, showdown: Node) -> None:
        """The room returns an uncalled bet without a word; `POT` is what is left after the
        rake, each `<RESULT WIN>` a player's share, with the cards of a hand shown."""
        b, line = self.b, showdown.line
        put_in: dict[str, int] = {}
        for event in b.events:
            if event.player is not None and event.kind.puts_in:
                put_in[event.player] = put_in.get(event.player, 0) + event.amount
        ranked = sorted(put_in.items(), key=lambda item: item[1], reverse=True)
        if len(ranked) > 1 and ranked[0][1] > ranked[1][1]:
            b.add(EventKind.UNCALLED, line, ranked[0][0], amount=ranked[0][1] - ranked[1][1])
        results = showdown.findall("RESULT")
        for node in results:
            shown, hand = cards(node), node.get("HAND")
            if shown and hand == _MUCK:
                b.add(EventKind.MUCK, node.line, node.get("PLAYER"), cards=shown)
            elif shown and hand != _UNCONTESTED:
                b.add(EventKind.SHOW, node.line, node.get("PLAYER"), cards=shown)
        for node in results:
            amount = b.money(node.get("WIN") or "0", node.line)
            if amount:
                b.add(EventKind.COLLECT, node.line, node.get("PLAYER"), amount=amount, pot="main")
        self.claim_main_pot(showdown)
        returned = sum(e.amount for e in b.events if e.kind is EventKind.UNCALLED)
        b.total_pot = sum(put_in.values()) - returned
        if b.currency != "CHIPS":
            b.rake = b.money(showdown.get("RAKE") or "0", line)
