"""Random legal hands, driven by the rules engine itself: at every step the generator asks the
`HandState` who acts and what is legal, picks at random, and applies the event. Used by the
property tests and, rendered to PokerStars text, by the hand synthesiser.

Stakes are realistic cash stakes at scale 100 (stud: ante 1, bring-in 2, bets 4/8, and in pot
and no limit a header of the bring-in and the smallest bet, 2/4; draw: blinds 5/10, bets
10/20) and stacks are drawn from short to deep, so all-ins, side pots, split pots, the stud
community card and draw-game reshuffles all occur.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime
from fractions import Fraction
from typing import Final

from studdraw.parsers.model import (
    RANKS,
    SUITS,
    Card,
    Event,
    EventKind,
    Game,
    HandRecord,
    Seat,
    SourceRef,
    Stakes,
    Structure,
)

from .core import Phase
from .house import HouseRules, house_rules_for
from .showdown import build_pots, evaluate, pot_name
from .specs import GAME_SPECS, GameSpec
from .state import HandState, LegalActions
from .structures import STRUCTURE_SPECS

_AGGRESSION: Final = frozenset({EventKind.BET, EventKind.RAISE, EventKind.COMPLETE})

DECK: Final = tuple(rank + suit for rank in RANKS for suit in SUITS)
_STARTED: Final = datetime(2024, 1, 1, 12, 0, tzinfo=UTC)


def stakes_for(game: Game, structure: Structure) -> Stakes:
    """Realistic stakes in cents for a game and structure."""
    if game.is_stud:
        if not STRUCTURE_SPECS[structure].limit:
            # The header's pair, as for the blinds of a draw game: the bring-in and the
            # smallest bet (the engine reads the bet limits from it).
            return Stakes(small_bet=4, big_bet=4, ante=1, bring_in=2, small_blind=2, big_blind=4)
        high = 20 if structure is Structure.SPREAD else 8
        return Stakes(small_bet=4, big_bet=high, ante=1, bring_in=2)
    if structure is Structure.FIXED:
        return Stakes(small_bet=10, big_bet=20, small_blind=5, big_blind=10)
    high = 50 if structure is Structure.SPREAD else 10
    return Stakes(small_bet=10, big_bet=high, small_blind=5, big_blind=10)


class _Dealer:
    """The deck of one hand: the stub, the muck (reshuffled in draw games when the stub runs
    out) and the burnt cards (set aside; stud's community card may need one back)."""

    def __init__(self, rng: random.Random, burn: bool) -> None:
        self.stub = list(DECK)
        rng.shuffle(self.stub)
        self.muck: list[Card] = []
        self.burnt: list[Card] = []
        self.rng = rng
        self.burn = burn

    def burn_one(self) -> None:
        if self.burn and self.stub:
            self.burnt.append(self.stub.pop())

    def take(self, count: int) -> list[Card]:
        """Deal from the stub; a stud deck short even of the community card uses the burns."""
        if len(self.stub) < count:
            self.stub.extend(self.burnt)
            self.burnt = []
        return [self.stub.pop() for _ in range(count)]

    def reshuffle(self) -> None:
        self.stub.extend(self.muck)
        self.muck = []
        self.rng.shuffle(self.stub)


class _Generator:
    def __init__(
        self,
        game: Game,
        structure: Structure,
        players: int,
        rng: random.Random,
        rules: HouseRules,
    ) -> None:
        self.spec: GameSpec = GAME_SPECS[game]
        self.game = game
        self.structure = structure
        self.rng = rng
        self.rules = rules
        self.stakes = stakes_for(game, structure)
        seats_available = 8 if game.is_stud or players > 6 else 6
        numbers = sorted(rng.sample(range(1, seats_available + 1), players))
        big = self.stakes.big_bet
        self.seats = [Seat(number, f"p{number}", self._stack(big)) for number in numbers]
        self.button = None if game.is_stud else rng.choice(numbers)
        self.state = HandState(
            self.spec,
            structure,
            self.stakes,
            self.seats,
            rules,
            button=self.button,
            scale=100,
            currency="USD",
        )
        self.dealer = _Dealer(rng, burn=bool(rules.burn_cards))
        self.events: list[Event] = []
        self.hands: dict[str, list[Card]] = {seat.player: [] for seat in self.seats}
        # A table's mood: how often players fold and how often they raise.
        passive = rng.random() < 0.15
        self.fold_rate = 0.0 if passive else rng.uniform(0.05, 0.3)
        self.raise_rate = rng.uniform(0.0, 0.15) if passive else rng.uniform(0.1, 0.6)
        self.rake = 0

    def _stack(self, big_bet: int) -> int:
        """From all-in on the ante to many big bets deep."""
        roll = self.rng.random()
        if roll < 0.1:
            return self.rng.randint(1, big_bet)
        if roll < 0.4:
            return self.rng.randint(big_bet, big_bet * 6)
        return self.rng.randint(big_bet * 6, big_bet * 40)

    # --- emitting -----------------------------------------------------------------------------

    def emit(
        self,
        kind: EventKind,
        player: str | None = None,
        *,
        street: int | None = None,
        amount: int = 0,
        to: int | None = None,
        all_in: bool = False,
        cards: tuple[Card | None, ...] = (),
        up: tuple[bool, ...] = (),
        count: int | None = None,
        pot: str | None = None,
        text: str | None = None,
    ) -> None:
        """Append an event (lines numbered as if the header took line 1) and apply it."""
        event = Event(
            kind,
            len(self.events) + 2,
            self.state.street if street is None else street,
            player,
            amount,
            to,
            all_in,
            cards,
            up,
            count,
            pot,
            text,
        )
        self.events.append(event)
        self.state.apply(event, len(self.events) - 1)
        if kind is EventKind.FOLD and player is not None and self.game.is_draw:
            self.dealer.muck.extend(self.hands[player])

    # --- the hand -------------------------------------------------------------------------------

    def run(self) -> HandRecord:
        state = self.state
        while True:
            phase = state.phase
            if state.board_due and phase is not Phase.DRAWING and state.in_hand >= 2:
                self._deal_board()
            elif phase is Phase.FORCED:
                if not self._post_forced():
                    self._start_street(0)
            elif phase is Phase.DEAL:
                self._start_street(state.street + 1)
            elif phase is Phase.BETTING:
                self._act()
            elif phase is Phase.DRAWING:
                self._draw()
            else:
                break
            self._return_uncalled()
        self._showdown()
        return self._record()

    def _post_forced(self) -> bool:
        actions = self.state.legal_actions()
        if actions is None:
            return False
        kind = actions.kinds[0]
        amount = actions.min_to
        stack = self.state.stack[self.state.index[actions.player]]
        to = None if kind is EventKind.ANTE else amount  # antes are dead money: no `to`
        self.emit(kind, actions.player, amount=amount, to=to, all_in=amount >= stack)
        return True

    def _start_street(self, street: int) -> None:
        state = self.state
        spec_street = self.spec.streets[street]
        self.emit(EventKind.STREET, street=street, text=spec_street.name)
        if spec_street.draw:
            self.dealer.burn_one()
        if not spec_street.deal:
            return
        dealer = self.dealer
        active = [name for i, name in enumerate(state.names) if not state.folded[i]]
        dealer.burn_one()
        if street == self.spec.community_street and len(dealer.stub) < len(active):
            self.emit(EventKind.COMMUNITY, cards=tuple(dealer.take(1)), up=(True,))
            return
        for name in active:
            cards = dealer.take(len(spec_street.deal))
            self.hands[name].extend(cards)
            self.emit(EventKind.DEAL, name, cards=tuple(cards), up=spec_street.deal)

    def _deal_board(self) -> None:
        """The street's board cards (drawmaha), after its draw and before its betting, and on
        the streets all-in players only watch."""
        self.dealer.burn_one()
        cards = tuple(self.dealer.take(self.state.board_due))
        self.emit(EventKind.COMMUNITY, cards=cards, up=(True,) * len(cards))

    def _return_uncalled(self) -> None:
        due = self.state.expected_uncalled()
        if due is not None:
            self.emit(EventKind.UNCALLED, due[0], amount=due[1])

    def _act(self) -> None:
        state = self.state
        actions = state.legal_actions()
        assert actions is not None, "a betting round with no one to act"
        i = state.index[actions.player]
        bet, stack = state.bet[i], state.stack[i]
        kinds = actions.kinds
        rng = self.rng
        if EventKind.BRING_IN in kinds:
            if rng.random() < 0.8 or stack <= actions.min_to - bet:
                self._wager(EventKind.BRING_IN, actions.player, actions.min_to - bet, stack)
            else:
                self._wager(EventKind.COMPLETE, actions.player, actions.max_to - bet, stack)
            return
        aggressive = next(
            (k for k in kinds if k in (EventKind.BET, EventKind.RAISE, EventKind.COMPLETE)), None
        )
        if aggressive is not None and rng.random() < self.raise_rate:
            to = self._pick_total(actions, bet + stack)
            self._wager(aggressive, actions.player, to - bet, stack)
        elif actions.to_call > 0 and rng.random() < self.fold_rate:
            self.emit(EventKind.FOLD, actions.player)
        elif actions.to_call > 0:
            self._wager(EventKind.CALL, actions.player, actions.to_call, stack)
        else:
            self.emit(EventKind.CHECK, actions.player)

    def _pick_total(self, actions: LegalActions, most: int) -> int:
        rng = self.rng
        if actions.to_options is not None:
            return min(rng.choice(actions.to_options), most)
        if most <= actions.min_to or (most <= actions.max_to and rng.random() < 0.2):
            return most  # all-in
        return rng.randint(actions.min_to, min(actions.max_to, most))

    def _wager(self, kind: EventKind, player: str, amount: int, stack: int) -> None:
        amount = min(amount, stack)
        i = self.state.index[player]
        to = self.state.bet[i] + amount
        self.emit(kind, player, amount=amount, to=to, all_in=amount >= stack)

    def _draw(self) -> None:
        state = self.state
        actions = state.legal_actions()
        assert actions is not None
        player = actions.player
        hand = self.hands[player]
        dealer = self.dealer
        rng = self.rng
        count = min(rng.choice((0, 1, 1, 2, 2, 3, actions.max_discard)), actions.max_discard)
        count = min(count, len(dealer.stub) + len(dealer.muck))
        if self.spec.community_cards:  # the board's cards and burns to come stay in the stub
            later = self.spec.community_cards - len(self.state.board_cards)
            count = min(count, max(len(dealer.stub) - 2 * later, 0))
        if count == 0:
            self.emit(EventKind.STAND_PAT, player, count=0, cards=tuple(hand))
            return
        thrown = rng.sample(hand, count)
        if count > len(dealer.stub):
            self.emit(EventKind.RESHUFFLE)
            dealer.reshuffle()
        self.emit(EventKind.DISCARD, player, count=count, cards=tuple(thrown))
        fresh = dealer.take(count)
        dealer.muck.extend(thrown)
        for card in thrown:
            hand.remove(card)
        hand.extend(fresh)
        self.emit(EventKind.DRAW, player, cards=tuple(fresh), up=(False,) * count)

    # --- money out ----------------------------------------------------------------------------

    def _show_order(self, contenders: list[int]) -> list[int]:
        """The players at the showdown in the order they show (`show_order`): the last to bet
        or raise on the last round first, else the first left of the button (stud: the lowest
        seat), then clockwise."""
        street = self.state.street
        first = None
        for event in reversed(self.events):
            if event.street != street or event.kind is EventKind.STREET:
                break
            if event.kind in _AGGRESSION and event.player is not None:
                first = self.state.names.index(event.player)
                break
        if first not in contenders:
            button = self.state.button_index
            first = next((i for i in contenders if i > button), contenders[0])
        start = contenders.index(first)
        return contenders[start:] + contenders[:start]

    def _showdown(self) -> None:
        state = self.state
        contenders = [i for i in range(len(state.names)) if not state.folded[i]]
        if len(contenders) > 1:
            for i in self._show_order(contenders):
                self.emit(EventKind.SHOW, state.names[i], cards=tuple(self._final_cards(i)))
        pots = build_pots(state.invested, state.folded, state.all_in, state.dead)
        total = sum(state.invested)
        percent = self.rules.rake_percent
        # 5% of the pot, or less where the house rakes less (KingsClub: 1.5%)
        rake = int(total * min(percent, Fraction(5)) // 100) if percent is not None else 0
        self.rake = rake
        for position, (amount, eligible) in enumerate(pots):
            taken = min(rake, amount)
            rake -= taken
            self._award(pot_name(position), amount - taken, eligible)

    def _final_cards(self, i: int) -> list[Card]:
        return [card for card in self.state.cards[i] if card is not None]

    def _award(self, name: str, amount: int, eligible: Sequence[int]) -> None:
        state = self.state
        if amount <= 0:
            return
        if len(eligible) == 1:
            self.emit(EventKind.COLLECT, state.names[eligible[0]], amount=amount, pot=name)
            return
        hands = {i: self._final_cards(i) for i in eligible}
        board = [card for card in state.board_cards if card is not None]
        values = {i: evaluate(self.spec.best, hand, board) for i, hand in hands.items()}
        top = max(v for v in values.values() if v is not None)
        high = [i for i in eligible if values[i] == top]
        low: list[int] = []
        if self.spec.split_low is not None:
            lows = {i: evaluate(self.spec.split_low, hand, board) for i, hand in hands.items()}
            qualified = [v for v in lows.values() if v is not None]
            if qualified:
                low = [i for i in eligible if lows[i] == max(qualified)]
        shares: dict[int, int] = {}
        halves = [(high, amount - amount // 2), (low, amount // 2)] if low else [(high, amount)]
        for winners, half in halves:
            base, odd = divmod(half, len(winners))
            for rank, i in enumerate(winners):
                shares[i] = shares.get(i, 0) + base + (1 if rank < odd else 0)
        for i, share in shares.items():
            self.emit(EventKind.COLLECT, state.names[i], amount=share, pot=name)

    def _record(self) -> HandRecord:
        return HandRecord(
            room=self.rules.name,
            room_hand_id=str(self.rng.randrange(10**11, 10**12)),
            game=self.game,
            structure=self.structure,
            currency="USD",
            scale=100,
            stakes=self.stakes,
            started_at=_STARTED,
            room_time="2024/01/01 07:00:00 ET",
            table="Synthetic",
            seats=self.seats,
            events=self.events,
            source=SourceRef("<random>", 0, 1),
            max_seats=8 if self.game.is_stud or len(self.seats) > 6 else 6,
            button=self.button,
            total_pot=sum(self.state.invested),
            rake=self.rake,
        )


def random_hand(
    game: Game,
    structure: Structure,
    players: int,
    rng: random.Random,
    rules: HouseRules | None = None,
) -> HandRecord:
    """A random legal hand of `players` players (2 to 8), capped at the most the game deals to
    under the house rules (2-7 and A-5 triple draw: six).

    `rules` defaults to the PokerStars profile; the record's `room` is the profile's name, so
    `replay(record)` judges it by the same house rules.
    """
    if not 2 <= players <= 8:
        raise ValueError(f"a hand needs 2 to 8 players, not {players}")
    rules = rules or house_rules_for("pokerstars")
    spec = GAME_SPECS[game]
    players = min(players, rules.players_allowed(spec.kind, spec.max_players))
    return _Generator(game, structure, players, rng, rules).run()
