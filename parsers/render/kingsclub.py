"""Write a HandRecord as a KingsClub hand history ("#40201390: Limit Badacey - 22/44").

The inverse of `studdraw.parsers.rooms.kingsclub`, in the room's own habits: no currency (cash
is USD), the time without a zone (Eastern), stud's 3rd street unmarked (each marker then names
the street before the one it opens), the draw games' "*** 1ST BETTING ROUND ***" before the
forced bets, calls as the street total, opponents' down cards and draws hidden, a summary of each
player's stack after the hand and net. The room prints no uncalled bet; its reader infers the
returns, so none is written here either (the summary's nets carry them).

KingsClub alone deals 2-7 razz, A-5 single draw, badacey, badeucey and drawmaha in the corpus:
this is the format the synthesiser writes them in. Drawmaha prints no "1ST BETTING ROUND": its
board's lines are its markers ("*** TURN *** [6h Qd 2h] [3d]"), the draw printed before the
turn's.

Posts out of turn are written as the reader reads them back: a `post` followed by the dead small
blind the reader adds for it is "posts blind 44" (a returning player's live big blind, its dead
half unprinted), any other `post` "posts straddle 44"; a draw game's missed small blind, dead,
gets no line (the summary's net is short by it, which the reader infers). A hand the format
cannot hold is written in PokerStars' format or dealt again (`kingsclub_can_render`): a
reshuffle or a stud community card, which the room's exports never show, a player sitting out,
a currency other than dollars, and a `dead` post neither of those lines gives back (`dead_held`).
"""

from __future__ import annotations

from dataclasses import replace

from studdraw.parsers.model import Event, EventKind, HandRecord, Structure
from studdraw.parsers.render.base import EASTERN, first_labels, format_cards, player_facts
from studdraw.parsers.rooms.kingsclub import (
    BLINDS,
    BOARD_GAMES,
    BOARD_STREETS,
    DRAW_STREETS,
    FIRST_ROUND,
    GAMES,
    STRUCTURES,
)

GAME_LABELS = first_labels(GAMES)
"""The room's first label of each game it deals (drawmaha is "2-7 Drawmaha", not FPDB's
"Captain")."""
BOARD_MARKERS = {index: name for name, (index, _) in BOARD_STREETS.items()}
LIMIT_LABELS = first_labels(STRUCTURES)  # "Limit", as the corpus prints it (FPDB: "Fixed Limit")
STUD_MARKERS = ("3RD STREET", "4TH STREET", "5TH STREET", "6TH STREET")
"""The marker before stud's 4th to 7th street (3rd street comes unmarked)."""
DRAW_MARKERS = {index: name for name, index in DRAW_STREETS.items()}
ROUNDS = ("2ND", "3RD", "4TH")
_NOT_PRINTED = frozenset(
    {
        EventKind.STREET,
        EventKind.UNCALLED,
        EventKind.CAPPED,
        EventKind.OPEN_PAIR,
        EventKind.NOTE,
        EventKind.CHAT,
    }
)
_UNRENDERABLE = frozenset({EventKind.RESHUFFLE, EventKind.COMMUNITY})
_DEAD_MONEY = frozenset({EventKind.ANTE, EventKind.DEAD})
"""Forced bets that count toward no player's bet on the street (calls print the street total)."""


def kingsclub_can_render(record: HandRecord) -> bool:
    """Whether the room's format holds the hand (see the module's words)."""
    if record.game not in GAME_LABELS or record.structure not in LIMIT_LABELS:
        return False
    if record.currency not in ("USD", "CHIPS") or record.scale not in (1, 100):
        return False
    if any(seat.sitting_out for seat in record.seats):
        return False
    board = record.game in BOARD_GAMES
    return dead_held(record) and not any(
        event.kind in _UNRENDERABLE and not (board and event.kind is EventKind.COMMUNITY)
        for event in record.events
    )


def posted_blinds(record: HandRecord) -> dict[int, int]:
    """Each `post` printed "posts blind", by index, with the index of the dead small blind after
    it that the line implies: the reader books the table's small blind posted so far (else half
    its big blind) dead after the live post, so only that `dead` post, exactly, is implied."""
    events = record.events
    half = _reader_big_blind(record) // 2
    small: list[int] = []
    pairs: dict[int, int] = {}
    for index, event in enumerate(events[:-1]):
        if event.kind is EventKind.SMALL_BLIND:
            small.append(event.amount)
        elif event.kind is EventKind.POST:
            implied = Event(
                EventKind.DEAD, 0, event.street, event.player, amount=max(small, default=half)
            )
            if replace(events[index + 1], line=0) == implied:
                pairs[index] = index + 1
    return pairs


