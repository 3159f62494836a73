"""PHH actions to studdraw events: the little bookkeeping a PHH hand leaves to its reader.

PHH says `p2 cc` where a room says "calls 4", and `p1 cbr 12` where it says "raises 4 to 12";
it marks no streets and no uncalled returns. `Play` tracks each player's stack and bet on the
street to give every event its amount, total, all-in flag and street, starts a street at the
first deal (stud) or discard (draw) after the betting, and returns an uncalled excess when the
betting of a street ends. It checks nothing about the rules: the rules engine does that.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Final

from studdraw.parsers.builder import HandParseError
from studdraw.parsers.model import STUD_DEALS, Card, Event, EventKind, Game, Seat, Stakes
from studdraw.parsers.phh.vocabulary import (
    RESHUFFLE_NOTE,
    blind_kind,
    parse_cards,
    to_units,
)

_PLAYER_ACTIONS: Final = frozenset({"pb", "cbr", "cc", "f", "sd", "sm"})


class Play:
    """One hand's actions turned into events, in order (`events`)."""

    def __init__(
        self,
        game: Game,
        stakes: Stakes,
        seats: Sequence[Seat],
        scale: int,
        *,
        bring_in: int,
        first_line: int,
        action_lines: Sequence[int],
    ) -> None:
        count = len(seats)
        self.game = game
        self.stakes = stakes
        self.bring_in = bring_in  # what a `pb` posts: PHH's `bring_in`, not the stakes' own
        self.scale = scale
        self.names = [seat.player for seat in seats]
        self.starting = [seat.stack for seat in seats]
        self.stacks = [seat.stack for seat in seats]
        self.folded = [False] * count
        self.dead = [0] * count  # dead money posted: in the main pot, no level of a side pot
        self.anted = [0] * count
        self.big_blind = -1  # who posted the big blind
        self.bets = [0] * count
        self.level = 0  # the bet to call on this street (a short big blind still makes it full)
        self.held: list[list[Card | None]] = [[] for _ in seats]
        self.street = -1
        self.acted = False  # a betting action happened on this street
        self.dealt: set[int] = set()  # players dealt a card on this street (stud)
        self.boarded = False  # this street dealt its board cards (drawmaha's flop, turn, river)
        self.discarded: set[int] = set()  # players who drew on this street (draw games)
        self.showdown = False
        self.returns: dict[int, list[tuple[int, int]]] | None = None  # street: player, amount
        self.first_line = first_line
        self.action_lines = action_lines
        self.line = first_line
        self.events: list[Event] = []

    # -- before the cards ---------------------------------------------------------------------

    def forced(
        self,
        antes: Sequence[int],
        blinds: Sequence[int],
        dead: Sequence[int],
        kinds: Sequence[str] | None = None,
    ) -> None:
        """Antes, blinds (of the `kinds` given, else as their position implies) and dead
        blinds, each list in player order."""
        for i, ante in enumerate(antes):
            if ante:
                before = self.stacks[i]
                self._put(EventKind.ANTE, i, ante, live=False)
                self.anted[i] = before - self.stacks[i]
        for i, blind in enumerate(blinds):
            if blind:
                kind = (
                    EventKind(kinds[i])
                    if kinds and kinds[i]
                    else blind_kind(i, len(self.names), blind, self.stakes)
                )
                self._put(kind, i, blind, live=True)
                if kind is EventKind.BIG_BLIND:
                    self.level = max(self.level, self.stakes.big_blind)
                    self.big_blind = i
        for i, amount in enumerate(dead):
            if amount:
                before = self.stacks[i]
                self._put(EventKind.DEAD, i, amount, live=False)
                self.dead[i] = before - self.stacks[i]

    def _put(self, kind: EventKind, i: int, amount: int, *, live: bool) -> None:
        amount = min(amount, self.stacks[i])
        self.stacks[i] -= amount
        to = None
        if live:
            self.bets[i] += amount
            to = self.bets[i]
            self.level = max(self.level, to)
        all_in = self.stacks[i] == 0
        self._add(kind, self.names[i], amount=amount, to=to, all_in=all_in)

    # -- the actions --------------------------------------------------------------------------

    def act(self, action: str, number: int) -> None:
        """Apply the action string number `number` of the hand's `actions`."""
        at = self.action_lines[number] if number < len(self.action_lines) else 0
        self.line = self.first_line + at
        text, _, commentary = action.partition("#")
        words = text.split()
        if words:
            self._apply(words, action)
        elif action.strip() == RESHUFFLE_NOTE:
            if self.game.is_draw and (self.street <= 0 or self.acted):
                self._new_street()  # announced before the round's first discard
            self._add(EventKind.RESHUFFLE, None)
            return
        if commentary.strip():
            self._add(EventKind.NOTE, None, text=commentary.strip())

    def _apply(self, words: list[str], action: str) -> None:
        if words[0] == "d" and len(words) == 4 and words[1] == "dh":
            self._deal(self._player(words[2], action), parse_cards(words[3]))
        elif words[0] == "d" and len(words) == 3 and words[1] == "db":
            self._board(parse_cards(words[2]))
        elif len(words) in (2, 3) and words[1] in _PLAYER_ACTIONS:
            i = self._player(words[0], action)
            argument = words[2] if len(words) == 3 else None
            self._player_action(i, words[1], argument, action)
        else:
            raise HandParseError(f"unknown PHH action {action!r}", self.line)

    def _player(self, label: str, action: str) -> int:
        if label[:1] == "p" and label[1:].isdigit() and 1 <= int(label[1:]) <= len(self.names):
            return int(label[1:]) - 1
        raise HandParseError(f"no player {label!r} in action {action!r}", self.line)

    def _player_action(self, i: int, verb: str, argument: str | None, action: str) -> None:
        if verb == "sd":
            self._draw(i, parse_cards(argument) if argument else ())
        elif verb == "sm":
            self._show(i, argument)
        elif argument is not None and verb != "cbr":
            raise HandParseError(f"unexpected argument in PHH action {action!r}", self.line)
        elif verb == "cbr":
            if argument is None:
                raise HandParseError(f"no amount in PHH action {action!r}", self.line)
            self._wager(i, to_units(_number(argument), self.scale))
        elif verb == "cc":
            self._check_or_call(i)
        elif verb == "f":
            self.acted = True
            self.folded[i] = True
            self._add(EventKind.FOLD, self.names[i])
        else:  # pb
            self.acted = True
            amount = min(self.bring_in, self.stacks[i])
            self._bet(EventKind.BRING_IN, i, amount)

    def _bet(self, kind: EventKind, i: int, amount: int) -> None:
        self.stacks[i] -= amount
        self.bets[i] += amount
        self.level = max(self.level, self.bets[i])
        all_in = self.stacks[i] == 0
        self._add(kind, self.names[i], amount=amount, to=self.bets[i], all_in=all_in)

    def _wager(self, i: int, to: int) -> None:
        self.acted = True
        highest = self.level
        if self.game.is_stud and self.street == 0 and highest < self.stakes.small_bet:
            kind = EventKind.COMPLETE
        elif highest == 0:
            kind = EventKind.BET
        else:
            kind = EventKind.RAISE
        self._bet(kind, i, to - self.bets[i])

    def _check_or_call(self, i: int) -> None:
        self.acted = True
        owed = min(self.level - self.bets[i], self.stacks[i])
        if owed <= 0:
            self._add(EventKind.CHECK, self.names[i])
        else:
            self._bet(EventKind.CALL, i, owed)

    # -- cards --------------------------------------------------------------------------------

    def _deal(self, i: int, cards: tuple[Card | None, ...]) -> None:
        if self.game.is_stud:
            if self.street < 0 or self.acted or i in self.dealt:
                self._new_street()
            self.dealt.add(i)
            up = _stud_up(self.game, self.street, len(cards))
            kind = EventKind.DEAL
        elif self.street < 0:
            self._new_street()
            up, kind = (False,) * len(cards), EventKind.DEAL
        else:
            up, kind = (), EventKind.DRAW if self.street > 0 else EventKind.DEAL
        self.held[i].extend(cards)
        if any(card is not None for card in cards):
            self._add(kind, self.names[i], cards=cards, up=up)

    def _board(self, cards: tuple[Card | None, ...]) -> None:
        """Board cards open a street, unless the street's draw opened it (drawmaha's turn); a
        draw game's deal is never on a board's street."""
        first = self.street < 0 or (self.street == 0 and self.game.is_draw)
        if first or self.acted or self.dealt or self.boarded:
            self._new_street()
        self.boarded = True
        self._add(EventKind.COMMUNITY, None, cards=cards, up=(True,) * len(cards))

    def _draw(self, i: int, cards: tuple[Card | None, ...]) -> None:
        if self.street <= 0 or self.acted or i in self.discarded or self.boarded:
            self._new_street()
        self.discarded.add(i)
        held = self.held[i]
        for card in cards:
            if card is not None and card in held:
                held.remove(card)
            elif None in held:
                held.remove(None)
        if not cards:
            self._add(EventKind.STAND_PAT, self.names[i], count=0)
        elif all(card is None for card in cards):
            self._add(EventKind.DISCARD, self.names[i], count=len(cards))
        else:
            self._add(EventKind.DISCARD, self.names[i], cards=cards, count=len(cards))

    def _show(self, i: int, argument: str | None) -> None:
        if not self.showdown:
            self._close_betting()
            self.showdown = True
        if argument is None:
            self._add(EventKind.MUCK, self.names[i])
            return
        cards = tuple(self.held[i]) if argument == "-" else parse_cards(argument)
        self._add(EventKind.SHOW, self.names[i], cards=cards)

    def later_run(self, run: int, action: str) -> None:
        """A draw or a show of run `run` of a hand run twice (studdraw's `_runs`: `d dh p1 Qs`,
        `p1 sm ...`): the player's draw or show in the play becomes the first run's, and this
        one follows it."""
        words = action.split()
        if len(words) == 4 and words[:2] == ["d", "dh"]:
            i, kind = self._player(words[2], action), EventKind.DRAW
            cards = parse_cards(words[3])
        elif len(words) in (2, 3) and words[1] == "sm":
            i = self._player(words[0], action)
            kind = EventKind.SHOW if len(words) == 3 else EventKind.MUCK
            cards = parse_cards(words[2]) if len(words) == 3 else ()
        else:
            raise HandParseError(f"not a draw or a show of a run: {action!r}", self.line)
        name = self.names[i]
        at = next(
            (
                k
                for k in range(len(self.events) - 1, -1, -1)
                if self.events[k].player == name and self.events[k].kind in _RUN_KINDS[kind]
            ),
            None,
        )
        if at is None:
            raise HandParseError(f"run {run}'s {action!r} has no first run to follow", self.line)
        first = self.events[at]
        if not first.run:
            self.events[at] = dataclasses.replace(first, run=1)
        self.events.insert(
            at + 1, dataclasses.replace(first, kind=kind, cards=cards, up=(), run=run)
        )

    # -- streets and the end ------------------------------------------------------------------

    def _new_street(self) -> None:
        """The next street; the blinds and bring-in stay bets of the first."""
        if self.street >= 0:
            self._close_betting()
            self.bets = [0] * len(self.bets)
            self.level = 0
        self.street += 1
        self.acted = False
        self.dealt.clear()
        self.discarded.clear()
        self.boarded = False
        self._add(EventKind.STREET, None)

    def given_returns(self, returns: Sequence[tuple[int, int, int]]) -> None:
        """The room's uncalled returns (studdraw's `_uncalled`: street, player, amount), used
        instead of working them out."""
        self.returns = {}
        for street, i, amount in returns:
            self.returns.setdefault(street, []).append((i, amount))

    def collect(self, collects: Sequence[tuple[int, str, int]]) -> None:
        """Who won what from which pot: studdraw's `_collects`, or the stated result shared
        out over the pots (`studdraw.parsers.phh.results`)."""
        for i, pot, amount in collects:
            self._add(EventKind.COLLECT, self.names[i], amount=amount, pot=pot)

    @property
    def table_ante(self) -> int:
        """The player of a big-blind or button ante (the only ante of a button game, posted by
        the big blind or the last player), else -1: dead money, as the rules engine takes it."""
        anted = [i for i, amount in enumerate(self.anted) if amount]
        if (
            self.game.is_stud
            or len(anted) != 1
            or anted[0] not in (self.big_blind, len(self.anted) - 1)
        ):
            return -1
        return anted[0]

    @property
    def invested(self) -> list[int]:
        """What each player has put in (less what came back), so far."""
        return [start - left for start, left in zip(self.starting, self.stacks, strict=True)]

    def _close_betting(self) -> None:
        """Return the part of the highest bet nobody matched (everyone else folded or is
        all-in for less)."""
        if self.returns is not None:
            for i, amount in self.returns.pop(max(self.street, 0), []):
                self.bets[i] -= amount
                self.stacks[i] += amount
                self._add(EventKind.UNCALLED, self.names[i], amount=amount)
            return
        top = max(range(len(self.bets)), key=self.bets.__getitem__)
        others = max((bet for i, bet in enumerate(self.bets) if i != top), default=0)
        excess = self.bets[top] - others
        if excess > 0:
            self.bets[top] -= excess
            self.stacks[top] += excess
            self._add(EventKind.UNCALLED, self.names[top], amount=excess)

    def end_betting(self) -> None:
        """After the last action: the uncalled excess, and the given returns of streets the
        actions never reached; `stacks` are then what the play leaves each player."""
        if not self.showdown:
            self._close_betting()
        for street, returns in sorted((self.returns or {}).items()):
            for i, amount in returns:
                self.stacks[i] += amount
                self._add(EventKind.UNCALLED, self.names[i], amount=amount, street=street)

    def _add(
        self,
        kind: EventKind,
        player: str | None,
        *,
        amount: int = 0,
        to: int | None = None,
        all_in: bool = False,
        cards: tuple[Card | None, ...] = (),
        up: tuple[bool, ...] = (),
        count: int | None = None,
        pot: str | None = None,
        text: str | None = None,
        street: int | None = None,
    ) -> None:
        street = max(self.street, 0) if street is None else street
        self.events.append(
            Event(kind, self.line, street, player, amount, to, all_in, cards, up, count, pot, text)
        )


_RUN_KINDS: Final = {
    EventKind.DRAW: frozenset({EventKind.DRAW}),
    EventKind.SHOW: frozenset({EventKind.SHOW, EventKind.MUCK}),
    EventKind.MUCK: frozenset({EventKind.SHOW, EventKind.MUCK}),
}
"""The event of the play a later run's draw or show follows (and makes the first run's)."""


def _stud_up(game: Game, street: int, count: int) -> tuple[bool, ...]:
    """Which cards are up as the game deals them (`STUD_DEALS`: seven-card stud two down and
    one up on 3rd street, one up on 4th-6th, one down on 7th)."""
    deals = STUD_DEALS[game]
    if street == 0:
        return tuple(k >= len(deals[0]) - 1 for k in range(count))
    return deals[min(street, len(deals) - 1)][:1] * count


def _number(text: str) -> int | Decimal:
    try:
        return int(text)
    except ValueError:
        try:
            return Decimal(text.replace(",", ""))
        except InvalidOperation:
            raise ValueError(f"bad amount {text!r}") from None
