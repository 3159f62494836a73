"""The all-in equity of stud hands whose cards are all known, many spots at a time.

A spot (`AllIn`) is a stud hand at the moment betting closed with a player all-in. Its expected
result per player is the mean, over the runouts of the unseen cards, of what the player takes
from the pots, less what the player put in. The runouts are every one (`EXACT_EVALUATIONS`,
`EXACT_RUNOUTS`) or a sample of `RUNOUTS`, seeded by the spot's `seed` (the hand's content
hash), so a spot's result depends on its cards alone: not on the hand's id, nor on the spots
computed beside it.

`expected_nets` works on a list of spots at once: every player's final hands of every spot of
a game go to the array evaluators (`evaluators.arrays`) in one call, and the pots of every spot
are split in one pass over all their runouts, so the numpy calls per spot are few (the sampling
and the enumeration of one spot stay its own). One spot at a time cost 1.3-2.3 ms, most of it
the overhead of some hundred small numpy calls (docs/scaling.md, issue 36).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Final

import numpy as np

from studdraw.parsers.model import Game
from studdraw.pipeline.evaluators import arrays
from studdraw.pipeline.evaluators.arrays import DECK, INDEX, NO_LOW
from studdraw.pipeline.rules.showdown import EVALUATORS
from studdraw.pipeline.rules.specs import GAME_SPECS

EXACT_EVALUATIONS: Final = 4_000
EXACT_RUNOUTS: Final = 100_000
"""A spot is enumerated exactly when scoring each player's hand with every subset of the unseen
cards takes at most EXACT_EVALUATIONS evaluator calls and the subsets combine into at most
EXACT_RUNOUTS runouts (all-ins on 6th street of up to three players)."""
RUNOUTS: Final = 300
"""Otherwise a sample of this many runouts, seeded by the spot's `seed` (the same result on every
run): the sampled equity of one player has a standard error of at most 0.5/sqrt(300), about 3
percentage points."""
METHOD: Final = f"exact<={EXACT_EVALUATIONS}/{EXACT_RUNOUTS}, else {RUNOUTS} sorted keys"
"""What the results depend on besides the spots: part of the rows' definitions
(`source.VERSION`)."""

_ARRAYS: Final[dict[str, Callable[[np.ndarray], np.ndarray]]] = {
    "high": arrays.high,
    "low_a5": arrays.low_a5,
    "low8": arrays.low8,
}
"""The array evaluators of the stud games' halves, by the evaluator names of `GameSpec`."""
_SEED_MASK: Final = (1 << 64) - 1
ROWS_PER_PASS: Final = 60_000
"""Runouts whose pots are split in one pass of numpy calls (a few MB of arrays)."""


@dataclass(frozen=True, slots=True)
class AllIn:
    """A stud hand at the moment betting closed with a player all-in: the remaining players'
    cards so far and chips put in, the cards known to be out of the deck, the pots (what their
    winners took, who could win them), and the seed of its sampled runouts (the hand's
    content hash)."""

    hand_id: int
    game: str
    street: int
    hands: dict[str, tuple[str, ...]]
    invested: dict[str, int]
    dead: frozenset[str]
    pots: tuple[tuple[int, tuple[str, ...]], ...]
    seed: int


@dataclass(slots=True)
class _Runouts:
    """One spot's runouts being scored: its players, and per player the rows of its game's pile
    of final hands that hold that player's hands (`rows[i]`: start, count), with the mapping of
    the scored rows to runouts (`expand`: None when row r of each player is runout r; else, for
    an exact spot, the shape of the subset grid and the valid cells)."""

    spot: AllIn
    players: list[str]
    starts: list[int]
    count: int
    expand: tuple[tuple[int, ...], np.ndarray] | None


def expected_net(spot: AllIn) -> dict[str, float]:
    """One spot's `expected_nets`."""
    return expected_nets([spot])[0]


