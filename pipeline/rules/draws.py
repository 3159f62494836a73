"""`HandState`'s draws: who draws when, discards and replacements, and the reshuffle of the
discards when the stub runs short (see core.py for the layers)."""

from __future__ import annotations

from typing import Final

from studdraw.parsers.model import Event, EventKind
from studdraw.parsers.problems import Code

from .core import NO_ONE, Phase
from .deck import DISCARDED, DeckState

_FORCED, _DEAL, _BETTING, _DRAWING, _OVER = Phase
_STAND_PAT: Final = EventKind.STAND_PAT


class DrawState(DeckState):
    """The draw rounds of draw games."""

    __slots__ = ()

    def _next_drawer(self) -> int:
        queue, drew = self.draw_queue, self.drew
        position = self.draw_pos
        while position < len(queue) and drew[queue[position]]:
            position += 1
        self.draw_pos = position
        return queue[position] if position < len(queue) else NO_ONE

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
            if not self._contested():  # the betting is over: a hand run twice draws each run
                self.run_drawn[i] += count
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
        # The replacements fill the hand's last `pending` slots; a hand holding fewer (a
        # player dealt no cards who discards unseen, from a damaged file) fills what it has.
        start = max(len(held) - pending, 0)
        if event.run:  # one run's replacements: the slots stay unknown in the shared hand
            self._add_run_event(event, index, start)
            return
        for slot, card in zip(range(start, len(held)), cards[:pending], strict=False):
            if card is not None and held[slot] is None and self._see(card, i, event, index):
                held[slot] = card
        self.draw_pending[i] = 0

    def _on_reshuffle(self, event: Event, index: int | None) -> None:
        if self.phase is not _DRAWING:
            self.flag(Code.CRD009, event, index, "the deck is reshuffled outside a draw")
            return
        self.reshuffle_stub = (self.stub[0], self.stub[1])
        self._reshuffle()
