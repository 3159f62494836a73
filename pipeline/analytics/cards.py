"""The facts that need the hand evaluators: made and bad draw hands (breaking, snowing) and the
all-in equity of stud hands whose cards are all known.

SQL picks the few rows that qualify (known cards only); the evaluators of
`studdraw.pipeline.evaluators` judge them here. Draw hands are judged once per distinct hand,
then joined back; an all-in equity is an enumeration (or a seeded sample) of the unseen cards.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Final

import duckdb
import numpy as np
import polars as pl

from studdraw.parsers.model import Game
from studdraw.pipeline.evaluators import arrays
from studdraw.pipeline.evaluators.arrays import DECK, INDEX, NO_LOW
from studdraw.pipeline.rules.showdown import EVALUATORS
from studdraw.pipeline.rules.specs import GAME_SPECS

from .features import LOW_DRAW_GAMES, STUD_GAMES

EXACT_EVALUATIONS: Final = 4_000
EXACT_RUNOUTS: Final = 100_000
"""An all-in hand is enumerated exactly when scoring each player's hand with every subset of the
unseen cards takes at most EXACT_EVALUATIONS evaluator calls and the subsets combine into at most
EXACT_RUNOUTS runouts (all-ins on 6th street of up to three players)."""
RUNOUTS: Final = 300
"""Otherwise a sample of this many runouts, seeded by the hand id (the same result on every
run): the sampled equity of one player has a standard error of at most 0.5/sqrt(300), about 3
percentage points."""

PARALLEL_SPOTS: Final = 2_000
"""From this many all-in hands on, a process pool (when given) computes their equities."""


MADE: Final = {game.value: spec.made for game, spec in GAME_SPECS.items() if spec.made is not None}
"""The worst hand that counts as made (pat-capable), per draw game (`GameSpec.made`)."""
BAD: Final = {game.value: spec.bad for game, spec in GAME_SPECS.items() if spec.bad is not None}
"""Below this a hand shown after standing pat is a snow, per draw game (`GameSpec.bad`)."""
HAND_SIZE_SQL: Final = (
    "CASE h.game "
    + " ".join(f"WHEN '{game}' THEN {GAME_SPECS[Game(game)].hand_size}" for game in LOW_DRAW_GAMES)
    + " END"
)
"""The cards a player holds in each low draw game, from its GameSpec."""
_ARRAYS: Final[dict[str, Callable[[np.ndarray], np.ndarray]]] = {
    "high": arrays.high,
    "low_a5": arrays.low_a5,
    "low8": arrays.low8,
}
"""The array evaluators of the stud games' halves, by the evaluator names of `GameSpec`."""


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


def _at_least(game: str, worst: dict[str, tuple[str, ...]]) -> Callable[[Sequence[str]], bool]:
    """Does a hand of `game` reach `worst[game]` by the game's evaluator (`GameSpec.best`)?"""
    evaluate = EVALUATORS[GAME_SPECS[Game(game)].best]
    floor = evaluate(worst[game])
    return lambda cards: (evaluate(cards) or 0) >= (floor or 0)


def _judge(frame: pl.DataFrame, worst: dict[str, tuple[str, ...]]) -> pl.Series:
    """For each row (game, cards): does the hand reach `worst[game]`? Evaluated once per
    distinct hand."""
    distinct = frame.select("game", "cards").unique()
    tests = {game: _at_least(game, worst) for game in LOW_DRAW_GAMES}
    verdicts = distinct.with_columns(
        pl.Series("ok", [tests[g](c) for g, c in distinct.iter_rows()], dtype=pl.Boolean)
    )
    return frame.join(verdicts, on=["game", "cards"], how="left", nulls_equal=True)["ok"]


LAST_DRAW_SQL: Final = (
    "CASE h.game "
    + " ".join(
        f"WHEN '{game}' THEN {GAME_SPECS[Game(game)].last_street}" for game in LOW_DRAW_GAMES
    )
    + " END"
)
"""The round after a game's last draw (triple draw: 3; single draw: 1), from its GameSpec."""