def dead_held(record: HandRecord) -> bool:
    """Whether every `dead` post reads back from the text: implied by a "posts blind" line, or a
    draw game's missed small blind the room prints no line for. The reader infers one of those
    for a player who posted no other blind and whose summary net is short by exactly the small
    blind, and puts it after the printed forced bets, before the deal, in seat order (its text
    the reader's note); a dead post of another size, a second blind of the player's, a stud
    hand's or one elsewhere in the hand has no line in the room's format that gives it back."""
    events = record.events
    implied = set(posted_blinds(record).values())
    missed = [i for i, e in enumerate(events) if e.kind is EventKind.DEAD and i not in implied]
    if not missed:
        return True
    if not record.game.is_draw:
        return False
    small = _reader_small_blind(record) or _reader_big_blind(record) // 2
    players = [events[i].player for i in missed]
    blinds = [e.player for e in events if e.kind in BLINDS]
    seated = [seat.player for seat in record.seats]
    if [player for player in seated if player in players] != players:
        return False  # a player not seated, twice, or out of seat order
    if any(blinds.count(player) != 1 for player in players):
        return False
    if any(
        replace(events[i], line=0, text=None)
        != Event(EventKind.DEAD, 0, 0, events[i].player, amount=small)
        for i in missed
    ):
        return False
    deal = next((i for i, e in enumerate(events) if not e.kind.is_forced), None)
    return deal is not None and missed == list(range(deal - len(missed), deal))


def _reader_big_blind(record: HandRecord) -> int:
    """The big blind the reader knows from the header: a limit draw game's small bet, no-limit
    and pot-limit's big blind (a limit stud header names no blind)."""
    if record.structure is Structure.FIXED:
        return record.stakes.small_bet if record.game.is_draw else 0
    return record.stakes.big_blind


def _reader_small_blind(record: HandRecord) -> int:
    """The small blind the reader knows from the header: none in limit."""
    return 0 if record.structure is Structure.FIXED else record.stakes.small_blind


def render_kingsclub(record: HandRecord, hero: str | None = None) -> str:
    """The hand's text, without a trailing newline; `hero`'s down cards and draws are shown."""
    return _Renderer(record, hero if hero is not None else record.hero).render()


