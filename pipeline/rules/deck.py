"""`HandState`'s deck and seen cards: the deck's count (the stub, the burns), the cards each
street deals, stud's community card, the cards players show, and the cards of each run (see
core.py for the layers)."""

from __future__ import annotations

from typing import Final

from studdraw.parsers.model import Card, Event, EventKind
from studdraw.parsers.problems import Code

from .boards import has_open_pair
from .core import NO_ONE, Phase, StateCore

_FORCED, _DEAL, _BETTING, _DRAWING, _OVER = Phase
COMMUNITY: Final = -1  # owner of the shared stud river card in `HandState.seen`
DISCARDED: Final = -2  # owner of a known discarded card, until a reshuffle
_SHOW: Final = EventKind.SHOW
_DRAW: Final = EventKind.DRAW


class DeckState(StateCore):
    """The deck's count, deals, the community card, shown cards and the runs' cards."""

    __slots__ = ()

    def _burn(self) -> None:
        self.burns += 1
        self.stub[1] -= 1

    def _stub_for_error(self) -> int:
        """Cards certainly left: the count a shortage must exceed to be an error."""
        return self.stub[1] if self.rules.burn_cards else self.stub[0]

    def _take_from_stub(self, count: int, event: Event, index: int | None) -> None:
        stub = self.stub
        left = self._stub_for_error()
        if count > left:
            self.flag(
                Code.CRD007, event, index, f"{count} cards needed but the deck holds {max(left, 0)}"
            )
        stub[0] -= count
        stub[1] -= count

    def _see(self, card: Card, owner: int, event: Event, index: int | None) -> bool:
        """Record a card newly known; False (and CRD001) if it was already seen elsewhere."""
        holder = self.seen.get(card)
        if holder is not None:
            where = (
                ("to the board" if self.spec.community_cards else "as the community card")
                if holder == COMMUNITY
                else "in the discards"
                if holder == DISCARDED
                else f"to {self.names[holder]}"
            )
            self.flag(Code.CRD001, event, index, f"{card} was already dealt {where}")
            return False
        self.seen[card] = owner
        return True

    def _add_run_event(self, event: Event, index: int | None, start: int) -> None:
        """Keep a draw or a show of one run for the settling (`DeckState.run_cards`)."""
        self.runs = max(self.runs, event.run)
        self.run_events.append((event, index, start))

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
        if self.spec.community_cards:
            self._on_board(event, index)
            return
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

    def _on_board(self, event: Event, index: int | None) -> None:
        """A game with a board: the street deals its board cards once, as many as its spec says
        (CRD002 otherwise), from the stub after a burn; a card seen before is CRD001."""
        street = self.spec.streets[self.street]
        cards = event.cards
        if not self.board_due or len(cards) != street.community:
            self.flag(
                Code.CRD002,
                event,
                index,
                f"{len(cards)} board card{'' if len(cards) == 1 else 's'} on {street.name}, "
                "which deals "
                + (f"{street.community}" if self.board_due else "none (dealt already)"),
            )
            return
        self.board_due = 0
        self._burn()
        self._take_from_stub(len(cards), event, index)
        for card in cards:
            seen = card is not None and self._see(card, COMMUNITY, event, index)
            self.board_cards.append(card if seen else None)

    def _missing_board(self, event: Event | None, index: int | None, line: int) -> None:
        """The street in play ends without the board cards it deals (CRD002)."""
        if not self.board_due or self.in_hand < 2:
            return
        street = self.spec.streets[self.street]
        due = self.board_due
        message = f"{street.name} ends without its board card{'s' if due > 1 else ''} ({due})"
        self.board_due = 0
        if event is None:
            self.flag_at(Code.CRD002, None, line, message)
        else:
            self.flag(Code.CRD002, event, index, message)

    def _on_show(self, event: Event, index: int | None) -> None:
        i = self._player(event, index)
        if i < 0:
            return
        if event.kind is _SHOW:
            self.showed[i] = True
        else:
            self.mucked[i] = True
        if event.run:  # one run's hand: revealed in that run's hands when the pots are settled
            self._add_run_event(event, index, 0)
        elif event.cards:
            self._reveal(i, event, index)

    def run_cards(self, run: int) -> list[list[Card | None]]:
        """Each player's cards in run `run` of a hand run twice: the shared cards with the run's
        draws and shows dealt in, each checked against the cards the run has seen (a run is
        dealt from the stub the draw left: the other run's cards are not this one's)."""
        shared, seen = self.cards, self.seen
        self.cards = [list(held) for held in shared]
        self.seen = dict(seen)
        try:
            for event, index, start in self.run_events:
                i = self.index.get(event.player or "", NO_ONE)
                if event.run != run or i < 0:
                    continue
                if event.kind is not _DRAW:
                    self._reveal(i, event, index)
                    continue
                held = self.cards[i]
                for slot, card in enumerate(event.cards, start):
                    if card is None or slot >= len(held) or held[slot] is not None:
                        continue
                    if self._see(card, i, event, index):
                        held[slot] = card
            return self.cards
        finally:
            self.cards, self.seen = shared, seen

    def check_kept_cards(self, hands: list[list[list[Card | None]]]) -> None:
        """A hand run twice: each run's draw replaces the discards of one hand, so the cards a
        player kept are in every run's hand (`hands`: each run's, from `run_cards`). Two runs'
        shows of a player whose draw was hidden may differ in no more cards than the player
        drew once no bet could follow (CRD005 at the later run's show where they must)."""
        for event, index, _ in self.run_events:
            i = self.index.get(event.player or "", NO_ONE)
            if event.kind is _DRAW or i < 0 or not 1 < event.run <= len(hands):
                continue
            drawn = self.run_drawn[i]
            mine = hands[event.run - 1][i]
            for run in range(1, event.run):
                theirs = hands[run - 1][i]
                changed = max(self._must_leave(mine, theirs), self._must_leave(theirs, mine))
                if changed > drawn:
                    self.flag(
                        Code.CRD005,
                        event,
                        index,
                        f"{self.names[i]}'s hands of runs {run} and {event.run} differ in "
                        f"{changed} card{'' if changed == 1 else 's'}; "
                        f"{drawn} {'was' if drawn == 1 else 'were'} drawn after the betting",
                    )
                    break

    @staticmethod
    def _must_leave(held: list[Card | None], other: list[Card | None]) -> int:
        """How many of one run's known cards `held` cannot be in the player's hand `other` of
        another run: those it does not show, less the cards it leaves unknown."""
        absent = [card for card in held if card is not None and card not in other]
        return max(len(absent) - other.count(None), 0)

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