def expected_nets(spots: Sequence[AllIn]) -> list[dict[str, float]]:
    """Per spot, each remaining player's expected take from the pots over the runouts of the
    unseen cards (each pot split as the room would split it, odd chips ignored), less what they
    put in."""
    if not spots:
        return []
    piles: dict[str, list[np.ndarray]] = {}
    sizes: dict[str, int] = {}
    runouts = [_deal(spot, piles, sizes) for spot in spots]
    scored = {game: _score(game, np.concatenate(pile)) for game, pile in piles.items()}
    nets = []
    for group in _groups(runouts):
        highs, lows = zip(
            *(_per_runout(runout, *scored[runout.spot.game]) for runout in group), strict=True
        )
        lengths = [len(high) for high in highs]
        takes = _takes(group, highs, lows, lengths)
        start = 0
        for runout, length in zip(group, lengths, strict=True):
            take = takes[: len(runout.players), start : start + length].mean(axis=1)
            start += length
            nets.append(
                {
                    player: float(take[i]) - runout.spot.invested[player]
                    for i, player in enumerate(runout.players)
                }
            )
    return nets


def _groups(runouts: list[_Runouts]) -> Iterator[list[_Runouts]]:
    """The spots in order, in groups of at most ROWS_PER_PASS runouts (or one spot): the
    arrays of a pass over the pots stay a few MB, whatever the spots."""
    group: list[_Runouts] = []
    rows = 0
    for runout in runouts:
        size = runout.count if runout.expand is None else int(runout.expand[1].sum())
        if group and rows + size > ROWS_PER_PASS:
            yield group
            group, rows = [], 0
        group.append(runout)
        rows += size
    if group:
        yield group


def _deal(spot: AllIn, piles: dict[str, list[np.ndarray]], sizes: dict[str, int]) -> _Runouts:
    """Add the spot's final hands (held cards + each runout's or subset's cards, card indices)
    to its game's pile; what is needed to read their scores back per runout."""
    players = list(spot.hands)
    need = 4 - spot.street
    known = np.ones(len(DECK), dtype=bool)
    known[[INDEX[card] for held in spot.hands.values() for card in held]] = False
    known[[INDEX[card] for card in spot.dead]] = False
    unseen = np.flatnonzero(known)
    count = comb(len(unseen), need)
    expand: tuple[tuple[int, ...], np.ndarray] | None
    if len(players) * count <= EXACT_EVALUATIONS and count ** len(players) <= EXACT_RUNOUTS:
        subsets = np.array(list(combinations(range(len(unseen)), need)), dtype=np.int64)
        drawn = [unseen[subsets]] * len(players)
        expand = _grid(subsets, len(players))
    else:
        dealt = len(players) * need
        keys = np.random.default_rng(spot.seed & _SEED_MASK).random((RUNOUTS, len(unseen)))
        deals = unseen[keys.argsort(axis=1)[:, :dealt]]  # the cards of the lowest keys, in order
        drawn = [deals[:, i * need : (i + 1) * need] for i in range(len(players))]
        count, expand = RUNOUTS, None
    pile = piles.setdefault(spot.game, [])
    starts = []
    for player, cards in zip(players, drawn, strict=True):
        own = np.array([INDEX[card] for card in spot.hands[player]], dtype=np.int64)
        pile.append(np.concatenate([np.broadcast_to(own, (len(cards), len(own))), cards], axis=1))
        starts.append(sizes.get(spot.game, 0))
        sizes[spot.game] = starts[-1] + len(cards)
    return _Runouts(spot, players, starts, count, expand)


def _grid(subsets: np.ndarray, players: int) -> tuple[tuple[int, ...], np.ndarray]:
    """The runouts of an exact spot: the cells of the grid (one axis of subsets per player)
    whose subsets are pairwise disjoint."""
    masks = (np.uint64(1) << subsets.astype(np.uint64)).sum(axis=1, dtype=np.uint64)
    shape = (len(subsets),) * players
    valid = np.ones(shape, dtype=bool)
    axes = [masks.reshape([-1 if axis == i else 1 for axis in range(players)])
            for i in range(players)]  # fmt: skip
    for i, j in combinations(range(players), 2):
        valid &= (axes[i] & axes[j]) == 0
    return shape, valid


