"""iPoker: the network's XML export (`<session>` with a `<general>` header, then `<game>` after
`<game>`, several of them possibly on one line), cash and tournaments. The schema, field by
field, is in docs/rooms/ipoker.md.

Each hand text is the `<game>` element followed by its session's `<general>`: the game name,
stakes, currency, table, hero and tournament live only there.
"""

from __future__ import annotations

import functools
import re
from datetime import UTC, datetime
from typing import Final

from studdraw.parsers.builder import (
    HandBuilder,
    HandParseError,
    parse_amount,
    parse_card,
    seat_number,
    stud_faces,
    unsupported,
)
from studdraw.parsers.model import (
    STUD_DEALS,
    Card,
    EventKind,
    Game,
    Seat,
    Structure,
    Tournament,
    stud_street,
)
from studdraw.parsers.xml.room import Node, XmlRoom

GAMES: Final[dict[str, Game]] = {
    "7 Card Stud": Game.STUD,
    "7 Card Stud Hi-Lo": Game.STUD8,
    "7 Card Stud HiLow": Game.STUD8,
    "5 Card Stud": Game.STUD5,
}
"""The games in scope, by the name `<gametype>` starts with; any other game is unsupported. A
game's first name is the one its renderer writes (parsers/render/ipoker.py)."""

STRUCTURES: Final[dict[str, Structure]] = {
    "L": Structure.FIXED,
    "LZ": Structure.FIXED,
    "Limit": Structure.FIXED,
    "PL": Structure.POT,
    "LP": Structure.POT,
    "Pot limit": Structure.POT,
    "NL": Structure.NO,
    "SL": Structure.NO,
    "No limit": Structure.NO,
}

_GAMETYPE: Final = re.compile(
    r"(?P<game>.+?) (?P<limit>L|LZ|PL|LP|NL|SL|Limit|Pot limit|No limit)"
    r"(?: (?P<small>[^\s/]+)/(?P<big>[^\s/]+))?(?: Ante (?P<ante>\S+))?"
)
_TOURNAMENT_TABLE: Final = re.compile(r".*, (?P<tournament>\d+), \d+")
_BUY_IN: Final = re.compile(r"(?P<buy_in>[^+]+)\+(?P<fee>.+)")

STUD_ROUNDS: Final[dict[str, int]] = {
    "Second Street": 2,
    "Third Street": 3,
    "Fourth Street": 4,
    "Fifth Street": 5,
    "Sixth Street": 6,
}
"""`<cards type=...>` of stud by the street's number (its cards held); "River" is the game's last
street. The betting round is `model.stud_street` of it (`<round no>` is 2 more)."""

FOLD, SMALL_BLIND, BIG_BLIND, CALL, CHECK, BET, RAISE_BY, ALL_IN = 0, 1, 2, 3, 4, 5, 6, 7
NO_ACTION, SITTING_OUT, ANTE, BRING_IN, RAISE_TO = 8, 9, 15, 16, 23
_WAGERS: Final = frozenset({CALL, BET, ALL_IN})
_PASSIVE: Final = frozenset({NO_ACTION, SITTING_OUT})


class IPoker(XmlRoom):
    name = "ipoker"
    title = "iPoker"
    hand_tag = "game"
    context_tags = frozenset({"general"})
    context_fields = frozenset(
        {"gametype", "tablename", "currency", "nickname", "tournamentname", "tournamentcode"}
        | {"buyin"}
    )
    hand_start = re.compile(r'<session sessioncode="|<game gamecode="')
    hand_id_pattern = re.compile(r'<game gamecode="(?P<hand_id>\d+)"')
    resync = re.compile(rb"<game[\s>]")

    def build(self, element: Node, context: dict[str, Node], b: HandBuilder) -> None:
        session = context.get("general")
        if session is None:
            raise HandParseError("no session <general> for this game", element.line)
        b.room_hand_id = element.get("gamecode")
        label = session.child_text("gametype") or ""
        _read_game(label, session, b)
        header = element.find("general")
        if header is None:
            raise HandParseError("<game> without its <general>", element.line)
        _read_time(header, b)
        b.table = session.child_text("tablename") or ""
        b.hero = session.child_text("nickname") or None
        _read_tournament(session, b)
        players = _read_players(header, b)
        _read_rounds(element, b)
        _mark_absent(players, b)
        _settle(players, b)


