"""The rules engine: one state machine for every game in `specs.GAME_SPECS`.

`HandState` is fed a hand's events one by one (`apply`). It knows at every point who is to act
(`actor`) and what they may do (`legal_actions`), so the same object validates exported hands
(replay), drives the random hand generator and backs the property tests. It never raises on a
bad hand: every departure from the rules becomes a `Violation`, and the state then follows the
record (resynchronises on the player who actually acted) so one mistake does not hide the next.

Speed matters (an import replays every hand): players are small integers in seat order,
per-player state lives in parallel lists, events dispatch through a dict on their kind, the
common case (the expected player acts) takes a short path, and enum members are read from
module constants (each `Enum.MEMBER` lookup costs a class attribute search in Python 3.11).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Final, cast

from studdraw.parsers.model import Card, Event, EventKind, Game, Seat, Stakes, Structure

from .boards import board_key, bring_in_key, has_open_pair
from .codes import Code, Violation
from .house import HouseRules
from .result import PlayerResult, PlayerStreet, ReplayResult, StreetResult
from .showdown import settle
from .specs import GameSpec, Opener

DECK_SIZE: Final = 52
NO_ONE: Final = -1
UNRESOLVED: Final = -2  # the opener depends on cards not yet dealt, or not shown
COMMUNITY: Final = -1  # owner of the shared stud river card in `HandState.seen`
DISCARDED: Final = -2  # owner of a known discarded card, until a reshuffle


class Phase(IntEnum):
    FORCED = 0  # antes and blinds, before the first street marker
    DEAL = 1  # a betting round is over: the next street marker is due
    BETTING = 2
    DRAWING = 3  # draw games: players exchange cards before the round's betting
    OVER = 4  # no more betting: uncalled bets, shows, mucks and collects


_FORCED, _DEAL, _BETTING, _DRAWING, _OVER = Phase
_ANTE: Final = EventKind.ANTE
_SMALL_BLIND: Final = EventKind.SMALL_BLIND
_BIG_BLIND: Final = EventKind.BIG_BLIND
_POST: Final = EventKind.POST
_DEAD: Final = EventKind.DEAD
_BRING_IN: Final = EventKind.BRING_IN
_FOLD: Final = EventKind.FOLD
_CHECK: Final = EventKind.CHECK
_CALL: Final = EventKind.CALL
_BET: Final = EventKind.BET
_RAISE: Final = EventKind.RAISE
_COMPLETE: Final = EventKind.COMPLETE
_COMMUNITY_CARD: Final = EventKind.COMMUNITY
_DISCARD: Final = EventKind.DISCARD
_STAND_PAT: Final = EventKind.STAND_PAT
_SHOW: Final = EventKind.SHOW
_OPENING: Final = frozenset({_BET, _COMPLETE, _RAISE})
_DRAW_KINDS: Final = (_DISCARD, _STAND_PAT)
_LIFTED_HEADS_UP: Final = frozenset({"last_round", "two_left"})
_FIXED: Final = Structure.FIXED
_POT: Final = Structure.POT
_SPREAD: Final = Structure.SPREAD


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the player to act may do.

    kinds: the event kinds allowed now (forced bet, betting actions, or the draw).
    to_call: chips a call puts in (already capped by the stack); 0 when a check is possible.
    min_to/max_to: the smallest and largest street total a bet, raise, completion or bring-in
        may reach; a player whose stack stops short of `min_to` may still go all-in.
    to_options: in fixed limit, the exact street totals allowed (one, or two where a 4th-street
        open pair offers the small or the big bet); None where any total in the range goes.
    max_discard: in a draw, the most cards the player may exchange.
    """

    player: str
    kinds: tuple[EventKind, ...]
    to_call: int
    min_to: int
    max_to: int
    to_options: tuple[int, ...] | None
    max_discard: int


