"""Write a HandRecord as an iPoker XML session holding its one `<game>`.

The inverse of `parsers/rooms/ipoker.py` (docs/rooms/ipoker.md): the session `<general>`
carries the game, stakes, currency, table and hero; the `<game>` its players (stack, total bet
and win), the antes, each street's cards and the actions numbered in order. As in a real export,
only the hero's and the shown hands' down cards are printed by default; an uncalled bet is paid back
inside the bettor's `win`, since iPoker prints no return.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from studdraw.parsers.model import STUD_DEALS, Card, Event, EventKind, Game, HandRecord, Structure
from studdraw.parsers.render.base import CURRENCY_SYMBOLS, first_labels, format_money
from studdraw.parsers.rooms.ipoker import GAMES, STUD_ROUNDS

GAME_NAMES = first_labels(GAMES)
LIMITS = {Structure.FIXED: "L", Structure.POT: "PL", Structure.NO: "NL"}
STREETS = {number: name for name, number in STUD_ROUNDS.items()}
"""The `<cards type>` of a stud street by its number; the last street's is "River"."""
TYPES = {
    EventKind.ANTE: 15,
    EventKind.BRING_IN: 16,
    EventKind.FOLD: 0,
    EventKind.CHECK: 4,
    EventKind.CALL: 3,
    EventKind.BET: 5,
    EventKind.COMPLETE: 5,
    EventKind.RAISE: 23,
}
ALL_IN = 7


def ipoker_can_render(record: HandRecord) -> bool:
    """Whether the format can express the hand: no iPoker export shows a community card, and
    one win per player cannot tell which hi/lo half of which side pot a player won (a reader
    spreads it over the pots in order, which is only right for a single pot or no split); and
    only the games and structures iPoker names."""
    if record.game not in GAME_NAMES or record.structure not in LIMITS:
        return False
    if any(event.kind is EventKind.COMMUNITY for event in record.events):
        return False
    pots = {e.pot.split(":")[0] for e in record.events if e.kind is EventKind.COLLECT and e.pot}
    return record.game is not Game.STUD8 or len(pots) <= 1


def render_ipoker(
    record: HandRecord, hero: str | None = None, *, reveal: set[str] | None = None
) -> str:
    """The hand as an iPoker session document; raises ValueError for what iPoker never dealt.

    Down cards are printed for `reveal` (default: the hero and the players who show, as in a
    real export of the hero's history); a record read from a real export passes every player,
    since it only knows the cards that export revealed (iPoker also shows some folded hands).
    """
    if record.game not in GAME_NAMES or record.structure not in LIMITS:
        raise ValueError(f"iPoker deals no {record.structure} {record.game}")
    hero = hero or record.hero
    money = _money(record)
    if reveal is None:
        reveal = {e.player for e in record.events if e.kind is EventKind.SHOW and e.player}
        reveal |= {hero} if hero else set()
    visible: set[str | None] = set(reveal)
    lines = ['<?xml version="1.0" encoding="utf-8"?>', '<session sessioncode="1">']
    lines += _session_general(record, hero)
    lines.append(f"<game gamecode={quoteattr(record.room_hand_id)}>")
    lines += _players(record, money)
    lines += _rounds(record, money, visible)
    lines += ["</game>", "</session>"]
    return "\n".join(lines)


def _money(record: HandRecord) -> dict[str, str]:
    """The currency symbol per record; chips are plain numbers."""
    return {"symbol": "" if record.scale == 1 else CURRENCY_SYMBOLS.get(record.currency, "")}


def _amount(record: HandRecord, amount: int, money: dict[str, str]) -> str:
    return format_money(amount, record.scale, money["symbol"])


def _session_general(record: HandRecord, hero: str | None) -> list[str]:
    label = f"{GAME_NAMES[record.game]} {LIMITS[record.structure]}"
    tournament = record.tournament
    money = _money(record)
    if tournament is None:
        small = _amount(record, record.stakes.small_bet, money)
        big = _amount(record, record.stakes.big_bet, money)
        label += f" {small}/{big}"
    lines = [
        "<general>",
        "<mode>real</mode>",
        f"<gametype>{escape(label)}</gametype>",
        f"<tablename>{escape(record.table)}</tablename>",
        f"<currency>{escape(tournament.currency or 'USD') if tournament else record.currency}"
        "</currency>",
    ]
    if hero:
        lines.append(f"<nickname>{escape(hero)}</nickname>")
    if tournament is not None:
        lines.append(f"<tournamentname>{escape(record.table)}</tournamentname>")
        lines.append(f"<tournamentcode>{escape(tournament.tournament_id)}</tournamentcode>")
        if tournament.buy_in is not None and tournament.fee is not None:
            symbol = CURRENCY_SYMBOLS.get(tournament.currency or "", "")
            buy_in = format_money(tournament.buy_in, 100, symbol)
            fee = format_money(tournament.fee, 100, symbol)
            lines.append(f"<buyin>{buy_in}+{fee}</buyin>")
    lines.append("</general>")
    return lines