def _read_game(label: str, session: Node, b: HandBuilder) -> None:
    found = _GAMETYPE.fullmatch(label.strip())
    game = GAMES.get(found["game"]) if found else None
    if found is None or game is None:
        raise unsupported(label, session.line)
    b.game = game
    b.structure = STRUCTURES[found["limit"]]
    if any(session.find(tag) is not None for tag in ("tournamentname", "tournamentcode")):
        b.currency, b.scale = "CHIPS", 1
    else:
        b.currency = session.child_text("currency") or "USD"
    if found["small"] and found["big"]:
        b.small_bet = _money(b, found["small"], session.line)
        b.big_bet = _money(b, found["big"], session.line)
    if found["ante"]:
        b.ante = _money(b, found["ante"], session.line)


def _read_time(header: Node, b: HandBuilder) -> None:
    text = header.child_text("startdate") or ""
    try:
        local = datetime.fromisoformat(text)
    except ValueError:
        raise HandParseError(f"unreadable <startdate> {text!r}", header.line) from None
    b.started_at = local.replace(tzinfo=UTC)  # iPoker writes its server time, in UTC
    b.room_time = text


def _read_tournament(session: Node, b: HandBuilder) -> None:
    if b.currency != "CHIPS":
        return
    table = _TOURNAMENT_TABLE.fullmatch(b.table)
    code = session.child_text("tournamentcode") or (table["tournament"] if table else None)
    if code is None:
        raise HandParseError("a tournament without a tournament code", session.line)
    buy_in = fee = None
    found = _BUY_IN.fullmatch(session.child_text("buyin") or "")
    currency = session.child_text("currency")
    if found:
        try:
            buy_in, fee = _amount(found["buy_in"], 100), _amount(found["fee"], 100)
        except ValueError as error:
            raise HandParseError(str(error), session.line) from None
    b.tournament = Tournament(code, buy_in, fee, currency)


def _read_players(header: Node, b: HandBuilder) -> dict[str, Node]:
    players: dict[str, Node] = {}
    listed = header.find("players")
    if listed is None:
        raise HandParseError("<game> without <players>", header.line)
    for node in listed.children:
        name = node.get("name")
        if not name:  # an empty seat: the export lists the whole table
            b.max_seats = len(listed.children)
            continue
        players[name] = node
        b.seat(
            seat_number(node.get("seat"), node.line), name, _money(b, node.get("chips"), node.line)
        )
    return players


def _mark_absent(players: dict[str, Node], b: HandBuilder) -> None:
    """A listed player without an ante, a card or an action sat the hand out."""
    present = {event.player for event in b.events}
    for index, seat in enumerate(b.seats):
        if seat.player not in present:
            b.seats[index] = Seat(seat.seat, seat.player, seat.stack, sitting_out=True)


def _read_rounds(element: Node, b: HandBuilder) -> None:
    for round_node in element.findall("round"):
        number = round_node.number("no")
        street = number - 2
        if street >= 0:
            assert b.game is not None
            b.new_street(street, round_node.line, f"round {number}")
        actions: list[Node] = []
        for node in round_node.children:
            if node.tag == "cards":
                _deal(node, street, b)
            elif node.tag == "action":
                actions.append(node)
            else:
                raise HandParseError(f"unknown element <{node.tag}> in a round", node.line)
        for node in sorted(actions, key=lambda action: action.number("no")):
            _act(node, street, b)


_DECIMAL_COMMA: Final = re.compile(r".*\d,\d{2}\D*")
"""Amounts like "€0,10" or "1.234,50": a comma before the last two digits is the decimal mark
("1,440" chips and "$1,234.50" keep the comma as the thousands separator)."""


def _amount(text: str, scale: int) -> int:
    mark = "," if _DECIMAL_COMMA.fullmatch(text) else "."
    return parse_amount(text, scale, mark)