_KNOWN_BEFORE_DRAW = f"""
SELECT ps.hand_id, ps.name, h.game, ps.cards, nxt.drawn
FROM player_streets ps
JOIN hands h USING (hand_id)
JOIN player_streets nxt
  ON nxt.hand_id = ps.hand_id AND nxt.name = ps.name AND nxt.street = ps.street + 1
WHERE ps.hand_id BETWEEN $lo AND $hi AND nxt.hand_id BETWEEN $lo AND $hi
  AND h.game IN {LOW_DRAW_GAMES} AND ps.street <= 2 AND nxt.drawn IS NOT NULL
  AND len(ps.cards) = {HAND_SIZE_SQL}
  AND list_count(ps.cards) = len(ps.cards)
"""

_SHOWN_PAT = f"""
SELECT hp.hand_id, hp.name, h.game, hp.cards
FROM hand_players hp
JOIN hands h USING (hand_id)
JOIN player_streets ps ON ps.hand_id = hp.hand_id AND ps.name = hp.name
  AND ps.street = {LAST_DRAW_SQL}
WHERE hp.hand_id BETWEEN $lo AND $hi AND ps.hand_id BETWEEN $lo AND $hi
  AND h.game IN {LOW_DRAW_GAMES} AND ps.drawn = 0 AND hp.showed
  AND len(hp.cards) = {HAND_SIZE_SQL}
  AND list_count(hp.cards) = len(hp.cards)
"""

CARD_FLAGS_SCHEMA: Final = {
    "hand_id": pl.Int64,
    "name": pl.String,
    "made_opp": pl.Boolean,
    "made_broke": pl.Boolean,
    "snow_opp": pl.Boolean,
    "snow": pl.Boolean,
}


def draw_card_flags(con: duckdb.DuckDBPyConnection, lo: int, hi: int) -> pl.DataFrame:
    """Per (hand, player) of the draw games, where the cards are known: held a made hand before
    a draw (`made_opp`) and drew from it anyway (`made_broke`); stood pat on the last draw and
    showed (`snow_opp`) a bad hand (`snow`). Low draw games only (`LOW_DRAW_GAMES`)."""
    bounds = {"lo": lo, "hi": hi}
    before: pl.DataFrame = con.sql(_KNOWN_BEFORE_DRAW, params=bounds).pl()
    made = (
        before.with_columns(made=_judge(before, MADE))
        .group_by("hand_id", "name")
        .agg(
            made_opp=pl.col("made").any(),
            made_broke=(pl.col("made") & (pl.col("drawn") > 0)).any(),
        )
    )
    shown: pl.DataFrame = con.sql(_SHOWN_PAT, params=bounds).pl()
    snows = shown.select("hand_id", "name", snow_opp=pl.lit(True), snow=~_judge(shown, BAD))
    return made.join(snows, on=["hand_id", "name"], how="full", coalesce=True).select(
        [pl.col(name).cast(dtype) for name, dtype in CARD_FLAGS_SCHEMA.items()]
    )


_ALLIN_PLAYERS = f"""
WITH per_street AS (
  SELECT hand_id, street,
    count(*) FILTER (WHERE NOT folded) AS players_in,
    count(*) FILTER (WHERE NOT folded AND NOT all_in) AS players_live
  FROM player_streets WHERE hand_id BETWEEN $lo AND $hi GROUP BY hand_id, street
),
point AS (
  SELECT p.hand_id, min(p.street) AS street
  FROM per_street p JOIN hands h USING (hand_id)
  WHERE h.game IN {STUD_GAMES} AND p.players_in >= 2 AND p.players_live <= 1 AND p.street < 4
    AND NOT EXISTS (SELECT 1 FROM actions a WHERE a.hand_id = p.hand_id
                    AND a.hand_id BETWEEN $lo AND $hi AND a.kind = 'community')
  GROUP BY p.hand_id
),
players AS (
  SELECT t.hand_id, h.game, t.street, hp.seat, hp.name, hp.cards, hp.invested,
         ps.name IS NOT NULL AS remaining
  FROM point t
  JOIN hands h USING (hand_id)
  JOIN hand_players hp USING (hand_id)
  LEFT JOIN player_streets ps
    ON ps.hand_id = t.hand_id AND ps.name = hp.name AND ps.street = t.street AND NOT ps.folded
  WHERE hp.dealt_in AND hp.hand_id BETWEEN $lo AND $hi
)
SELECT hand_id, game, street, name, cards, invested, remaining
FROM players
QUALIFY bool_and(NOT remaining OR (len(cards) = 7 AND list_count(cards) = 7))
          OVER (PARTITION BY hand_id)
ORDER BY hand_id, seat
"""

