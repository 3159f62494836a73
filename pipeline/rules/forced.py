"""`HandState`'s forced bets: antes, blinds and the bring-in, their seats and their sizes from
the stakes (see core.py for the layers, and stakes.py for where the sizes come from)."""

from __future__ import annotations

from collections import Counter
from typing import Final

from studdraw.parsers.model import Event, EventKind
from studdraw.parsers.problems import Code

from .core import NO_ONE, Phase
from .draws import DrawState

_FORCED, _DEAL, _BETTING, _DRAWING, _OVER = Phase
_ANTE: Final = EventKind.ANTE
_SMALL_BLIND: Final = EventKind.SMALL_BLIND
_BIG_BLIND: Final = EventKind.BIG_BLIND
_POST: Final = EventKind.POST
_DEAD: Final = EventKind.DEAD
_BRING_IN: Final = EventKind.BRING_IN


class ForcedBetState(DrawState):
    """Antes, blinds and the bring-in."""

    __slots__ = ()

    def _next_forced(self) -> int:
        """The next player owing a forced bet before the deal: antes in seat order, then the
        small and big blinds from the button."""
        stakes = self.stakes
        if stakes.ante:
            for i, posted in enumerate(self.posted_ante):
                if not posted and not self.all_in[i]:
                    return i
        if not self.blinds or len(self.names) < 2:
            return NO_ONE
        small, big = self._blind_seats()
        if self.small_blind_index == NO_ONE and stakes.small_blind and not self.all_in[small]:
            return small
        if self.big_blind_index == NO_ONE and not self.all_in[big]:
            return big
        return NO_ONE

    def _forced_due(self, i: int) -> tuple[EventKind, int]:
        stakes = self.stakes
        if stakes.ante and not self.posted_ante[i]:
            return _ANTE, stakes.ante
        if self.small_blind_index == NO_ONE and stakes.small_blind and i == self._blind_seats()[0]:
            return _SMALL_BLIND, stakes.small_blind
        return _BIG_BLIND, self._big_blind_size()

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
        if event.amount == self.stakes.ante:
            if not self.marker_seen:
                self.antes_at_stake.append((event, index))
        elif self.marker_seen:
            self._check_ante(event, index, event.amount >= self.stack[i], self.stakes.ante)
        else:
            self.ante_posts.append((event, index, event.amount >= self.stack[i]))
        self.posted_ante[i] = True
        self._put(i, event.amount, event, index, live=False)
        self.street_actions[i].append(_ANTE)

    def _check_ante(self, event: Event, index: int | None, all_in: bool, ante: int) -> None:
        amount = event.amount
        if amount != ante and not (amount < ante and all_in):
            self.flag(
                Code.SIZ012,
                event,
                index,
                f"{event.player} antes {self.money(amount)}, the ante is {self.money(ante)}",
            )

    def _judge_antes(self) -> None:
        """The antes posted before the deal, against the stakes' ante where the header or the
        room's stake table gives it, else the size most players posted (the largest on a tie):
        one player's odd ante is that player's, never the others'."""
        posts, at_stake = self.ante_posts, self.antes_at_stake
        self.ante_posts, self.antes_at_stake = [], []
        ante = self.stakes.ante
        complete = [event.amount for event, _, all_in in posts if not all_in]
        # The record's ante is its largest post unless the header printed it (then no post need
        # match it): an inferred ante gives way to the size most players posted.
        if complete and at_stake and ante > max(complete):
            counts = Counter(complete)
            counts[ante] += len(at_stake)
            most = max(counts.values())
            ante = max(size for size, count in counts.items() if count == most)
            for event, index in at_stake:  # above the most common size: never a short all-in
                self._check_ante(event, index, False, ante)
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
        big = self._big_blind_size()
        if kind is _POST and self._straddles(i, amount, big):
            self._put(i, amount, event, index, live=True)
            self.straddle_index = i
            self.current = self.full_level = amount
            self.last_increment = big  # the straddle raised the big blind by one big blind
            self.bets = self.opening_bets = 2
            return
        if (kind is _DEAD or kind is _POST) and not self.rules.dead_blinds:
            self.flag(
                Code.ORD010,
                event,
                index,
                f"{name} posts out of turn; the house allows no dead blinds",
            )
        if kind is _DEAD:
            self._put(i, amount, event, index, live=False)
            self.dead[i] += amount
            return
        n = len(self.names)
        if kind is _SMALL_BLIND:
            if self.small_blind_index == NO_ONE:
                if self.button_index == NO_ONE:  # no button printed: it sits before the SB
                    self.button_index = i if n == 2 else (i - 1) % n
                else:
                    self._check_blind_seat(i, "small", self._blind_seats()[0], event, index)
                self.small_blind_index = i
            expected = self.stakes.small_blind
            # A room's small blind is a third to a half of the big blind (or more, below it),
            # or the big blind itself where the stakes say so (OnGame's pot-limit $1/$1).
            wrong = amount != expected or amount * 3 < big or (amount >= big and expected < big)
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
            self.flag(
                Code.SIZ013,
                event,
                index,
                f"{name} posts {self.money(amount)}, expected {self.money(expected)}",
            )
        self._put(i, amount, event, index, live=True)
        self.current = max(self.current, self.bet[i])
        if kind is _BIG_BLIND and self.bets == 0:
            self.current = max(self.current, big)
            self.full_level = self.current
            self.last_increment = big
            self.bets = 1
            self.opening_bets = 1

    def _straddles(self, i: int, amount: int, big: int) -> bool:
        """A live post of twice the big blind by the player after it, before anyone acts, is a
        straddle (a room's "posts straddle", PHH's third blind): a blind raise, whose poster
        acts last in the first round, as the big blind does without one."""
        n = len(self.names)
        return (
            self.big_blind_index >= 0
            and self.straddle_index == NO_ONE
            and i == (self.big_blind_index + 1) % n
            and n > 2
            and amount == 2 * big
            and not any(self.acted)
        )

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
            top = self._pot_limit_to(i) if self.pot_divisor else self.stack[i]
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
            street = self._bring_in_street_name()
            self.flag(Code.STR007, event, index, f"{name} brings in outside {street}'s opening")
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
            size = self.money(high) if low >= high else f"{self.money(low)} to {self.money(high)}"
            self.flag(
                Code.SIZ002,
                event,
                index,
                f"{name} brings in for {self.money(amount)}: the bring-in is {size} "
                f"(ante {self.money(stakes.ante)}, small bet {self.money(stakes.small_bet)})",
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

    def _table_ante(self) -> int:
        """The player of a big-blind or button ante, else NO_ONE: in a button game, one player
        antes for the whole table, the big blind or the button, and nobody else antes (PHH's
        `antes = [0, 150000, 0]`)."""
        if self.stud:
            return NO_ONE
        anted = [i for i, posted in enumerate(self.posted_ante) if posted]
        if len(anted) == 1 and anted[0] in (self.big_blind_index, self.button_index):
            return anted[0]
        return NO_ONE

    def _check_forced_bets(self, event: Event, index: int | None) -> None:
        """At the first street marker: the antes are of the right size, every player anted
        (when there are antes), and a blind game has its big blind."""
        table = self._table_ante()
        if table >= 0:  # dead money, as a dead blind: the main pot's, whoever is all-in
            at_stake = sum([ante.amount for ante, _ in self.antes_at_stake])
            self.dead[table] += at_stake + sum([ante.amount for ante, _, _ in self.ante_posts])
        if self.ante_posts:
            self._judge_antes()
        if self.stakes.ante and table < 0:
            for i, posted in enumerate(self.posted_ante):
                if not posted and self.stack[i] > 0:
                    self.flag(
                        Code.STR008, event, index, f"{self.names[i]} is dealt in without an ante"
                    )
        if self.blinds and self.big_blind_index == NO_ONE:
            self.flag(Code.STR003, event, index, "the first round starts without a big blind")