def _money(b: HandBuilder, text: str, line: int) -> int:
    try:
        return _amount(text, b.scale)
    except ValueError as error:
        raise HandParseError(str(error), line) from None


@functools.lru_cache(maxsize=4096)
def _cards(text: str) -> tuple[Card | None, ...]:
    return tuple(parse_card(_card(part)) for part in text.split())


def _card(text: str) -> str:
    """iPoker prints the suit first ("H8", "D10", "X" when hidden)."""
    return text if text.upper() == "X" else text[1:] + text[0]


def _deal(node: Node, street: int, b: HandBuilder) -> None:
    kind, game = node.get("type"), b.game
    assert game is not None
    number = STUD_ROUNDS.get(kind)
    last = len(STUD_DEALS[game]) - 1
    expected = last if kind == "River" else None if number is None else stud_street(game, number)
    if expected != street:
        raise HandParseError(f"cards {kind!r} in round {street + 2}", node.line)
    try:
        cards = _cards(node.text)
    except ValueError as error:
        raise HandParseError(str(error), node.line) from None
    up = stud_faces(game, street, len(cards), node.line)
    b.add(EventKind.DEAL, node.line, node.get("player"), cards=cards, up=up)


def _act(node: Node, street: int, b: HandBuilder) -> None:
    player, line = node.get("player"), node.line
    kind = node.number("type")
    amount = _money(b, node.get("sum") or "0", line)
    if kind == ANTE:
        b.add(EventKind.ANTE, line, player, amount=amount)
    elif kind == BRING_IN:
        b.wager(EventKind.BRING_IN, line, player, amount=amount)
    elif kind == FOLD:
        b.add(EventKind.FOLD, line, player)
    elif kind == CHECK:
        b.add(EventKind.CHECK, line, player)
    elif kind == SMALL_BLIND:
        b.wager(EventKind.SMALL_BLIND, line, player, amount=amount)
    elif kind == BIG_BLIND:
        b.wager(EventKind.BIG_BLIND, line, player, amount=amount)
    elif kind == RAISE_TO:  # the only type whose `sum` is the street total, not chips put in
        event = _wager_kind(kind, player, amount - b.contributed.get(player, 0), street, b)
        b.wager(event, line, player, to=amount)
    elif kind == RAISE_BY:  # `sum` is the raise over the bet faced (FPDB-3 reads it so too)
        to = max(b.contributed.values(), default=0) + amount
        b.wager(EventKind.RAISE, line, player, to=to)
    elif kind in _WAGERS:
        event = _wager_kind(kind, player, amount, street, b)
        b.wager(event, line, player, amount=amount, all_in=kind == ALL_IN)
    elif kind in _PASSIVE:
        b.add(EventKind.SIT_OUT if kind == SITTING_OUT else EventKind.NOTE, line, player)
    else:
        raise HandParseError(f"unknown action type {kind}", line)


def _wager_kind(kind: int, player: str, amount: int, street: int, b: HandBuilder) -> EventKind:
    """The event of a wager of `amount` chips. iPoker's types tell
    neither a completion from a bet nor an all-in call from an all-in raise: the amounts do."""
    highest = max(b.contributed.values(), default=0)
    total = b.contributed.get(player, 0) + amount
    if kind == CALL or (kind == ALL_IN and total <= highest):
        return EventKind.CALL
    if street == 0 and not any(e.kind is EventKind.COMPLETE for e in b.events if e.street == 0):
        return EventKind.COMPLETE
    return EventKind.BET if highest == 0 else EventKind.RAISE


def _stakes(b: HandBuilder) -> None:
    """Tournament `<gametype>`s print no stakes: read them from the hand's own bets."""
    if b.small_bet:
        return
    for event in b.events:
        if event.kind is EventKind.COMPLETE and event.to is not None and not event.all_in:
            b.small_bet, b.big_bet = event.to, 2 * event.to
            return
    for event in b.events:
        if event.kind is EventKind.BET and event.street >= 2 and not event.all_in:
            b.small_bet, b.big_bet = event.amount // 2, event.amount
            return
    b.notes.append("stakes not printed and no full bet in the hand: bet sizes unknown")