_ALLIN_POTS = """
SELECT hand_id, sum(collected) AS collected, any_value(eligible) AS eligible
FROM pots WHERE hand_id IN (SELECT unnest($ids)) AND hand_id BETWEEN $lo AND $hi
GROUP BY hand_id, name ORDER BY hand_id, name
"""

ALLIN_SCHEMA: Final = {"hand_id": pl.Int64, "name": pl.String, "allin_net": pl.Float64}


@dataclass(frozen=True, slots=True)
class AllIn:
    """A stud hand at the moment betting closed with a player all-in: the remaining players'
    cards so far and chips put in, the cards known to be out of the deck, and the pots (what
    their winners took, who could win them)."""

    hand_id: int
    game: str
    street: int
    hands: dict[str, tuple[str, ...]]
    invested: dict[str, int]
    dead: frozenset[str]
    pots: tuple[tuple[int, tuple[str, ...]], ...]


def expected_net(spot: AllIn) -> dict[str, float]:
    """Each remaining player's expected take from the pots over the runouts of the unseen
    cards (each pot split as the room would split it, odd chips ignored), less what they put
    in. numpy scores every runout of every player at once (`evaluators.arrays`) and splits
    the pots over them."""
    players = list(spot.hands)
    need = 4 - spot.street
    known = spot.dead.union(*spot.hands.values())
    unseen = np.array([i for i, card in enumerate(DECK) if card not in known], dtype=np.int64)
    exact = _every_runout(spot, players, unseen, need)
    highs, lows = exact if exact is not None else _sampled_runouts(spot, players, unseen, need)
    take = np.zeros(highs.shape)
    for amount, eligible in spot.pots:
        seats = [i for i, p in enumerate(players) if p in eligible]
        low = lows[:, seats]
        high_part = np.where((low >= 0).any(axis=1), amount / 2, amount)
        take[:, seats] += _split(highs[:, seats], high_part)
        take[:, seats] += _split(low, amount - high_part)
    return {
        player: float(take[:, i].mean()) - spot.invested[player] for i, player in enumerate(players)
    }


CARDS_SQL: Final = (_KNOWN_BEFORE_DRAW, _SHOWN_PAT, _ALLIN_PLAYERS)
"""The queries that pick the hands judged here: part of the per-hand rows' definitions
(`source.VERSION`)."""


