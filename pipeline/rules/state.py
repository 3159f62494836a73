"""The rules engine: one state machine for every game in `specs.GAME_SPECS`.

`HandState` is fed a hand's events one by one (`apply`). It knows at every point who is to act
(`actor`) and what they may do (`legal_actions`), so the same object validates exported hands
(replay), drives the random hand generator and backs the property tests. It never raises on a
bad hand: every departure from the rules becomes a `Problem`, and the state then follows the
record (resynchronises on the player who actually acted) so one mistake does not hide the next.

Speed matters (an import replays every hand): players are small integers in seat order,
per-player state lives in parallel lists, events dispatch through a dict on their kind, the
common case (the expected player acts) takes a short path, and enum members are read from
module constants (each `Enum.MEMBER` lookup costs a class attribute search in Python 3.11).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from studdraw.parsers.model import Event, EventKind
from studdraw.parsers.problems import Code

from .betting import BettingState
from .core import NO_ONE, UNRESOLVED, Phase
from .result import PlayerResult, PlayerStreet, ReplayResult, StreetResult
from .showdown import settle

_FORCED, _DEAL, _BETTING, _DRAWING, _OVER = Phase
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
_DRAW_KINDS: Final = (_DISCARD, _STAND_PAT)


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


class HandState(BettingState):
    """The state of one hand, advanced event by event."""

    __slots__ = ()

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
        if most > self.current and not self._capped() and not self.acted[i] and self._contested():
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
        """Advance by one event of the record; `index` is its position, kept on problems."""
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

    def finish(
        self,
        room_total: int | None = None,
        room_rake: int | None = None,
        tournament: bool = False,
        line: int = 0,
        runs: int = 1,
    ) -> ReplayResult:
        """Close the hand: check it ran its course, settle the pots, build the result.
        `room_total`/`room_rake`: what the room reported (None when it did not); `line`: where
        hand-level problems point (the hand's first line); `runs`: how many times the record
        says the hand was run (its events' runs count too)."""
        self.runs = max(self.runs, runs)
        if self.ante_posts:  # the hand never reached its first street (judged only if one differs)
            self._judge_antes()
        spec = self.spec
        seats = self.rules.players_allowed(spec.kind, spec.max_players)
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
                Code.MNY004,
                None,
                line,
                f"{self.money(amount)} uncalled was not returned to {self.names[i]}",
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
            self._missing_board(None, None, line)
            self._close_street()
        pots, total, rake, found = settle(self, room_total, room_rake, tournament, line)
        self.problems.extend(found)
        won = [0] * len(self.names)
        for player, amount, _, _, _, _ in self.collects:
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
            self.street_results, players, pots, total, rake, self.pot_before, self.problems
        )

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
        self.board_due = spec_street.community
        if spec_street.draw:
            self._start_draw()
        else:
            self._start_betting()

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
            self._missing_board(event, index, event.line)
        self._flag_pending_uncalled(event, index)
        if self.marker_seen:
            self._close_street()
        else:
            self._check_forced_bets(event, index)
        self._start_street(street, event, index)

    def _flag_pending_uncalled(self, event: Event, index: int | None) -> None:
        if self.uncalled_due is not None and self.rules.uncalled_returned:
            i, amount = self.uncalled_due
            self.flag(
                Code.MNY004,
                event,
                index,
                f"{self.money(amount)} uncalled was not returned to {self.names[i]}",
            )
        self.uncalled_due = None

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
                    Code.MNY004,
                    event,
                    index,
                    f"{self.money(amount)} returned to {name}: nothing uncalled",
                )
        elif due != (i, amount) and not (
            due[0] == i and amount > due[1] and amount == self._unmatched(i)
        ):  # (the room may return every chip no one matched: the bet and the ante's excess)
            self.flag(
                Code.MNY004,
                event,
                index,
                f"{self.money(amount)} returned to {name}; {self.money(due[1])} was uncalled for "
                f"{self.names[due[0]]}",
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

    def _unmatched(self, i: int) -> int:
        """The chips player `i` put in beyond what any other player (folded or not) did, when
        every other player still in is all-in: what a room may return as uncalled in one."""
        if not self._overage(i):
            return 0
        others = (self.invested[j] for j in range(len(self.names)) if j != i)
        return max(self.invested[i] - max(others), 0)

    def _on_collect(self, event: Event, index: int | None) -> None:
        i = self._player(event, index)
        if i < 0:
            return
        if self.phase is not _OVER and not self.collects:
            unfinished = self._unfinished()
            if unfinished is not None:  # (a hand cut short between streets is STR006, at the end)
                self.flag(Code.STR005, event, index, f"the pot is awarded, but {unfinished}")
        self._flag_pending_uncalled(event, index)
        if event.run:
            self.runs = max(self.runs, event.run)
        self.collects.append((i, event.amount, event.pot or "main", index, event.line, event.run))


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