def _settle(players: dict[str, Node], b: HandBuilder) -> None:
    """Money out. Each `<player>` states its `win`, which includes its own uncalled bet (iPoker
    prints no return). Hands reaching the end with all their cards known were shown."""
    _stakes(b)
    put_in: dict[str, int] = {}
    for event in b.events:
        if event.player is not None and event.kind.puts_in:
            put_in[event.player] = put_in.get(event.player, 0) + event.amount
    folded = {e.player for e in b.events if e.kind is EventKind.FOLD}
    live = [name for name in players if name not in folded and name in put_in]
    if len(live) > 1:
        for name in live:
            cards = _known_cards(name, b)
            if cards is not None:
                b.add(EventKind.SHOW, players[name].line, name, cards=cards)
    wins: dict[str, int] = {}
    for name, node in players.items():
        _check_bet(node, put_in.get(name, 0), b)
        wins[name] = _money(b, node.get("win") or "0", node.line)
    stacks = {seat.player: seat.stack for seat in b.seats}
    all_in = {name for name in live if put_in[name] >= stacks.get(name, 0)}
    for name, pot, amount in split_wins(put_in, live, all_in, wins):
        b.add(EventKind.COLLECT, players[name].line, name, amount=amount, pot=pot)
    total_win = sum(wins.values())
    b.total_pot = sum(put_in.values())
    if b.currency != "CHIPS":
        b.rake = b.total_pot - total_win


def _check_bet(node: Node, put_in: int, b: HandBuilder) -> None:
    """`<player bet>` is all the player put in, uncalled chips included; when the player raised
    with type 23, iPoker counts the ante twice in it (an export defect, noted, never trusted)."""
    bet = _money(b, node.get("bet") or "0", node.line)
    if bet == put_in:
        return
    name = node.get("name")
    ante = sum(e.amount for e in b.events if e.kind is EventKind.ANTE and e.player == name)
    if ante and bet == put_in + ante:
        b.notes.append(f"{name}: <player bet> counts the ante twice (export defect)")
        return
    raise HandParseError(f"{name}'s bet {bet} is not the {put_in} put in", node.line)


def _known_cards(player: str, b: HandBuilder) -> tuple[Card, ...] | None:
    cards: list[Card] = []
    for event in b.events:
        if event.kind is EventKind.DEAL and event.player == player:
            for card in event.cards:
                if card is None:
                    return None
                cards.append(card)
    return tuple(cards) or None


def split_wins(
    put_in: dict[str, int], live: list[str], all_in: set[str], wins: dict[str, int]
) -> list[tuple[str, str, int]]:
    """(player, pot, amount) for each player's total `win`, spread over the main and side pots.

    iPoker prints one win per player and leaves the pots to the reader: every all-in of a player
    still in closes a pot at its level (chips a short all-in could not match make a pot of their
    own, paid back inside the win), and each winner, smallest contribution first, takes from
    the pots it is eligible for, in order.
    """
    top = max(put_in.values(), default=0)
    levels = sorted({put_in[name] for name in all_in} | {top})
    pots: list[tuple[int, set[str]]] = []
    previous = 0
    for level in levels:
        amount = sum(min(paid, level) - min(paid, previous) for paid in put_in.values())
        eligible = {name for name in live if put_in[name] >= level or name not in all_in}
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        elif amount:
            pots.append((amount, eligible))
        previous = level
    left = [amount for amount, _ in pots]
    shares: list[tuple[str, str, int]] = []
    for name in sorted((n for n in wins if wins[n]), key=lambda n: put_in.get(n, 0)):
        remaining = wins[name]
        for index, (_, eligible) in enumerate(pots):
            take = min(remaining, left[index]) if name in eligible else 0
            if take:
                shares.append((name, _pot_name(index), take))
                left[index] -= take
                remaining -= take
        if remaining:  # more than the pots hold: reported by the rules engine on the last pot
            shares.append((name, _pot_name(max(len(pots) - 1, 0)), remaining))
    return shares


def _pot_name(position: int) -> str:
    return "main" if position == 0 else f"side{position}"
