"""The core of `HandState` (state.py): the players, whose turn it is, who opens a round, the
round's bookkeeping, and chips going in.

The state is split at its seams into layers, each a class built on the one before: `StateCore`
here, then the deck and seen cards (deck.py), the draws (draws.py), the forced bets (forced.py),
the betting (betting.py), and `HandState` (state.py), which adds the public API, the streets
and the money out. All the fields live in `StateCore.__slots__`; the layers add only methods.

Speed matters (an import replays every hand): players are small integers in seat order,
per-player state lives in parallel lists, events dispatch through a dict on their kind, the
common case (the expected player acts) takes a short path, and enum members are read from
module constants (each `Enum.MEMBER` lookup costs a class attribute search in Python 3.11).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from enum import IntEnum
from typing import Final, cast

from studdraw.parsers.model import Card, Event, EventKind, Game, Seat, Stakes, Structure
from studdraw.parsers.problems import Code, Problem, Stage
from studdraw.pipeline.words import units_text

from .boards import board_key, bring_in_key
from .house import HouseRules
from .result import StreetResult
from .specs import GameSpec, Opener
from .structures import STRUCTURE_SPECS, pot_capped_to

DECK_SIZE: Final = 52
NO_ONE: Final = -1
UNRESOLVED: Final = -2  # the opener depends on cards not yet dealt, or not shown


class Phase(IntEnum):
    FORCED = 0  # antes and blinds, before the first street marker
    DEAL = 1  # a betting round is over: the next street marker is due
    BETTING = 2
    DRAWING = 3  # draw games: players exchange cards before the round's betting
    OVER = 4  # no more betting: uncalled bets, shows, mucks and collects


_FORCED, _DEAL, _BETTING, _DRAWING, _OVER = Phase
_BY_POSITION: Final = frozenset({Opener.LEFT_OF_BIG_BLIND, Opener.LEFT_OF_BUTTON})
_LIFTED_HEADS_UP: Final = frozenset({"last_round", "two_left"})
_REPLAY: Final = Stage.REPLAY


class StateCore:
    """The fields of a hand's state and what every layer needs (see the module docstring)."""

    __slots__ = (
        "acted",
        "all_in",
        "ante_posts",
        "antes_at_stake",
        "bet",
        "bets",
        "big_blind_index",
        "blinds",
        "board",
        "board_cards",
        "board_due",
        "bring_in_done",
        "bring_in_index",
        "bring_in_street",
        "burns",
        "button_dead",
        "button_index",
        "can_act",
        "cap_bets",
        "cards",
        "collects",
        "community",
        "community_check",
        "completions",
        "currency",
        "current",
        "dead",
        "draw_pending",
        "draw_pos",
        "draw_queue",
        "drawn",
        "drew",
        "first_actor",
        "fixed",
        "folded",
        "full_level",
        "in_hand",
        "index",
        "invested",
        "last_increment",
        "limit",
        "marker_seen",
        "min_bet",
        "muck",
        "mucked",
        "names",
        "no_draws",
        "open_pair",
        "opening_bets",
        "path",
        "phase",
        "pointer",
        "posted_ante",
        "pot",
        "pot_before",
        "pot_divisor",
        "problems",
        "raises",
        "reshuffle_stub",
        "round_open",
        "rules",
        "run_drawn",
        "run_events",
        "runs",
        "scale",
        "seat_numbers",
        "seen",
        "showed",
        "sized",
        "small_blind_index",
        "spec",
        "stack",
        "stakes",
        "straddle_index",
        "street",
        "street_actions",
        "street_folded",
        "street_in",
        "street_offset",
        "street_players_in",
        "street_pot_start",
        "street_put",
        "street_results",
        "street_units",
        "structure",
        "stub",
        "stud",
        "tied_openers",
        "uncalled_due",
        "units",
        "up_by_length",
    )

    def __init__(
        self,
        spec: GameSpec,
        structure: Structure,
        stakes: Stakes,
        seats: Sequence[Seat],
        rules: HouseRules,
        *,
        button: int | None = None,
        stake_table: Mapping[str, int] | None = None,
        path: str = "",
        scale: int = 1,
        currency: str = "CHIPS",
    ) -> None:
        """`seats`: the players dealt in, in any order (kept in seat order). `button`: the seat
        number of the button in blind games (inferred from the blinds when None).
        `stake_table`: the forced bets the room posts at these limits (`stakes.room_stakes`),
        which win over the sizes a record inferred from its own posts. `path`: the source file
        of the hand, which its problems name. `scale` and `currency`: the hand's money
        (`HandRecord.scale`, `.currency`), in which the problems write their amounts."""
        ordered = sorted(seats, key=lambda seat: seat.seat)
        n = len(ordered)
        shape = STRUCTURE_SPECS[structure]
        if not shape.limit and not stakes.small_bet:
            stakes = _blind_limits(stakes)
        if stake_table and any(getattr(stakes, k) != v for k, v in stake_table.items()):
            stakes = dataclasses.replace(stakes, **stake_table)
        self.spec = spec
        self.structure = structure
        self.stakes = stakes
        self.rules = rules
        self.stud = spec.bring_in is not None
        # Blinds open a draw game's first round, except where the stakes name antes and no
        # blinds (Merge's half-pot badugi): then the player left of the button opens.
        self.blinds = not self.stud and not (stakes.ante and not stakes.big_blind)
        # The round the bring-in opens (stud's 3rd street), NO_ONE in blind games.
        self.bring_in_street = spec.bring_in_street
        self.board = spec.board
        # Stakes of 0 mean the export did not state them: bet sizes are then not checkable.
        self.sized = stakes.small_bet > 0
        self.fixed = shape.fixed
        self.limit = shape.limit
        # A bet or raise may add the pot after the call divided by this (0: no pot cap).
        self.pot_divisor = shape.pot_divisor
        self.up_by_length = _up_patterns(spec)
        both = (stakes.small_bet, stakes.big_bet)
        self.street_units = [
            (stakes.big_bet if street.big_bet else stakes.small_bet,) if self.fixed else both
            for street in spec.streets
        ]
        self.names = [seat.player for seat in ordered]
        self.seat_numbers = [seat.seat for seat in ordered]
        self.index = {name: i for i, name in enumerate(self.names)}
        self.stack = [seat.stack for seat in ordered]
        self.invested = [0] * n
        self.dead = [0] * n  # dead blinds: in the main pot, no level of the side pots
        self.folded = [False] * n
        self.all_in = [seat.stack <= 0 for seat in ordered]
        self.posted_ante = [False] * n
        # Antes posted before the deal, judged at the first street marker against the stakes'
        # ante or the size most players posted: those that differ from the stakes' ante
        # (event, index, all-in), and those at it (event, index).
        self.ante_posts: list[tuple[Event, int | None, bool]] = []
        self.antes_at_stake: list[tuple[Event, int | None]] = []
        self.showed = [False] * n
        self.mucked = [False] * n
        self.cards: list[list[Card | None]] = [[] for _ in range(n)]
        self.in_hand = n
        self.can_act = n - sum(self.all_in)
        self.pot = 0
        self.pot_before: list[int] = []
        self.path = path
        self.scale = scale
        self.currency = currency
        self.problems: list[Problem] = []
        # (player, amount, pot label, event index, line, run) of each collect
        self.collects: list[tuple[int, int, str, int | None, int, int]] = []
        # A hand run twice: how many runs, and each run's draws and shows (event, index, the
        # first slot a draw fills), dealt into that run's hands when the pots are settled.
        self.runs = 1
        self.run_events: list[tuple[Event, int | None, int]] = []
        # Cards each player drew once no bet could follow: all a run may deal them anew.
        self.run_drawn = [0] * n
        self.phase = _FORCED
        self.street = 0
        self.marker_seen = False
        self.min_bet = (stakes.small_bet if self.stud else stakes.big_blind) or stakes.small_bet
        self.cap_bets = 1 + rules.max_raises
        self.button_index = self._button_index(button)
        # A button printed on a seat not dealt in (a player sitting out) is a dead button.
        self.button_dead = button is not None and button not in self.seat_numbers
        self.big_blind_index = NO_ONE
        self.small_blind_index = NO_ONE
        self.straddle_index = NO_ONE  # a straddle opens the first round after it
        self.bring_in_index = NO_ONE
        self.bring_in_done = False
        self.uncalled_due: tuple[int, int] | None = None
        self.seen: dict[Card, int] = {}
        self.stub = [DECK_SIZE, DECK_SIZE]  # cards left without burns, with burns
        self.burns = 0
        self.muck = 0
        self.reshuffle_stub: tuple[int, int] | None = None
        self.community: Card | None = None
        # A game with a board (drawmaha): its cards as dealt, and the cards the street in play
        # has yet to deal to it.
        self.board_cards: list[Card | None] = []
        self.board_due = 0
        self.community_check: tuple[int, int, int] | None = None
        self.open_pair = False
        self.street_results: list[StreetResult] = []
        self.street_offset = [0] * n
        self.draw_pending = [0] * n
        self.drawn: list[int | None] = [None] * n
        self.no_draws: list[int | None] = [None] * n
        self.drew = [False] * n
        self.draw_queue: list[int] = []
        self.draw_pos = 0
        # The betting round's fields, set by `_reset_round` (declared here for mypy and mypyc).
        self.bet: list[int]
        self.acted: list[bool]
        self.current: int
        self.full_level: int
        self.last_increment: int
        self.bets: int
        self.opening_bets: int
        self.raises: int
        self.completions: int
        self.pointer: int
        self.round_open: bool
        self.first_actor: int
        self.tied_openers: tuple[int, ...]
        self.units: tuple[int, ...]
        self._reset_round()
        self.street_put = [0] * n
        self.street_actions: list[list[EventKind]] = [[] for _ in range(n)]
        self.street_folded = [False] * n
        self.street_pot_start = 0
        self.street_players_in = n
        self.street_in = [True] * n

    def up(self, i: int) -> tuple[bool, ...]:
        """Which of player `i`'s cards lie face up."""
        cards = self.cards[i]
        pattern = self.up_by_length[len(cards)]
        if self.community is not None and cards and cards[-1] == self.community:
            return (*pattern[:-1], True)
        return pattern

    def money(self, amount: int) -> str:
        """An amount of the hand as its room writes money ("$1.70", "1,500 chips"): a problem's
        message never shows a bare count of cents."""
        return units_text(amount, self.scale, self.currency)

    def flag(self, code: Code, event: Event, index: int | None, message: str) -> None:
        """Record a problem located at an event."""
        self.problems.append(
            Problem(code, _REPLAY, self.path, event.line, message, self.street, index)
        )

    def flag_at(self, code: Code, index: int | None, line: int, message: str) -> None:
        """Record a problem found when settling the hand (street None unless at an event)."""
        street = self.street if index is not None else None
        self.problems.append(Problem(code, _REPLAY, self.path, line, message, street, index))

    def _position(self, i: int) -> str | None:
        n = len(self.names)
        if self.stud:
            if self.bring_in_index < 0:
                return None
            offset = (i - self.bring_in_index) % n
            return f"BI+{offset}" if offset else "BI"
        if self.button_index < 0:
            return None
        offset = (i - self.button_index) % n
        if offset and i == self.small_blind_index:
            return "SB"
        if offset and i == self.big_blind_index:
            return "BB"
        return f"BTN+{offset}" if offset else "BTN"

    def _unknown_player(self, event: Event, index: int | None) -> None:
        self.flag(Code.ORD006, event, index, f"{event.player} is not dealt into this hand")

    def _player(self, event: Event, index: int | None) -> int:
        i = self.index.get(event.player or "", NO_ONE)
        if i < 0:
            self._unknown_player(event, index)
        return i

    def _button_index(self, button: int | None) -> int:
        """Index of the last player at or before the button seat (clockwise), or NO_ONE."""
        if button is None or not self.seat_numbers:
            return NO_ONE
        before = [i for i, seat in enumerate(self.seat_numbers) if seat <= button]
        return before[-1] if before else len(self.seat_numbers) - 1

    def _contested(self) -> bool:
        """Whether two or more players can still put chips in (neither folded nor all-in):
        with fewer, no bet or raise can be answered, and a player left alone owes no action."""
        return self.can_act >= 2

    def _needs(self, j: int) -> bool:
        return (
            not self.folded[j]
            and not self.all_in[j]
            and (self.bet[j] < self.current or (not self.acted[j] and self._contested()))
        )

    def _next_needing(self, i: int) -> int:
        """The first player after `i` (clockwise, `i` last) who must still act, or NO_ONE."""
        folded, all_in, bet, acted = self.folded, self.all_in, self.bet, self.acted
        current = self.current
        open_ = self._contested()
        n = len(folded)
        j = i
        for _ in range(n):
            j = j + 1 if j + 1 < n else 0
            if not folded[j] and not all_in[j] and (bet[j] < current or (open_ and not acted[j])):
                return j
        return NO_ONE

    def _blind_seats(self) -> tuple[int, int]:
        n = len(self.names)
        button = self.button_index if self.button_index >= 0 else n - 1
        if n == 2 and not self.button_dead:  # heads-up: the button posts the small blind
            return button, (button + 1) % n
        return (button + 1) % n, (button + 2) % n

    def _big_blind_size(self) -> int:
        """In fixed limit the big blind is the opening bet of round 1: one small bet."""
        return self.stakes.small_bet if self.fixed else self.stakes.big_blind

    def _resolve_opener(self) -> int:
        """The first actor of the round from the game's opener rule, or UNRESOLVED."""
        opener = self.spec.streets[self.street].opener
        if opener is Opener.BRING_IN:
            if self.bring_in_done:
                return self._next_needing(self.bring_in_index)
            bring_in = self._bring_in_player()
            self.tied_openers = (bring_in,)
            return bring_in
        if opener is Opener.LEFT_OF_BIG_BLIND and self.blinds:
            start = self.straddle_index if self.straddle_index >= 0 else self.big_blind_index
            if start < 0:
                start = self._blind_seats()[1]
            return self._next_needing(start)
        if opener is Opener.LEFT_OF_BUTTON or opener is Opener.LEFT_OF_BIG_BLIND:
            start = self.button_index if self.button_index >= 0 else len(self.names) - 1
            return self._next_needing(start)
        low = opener is not Opener.HIGH_BOARD
        return self._board_opener(low, ace_low=opener is Opener.LOW_BOARD)

    def _board_opener(self, low: bool, *, ace_low: bool) -> int:
        """The best board opens (the lowest in the low games); a community card, face up for
        all, is part of every board."""
        keys: list[tuple[int, int]] = []
        folded = self.folded
        shared = [self.community] if self.community is not None else []
        for i, cards in enumerate(self.cards):
            if folded[i]:
                continue
            board = cards[self.board]
            if None in board:
                return UNRESOLVED
            keys.append((board_key(cast("list[Card]", board + shared), ace_low), i))
        if not keys:
            return NO_ONE
        best = min(keys)[0] if low else max(keys)[0]
        tied = tuple(i for key, i in keys if key == best)
        self.tied_openers = tied
        first = tied[0]
        if len(tied) > 1 and not low and self.rules.first_actor_tie_break == "suit":
            first = max(tied, key=self._top_card_suit)
        if self._needs(first):
            return first
        return self._next_needing(first)

    def _top_card_suit(self, i: int) -> tuple[int, int]:
        """(rank, suit) of the best card of player i's board, by the bring-in suit order."""
        suits = self.rules.bring_in_suits
        board = cast("list[Card]", self.cards[i][self.board])
        return max((board_key([card], False), suits.index(card[1])) for card in board)

    def _bring_in_player(self) -> int:
        rule = self.spec.bring_in
        assert rule is not None
        best = NO_ONE
        best_key = -1
        suits = self.rules.bring_in_suits if self.rules.bring_in_tie_break == "suit" else None
        at = self.board.start  # the door card: the first of the board
        assert at is not None
        for i, cards in enumerate(self.cards):
            if self.folded[i] or self.all_in[i] or len(cards) <= at:
                continue
            door = cards[at]
            if door is None:
                return UNRESOLVED
            key = bring_in_key(door, rule, suits)
            if key > best_key:
                best, best_key = i, key
        return best

    def _awaiting_bring_in(self) -> bool:
        return self.street == self.bring_in_street and not self.bring_in_done

    def _bring_in_street_name(self) -> str:
        """The bring-in's street as the game names it (3rd street; five-card stud's 2nd)."""
        return self.spec.streets[max(self.bring_in_street, 0)].name

    def _completion_open(self) -> bool:
        """The bring-in round with only the bring-in in: the next increase is the completion."""
        return self.street == self.bring_in_street and self.completions == 0 and self.bets == 0

    def _capped(self) -> bool:
        return self.limit and self.bets >= self.cap_bets and not self._cap_lifted()

    def _cap_lifted(self) -> bool:
        """The house lifts the cap for two players: on the last round, or on any round, as soon
        as only two players are left in the hand."""
        lift = self.rules.heads_up_cap
        if self.in_hand != 2 or lift not in _LIFTED_HEADS_UP:
            return False
        return lift == "two_left" or self.street == self.spec.last_street

    def _reset_round(self) -> None:
        n = len(self.names)
        self.bet = [0] * n
        self.acted = [False] * n
        self.current = 0
        self.full_level = 0
        self.last_increment = self.min_bet
        self.bets = 0
        self.opening_bets = 0
        self.raises = 0
        self.completions = 0
        self.pointer = UNRESOLVED
        self.round_open = False
        self.first_actor = NO_ONE
        self.tied_openers = ()
        self.units = self.street_units[self.street]

    def _advance(self, i: int) -> None:
        """After `i` acted: pass the turn on, or close the round."""
        self.round_open = True
        if self.in_hand > 1:
            following = self._next_needing(i)
            if following >= 0:
                self.pointer = following
                return
        self._end_round()

    def _end_round(self) -> None:
        self.pointer = NO_ONE
        bets = self.bet
        top_amount = max(bets, default=0)  # none when no one is dealt in (each actor is ORD006)
        if top_amount:
            second = sorted(bets)[-2] if len(bets) > 1 else 0
            if top_amount > second:
                self.uncalled_due = (bets.index(top_amount), top_amount - second)
        last = self.in_hand <= 1 or self.street >= self.spec.last_street
        self.phase = _OVER if last else _DEAL

    def _start_betting(self) -> None:
        self.phase = _BETTING
        self.pointer = UNRESOLVED
        if self._awaiting_bring_in() and not self._contested():
            self.bring_in_done = True  # all-in on the antes: no one to bet against
        if self._awaiting_bring_in():
            return
        if self._next_needing(len(self.names) - 1) < 0:
            self._end_round()
        elif self.spec.streets[self.street].opener in _BY_POSITION:
            self.pointer = self._resolve_opener()  # a position opener needs no cards

    def _put(self, i: int, amount: int, event: Event, index: int | None, live: bool) -> None:
        stack = self.stack[i]
        if amount > stack:
            self.flag(
                Code.MNY001,
                event,
                index,
                f"{self.names[i]} puts in {self.money(amount)} with {self.money(stack)} behind",
            )
        elif event.all_in and amount < stack:
            self.flag(
                Code.SIZ014,
                event,
                index,
                f"{self.names[i]} is marked all-in with {self.money(stack - amount)} left",
            )
        stack -= amount
        self.stack[i] = stack
        self.invested[i] += amount
        self.street_put[i] += amount
        self.pot += amount
        if live:
            self.bet[i] += amount
        if stack <= 0 and not self.all_in[i]:
            self.all_in[i] = True
            if not self.folded[i]:
                self.can_act -= 1

    def _pot_limit_to(self, i: int) -> int:
        """The largest street total a pot-capped (pot or half-pot limit) bet or raise may
        reach."""
        return pot_capped_to(self.current, self.pot, self.current - self.bet[i], self.pot_divisor)

    def _full_raise(self, i: int, increment: int) -> None:
        """A full bet or raise: it counts toward the cap and reopens the betting."""
        self.bets += 1
        self.full_level = self.current
        if increment > self.last_increment or self.fixed:
            self.last_increment = increment
        self._reopen(i)

    def _reopen(self, i: int) -> None:
        acted = self.acted
        for j in range(len(acted)):
            acted[j] = False
        acted[i] = True


def _blind_limits(stakes: Stakes) -> Stakes:
    """Pot and no limit: the header's pair is the forced opener and the smallest bet (the
    blinds, or in stud the bring-in and the smallest bet), so the smallest bet is its second."""
    return Stakes(
        small_bet=stakes.big_blind,
        big_bet=stakes.big_blind,
        ante=stakes.ante,
        bring_in=stakes.bring_in or (stakes.small_blind if stakes.big_blind else 0),
        small_blind=stakes.small_blind,
        big_blind=stakes.big_blind,
    )


_UP_PATTERNS: dict[Game, tuple[tuple[bool, ...], ...]] = {}


def _up_patterns(spec: GameSpec) -> tuple[tuple[bool, ...], ...]:
    """For each number of cards held, which of them lie face up (the deal order of the game;
    cards beyond it, which only a malformed record produces, count as face down)."""
    patterns = _UP_PATTERNS.get(spec.game)
    if patterns is None:
        dealt = tuple(up for street in spec.streets for up in street.deal)
        padded = dealt + (False,) * DECK_SIZE
        patterns = tuple(padded[:length] for length in range(len(padded) + 1))
        _UP_PATTERNS[spec.game] = patterns
    return patterns