class _Renderer:
    def __init__(self, record: HandRecord, hero: str | None) -> None:
        self.record = record
        self.hero = hero
        self.draw = record.game.is_draw
        self.board: list[str | None] | None = [] if record.game in BOARD_GAMES else None
        self.lines: list[str] = []
        self.street = 0
        self.round_marked = True  # the betting round's marker is printed
        self.totals: dict[str, int] = {}  # each player's live chips in on this street
        self._thrown: tuple[str | None, ...] = ()  # the last discard, printed with its draw
        self._blind_posts = frozenset(posted_blinds(record))  # "posts blind", else "straddle"

    def money(self, amount: int) -> str:
        scale = self.record.scale
        whole, part = divmod(abs(amount), scale)
        sign = "-" if amount < 0 else ""
        text = f"{whole:,}"
        return f"{sign}{text}.{part:02d}" if part else f"{sign}{text}"

    def render(self) -> str:
        record = self.record
        limit = LIMIT_LABELS[record.structure]
        stakes = record.stakes
        small, big = (
            (stakes.small_bet, stakes.big_bet)
            if record.structure is Structure.FIXED
            else (stakes.small_blind, stakes.big_blind)
        )
        self.lines = [
            f"#{record.room_hand_id}: {limit} {GAME_LABELS[record.game]} - "
            f"{self.money(small)}/{self.money(big)}",
            f"{record.started_at.astimezone(EASTERN):%Y-%m-%d %H:%M:%S}",
            self._table(),
        ]
        self.lines += [f"Seat {s.seat}: {s.player} ({self.money(s.stack)})" for s in record.seats]
        if self.draw and self.board is None:
            self.lines.append(f"*** {FIRST_ROUND} ***")
        for index, event in enumerate(record.events):
            self._event(event, index in self._blind_posts)
        self._summary()
        return "\n".join(self.lines)

    def _table(self) -> str:
        record = self.record
        if record.tournament is not None:
            name = f"T{record.tournament.tournament_id} [{record.table or 1}]"
        else:
            name = record.table or ""
        button = f" Seat {record.button} is the button" if record.button is not None else ""
        return f"Table '{name}'{button if self.draw else ''}"

    def _event(self, event: Event, blind: bool) -> None:
        """One event's line, if it has one; `blind`: a `post` printed "posts blind"."""
        kind, player = event.kind, event.player or ""
        if kind is EventKind.STREET:
            self._street(event.street)
            return
        if kind in _NOT_PRINTED:
            return
        if kind.is_betting and not self.round_marked:
            self.lines.append(f"*** {ROUNDS[self.street - 1]} BETTING ROUND ***")
            self.round_marked = True
        if kind.puts_in and kind not in _DEAD_MONEY:
            self.totals[player] = self.totals.get(player, 0) + event.amount
        all_in = ", and is all in" if event.all_in else ""
        money = self.money
        text: str | None = None
        if kind is EventKind.ANTE:
            text = f"{player}: posts ante {money(event.amount)}{all_in}"
        elif kind is EventKind.SMALL_BLIND:
            text = f"{player}: posts the small blind {money(event.amount)}{all_in}"
        elif kind is EventKind.BIG_BLIND:
            text = f"{player}: posts the big blind {money(event.amount)}{all_in}"
        elif kind is EventKind.POST:
            post = "blind" if blind else "straddle"
            text = f"{player}: posts {post} {money(event.amount)}{all_in}"
        elif kind is EventKind.DEAD:
            return  # implied by "posts blind" or by the summary's net (`dead_held`)
        elif kind is EventKind.BRING_IN:
            text = f"{player} brings in for {money(event.amount)}{all_in}"
        elif kind is EventKind.COMMUNITY:
            text = self._board(event)
        elif kind is EventKind.DEAL:
            text = f"Dealt to {player}: [{format_cards(self._shown(event))}]"
        elif kind is EventKind.DISCARD:
            text = self._discard(event)
        elif kind is EventKind.DRAW:
            text = self._drawn(event)
        elif kind is EventKind.STAND_PAT:
            text = f"{player} stands pat"
        elif kind is EventKind.FOLD:
            text = f"{player} folds"
        elif kind is EventKind.CHECK:
            text = f"{player} checks"
        elif kind is EventKind.CALL:
            text = f"{player} calls {money(self.totals[player])}{all_in}"
        elif kind is EventKind.BET:
            text = f"{player} bets {money(event.amount)}{all_in}"
        elif kind is EventKind.COMPLETE or kind is EventKind.RAISE:
            verb = "bets" if kind is EventKind.COMPLETE else "raises to"
            text = f"{player} {verb} {money(self.totals[player])}{all_in}"
        elif kind is EventKind.SHOW:
            run = f"Run {event.run}: " if event.run else ""  # one run's hand of a pot run twice
            text = f"{run}{player} shows [{format_cards(event.cards)}]"
        elif kind is EventKind.MUCK:
            text = f"{player} mucks"
        elif kind is EventKind.COLLECT:
            return  # after the summary's seats
        elif kind is EventKind.SIT_OUT:
            text = f"{player} sits out"
        if text is not None:
            self.lines.append(text)

    def _street(self, index: int) -> None:
        if index in (self.street, 0):
            return
        self.street, self.totals = index, {}
        if self.board is not None:
            return  # the board's line is the marker
        if self.draw:
            self.lines.append(f"*** {DRAW_MARKERS[index]} ***")
            self.round_marked = False
        else:
            self.lines.append(f"*** {STUD_MARKERS[index - 1]} ***")

    def _board(self, event: Event) -> str:
        """ "*** FLOP *** [6h Qd 2h]", then the board so far and the street's card."""
        board = self.board if self.board is not None else []
        marker = f"*** {BOARD_MARKERS.get(self.street, 'FLOP')} ***"
        text = (
            f"{marker} [{format_cards(board)}] [{format_cards(event.cards)}]"
            if board
            else (f"{marker} [{format_cards(event.cards)}]")
        )
        board.extend(event.cards)
        return text

    def _shown(self, event: Event) -> tuple[str | None, ...]:
        """The cards as the hero's export shows them: the hero's all, others' up cards."""
        if event.player == self.hero:
            return event.cards
        ups = event.up or (False,) * len(event.cards)
        return tuple(card if up else None for card, up in zip(event.cards, ups, strict=False))

    def _discard(self, event: Event) -> str | None:
        """The hero's discard is printed with the draw ("discards [..] draws [..]"), another
        player's as its count ("draws 2"): both on the draw's line."""
        self._thrown = event.cards
        return None

    def _drawn(self, event: Event) -> str | None:
        player = event.player or ""
        if player == self.hero and None not in event.cards and None not in self._thrown:
            if event.run > 1:  # a pot run twice: each later run's cards on the first's line
                self.lines[-1] += f" [{format_cards(event.cards)}]"
                return None
            return (
                f"{player} discards [{format_cards(self._thrown)}] "
                f"draws [{format_cards(event.cards)}]"
            )
        return f"{player} draws {len(event.cards)}"

    def _summary(self) -> None:
        record = self.record
        facts = player_facts(record)
        put_in: dict[str, int] = {}
        returned: dict[str, int] = {}
        for event in record.events:
            player = event.player or ""
            if event.kind.puts_in:
                put_in[player] = put_in.get(player, 0) + event.amount
            elif event.kind is EventKind.UNCALLED:
                returned[player] = returned.get(player, 0) + event.amount
        self.lines.append("*** SUMMARY ***")
        for seat in record.seats:
            name = seat.player
            net = facts[name].collected + returned.get(name, 0) - put_in.get(name, 0)
            sign = "-" if net < 0 else "+"
            self.lines.append(
                f"Seat {seat.seat}: {name} ({self.money(seat.stack + net)}) "
                f"{sign}{self.money(abs(net))}"
            )
        if record.rake:
            self.lines.append(f"Rake {self.money(record.rake)}")
        for event in record.events:
            if event.kind is EventKind.COLLECT:
                label = (event.pot or "main").partition(":")[0]
                source = "pot" if label == "main" else f"side pot {label.removeprefix('side')}"
                self.lines.append(f"{event.player} wins ({self.money(event.amount)}) from {source}")