def _scores(game: str, held: tuple[str, ...], drawn: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(high values, low values) of the final seven-card hands `held` + each row of `drawn`
    (card indices) by the game's evaluators (`GameSpec.best`, `split_low`): razz's low is its
    `high` (it is the only half), and -1 stands for no low (no split, or no low that
    qualifies)."""
    own = np.array([INDEX[card] for card in held], dtype=np.int64)
    hands = np.concatenate([np.broadcast_to(own, (len(drawn), len(own))), drawn], axis=1)
    spec = GAME_SPECS[Game(game)]
    low = _array_evaluator(spec.split_low)(hands) if spec.split_low else np.full(len(hands), NO_LOW)
    return _array_evaluator(spec.best)(hands), low


def _every_runout(
    spot: AllIn, players: list[str], unseen: np.ndarray, need: int
) -> tuple[np.ndarray, np.ndarray] | None:
    """(high, low) scores per runout (row) and player (column) over EVERY runout, or None when
    there are too many: each player's hand is scored once per subset of the unseen cards, and
    the runouts are the combinations of pairwise disjoint subsets."""
    count = comb(len(unseen), need)
    if len(players) * count > EXACT_EVALUATIONS or count ** len(players) > EXACT_RUNOUTS:
        return None
    subsets = np.array(list(combinations(range(len(unseen)), need)), dtype=np.int64)
    masks = (np.uint64(1) << subsets.astype(np.uint64)).sum(axis=1, dtype=np.uint64)
    shape = (len(subsets),) * len(players)
    valid = np.ones(shape, dtype=bool)
    axes = [masks.reshape([-1 if axis == i else 1 for axis in range(len(players))])
            for i in range(len(players))]  # fmt: skip
    for i, j in combinations(range(len(players)), 2):
        valid &= (axes[i] & axes[j]) == 0
    scores = []
    for i, player in enumerate(players):
        own = _scores(spot.game, spot.hands[player], unseen[subsets])
        view = [-1 if axis == i else 1 for axis in range(len(players))]
        scores.append([np.broadcast_to(half.reshape(view), shape)[valid] for half in own])
    return (
        np.stack([high_low[0] for high_low in scores], axis=1),
        np.stack([high_low[1] for high_low in scores], axis=1),
    )


def _sampled_runouts(
    spot: AllIn, players: list[str], unseen: np.ndarray, need: int
) -> tuple[np.ndarray, np.ndarray]:
    """(high, low) scores per runout and player over RUNOUTS random runouts, seeded by the
    hand id so that every run gives the same result: each runout deals the unseen cards in
    the order of random keys, `need` to each player in turn."""
    dealt = len(players) * need
    keys = np.random.default_rng(spot.hand_id).random((RUNOUTS, len(unseen)))
    first = np.argpartition(keys, dealt - 1, axis=1)[:, :dealt]  # the lowest keys, unordered
    order = np.take_along_axis(
        first, np.take_along_axis(keys, first, axis=1).argsort(axis=1), axis=1
    )
    deals = unseen[order]
    highs, lows = [], []
    for i, player in enumerate(players):
        high_values, low_values = _scores(
            spot.game, spot.hands[player], deals[:, i * need : (i + 1) * need]
        )
        highs.append(high_values)
        lows.append(low_values)
    return np.stack(highs, axis=1), np.stack(lows, axis=1)


def _split(values: np.ndarray, parts: np.ndarray) -> np.ndarray:
    """Per runout (row), `parts` shared equally by the best values (-1: not in contention)."""
    best = values.max(axis=1, keepdims=True)
    winners = (values == best) & (best >= 0)
    count = np.maximum(winners.sum(axis=1, keepdims=True), 1)
    shares: np.ndarray = winners * (parts[:, None] / count)
    return shares


def allin_spots(con: duckdb.DuckDBPyConnection, lo: int, hi: int) -> list[AllIn]:
    """The stud hands of [lo, hi] where betting closed before 7th street with a player all-in
    and the cards of every remaining player are known (seven each, no community card)."""
    bounds = {"lo": lo, "hi": hi}
    rows: pl.DataFrame = con.sql(_ALLIN_PLAYERS, params=bounds).pl()
    if rows.is_empty():
        return []
    ids = rows["hand_id"].unique().sort().to_list()
    pots: dict[int, list[tuple[int, tuple[str, ...]]]] = {}
    for hand_id, collected, eligible in con.sql(
        _ALLIN_POTS, params={**bounds, "ids": ids}
    ).fetchall():
        pots.setdefault(hand_id, []).append((int(collected), tuple(eligible)))
    spots = []
    for (hand_id, game, street), group in rows.group_by(
        ["hand_id", "game", "street"], maintain_order=True
    ):
        assert isinstance(hand_id, int) and isinstance(game, str) and isinstance(street, int)
        hands: dict[str, tuple[str, ...]] = {}
        invested: dict[str, int] = {}
        dead: set[str] = set()
        for name, cards, put_in, remaining in group.select(
            "name", "cards", "invested", "remaining"
        ).iter_rows():
            if remaining:
                hands[name] = tuple(cards[: 3 + street])
                invested[name] = put_in
            else:
                dead.update(card for card in cards or () if card is not None)
        spots.append(
            AllIn(hand_id, game, street, hands, invested, frozenset(dead), tuple(pots[hand_id]))
        )
    return spots


def allin_adjusted(
    con: duckdb.DuckDBPyConnection, lo: int, hi: int, pool: Executor | None = None
) -> pl.DataFrame:
    """Per (hand, remaining player) of the all-in spots of [lo, hi]: the equity-weighted result
    (`allin_net`, smallest units, a float) that replaces the actual net in all-in adjusted
    results. With a process `pool` (see `equity_pool`), many spots are spread over it."""
    spots = allin_spots(con, lo, hi)
    if pool is not None and len(spots) >= PARALLEL_SPOTS:
        nets = list(pool.map(expected_net, spots, chunksize=250))
    else:
        nets = [expected_net(spot) for spot in spots]
    rows = [
        (spot.hand_id, name, net)
        for spot, by_player in zip(spots, nets, strict=True)
        for name, net in by_player.items()
    ]
    return pl.DataFrame(rows, schema=ALLIN_SCHEMA, orient="row")


def equity_pool(workers: int) -> Executor | None:
    """A process pool for the all-in equities (a few ms each), or None for one worker. Its
    processes start from a fork server, so the caller must be a `__main__`-guarded program
    (a command), not a library caller such as a dashboard."""
    if workers < 2:
        return None
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("forkserver"))