def _array_evaluator(name: str) -> Callable[[np.ndarray], np.ndarray]:
    """The array evaluator named `name`, or, for a game whose evaluator has none (2-7 razz's
    `low27` of seven cards), the one-hand evaluator applied to each row: slower, the same
    values, so a new game's spec is all the equities need."""
    vectorised = _ARRAYS.get(name)
    if vectorised is not None:
        return vectorised
    evaluate = EVALUATORS[name]

    def each_row(hands: np.ndarray) -> np.ndarray:
        values = (evaluate([DECK[i] for i in row]) for row in hands.tolist())
        return np.fromiter((NO_LOW if v is None else v for v in values), np.int64, len(hands))

    return each_row


def _score(game: str, hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(high values, low values) of seven-card hands (rows of card indices) by the game's
    evaluators (`GameSpec.best`, `split_low`): razz's low is its `high` (it is the only half),
    and -1 stands for no low (no split, or no low that qualifies)."""
    spec = GAME_SPECS[Game(game)]
    low = _array_evaluator(spec.split_low)(hands) if spec.split_low else np.full(len(hands), NO_LOW)
    return _array_evaluator(spec.best)(hands), low


def _per_runout(
    runout: _Runouts, highs: np.ndarray, lows: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(high, low) scores of the spot per runout (row) and player (column)."""
    halves = []
    for values in (highs, lows):
        own = [values[start : start + runout.count] for start in runout.starts]
        if runout.expand is not None:
            shape, valid = runout.expand
            views = [[-1 if axis == i else 1 for axis in range(len(own))] for i in range(len(own))]
            own = [
                np.broadcast_to(scores.reshape(view), shape)[valid]
                for scores, view in zip(own, views, strict=True)
            ]
        halves.append(np.stack(own, axis=1))
    return halves[0], halves[1]


def _takes(
    runouts: list[_Runouts],
    highs: Sequence[np.ndarray],
    lows: Sequence[np.ndarray],
    lengths: list[int],
) -> np.ndarray:
    """What each player takes in each runout (rows: the spots' players, padded; columns: every
    spot's runouts in turn), every spot's pots split at once: the k-th pot of each spot in one
    pass (a spot with fewer pots adds nothing), high and low halves shared by the best. Players
    are rows so that the reductions over them are elementwise operations over long rows (numpy
    reduces a short axis of a long array one small loop per runout, several times slower)."""
    width = max(len(runout.players) for runout in runouts)
    columns = sum(lengths)
    high = np.full((width, columns), NO_LOW, dtype=np.int64)
    low = np.full((width, columns), NO_LOW, dtype=np.int64)
    start = 0
    for spot_high, spot_low, length in zip(highs, lows, lengths, strict=True):
        high[: spot_high.shape[1], start : start + length] = spot_high.T
        low[: spot_low.shape[1], start : start + length] = spot_low.T
        start += length
    take = np.zeros((width, columns))
    any_low = bool((low >= 0).any())
    for k in range(max(len(runout.spot.pots) for runout in runouts)):
        amounts = np.zeros(len(runouts))
        # (the padding rows, never better than NO_LOW, and a spot without a k-th pot, a pot of
        # nothing, count as in it: a pass where everyone is in every pot needs no mask)
        eligible = np.ones((width, len(runouts)), dtype=bool)
        for s, runout in enumerate(runouts):
            if k < len(runout.spot.pots):
                amount, names = runout.spot.pots[k]
                amounts[s] = amount
                eligible[: len(runout.players), s] = [p in names for p in runout.players]
        pot = np.repeat(amounts, lengths)
        everyone = bool(eligible.all())
        in_pot = None if everyone else np.repeat(eligible, lengths, axis=1)
        pot_high = high if in_pot is None else np.where(in_pot, high, NO_LOW)
        if not any_low:  # no runout of these spots has a low: the high half is the pot
            take += _split(pot_high, pot)
            continue
        pot_low = low if in_pot is None else np.where(in_pot, low, NO_LOW)
        high_part = np.where((pot_low >= 0).any(axis=0), pot / 2, pot)
        take += _split(pot_high, high_part)
        take += _split(pot_low, pot - high_part)
    return take


def _split(values: np.ndarray, parts: np.ndarray) -> np.ndarray:
    """Per runout (column), `parts` shared equally by the best values (-1: not in
    contention)."""
    best = values.max(axis=0)
    winners = (values == best) & (best >= 0)
    count = np.maximum(winners.sum(axis=0), 1)
    shares: np.ndarray = winners * (parts / count)
    return shares
