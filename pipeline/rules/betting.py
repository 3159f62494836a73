"""`HandState`'s betting round: who may act, folds, checks, calls, bets, raises and
completions, their sizes per betting structure, and the cap (see core.py for the layers)."""

from __future__ import annotations

from typing import Final

from studdraw.parsers.model import Event, EventKind, Structure
from studdraw.parsers.problems import Code

from .core import NO_ONE, UNRESOLVED, Phase
from .forced import ForcedBetState
from .specs import Opener
from .structures import STRUCTURE_SPECS

_FORCED, _DEAL, _BETTING, _DRAWING, _OVER = Phase
_FOLD: Final = EventKind.FOLD
_CHECK: Final = EventKind.CHECK
_CALL: Final = EventKind.CALL
_BET: Final = EventKind.BET
_RAISE: Final = EventKind.RAISE
_COMPLETE: Final = EventKind.COMPLETE
_OPENING: Final = frozenset({_BET, _COMPLETE, _RAISE})
_BOARD_OPENERS: Final = frozenset({Opener.HIGH_BOARD, Opener.LOW_BOARD, Opener.LOW_BOARD_ACES_HIGH})
_FIXED: Final = Structure.FIXED
_SPREAD: Final = Structure.SPREAD


class BettingState(ForcedBetState):
    """Betting actions and their sizes."""

    __slots__ = ()

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
        board = opener in _BOARD_OPENERS
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
        """The bring-in's street (seven-card stud's 3rd) before any bring-in: only the bring-in
        player may open, by completing."""
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
                    f"{self.names[i]} opens {self._bring_in_street_name()}, but "
                    f"{self.names[expected]} has the bring-in card",
                )
        else:
            self.bring_in_index = expected if expected >= 0 else i
            street = self._bring_in_street_name()
            self.flag(Code.STR002, event, index, f"{street} betting starts without a bring-in")
        self.pointer = i
        if self.first_actor < 0:
            self.first_actor = i
        return i

    def _actor(self, event: Event, index: int | None) -> int:
        """The seat of the player acting in `event`: the one to act, or (checked by
        `_checked_turn`, which flags why) another one; -1 when the action cannot be applied."""
        i = self.index.get(event.player or "", NO_ONE)
        if i != self.pointer or i < 0:  # not the player to act: find out why
            return self._checked_turn(i, event, index)
        if self.first_actor < 0:
            self.first_actor = i
        return i

    def _on_fold(self, event: Event, index: int | None) -> None:
        i = self._actor(event, index)
        if i < 0:
            return
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
        i = self._actor(event, index)
        if i < 0:
            return
        if self.bet[i] < self.current:
            self.flag(
                Code.SIZ008,
                event,
                index,
                f"{self.names[i]} checks facing {self.money(self.current - self.bet[i])} to call",
            )
        self.acted[i] = True
        self.street_actions[i].append(_CHECK)
        self._advance(i)

    def _on_call(self, event: Event, index: int | None) -> None:
        i = self._actor(event, index)
        if i < 0:
            return
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
                    f"{self.names[i]} calls {self.money(amount)}, "
                    f"the call is {self.money(expected)}",
                )
        self._put(i, amount, event, index, live=True)
        self.acted[i] = True
        self.street_actions[i].append(_CALL)
        self._advance(i)

    def _on_bet(self, event: Event, index: int | None) -> None:
        i = self._actor(event, index)
        if i < 0:
            return
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
        i = self._actor(event, index)
        if i < 0:
            return
        if self.current == 0:
            self.flag(Code.SIZ011, event, index, f"{self.names[i]} raises with no bet to raise")
            self._open(i, event, index)
        elif self._completion_open():
            self._complete(i, event, index)
        else:
            self._raise(i, event, index)

    def _on_complete(self, event: Event, index: int | None) -> None:
        i = self._actor(event, index)
        if i < 0:
            return
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
            if self.pot_divisor:  # to the small bet, or as far as the pot allows
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
        if self.pot_divisor:  # the smallest full bet or raise is always allowed (half a small
            return minimum, max(minimum, self._pot_limit_to(i)), None  # pot may be less)
        return minimum, self.bet[i] + self.stack[i], None

    def _open(self, i: int, event: Event, index: int | None) -> None:
        amount = event.amount
        if self.sized or self.pot_divisor:
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
                sizes = " or ".join(self.money(u) for u in units)
                self.flag(
                    Code.SIZ001,
                    event,
                    index,
                    f"{name} bets {self.money(amount)}, the bet is {sizes}",
                )
        elif structure is _SPREAD:
            low, high = self.stakes.small_bet, self.stakes.big_bet
            if amount > high or (amount < low and not short):
                self.flag(
                    Code.SIZ001,
                    event,
                    index,
                    f"{name} bets {self.money(amount)}, "
                    f"outside {self.money(low)}-{self.money(high)}",
                )
        else:
            if amount < self.min_bet and not short and self.sized:
                self.flag(
                    Code.SIZ001,
                    event,
                    index,
                    f"{name} bets {self.money(amount)}, the minimum is {self.money(self.min_bet)}",
                )
            if self.pot_divisor and amount > max(self.min_bet, self._pot_limit_to(i)):
                self.flag(
                    Code.SIZ007,
                    event,
                    index,
                    f"{name} bets {self.money(amount)} into a pot of {self.money(self.pot)}"
                    + ("" if self.pot_divisor == 1 else f" ({self._cap_name()})"),
                )

    def _check_someone_answers(self, i: int, event: Event, index: int | None) -> None:
        """A raise or completion needs an opponent who can still answer it: with every other
        player in the hand all-in, the only choices are to call or to fold."""
        if not self._contested():
            self.flag(
                Code.SIZ015,
                event,
                index,
                f"{self.names[i]} raises, but every opponent is all-in: only a call or a fold",
            )

    def _complete(self, i: int, event: Event, index: int | None) -> None:
        name = self.names[i]
        self._check_someone_answers(i, event, index)
        to = self.bet[i] + event.amount
        target, most, _ = self._raise_options(i)
        short = event.amount >= self.stack[i]
        if self.sized and (to > most or (to < target and not short)):
            size = (
                self.money(target)
                if target == most
                else f"{self.money(target)} to {self.money(most)}"
            )
            self.flag(
                Code.SIZ003, event, index, f"{name} completes to {self.money(to)}, not to {size}"
            )
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
        self._check_someone_answers(i, event, index)
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
        elif self.sized or self.pot_divisor:
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
                self.flag(
                    Code.SIZ006,
                    event,
                    index,
                    f"{name} raises to {self.money(to)}, the limit is {self.money(high)}",
                )
            elif not short:
                allowed = " or ".join(self.money(t) for t in exact)
                self.flag(
                    Code.SIZ005,
                    event,
                    index,
                    f"{name} raises to {self.money(to)}, expected {allowed}",
                )
        elif to < low and not short and self.sized:
            self.flag(
                Code.SIZ005,
                event,
                index,
                f"{name} raises to {self.money(to)}, the minimum is {self.money(low)}",
            )
        elif to > high and self.pot_divisor:
            limit = self._cap_name()
            self.flag(Code.SIZ007, event, index, f"{name} raises to {to}, the {limit} is {high}")
        elif to > high and self.structure is _SPREAD:
            self.flag(
                Code.SIZ006,
                event,
                index,
                f"{name} raises to {self.money(to)}, the limit is {self.money(high)}",
            )

    def _cap_name(self) -> str:
        """What bounds a pot-capped bet, as the problems name it."""
        return STRUCTURE_SPECS[self.structure].title.lower()

    def _short_all_in(self, i: int, increment: int, full: int) -> None:
        """An all-in for less than a full bet or raise does not count toward the cap; in limit
        games where the house says so, half a bet or more reopens the betting."""
        if self.limit and self.rules.half_bet_reopens and increment * 2 >= full:
            self._reopen(i)

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