class HandState:
    """The state of one hand, advanced event by event."""

    __slots__ = (
        "acted",
        "all_in",
        "ante_posts",
        "bet",
        "bets",
        "big_blind_index",
        "board",
        "bring_in_done",
        "bring_in_index",
        "bring_in_street",
        "burns",
        "button_index",
        "can_act",
        "cap_bets",
        "cards",
        "collects",
        "community",
        "community_check",
        "completions",
        "current",
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
        "phase",
        "pointer",
        "posted_ante",
        "pot",
        "pot_before",
        "raises",
        "reshuffle_stub",
        "round_open",
        "rules",
        "seat_numbers",
        "seen",
        "showed",
        "sized",
        "small_blind_index",
        "spec",
        "stack",
        "stakes",
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
        "violations",
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
    ) -> None:
        """`seats`: the players dealt in, in any order (kept in seat order). `button`: the seat
        number of the button in blind games (inferred from the blinds when None).
        `stake_table`: the forced bets the room posts at these limits (`stakes.room_stakes`),
        which win over the sizes a record inferred from its own posts."""
        ordered = sorted(seats, key=lambda seat: seat.seat)
        n = len(ordered)
        if structure is not _FIXED and structure is not _SPREAD and not stakes.small_bet:
            stakes = _blind_limits(stakes)
        if stake_table and any(getattr(stakes, k) != v for k, v in stake_table.items()):
            stakes = dataclasses.replace(stakes, **stake_table)
        self.spec = spec
        self.structure = structure
        self.stakes = stakes
        self.rules = rules
        self.stud = spec.bring_in is not None
        # The round the bring-in opens (stud's 3rd street), NO_ONE in blind games.
        self.bring_in_street = next(
            (k for k, street in enumerate(spec.streets) if street.opener is Opener.BRING_IN),
            NO_ONE,
        )
        self.board = spec.board
        # Stakes of 0 mean the export did not state them: bet sizes are then not checkable.
        self.sized = stakes.small_bet > 0
        self.fixed = structure is _FIXED
        self.limit = structure is _FIXED or structure is _SPREAD
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
        self.folded = [False] * n
        self.all_in = [seat.stack <= 0 for seat in ordered]
        self.posted_ante = [False] * n
        # Antes posted before the deal: (event, index, all-in), judged at the first street
        # marker against the stakes' ante, or the size most players posted.
        self.ante_posts: list[tuple[Event, int | None, bool]] = []
        self.showed = [False] * n
        self.mucked = [False] * n
        self.cards: list[list[Card | None]] = [[] for _ in range(n)]
        self.in_hand = n
        self.can_act = n - sum(self.all_in)
        self.pot = 0
        self.pot_before: list[int] = []
        self.violations: list[Violation] = []
        self.collects: list[tuple[int, int, str, int | None, int]] = []
        self.phase = _FORCED
        self.street = 0
        self.marker_seen = False
        self.min_bet = (stakes.small_bet if self.stud else stakes.big_blind) or stakes.small_bet
        self.cap_bets = 1 + rules.max_raises
        self.button_index = self._button_index(button)
        self.big_blind_index = NO_ONE
        self.small_blind_index = NO_ONE
        self.bring_in_index = NO_ONE
        self.bring_in_done = False
        self.uncalled_due: tuple[int, int] | None = None
        self.seen: dict[Card, int] = {}
        self.stub = [DECK_SIZE, DECK_SIZE]  # cards left without burns, with burns
        self.burns = 0
        self.muck = 0
        self.reshuffle_stub: tuple[int, int] | None = None
        self.community: Card | None = None
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
        self.tied_openers: tuple[int, ...] = ()
        self.units: tuple[int, ...] = ()
        self._reset_round()
        self.street_put = [0] * n
        self.street_actions: list[list[EventKind]] = [[] for _ in range(n)]
        self.street_folded = [False] * n
        self.street_pot_start = 0
        self.street_players_in = n
        self.street_in = [True] * n

    # --- public API ---------------------------------------------------------------------------

    def actor(self) -> str | None:
        """The player whose turn it is: to post a forced bet, to bet, or to draw. None while the
        dealer is due (a street marker and its cards), or once the hand is over."""
        i = self._actor_index()
        return self.names[i] if i >= 0 else None

    def legal_actions(self) -> LegalActions | None:
        """What `actor()` may do now, or None when no player is to act."""
        i = self._actor_index()
        if i < 0:
            return None
        stakes = self.stakes
        name = self.names[i]
        stack = self.stack[i]
        if self.phase is _FORCED:
            kind, amount = self._forced_due(i)
            amount = min(amount, stack)
            return LegalActions(name, (kind,), 0, amount, amount, (amount,), 0)
        if self.phase is _DRAWING:
            return LegalActions(name, _DRAW_KINDS, 0, 0, 0, None, self.spec.max_discard)
        bet = self.bet[i]
        most = bet + stack
        if self._awaiting_bring_in():
            bring = min(self._bring_in_range(i)[0], stack)
            complete = min(stakes.small_bet, most)
            kinds = (_BRING_IN, _COMPLETE)
            return LegalActions(name, kinds, 0, bet + bring, complete, (bet + bring, complete), 0)
        to_call = min(self.current - bet, stack)
        allowed = [_FOLD, _CALL if to_call > 0 else _CHECK]
        if most > self.current and not self._capped() and not self.acted[i]:
            low, high, exact = self._raise_options(i)
            if self.current == 0:
                allowed.append(_BET)
            elif self._completion_open():
                allowed.append(_COMPLETE)
            else:
                allowed.append(_RAISE)
            return LegalActions(name, tuple(allowed), to_call, low, min(high, most), exact, 0)
        return LegalActions(name, tuple(allowed), to_call, 0, 0, None, 0)

    def apply(self, event: Event, index: int | None = None) -> None:
        """Advance by one event of the record; `index` is its position, kept on violations."""
        self.pot_before.append(self.pot)
        if self.community_check is not None and event.kind is not _COMMUNITY_CARD:
            self._check_community_deal(event, index)
        handler = _HANDLERS.get(event.kind)
        if handler is not None:
            handler(self, event, index)

    def run(self, events: Sequence[Event]) -> None:
        """`apply` every event in order (the replay loop, with the dispatch inlined)."""
        pot_before = self.pot_before
        handlers = _HANDLERS
        for index, event in enumerate(events):
            pot_before.append(self.pot)
            kind = event.kind
            if self.community_check is not None and kind is not _COMMUNITY_CARD:
                self._check_community_deal(event, index)
            handler = handlers.get(kind)
            if handler is not None:
                handler(self, event, index)

    def expected_uncalled(self) -> tuple[str, int] | None:
        """The bet the room must return now (player, chips), once a betting round is over."""
        if self.uncalled_due is None:
            return None
        i, amount = self.uncalled_due
        return self.names[i], amount

    @property
    def over(self) -> bool:
        return self.phase is _OVER

    def up(self, i: int) -> tuple[bool, ...]:
        """Which of player `i`'s cards lie face up."""
        cards = self.cards[i]
        pattern = self.up_by_length[len(cards)]
        if self.community is not None and cards and cards[-1] == self.community:
            return (*pattern[:-1], True)
        return pattern

    def finish(
        self,
        room_total: int | None = None,
        room_rake: int | None = None,
        tournament: bool = False,
        line: int = 0,
    ) -> ReplayResult:
        """Close the hand: check it ran its course, settle the pots, build the result.
        `room_total`/`room_rake`: what the room reported (None when it did not); `line`: where
        hand-level violations point (the hand's first line)."""
        if self.ante_posts:  # the hand never reached its first street
            self._judge_antes()
        spec = self.spec
        seats = self.rules.players_allowed(spec.family, spec.max_players)
        if len(self.names) > seats:
            self.flag_at(
                Code.STR009,
                None,
                line,
                f"{len(self.names)} players are dealt in; {spec.game} deals to {seats} at most",
            )
        if self.uncalled_due is not None and self.rules.uncalled_returned:
            i, amount = self.uncalled_due
            self.flag_at(
                Code.MNY004, None, line, f"{amount} uncalled was not returned to {self.names[i]}"
            )
        self.uncalled_due = None
        if self.phase is not _OVER and self.in_hand >= 2:
            unfinished = self._unfinished()
            if unfinished is not None:
                self.flag_at(Code.STR005, None, line, f"the hand ends, but {unfinished}")
            else:
                name = self.spec.streets[self.street].name if self.marker_seen else "no street"
                self.flag_at(
                    Code.STR006,
                    None,
                    line,
                    f"the hand ends on {name} with {self.in_hand} players in",
                )
        if self.marker_seen:
            self._close_street()
        pots, total, rake, found = settle(self, room_total, room_rake, tournament, line)
        self.violations.extend(found)
        won = [0] * len(self.names)
        for player, amount, _, _, _ in self.collects:
            won[player] += amount
        invested = self.invested
        players = [
            PlayerResult(
                name,
                self.seat_numbers[i],
                self._position(i),
                invested[i],
                won[i],
                won[i] - invested[i],
                self.showed[i],
                won[i] > 0,
                tuple(self.cards[i]),
                self.up(i),
            )
            for i, name in enumerate(self.names)
        ]
        return ReplayResult(
            self.street_results, players, pots, total, rake, self.pot_before, self.violations
        )

    # --- violations ---------------------------------------------------------------------------

    def flag(self, code: Code, event: Event, index: int | None, message: str) -> None:
        """Record a violation located at an event."""
        self.violations.append(
            Violation(code, code.severity, self.street, index, event.line, message)
        )

    def flag_at(self, code: Code, index: int | None, line: int, message: str) -> None:
        """Record a violation found when settling the hand (street None unless at an event)."""
        street = self.street if index is not None else None
        self.violations.append(Violation(code, code.severity, street, index, line, message))

    # --- players and turns --------------------------------------------------------------------

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

    def _needs(self, j: int) -> bool:
        return (
            not self.folded[j]
            and not self.all_in[j]
            and (self.bet[j] < self.current or (not self.acted[j] and self.can_act >= 2))
        )

    def _next_needing(self, i: int) -> int:
        """The first player after `i` (clockwise, `i` last) who must still act, or NO_ONE."""
        folded, all_in, bet, acted = self.folded, self.all_in, self.bet, self.acted
        current = self.current
        open_ = self.can_act >= 2
        n = len(folded)
        j = i
        for _ in range(n):
            j = j + 1 if j + 1 < n else 0
            if not folded[j] and not all_in[j] and (bet[j] < current or (open_ and not acted[j])):
                return j
        return NO_ONE

    def _actor_index(self) -> int:
        phase = self.phase
        if phase is _BETTING:
            pointer = self.pointer
            if pointer == UNRESOLVED:
                pointer = self._resolve_opener()
                # The bring-in player is named but not set as the pointer: their first action
                # (bring-in or completion) must go through the checked path.
                if pointer != UNRESOLVED and not self._awaiting_bring_in():
                    self.pointer = pointer
            return pointer if pointer >= 0 else NO_ONE
        if phase is _DRAWING:
            return self._next_drawer()
        if phase is _FORCED:
            return self._next_forced()
        return NO_ONE

    def _next_forced(self) -> int:
        """The next player owing a forced bet before the deal: antes in seat order, then the
        small and big blinds from the button."""
        stakes = self.stakes
        if stakes.ante:
            for i, posted in enumerate(self.posted_ante):
                if not posted and not self.all_in[i]:
                    return i
        if self.stud or len(self.names) < 2:
            return NO_ONE
        small, big = self._blind_seats()
        if self.small_blind_index == NO_ONE and stakes.small_blind and not self.all_in[small]:
            return small
        if self.big_blind_index == NO_ONE and not self.all_in[big]:
            return big
        return NO_ONE

    def _blind_seats(self) -> tuple[int, int]:
        n = len(self.names)
        button = self.button_index if self.button_index >= 0 else n - 1
        if n == 2:  # heads-up: the button posts the small blind
            return button, (button + 1) % n
        return (button + 1) % n, (button + 2) % n

    def _forced_due(self, i: int) -> tuple[EventKind, int]:
        stakes = self.stakes
        if stakes.ante and not self.posted_ante[i]:
            return _ANTE, stakes.ante
        if self.small_blind_index == NO_ONE and stakes.small_blind and i == self._blind_seats()[0]:
            return _SMALL_BLIND, stakes.small_blind
        return _BIG_BLIND, self._big_blind_size()

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
        if opener is Opener.LEFT_OF_BIG_BLIND:
            start = self.big_blind_index
            if start < 0:
                start = self._blind_seats()[1]
            return self._next_needing(start)
        if opener is Opener.LEFT_OF_BUTTON:
            start = self.button_index if self.button_index >= 0 else len(self.names) - 1
            return self._next_needing(start)
        return self._board_opener(opener is Opener.LOW_BOARD)

    def _board_opener(self, ace_low: bool) -> int:
        """The best board opens; a community card, face up for all, is part of every board."""
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
        best = min(keys)[0] if ace_low else max(keys)[0]
        tied = tuple(i for key, i in keys if key == best)
        self.tied_openers = tied
        first = tied[0]
        if len(tied) > 1 and not ace_low and self.rules.first_actor_tie_break == "suit":
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
        for i, cards in enumerate(self.cards):
            if self.folded[i] or self.all_in[i] or len(cards) < 3:
                continue
            door = cards[2]
            if door is None:
                return UNRESOLVED
            key = bring_in_key(door, rule, suits)
            if key > best_key:
                best, best_key = i, key
        return best

    def _awaiting_bring_in(self) -> bool:
        return self.street == self.bring_in_street and not self.bring_in_done

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

    # --- rounds and streets -------------------------------------------------------------------

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
        top_amount = max(bets)
        if top_amount:
            second = sorted(bets)[-2] if len(bets) > 1 else 0
            if top_amount > second:
                self.uncalled_due = (bets.index(top_amount), top_amount - second)
        last = self.in_hand <= 1 or self.street >= self.spec.last_street
        self.phase = _OVER if last else _DEAL

    def _unfinished(self) -> str | None:
        """Who still had to act when the round was cut short, as a message, or None."""
        if self.phase is _DRAWING:
            drawer = self._next_drawer()
            return f"{self.names[drawer]} had not drawn" if drawer >= 0 else None
        if self.phase is not _BETTING:
            return None
        if self._awaiting_bring_in():
            return "the bring-in was not posted"
        if self.pointer >= 0:
            return f"{self.names[self.pointer]} had not acted"
        if self.pointer == UNRESOLVED:
            waiting = next((j for j in range(len(self.names)) if self._needs(j)), NO_ONE)
            if waiting >= 0:
                return f"{self.names[waiting]} had not acted"
        return None

    def _close_street(self) -> None:
        """Snapshot the street that just ended for the store."""
        street = self.street
        names, cards, put, actions = self.names, self.cards, self.street_put, self.street_actions
        folded, all_in, up = self.street_folded, self.all_in, self.up_by_length
        drawn = self.drawn if self.spec.streets[street].draw else self.no_draws
        community = self.community
        players = []
        for i, was_in in enumerate(self.street_in):
            if was_in:
                held = cards[i]
                players.append(
                    PlayerStreet(
                        names[i],
                        street,
                        tuple(held),
                        up[len(held)] if community is None else self.up(i),
                        put[i],
                        tuple(actions[i]),
                        folded[i],
                        all_in[i],
                        drawn[i],
                    )
                )
        first = names[self.first_actor] if self.first_actor >= 0 else None
        self.street_results.append(
            StreetResult(
                street,
                self.spec.streets[street].name,
                self.street_pot_start,
                self.pot,
                self.street_players_in,
                self.opening_bets,
                self.raises,
                self.completions,
                first,
                players,
            )
        )

    def _start_street(self, street: int, event: Event, index: int | None) -> None:
        first = not self.marker_seen
        self.street = street
        self.marker_seen = True
        folded = self.folded
        n = len(folded)
        if not first or street != 0:
            # The first round keeps what was posted before its marker: antes and blinds.
            self._reset_round()
            self.street_put = [0] * n
            self.street_actions = [[] for _ in range(n)]
            self.street_folded = [False] * n
            self.street_pot_start = self.pot
            self.street_players_in = self.in_hand
            self.street_in = [not out for out in folded]
        spec_street = self.spec.streets[street]
        deal = spec_street.deal
        if deal:
            self._burn()
            slots = [None] * len(deal)
            active = 0
            for i in range(n):
                if not folded[i]:
                    active += 1
                    held = self.cards[i]
                    self.street_offset[i] = len(held)
                    held.extend(slots)
            if street == self.spec.community_street:
                # Checked at the next event: the room may deal one community card instead.
                self.community_check = (active, self.stub[0], self.stub[1])
            else:
                self._take_from_stub(active * len(deal), event, index)
        if spec_street.draw:
            self._start_draw()
        else:
            self._start_betting()

    def _start_draw(self) -> None:
        self._burn()
        self.phase = _DRAWING
        n = len(self.names)
        self.drew = [False] * n
        self.drawn = [None] * n
        self.draw_pending = [0] * n
        start = self.button_index if self.button_index >= 0 else n - 1
        order = [(start + step) % n for step in range(1, n + 1)]
        self.draw_queue = [j for j in order if not self.folded[j]]
        self.draw_pos = 0
        if not self.draw_queue:
            self._start_betting()

    def _start_betting(self) -> None:
        self.phase = _BETTING
        self.pointer = UNRESOLVED
        if self._awaiting_bring_in() and self.can_act < 2:
            self.bring_in_done = True  # all-in on the antes: no one to bet against
        if self._awaiting_bring_in():
            return
        if self._next_needing(len(self.names) - 1) < 0:
            self._end_round()
        elif not self.stud:  # a position opener needs no cards: name it now
            self.pointer = self._resolve_opener()

    # --- the deck -------------------------------------------------------------------------

    def _burn(self) -> None:
        self.burns += 1
        self.stub[1] -= 1

    def _stub_for_error(self) -> int:
        """Cards certainly left: the count a shortage must exceed to be an error."""
        return self.stub[1] if self.rules.burn_cards else self.stub[0]

    def _take_from_stub(self, count: int, event: Event, index: int | None) -> None:
        stub = self.stub
        if count > (stub[1] if self.rules.burn_cards else stub[0]):
            self.flag(
                Code.CRD007,
                event,
                index,
                f"{count} cards needed but the deck holds {max(self._stub_for_error(), 0)}",
            )
        stub[0] -= count
        stub[1] -= count

    def _see(self, card: Card, owner: int, event: Event, index: int | None) -> bool:
        """Record a card newly known; False (and CRD001) if it was already seen elsewhere."""
        holder = self.seen.get(card)
        if holder is not None:
            where = (
                "as the community card"
                if holder == COMMUNITY
                else "in the discards"
                if holder == DISCARDED
                else f"to {self.names[holder]}"
            )
            self.flag(Code.CRD001, event, index, f"{card} was already dealt {where}")
            return False
        self.seen[card] = owner
        return True

    # --- money ------------------------------------------------------------------------------

    def _put(self, i: int, amount: int, event: Event, index: int | None, live: bool) -> None:
        stack = self.stack[i]
        if amount > stack:
            self.flag(
                Code.MNY001,
                event,
                index,
                f"{self.names[i]} puts in {amount} with {stack} behind",
            )
        elif event.all_in and amount < stack:
            self.flag(
                Code.SIZ014,
                event,
                index,
                f"{self.names[i]} is marked all-in with {stack - amount} left",
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

    # --- event handlers: forced bets --------------------------------------------------------

    def _forced_out_of_place(self, event: Event, index: int | None, what: str) -> None:
        if self.round_open or self.street > 0 or self.phase is _OVER:
            self.flag(Code.STR007, event, index, f"{what} posted after the betting began")

    def _on_ante(self, event: Event, index: int | None) -> None:
        i = self._player(event, index)
        if i < 0:
            return
        name = self.names[i]
        if self.round_open or self.street > 0 or self.phase is _OVER:
            self._forced_out_of_place(event, index, f"{name}'s ante")
        elif self.posted_ante[i]:
            self.flag(Code.STR007, event, index, f"{name} posts a second ante")
        all_in = event.amount >= self.stack[i]
        if self.marker_seen:
            self._check_ante(event, index, all_in, self.stakes.ante)
        else:
            self.ante_posts.append((event, index, all_in))
        self.posted_ante[i] = True
        self._put(i, event.amount, event, index, live=False)
        self.street_actions[i].append(_ANTE)

    def _check_ante(self, event: Event, index: int | None, all_in: bool, ante: int) -> None:
        amount = event.amount
        if amount != ante and not (amount < ante and all_in):
            self.flag(
                Code.SIZ012, event, index, f"{event.player} antes {amount}, the ante is {ante}"
            )

    def _judge_antes(self) -> None:
        """The antes posted before the deal, against the stakes' ante where the header or the
        room's stake table gives it, else the size most players posted (the largest on a tie):
        one player's odd ante is that player's, never the others'."""
        posts = self.ante_posts
        self.ante_posts = []
        ante = self.stakes.ante
        complete = [event.amount for event, _, all_in in posts if not all_in]
        # The record's ante is its largest post unless printed: then the most common counts.
        if complete and ante == max(complete) and any(amount != ante for amount in complete):
            counts = Counter(complete)
            most = max(counts.values())
            ante = max(size for size, count in counts.items() if count == most)
        for event, index, all_in in posts:
            self._check_ante(event, index, all_in, ante)

    def _on_blind(self, event: Event, index: int | None) -> None:
        i = self._player(event, index)
        if i < 0:
            return
        name = self.names[i]
        kind = event.kind
        amount = event.amount
        if self.stud:
            self.flag(Code.STR007, event, index, f"{name} posts a blind in a stud game")
        else:
            self._forced_out_of_place(event, index, f"{name}'s blind")
        self.street_actions[i].append(kind)
        if (kind is _DEAD or kind is _POST) and not self.rules.dead_blinds:
            self.flag(
                Code.ORD010,
                event,
                index,
                f"{name} posts out of turn; the house allows no dead blinds",
            )
        if kind is _DEAD:
            self._put(i, amount, event, index, live=False)
            return
        big = self._big_blind_size()
        n = len(self.names)
        if kind is _SMALL_BLIND:
            if self.small_blind_index == NO_ONE:
                if self.button_index == NO_ONE:  # no button printed: it sits before the SB
                    self.button_index = i if n == 2 else (i - 1) % n
                else:
                    self._check_blind_seat(i, "small", self._blind_seats()[0], event, index)
                self.small_blind_index = i
            expected = self.stakes.small_blind
            # A room's small blind is a third to a half of the big blind (or more, below it).
            wrong = amount != expected or amount >= big or amount * 3 < big
        elif kind is _BIG_BLIND:
            if self.big_blind_index == NO_ONE:
                if self.button_index == NO_ONE:
                    self.button_index = (i - 1) % n if n == 2 else (i - 2) % n
                elif self.small_blind_index >= 0:
                    self._check_blind_seat(i, "big", (self.small_blind_index + 1) % n, event, index)
                elif n > 2 and i not in self._blind_seats():  # the small blind may be dead
                    self._check_blind_seat(i, "big", self._blind_seats()[1], event, index)
                self.big_blind_index = i
            expected = big
            wrong = amount != big
        else:
            expected = big
            wrong = amount > big
        if wrong and not (amount >= self.stack[i] and amount < big) and self.sized:
            self.flag(Code.SIZ013, event, index, f"{name} posts {amount}, expected {expected}")
        self._put(i, amount, event, index, live=True)
        self.current = max(self.current, self.bet[i])
        if kind is _BIG_BLIND and self.bets == 0:
            self.current = max(self.current, big)
            self.full_level = self.current
            self.last_increment = big
            self.bets = 1
            self.opening_bets = 1

    def _check_blind_seat(
        self, i: int, blind: str, due: int, event: Event, index: int | None
    ) -> None:
        """The blinds sit left of the button (heads-up, the button posts the small blind)."""
        if i != due:
            self.flag(
                Code.ORD010,
                event,
                index,
                f"{self.names[i]} posts the {blind} blind; it is {self.names[due]}'s seat",
            )

    def _bring_in_range(self, i: int) -> tuple[int, int]:
        """The smallest and largest bring-in the stakes, the structure and the house allow.

        Limit games: below the small bet (that is a completion) and never below the ante, of
        the size the house names (`HouseRules.bring_in_size`). Pot and no limit: anything from
        the ante (the rulebooks' minimum bring-in) to the pot, or to the stack."""
        stakes = self.stakes
        ante, bring_in, small = stakes.ante, stakes.bring_in, stakes.small_bet
        floor = ante or bring_in or 1
        if not self.limit:
            top = self._pot_limit_to(i) if self.structure is _POT else self.stack[i]
            return min(floor, bring_in or floor), top
        below_small = small - 1 if self.sized else self.stack[i]
        size = self.rules.bring_in_size
        if size == "stakes" and bring_in:
            return max(bring_in, ante), bring_in  # a stake below the ante fits nothing
        if size == "ante" and ante:
            return ante, ante
        if size == "half" and small:
            return max(small // 2, ante), small // 2
        return floor, below_small

    def _on_bring_in(self, event: Event, index: int | None) -> None:
        i = self._player(event, index)
        if i < 0:
            return
        name = self.names[i]
        stakes = self.stakes
        if not self._awaiting_bring_in() or not self.marker_seen or self.phase is not _BETTING:
            self.flag(Code.STR007, event, index, f"{name} brings in outside 3rd street's opening")
        else:
            expected = self._bring_in_player()
            if expected >= 0 and expected != i:
                self.flag(
                    Code.ORD003,
                    event,
                    index,
                    f"{name} brings in, but {self.names[expected]} has the bring-in card",
                )
        amount = event.amount
        short = amount >= self.stack[i]
        low, high = self._bring_in_range(i)
        if amount <= 0 or amount > high or (amount < low and not short):
            size = str(high) if low >= high else f"{low} to {high}"
            self.flag(
                Code.SIZ002,
                event,
                index,
                f"{name} brings in for {amount}: the bring-in is {size} "
                f"(ante {stakes.ante}, small bet {stakes.small_bet})",
            )
        self.bring_in_done = True
        self.bring_in_index = i
        self._put(i, amount, event, index, live=True)
        self.current = max(self.current, self.bet[i])
        if not self.limit and amount >= self.min_bet > 0:
            self.completions = 1  # a pot- or no-limit bring-in of a full bet opens the round
            self._full_raise(i, amount)
        self.acted[i] = True
        self.street_actions[i].append(_BRING_IN)
        if self.first_actor < 0:
            self.first_actor = i
        self._advance(i)

    # --- event handlers: betting ------------------------------------------------------------

    def _checked_turn(self, i: int, event: Event, index: int | None) -> int:
        """A betting action by someone other than the player to act (the handlers' short path
        covers that common case): find out why. The player's index when the event is applied
        anyway (the state follows the record), NO_ONE when it is ignored."""
        if (
            self.pointer == UNRESOLVED
            and i >= 0
            and self.phase is _BETTING
            and not self._awaiting_bring_in()
        ):
            # The street's first action: name the opener now that the cards are dealt.
            self.pointer = self._resolve_opener()
            if self.pointer == i:
                if self.first_actor < 0:
                    self.first_actor = i
                return i
        if i < 0:
            self._unknown_player(event, index)
            return NO_ONE
        name = self.names[i]
        if self.folded[i]:
            self.flag(Code.ORD002, event, index, f"{name} acts after folding")
            return NO_ONE
        phase = self.phase
        if phase is _OVER:
            self.flag(Code.STR004, event, index, f"{name} acts after the betting ended")
            return NO_ONE
        if not self.marker_seen:
            self.flag(Code.STR001, event, index, f"{name} acts before the first street began")
            return NO_ONE
        if self.all_in[i]:
            self.flag(Code.ORD007, event, index, f"{name} acts while all-in")
            # A fold is followed (the player forfeits the pot); anything else moves no chips.
            return i if event.kind is _FOLD else NO_ONE
        if phase is _DEAL:
            self.flag(Code.ORD001, event, index, f"{name} acts after the betting round closed")
            return NO_ONE
        if phase is _DRAWING:
            drawer = self._next_drawer()
            self.flag(Code.ORD008, event, index, f"{name} bets before {self.names[drawer]} drew")
            self._start_betting()
            if self.phase is not _BETTING:
                return NO_ONE
        if self._awaiting_bring_in():
            return self._first_stud_action(i, event, index)
        expected = self.pointer
        if expected == UNRESOLVED:
            expected = self._resolve_opener()
            self.pointer = expected
        if expected == NO_ONE:
            self.flag(Code.ORD001, event, index, f"{name} acts, but no one is to act")
            return NO_ONE
        if expected >= 0 and i != expected:
            self._wrong_actor(i, expected, event, index)
        if self.first_actor < 0:
            self.first_actor = i
        return i

    def _wrong_actor(self, i: int, expected: int, event: Event, index: int | None) -> None:
        name, due = self.names[i], self.names[expected]
        opener = self.spec.streets[self.street].opener
        board = opener is Opener.HIGH_BOARD or opener is Opener.LOW_BOARD
        if board and not self.round_open:
            if i in self.tied_openers:
                if self.rules.first_actor_tie_break != "any":
                    self.flag(
                        Code.ORD005,
                        event,
                        index,
                        f"{name} opens; the house tie-break names {due} among equal boards",
                    )
            else:
                self.flag(
                    Code.ORD004, event, index, f"{name} opens, but {due} shows the best board"
                )
        else:
            self.flag(Code.ORD001, event, index, f"{name} acts, but it is {due}'s turn")

    def _first_stud_action(self, i: int, event: Event, index: int | None) -> int:
        """3rd street before any bring-in: only the bring-in player may open, by completing."""
        expected = self._bring_in_player()
        opening = event.kind in _OPENING
        self.bring_in_done = True
        if opening:
            self.bring_in_index = i
            if expected >= 0 and expected != i:
                self.flag(
                    Code.ORD003,
                    event,
                    index,
                    f"{self.names[i]} opens 3rd street, but {self.names[expected]} has the "
                    "bring-in card",
                )
        else:
            self.bring_in_index = expected if expected >= 0 else i
            self.flag(Code.STR002, event, index, "3rd street betting starts without a bring-in")
        self.pointer = i
        if self.first_actor < 0:
            self.first_actor = i
        return i

    def _on_fold(self, event: Event, index: int | None) -> None:
        i = self.index.get(event.player or "", NO_ONE)
        if i != self.pointer or i < 0:  # not the player to act: find out why
            i = self._checked_turn(i, event, index)
            if i < 0:
                return
        elif self.first_actor < 0:
            self.first_actor = i
        self.folded[i] = True
        self.in_hand -= 1
        if not self.all_in[i]:
            self.can_act -= 1
        self.street_folded[i] = True
        self.acted[i] = True
        self.muck += len(self.cards[i])
        self.street_actions[i].append(_FOLD)
        self._advance(i)

    def _on_check(self, event: Event, index: int | None) -> None:
        i = self.index.get(event.player or "", NO_ONE)
        if i != self.pointer or i < 0:  # not the player to act: find out why
            i = self._checked_turn(i, event, index)
            if i < 0:
                return
        elif self.first_actor < 0:
            self.first_actor = i
        if self.bet[i] < self.current:
            self.flag(
                Code.SIZ008,
                event,
                index,
                f"{self.names[i]} checks facing {self.current - self.bet[i]} to call",
            )
        self.acted[i] = True
        self.street_actions[i].append(_CHECK)
        self._advance(i)

    def _on_call(self, event: Event, index: int | None) -> None:
        i = self.index.get(event.player or "", NO_ONE)
        if i != self.pointer or i < 0:  # not the player to act: find out why
            i = self._checked_turn(i, event, index)
            if i < 0:
                return
        elif self.first_actor < 0:
            self.first_actor = i
        to_call = self.current - self.bet[i]
        amount = event.amount
        if to_call <= 0:
            self.flag(Code.SIZ009, event, index, f"{self.names[i]} calls with nothing to call")
        else:
            stack = self.stack[i]
            expected = to_call if to_call <= stack else stack
            if amount != expected:
                self.flag(
                    Code.SIZ004,
                    event,
                    index,
                    f"{self.names[i]} calls {amount}, the call is {expected}",
                )
        self._put(i, amount, event, index, live=True)
        self.acted[i] = True
        self.street_actions[i].append(_CALL)
        self._advance(i)

    def _on_bet(self, event: Event, index: int | None) -> None:
        i = self.index.get(event.player or "", NO_ONE)
        if i != self.pointer or i < 0:  # not the player to act: find out why
            i = self._checked_turn(i, event, index)
            if i < 0:
                return
        elif self.first_actor < 0:
            self.first_actor = i
        if self._completion_open():
            self._complete(i, event, index)
        elif self.current > 0:
            self.flag(
                Code.SIZ010,
                event,
                index,
                f"{self.names[i]} bets facing a bet of {self.current}: that is a raise",
            )
            self._raise(i, event, index)
        else:
            self._open(i, event, index)

    def _on_raise(self, event: Event, index: int | None) -> None:
        i = self.index.get(event.player or "", NO_ONE)
        if i != self.pointer or i < 0:  # not the player to act: find out why
            i = self._checked_turn(i, event, index)
            if i < 0:
                return
        elif self.first_actor < 0:
            self.first_actor = i
        if self.current == 0:
            self.flag(Code.SIZ011, event, index, f"{self.names[i]} raises with no bet to raise")
            self._open(i, event, index)
        elif self._completion_open():
            self._complete(i, event, index)
        else:
            self._raise(i, event, index)

    def _on_complete(self, event: Event, index: int | None) -> None:
        i = self.index.get(event.player or "", NO_ONE)
        if i != self.pointer or i < 0:  # not the player to act: find out why
            i = self._checked_turn(i, event, index)
            if i < 0:
                return
        elif self.first_actor < 0:
            self.first_actor = i
        if self._completion_open():
            self._complete(i, event, index)
        else:
            self.flag(
                Code.SIZ010,
                event,
                index,
                f"{self.names[i]} completes, but there is no bring-in to complete",
            )
            self._raise(i, event, index)

    def _bet_units(self) -> tuple[int, ...]:
        """Fixed-limit sizes open now: a 4th-street open pair offers the big bet too (also when
        an export hides the boards, so the pair cannot be ruled out), and once the big bet is
        in, every raise is a big bet."""
        if (
            self.fixed
            and self.street == self.spec.open_pair_street
            and (self.open_pair or self._boards_hidden())
        ):
            big = self.stakes.big_bet
            if self.bets and self.last_increment == big:
                return (big,)
            return (self.stakes.small_bet, big)
        return self.units

    def _boards_hidden(self) -> bool:
        return any(
            None in cards[self.board] for i, cards in enumerate(self.cards) if not self.folded[i]
        )

    def _raise_options(self, i: int) -> tuple[int, int, tuple[int, ...] | None]:
        """(min_to, max_to, exact totals or None) for the next bet, raise or completion."""
        stakes = self.stakes
        structure = self.structure
        current = self.current
        if self._completion_open():
            target = stakes.small_bet
            if structure is _FIXED:
                return target, target, (target,)
            if structure is _SPREAD:  # it.txt: "complete by any amount within the spread"
                return target, stakes.big_bet, None
            if structure is _POT:  # to the small bet, or as far as the pot allows
                return target, max(target, self._pot_limit_to(i)), None
            return target, self.bet[i] + self.stack[i], None
        if structure is _FIXED:
            units = self._bet_units()
            if current == 0:
                return min(units), max(units), units
            bases = (current,) if self.full_level == current else (self.full_level, current)
            totals = tuple(sorted({level + unit for unit in units for level in bases}))
            return totals[0], totals[-1], totals
        if structure is _SPREAD:
            low = max(stakes.small_bet, self.last_increment if current else 0)
            return current + low, current + stakes.big_bet, None
        minimum = current + (self.last_increment if current else self.min_bet)
        if structure is _POT:
            return minimum, self._pot_limit_to(i), None
        return minimum, self.bet[i] + self.stack[i], None

    def _pot_limit_to(self, i: int) -> int:
        """The largest street total a pot-limit bet or raise may reach."""
        return self.current + self.pot + (self.current - self.bet[i])

    def _open(self, i: int, event: Event, index: int | None) -> None:
        amount = event.amount
        if self.sized or self.structure is _POT:
            self._check_bet_size(i, event, index)
        full_size = min(self._bet_units()) if self.limit else self.min_bet
        self._put(i, amount, event, index, live=True)
        self.current = self.bet[i]
        if amount >= full_size:
            self._full_raise(i, amount)
            self.opening_bets = 1
        else:
            self._short_all_in(i, amount, full_size)
        self.acted[i] = True
        self.street_actions[i].append(_BET)
        self._advance(i)

    def _check_bet_size(self, i: int, event: Event, index: int | None) -> None:
        amount = event.amount
        name = self.names[i]
        short = amount >= self.stack[i]
        structure = self.structure
        if structure is _FIXED:
            units = self._bet_units()
            if amount not in units and not (short and amount < max(units)):
                sizes = " or ".join(str(u) for u in units)
                self.flag(Code.SIZ001, event, index, f"{name} bets {amount}, the bet is {sizes}")
        elif structure is _SPREAD:
            low, high = self.stakes.small_bet, self.stakes.big_bet
            if amount > high or (amount < low and not short):
                self.flag(Code.SIZ001, event, index, f"{name} bets {amount}, outside {low}-{high}")
        else:
            if amount < self.min_bet and not short and self.sized:
                self.flag(
                    Code.SIZ001,
                    event,
                    index,
                    f"{name} bets {amount}, the minimum is {self.min_bet}",
                )
            if structure is _POT and amount > self._pot_limit_to(i):
                self.flag(
                    Code.SIZ007, event, index, f"{name} bets {amount} into a pot of {self.pot}"
                )

    def _complete(self, i: int, event: Event, index: int | None) -> None:
        name = self.names[i]
        to = self.bet[i] + event.amount
        target, most, _ = self._raise_options(i)
        short = event.amount >= self.stack[i]
        if self.sized and (to > most or (to < target and not short)):
            size = str(target) if target == most else f"{target} to {most}"
            self.flag(Code.SIZ003, event, index, f"{name} completes to {to}, not to {size}")
        self._put(i, event.amount, event, index, live=True)
        self.current = max(self.current, to)
        if to >= target:
            self.completions = 1
            self._full_raise(i, target if self.fixed else to)
        self.acted[i] = True
        self.street_actions[i].append(_COMPLETE)
        self._advance(i)

    def _raise(self, i: int, event: Event, index: int | None) -> None:
        name = self.names[i]
        amount = event.amount
        to = self.bet[i] + amount
        short = amount >= self.stack[i]
        current = self.current
        if self._capped():
            self.flag(
                Code.CAP001, event, index, f"{name} raises after the cap of {self.cap_bets} bets"
            )
        if self.acted[i] and self.bet[i] < current:
            self.flag(
                Code.ORD009,
                event,
                index,
                f"{name} re-raises, but only a short all-in raised since {name} acted",
            )
        low = self._raise_options(i)[0]
        if to <= current:
            self.flag(Code.SIZ005, event, index, f"{name} raises to {to}, not above {current}")
        elif self.sized or self.structure is _POT:
            self._check_raise_size(i, to, short, event, index)
        self._put(i, amount, event, index, live=True)
        if to > current:
            self.current = to
            if to >= low:
                self._full_raise(i, to - current)
                self.raises += 1
            else:
                self._short_all_in(i, to - current, low - current)
        self.acted[i] = True
        self.street_actions[i].append(_RAISE)
        self._advance(i)

    def _check_raise_size(
        self, i: int, to: int, short: bool, event: Event, index: int | None
    ) -> None:
        name = self.names[i]
        low, high, exact = self._raise_options(i)
        if exact is not None:
            if to in exact:
                return
            if to > high:
                self.flag(Code.SIZ006, event, index, f"{name} raises to {to}, the limit is {high}")
            elif not short:
                allowed = " or ".join(str(t) for t in exact)
                self.flag(Code.SIZ005, event, index, f"{name} raises to {to}, expected {allowed}")
        elif to < low and not short and self.sized:
            self.flag(Code.SIZ005, event, index, f"{name} raises to {to}, the minimum is {low}")
        elif to > high and self.structure is _POT:
            self.flag(Code.SIZ007, event, index, f"{name} raises to {to}, the pot limit is {high}")
        elif to > high and self.structure is _SPREAD:
            self.flag(Code.SIZ006, event, index, f"{name} raises to {to}, the limit is {high}")

    def _short_all_in(self, i: int, increment: int, full: int) -> None:
        """An all-in for less than a full bet or raise does not count toward the cap; in limit
        games where the house says so, half a bet or more reopens the betting."""
        if self.limit and self.rules.half_bet_reopens and increment * 2 >= full:
            self._reopen(i)

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

    # --- event handlers: street structure -----------------------------------------------------

    def _on_street(self, event: Event, index: int | None) -> None:
        street = event.street
        if self.phase is _OVER:
            self.flag(Code.STR004, event, index, "a new street after the betting ended")
            return
        expected = self.street + 1 if self.marker_seen else 0
        last = self.spec.last_street
        if street != expected or street > last:
            self.flag(
                Code.STR001,
                event,
                index,
                f"street {street} follows street {self.street}"
                if self.marker_seen
                else f"the hand opens on street {street}",
            )
            if (street <= self.street and self.marker_seen) or street > last:
                return
        if self.marker_seen:
            unfinished = self._unfinished()
            if unfinished is not None:
                self.flag(Code.STR005, event, index, f"street {street} began, but {unfinished}")
        self._flag_pending_uncalled(event, index)
        if self.marker_seen:
            self._close_street()
        else:
            self._check_forced_bets(event, index)
        self._start_street(street, event, index)

    def _check_forced_bets(self, event: Event, index: int | None) -> None:
        """At the first street marker: the antes are of the right size, every player anted
        (when there are antes), and a blind game has its big blind."""
        if self.ante_posts:
            self._judge_antes()
        if self.stakes.ante:
            for i, posted in enumerate(self.posted_ante):
                if not posted and self.stack[i] > 0:
                    self.flag(
                        Code.STR008, event, index, f"{self.names[i]} is dealt in without an ante"
                    )
        if not self.stud and self.big_blind_index == NO_ONE:
            self.flag(Code.STR003, event, index, "the first round starts without a big blind")

    def _flag_pending_uncalled(self, event: Event, index: int | None) -> None:
        if self.uncalled_due is not None and self.rules.uncalled_returned:
            i, amount = self.uncalled_due
            self.flag(
                Code.MNY004, event, index, f"{amount} uncalled was not returned to {self.names[i]}"
            )
        self.uncalled_due = None

    def _on_capped(self, event: Event, index: int | None) -> None:
        if not self.limit or self._cap_lifted() or self.bets != self.cap_bets:
            self.flag(
                Code.CAP002,
                event,
                index,
                f"the room announces the cap after {self.bets} bets; the house cap is "
                f"{self.cap_bets}",
            )

    def _on_open_pair(self, event: Event, index: int | None) -> None:
        self.open_pair = True

    # --- event handlers: cards --------------------------------------------------------------

    def _on_deal(self, event: Event, index: int | None) -> None:
        i = self._player(event, index)
        if i < 0:
            return
        name = self.names[i]
        if self.folded[i]:
            self.flag(Code.CRD006, event, index, f"{name} is dealt cards after folding")
            return
        if not self.marker_seen:
            self.flag(Code.STR001, event, index, f"{name} is dealt cards before the first street")
            return
        if self.phase is _OVER and self.in_hand <= 1:
            self.flag(Code.STR004, event, index, f"{name} is dealt cards after the hand ended")
            return
        spec_street = self.spec.streets[self.street]
        deal = spec_street.deal
        cards = event.cards
        if len(cards) != len(deal) or (event.up and event.up != deal) or self.community:
            self.flag(
                Code.CRD002,
                event,
                index,
                f"{name} is dealt {len(cards)} cards on {spec_street.name}, "
                f"which deals {len(deal)}",
            )
        offset = self.street_offset[i]
        held = self.cards[i]
        for position, card in enumerate(cards[: len(deal)]):
            slot = offset + position
            if card is None or slot >= len(held):
                continue
            known = held[slot]
            if known is None:
                if self._see(card, i, event, index):
                    held[slot] = card
            elif known != card:
                self.flag(Code.CRD005, event, index, f"{name} is dealt {card} where {known} was")
        if self.street == self.spec.open_pair_street and not self.open_pair:
            board = [card for card in held[self.board] if card is not None]
            self.open_pair = has_open_pair(board)

    def _check_community_deal(self, event: Event, index: int | None) -> None:
        """On stud's last street: the deck must hold a card for each player still in, unless
        the room dealt one community card (checked once, at the first event after the marker)."""
        check = self.community_check
        assert check is not None
        self.community_check = None
        need, without_burns, with_burns = check
        available = with_burns if self.rules.burn_cards else without_burns
        if need > available:
            self.flag(
                Code.CRD007,
                event,
                index,
                f"{need} players get a 7th card from a deck of {max(available, 0)}: "
                "a community card was due",
            )

    def _on_community(self, event: Event, index: int | None) -> None:
        check = self.community_check
        self.community_check = None
        last = self.street == self.spec.community_street
        if not last or self.community is not None or len(event.cards) != 1 or check is None:
            self.flag(Code.CRD002, event, index, "a community card outside the game's last deal")
            return
        card = event.cards[0]
        if card is None:
            return
        need, without_burns, with_burns = check
        serves = without_burns if self.rules.burn_cards is False else with_burns
        if need <= serves:
            self.flag(
                Code.CRD008,
                event,
                index,
                f"a community card with {serves} cards left for {need} players",
            )
        if not self._see(card, COMMUNITY, event, index):
            return
        self.community = card
        for i, held in enumerate(self.cards):
            if not self.folded[i] and len(held) == self.spec.hand_size:
                held[-1] = card

    def _next_drawer(self) -> int:
        queue, drew = self.draw_queue, self.drew
        position = self.draw_pos
        while position < len(queue) and drew[queue[position]]:
            position += 1
        self.draw_pos = position
        return queue[position] if position < len(queue) else NO_ONE

    def _on_draw_turn(self, event: Event, index: int | None) -> None:
        i = self.index.get(event.player or "", NO_ONE)
        queue, position = self.draw_queue, self.draw_pos
        expected = queue[position] if position < len(queue) else NO_ONE
        if (
            not (i == expected and self.phase is _DRAWING)  # the common case: next to draw
            and not self._draw_out_of_turn(i, event, index)
        ):
            return
        name = self.names[i]
        count = 0 if event.kind is _STAND_PAT else event.count
        if count is None:
            count = len(event.cards)
        max_discard = self.spec.max_discard
        if not 0 <= count <= max_discard:
            self.flag(
                Code.CRD004,
                event,
                index,
                f"{name} discards {count}; this game allows 0 to {max_discard}",
            )
            count = max(0, min(count, max_discard))
        if count:
            self._serve(count, event, index)
            self._discard(i, count, event, index)
        elif event.cards:
            self._name_held(i, event, index)
        self.drew[i] = True
        self.drawn[i] = count
        self.street_actions[i].append(event.kind)
        if self._next_drawer() < 0:
            self._start_betting()

    def _draw_out_of_turn(self, i: int, event: Event, index: int | None) -> bool:
        """A draw by someone other than the next player to draw: flag why; True when the draw
        is applied anyway (the state follows the record)."""
        if i < 0:
            self._unknown_player(event, index)
            return False
        name = self.names[i]
        if self.folded[i]:
            self.flag(Code.ORD002, event, index, f"{name} draws after folding")
            return False
        if self.phase is not _DRAWING:
            self.flag(Code.CRD010, event, index, f"{name} draws outside a draw round")
            return False
        if self.drew[i]:
            self.flag(Code.CRD010, event, index, f"{name} draws twice in one round")
            return False
        expected = self._next_drawer()
        if expected != i:
            self.flag(Code.ORD008, event, index, f"{name} draws before {self.names[expected]}")
        return True

    def _serve(self, count: int, event: Event, index: int | None) -> None:
        """Take `count` replacement cards from the stub, reshuffling the discards if needed."""
        announced = self.reshuffle_stub
        stub = self.stub
        burn_cards = self.rules.burn_cards
        if announced is None and count <= (stub[1] if burn_cards else stub[0]):
            stub[0] -= count  # the common case: the stub serves the draw
            stub[1] -= count
            return
        if announced is not None:
            self.reshuffle_stub = None
            stub_then = announced[0] if burn_cards is False else announced[1]
            if count <= stub_then and burn_cards is not None:
                self.flag(
                    Code.CRD009,
                    event,
                    index,
                    f"the deck was reshuffled with {stub_then} cards left for a draw of {count}",
                )
        elif count > self._stub_for_error():
            if burn_cards is not None:
                self.flag(
                    Code.CRD009,
                    event,
                    index,
                    f"a draw of {count} from a stub of {max(self._stub_for_error(), 0)} "
                    "without a reshuffle announced",
                )
            self._reshuffle()
        self._take_from_stub(count, event, index)

    def _reshuffle(self) -> None:
        self.stub[0] = max(self.stub[0], 0) + self.muck
        self.stub[1] = max(self.stub[1], 0) + self.muck
        self.muck = 0
        folded = self.folded
        mucked = [
            card
            for card, owner in self.seen.items()
            if owner == DISCARDED or (owner >= 0 and folded[owner])
        ]
        for card in mucked:
            del self.seen[card]

    def _discard(self, i: int, count: int, event: Event, index: int | None) -> None:
        held = self.cards[i]
        self.muck += count
        self.draw_pending[i] = count
        if not event.cards and held.count(None) == len(held):
            return  # an unseen hand stays unseen: the same number of unknown cards
        kept = max(len(held) - count, 0)
        name = self.names[i]
        named = [card for card in event.cards if card is not None]
        for card in named:
            if card in held:
                held.remove(card)
            elif None not in held:
                self.flag(
                    Code.CRD011, event, index, f"{name} discards {card}, which they do not hold"
                )
                continue
            elif self._see(card, i, event, index):
                held.remove(None)
            else:
                continue
            self.seen[card] = DISCARDED
        while len(held) > kept:
            if None in held:
                held.remove(None)
            else:
                # Unknown discards from a known hand: which cards stayed is no longer known.
                for known in held:
                    if known is not None and self.seen.get(known) == i:
                        del self.seen[known]
                held[:] = [None] * kept
        held.extend([None] * count)

    def _name_held(self, i: int, event: Event, index: int | None) -> None:
        """A player stands pat naming the hand: the cards must be the ones held."""
        held = self.cards[i]
        for card in event.cards:
            if card is None or card in held:
                continue
            if None in held:
                if self._see(card, i, event, index):
                    held[held.index(None)] = card
            else:
                self.flag(
                    Code.CRD011, event, index, f"{self.names[i]} stands pat on {card}, not held"
                )

    def _on_draw(self, event: Event, index: int | None) -> None:
        i = self._player(event, index)
        if i < 0:
            return
        pending = self.draw_pending[i]
        cards = event.cards
        if len(cards) != pending:
            self.flag(
                Code.CRD003,
                event,
                index,
                f"{self.names[i]} receives {len(cards)} cards for {pending} discarded",
            )
        held = self.cards[i]
        start = len(held) - pending
        for offset, card in enumerate(cards[:pending]):
            slot = start + offset
            if card is not None and held[slot] is None and self._see(card, i, event, index):
                held[slot] = card
        self.draw_pending[i] = 0

    def _on_reshuffle(self, event: Event, index: int | None) -> None:
        if self.phase is not _DRAWING:
            self.flag(Code.CRD009, event, index, "the deck is reshuffled outside a draw")
            return
        self.reshuffle_stub = (self.stub[0], self.stub[1])
        self._reshuffle()

    # --- event handlers: showdown and money out ------------------------------------------------

    def _on_show(self, event: Event, index: int | None) -> None:
        i = self._player(event, index)
        if i < 0:
            return
        if event.kind is _SHOW:
            self.showed[i] = True
        else:
            self.mucked[i] = True
        if event.cards:
            self._reveal(i, event, index)

    def _reveal(self, i: int, event: Event, index: int | None) -> None:
        held = self.cards[i]
        name = self.names[i]
        shown = [card for card in event.cards if card is not None]
        new = [card for card in shown if card not in held]
        free = [slot for slot, card in enumerate(held) if card is None]
        if len(shown) > len(held) or len(new) > len(free):
            self.flag(
                Code.CRD005,
                event,
                index,
                f"{name} shows {' '.join(shown)}, not the {len(held)} cards dealt",
            )
            return
        if len(shown) == len(held):
            missing = [card for card in held if card is not None and card not in shown]
            if missing:
                self.flag(
                    Code.CRD005, event, index, f"{name} shows a hand without {' '.join(missing)}"
                )
                return
        for slot, card in zip(free, new, strict=False):
            if self._see(card, i, event, index):
                held[slot] = card

    def _on_uncalled(self, event: Event, index: int | None) -> None:
        i = self._player(event, index)
        if i < 0:
            return
        due = self.uncalled_due
        name = self.names[i]
        amount = event.amount
        if due is None:
            if amount > self._overage(i):
                self.flag(
                    Code.MNY004, event, index, f"{amount} returned to {name}: nothing uncalled"
                )
        elif due != (i, amount):
            self.flag(
                Code.MNY004,
                event,
                index,
                f"{amount} returned to {name}; {due[1]} was uncalled for {self.names[due[0]]}",
            )
        self.uncalled_due = None
        self.stack[i] += amount
        self.invested[i] -= amount
        self.street_put[i] -= amount
        self.bet[i] -= min(amount, max(self.bet[i], 0))
        self.pot -= amount

    def _overage(self, i: int) -> int:
        """What player `i` put in beyond every other player still in, when all of those are
        all-in: chips no one can match (a full ante against an all-in short ante), which some
        rooms return as uncalled."""
        others = [j for j in range(len(self.names)) if j != i and not self.folded[j]]
        if not others or not all(self.all_in[j] for j in others):
            return 0
        return max(self.invested[i] - max(self.invested[j] for j in others), 0)

    def _on_collect(self, event: Event, index: int | None) -> None:
        i = self._player(event, index)
        if i < 0:
            return
        if self.phase is not _OVER and not self.collects:
            unfinished = self._unfinished()
            if unfinished is not None:  # (a hand cut short between streets is STR006, at the end)
                self.flag(Code.STR005, event, index, f"the pot is awarded, but {unfinished}")
        self._flag_pending_uncalled(event, index)
        self.collects.append((i, event.amount, event.pot or "main", index, event.line))


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


_Handler = Callable[[HandState, Event, "int | None"], None]

_HANDLERS: Final[dict[EventKind, _Handler]] = {
    EventKind.ANTE: HandState._on_ante,
    EventKind.SMALL_BLIND: HandState._on_blind,
    EventKind.BIG_BLIND: HandState._on_blind,
    EventKind.POST: HandState._on_blind,
    EventKind.DEAD: HandState._on_blind,
    EventKind.BRING_IN: HandState._on_bring_in,
    EventKind.FOLD: HandState._on_fold,
    EventKind.CHECK: HandState._on_check,
    EventKind.CALL: HandState._on_call,
    EventKind.BET: HandState._on_bet,
    EventKind.RAISE: HandState._on_raise,
    EventKind.COMPLETE: HandState._on_complete,
    EventKind.DEAL: HandState._on_deal,
    EventKind.COMMUNITY: HandState._on_community,
    EventKind.DISCARD: HandState._on_draw_turn,
    EventKind.STAND_PAT: HandState._on_draw_turn,
    EventKind.DRAW: HandState._on_draw,
    EventKind.RESHUFFLE: HandState._on_reshuffle,
    EventKind.STREET: HandState._on_street,
    EventKind.CAPPED: HandState._on_capped,
    EventKind.OPEN_PAIR: HandState._on_open_pair,
    EventKind.SHOW: HandState._on_show,
    EventKind.MUCK: HandState._on_show,
    EventKind.UNCALLED: HandState._on_uncalled,
    EventKind.COLLECT: HandState._on_collect,
}