def _players(record: HandRecord, money: dict[str, str]) -> list[str]:
    bets: dict[str, int] = {}
    wins: dict[str, int] = {}
    for event in record.events:
        if event.player is None:
            continue
        if event.kind.is_forced or event.kind.is_betting:
            bets[event.player] = bets.get(event.player, 0) + event.amount
        elif event.kind in (EventKind.COLLECT, EventKind.UNCALLED):
            wins[event.player] = wins.get(event.player, 0) + event.amount
    by_seat = {seat.seat: seat for seat in record.seats}
    seat_numbers = range(1, (record.max_seats or 0) + 1) if record.max_seats else sorted(by_seat)
    start = record.started_at.strftime("%Y-%m-%d %H:%M:%S")
    lines = ["<general>", f"<startdate>{start}</startdate>", "<players>"]
    for number in seat_numbers:
        seat = by_seat.get(number)
        name = seat.player if seat else ""
        chips = _amount(record, seat.stack if seat else 0, money)
        win = _amount(record, wins.get(name, 0), money)
        bet = _amount(record, bets.get(name, 0), money)
        lines.append(
            f"<player seat={quoteattr(str(number))} name={quoteattr(name)} "
            f'chips={quoteattr(chips)} dealer="0" win={quoteattr(win)} bet={quoteattr(bet)}/>'
        )
    lines += ["</players>", "</general>"]
    return lines


def _street_type(game: Game, street: int) -> str:
    if street == len(STUD_DEALS[game]) - 1:
        return "River"
    return STREETS[len(STUD_DEALS[game][0]) + street]


def _rounds(record: HandRecord, money: dict[str, str], visible: set[str | None]) -> list[str]:
    """Round 0 the antes, round 1 empty (iPoker's pocket round), rounds 2-6 the streets."""
    rounds: dict[int, list[str]] = {0: [], 1: []}
    cards: dict[int, list[str]] = {}
    number = 0
    for event in record.events:
        if event.kind is EventKind.STREET:
            rounds.setdefault(event.street + 2, [])
        elif event.kind is EventKind.DEAL and event.player is not None:
            text = " ".join(_card(c, up or event.player in visible) for c, up in _dealt(event))
            cards.setdefault(event.street + 2, []).append(
                f"<cards type={quoteattr(_street_type(record.game, event.street))} "
                f"player={quoteattr(event.player)}>{text}</cards>"
            )
        elif event.kind in TYPES and event.player is not None:
            number += 1
            kind = TYPES[event.kind]
            amount = event.to if kind == 23 else event.amount
            if event.all_in and event.kind in (
                EventKind.CALL,
                EventKind.BET,
                EventKind.COMPLETE,
                EventKind.RAISE,
            ):
                kind, amount = ALL_IN, event.amount
            where = 0 if event.kind is EventKind.ANTE else event.street + 2
            rounds.setdefault(where, []).append(
                f"<action no={quoteattr(str(number))} player={quoteattr(event.player)} "
                f'type="{kind}" sum={quoteattr(_amount(record, amount or 0, money))}/>'
            )
    lines: list[str] = []
    for no in sorted(rounds):
        lines.append(f'<round no="{no}">')
        lines += cards.get(no, []) + rounds[no]
        lines.append("</round>")
    return lines


def _dealt(event: Event) -> list[tuple[Card | None, bool]]:
    ups = event.up or (False,) * len(event.cards)
    return list(zip(event.cards, ups, strict=True))


def _card(card: Card | None, shown: bool) -> str:
    """iPoker writes the suit first ("H8", "D10"), and "X" for a card it does not show."""
    if card is None or not shown:
        return "X"
    rank = "10" if card[0] == "T" else card[0]
    return card[1].upper() + rank
