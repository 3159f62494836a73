"""The leak report: a player's frequencies against the reference ranges of a solid limit player
(reference_ranges.toml) and against the pool of players in the store, with a rough price on each
deviation, ranked.

Money at stake, in big bets per 100 hands, for a stat outside its range:

    |frequency gap| x opportunities per 100 hands x |pool result difference|

where the gap is the distance to the nearest bound of the range (to the pool mean for a stat
flagged by its z-score alone) and the result difference is the pool's average net, in big bets,
of the spots where the action was taken minus the spots where it was not. It says how much money
rides on those spots, not a causal saving: taking the action goes with the cards held, so the
difference mixes the decision with the hand's strength (docs/stats.md).
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, replace
from importlib import resources
from typing import Final

import duckdb
import polars as pl

from studdraw.pipeline.identities import with_players

from .features import TABLE_SIZES
from .filters import Filters, need_player, sessions_sql, where
from .registry import BY_NAME, STATS
from .source import ensure_features, run
from .stats import player_stats, rollup_source

MIN_OPPORTUNITIES: Final = 20
"""Fewer opportunities than this say too little about a frequency to report it (a player's own,
or a pool player's for the pool's mean and spread)."""
Z_FLAG: Final = 2.0
"""A stat inside its range is still flagged when it lies this many pool standard deviations
from the pool mean; a stat outside its range is `major`/`moderate` only if its gap is this many
binomial standard errors (at the bound) wide."""
MAJOR_BB_PER_100: Final = 1.0
"""Money at stake from which a significant leak is `major` rather than `moderate`."""
EXAMPLES: Final = 5
SEVERITY_ORDER: Final = ("major", "moderate", "minor")
REFERENCE_TABLE_SIZE: Final = TABLE_SIZES[-1]
"""The table size reference_ranges.toml describes (full ring): a heads-up or short-handed
sample is compared with the pool at its own table size only, never with these ranges."""
CONFIDENCE_Z: Final = 1.96
"""The interval shown for each frequency: 95% Wilson score interval."""
VERDICTS: Final = ("leak", "within range", "too few spots", "no reference")
"""What the report says of each stat it looked at: a leak; inside the range (and not a pool
outlier); fewer than `MIN_OPPORTUNITIES` spots, too few to judge; nothing to compare with (no
range for the table size and too small a pool)."""
LEAK_SCHEMA: Final = pl.Schema(
    {
        "stat": pl.String(),
        "label": pl.String(),
        "game": pl.String(),
        "currency": pl.String(),
        "table_size": pl.String(),
        "verdict": pl.String(),
        "value": pl.Float64(),
        "ci_low": pl.Float64(),
        "ci_high": pl.Float64(),
        "low": pl.Float64(),
        "high": pl.Float64(),
        "direction": pl.String(),
        "pool_mean": pl.Float64(),
        "pool_sd": pl.Float64(),
        "pool_players": pl.Int64(),
        "z": pl.Float64(),
        "opportunities": pl.Int64(),
        "opportunities_per_100": pl.Float64(),
        "result_difference": pl.Float64(),
        "money_at_stake": pl.Float64(),
        "severity": pl.String(),
        "examples": pl.List(pl.Int64()),
        "example_room_hand_ids": pl.List(pl.String()),
    }
)


@dataclass(frozen=True, slots=True)
class Reference:
    """A solid limit player's range for one stat in one game, with why."""

    game: str
    stat: str
    low: float
    high: float
    source: str
    reasoning: str


def reference_ranges() -> dict[tuple[str, str], Reference]:
    """The ranges of reference_ranges.toml by (game, stat); every stat named there exists."""
    text = resources.files(__package__).joinpath("reference_ranges.toml").read_text("utf-8")
    ranges = {}
    for game, stats in tomllib.loads(text).items():
        for stat, entry in stats.items():
            if stat not in BY_NAME:
                raise ValueError(f"reference_ranges.toml: unknown stat {game}.{stat}")
            ranges[(game, stat)] = Reference(
                game, stat, entry["low"], entry["high"], entry["source"], entry["reasoning"]
            )
    return ranges


def _pool(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """Per game, currency and ranged stat (at the filters' table size): the pool's mean and
    spread of per-player frequencies (players with enough opportunities) and the average result
    difference of taking the action, summed from the rollup."""
    ranged = sorted({stat for _, stat in reference_ranges()})
    columns = ", ".join(
        f"sum({name}__{part})::{kind} AS {name}__{part}"
        for name in ranged
        for part, kind in (("n", "BIGINT"), ("k", "BIGINT"), ("n_bb", "DOUBLE"), ("k_bb", "DOUBLE"))
    )
    source, params = rollup_source(replace(filters, player=None, session=None))
    per_player = run(
        con,
        f"SELECT player, game, currency, {columns} FROM {with_players(source)} "
        "GROUP BY player, game, currency",
        params,
    )
    frames = []
    for name in ranged:
        n, k = pl.col(f"{name}__n"), pl.col(f"{name}__k")
        n_bb, k_bb = pl.col(f"{name}__n_bb"), pl.col(f"{name}__k_bb")
        enough = n >= MIN_OPPORTUNITIES
        rate = k / n
        frames.append(
            per_player.group_by("game", "currency").agg(
                stat=pl.lit(name),
                pool_mean=rate.filter(enough).mean(),
                pool_sd=rate.filter(enough).std(),
                pool_players=enough.sum().cast(pl.Int64),
                result_difference=k_bb.sum() / k.sum()
                - (n_bb.sum() - k_bb.sum()) / (n.sum() - k.sum()),
            )
        )
    return pl.concat(frames)


def leaks(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """The player's deviations, worst first: the rows of `assess` whose verdict is a leak."""
    return assess(con, filters).filter(pl.col("verdict") == "leak")


def assess(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """Every stat with a reference range, per game, currency and table size the player played
    (the filters may narrow them), with its value, 95% confidence interval and verdict
    (`VERDICTS`). A leak is a value with at least `MIN_OPPORTUNITIES` spots, outside the range
    (full-ring tables only: the ranges describe full rings, and every seat: with a filter on a
    seat's position, door card or starting hand the pool alone judges) or `Z_FLAG` deviations
    from the pool of its table size and currency (and of the same seat facts); it carries its
    money at stake (big bets per 100 hands), severity and example hands (the most expensive
    spots where the player did what the leak says: store ids and the room's ids). Leaks first,
    worst first; then the rest."""
    player = need_player(filters, "leaks")
    ensure_features(con)
    ranges = reference_ranges()
    sizes = TABLE_SIZES if filters.table_size is None else (filters.table_size,)
    found = []
    for size in sizes:
        sized = replace(filters, table_size=size)
        mine = player_stats(con, sized).filter(pl.col("player") == player)
        if mine.is_empty():
            continue
        pool = {
            (row["game"], row["currency"], row["stat"]): row
            for row in _pool(con, sized).iter_rows(named=True)
        }
        for row in mine.iter_rows(named=True):
            for stat in STATS:
                reference = ranges.get((row["game"], stat.name))
                if reference is None:
                    continue
                key = (row["game"], row["currency"], stat.name)
                ranged = size == REFERENCE_TABLE_SIZE and not filters.by_seat
                found.append(_assess(reference, row, pool.get(key, {}), size, ranged=ranged))
    leaky = [leak for leak in found if leak["verdict"] == "leak"]
    for leak, (ids, room_hand_ids) in zip(leaky, _examples(con, filters, leaky), strict=True):
        leak["examples"], leak["example_room_hand_ids"] = ids, room_hand_ids
    report = pl.DataFrame(found, schema=LEAK_SCHEMA)
    return report.sort(
        pl.col("verdict").replace_strict(VERDICTS, range(len(VERDICTS)), return_dtype=pl.Int8),
        pl.col("severity").replace_strict(
            SEVERITY_ORDER, range(3), default=3, return_dtype=pl.Int8
        ),
        pl.col("money_at_stake"),
        pl.col("opportunities"),
        descending=[False, False, True, True],
        nulls_last=True,
    )


def wilson(successes: int, trials: int, z: float = CONFIDENCE_Z) -> tuple[float, float]:
    """The Wilson score interval of a frequency: honest for small samples and for 0 or 1."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def _assess(
    reference: Reference,
    row: dict[str, object],
    pool: dict[str, object],
    table_size: str,
    *,
    ranged: bool,
) -> dict[str, object]:
    """The verdict on one stat of one (game, currency, table size) row of the player; `ranged`:
    whether the reference range applies (full ring, every seat)."""
    opportunities = int(_number(row[f"{reference.stat}_n"] or 0))
    value = _number(row[reference.stat]) if opportunities else None
    taken = round((value or 0.0) * opportunities)
    low, high = wilson(taken, opportunities)
    judged: dict[str, object] = {
        "stat": reference.stat,
        "label": BY_NAME[reference.stat].title((reference.game,)),
        "game": reference.game,
        "currency": row["currency"],
        "table_size": table_size,
        "value": value,
        "ci_low": low if opportunities else None,
        "ci_high": high if opportunities else None,
        "low": reference.low if ranged else None,
        "high": reference.high if ranged else None,
        "opportunities": opportunities,
        "pool_mean": pool.get("pool_mean"),
        "pool_sd": pool.get("pool_sd"),
        "pool_players": int(_number(pool.get("pool_players", 0))),
    }
    if value is None or opportunities < MIN_OPPORTUNITIES:
        return {**judged, "verdict": "too few spots"}
    leak = _leak(reference, row, pool, value, opportunities, ranged=ranged)
    if leak is not None:
        return {**judged, **leak, "verdict": "leak"}
    has_pool = int(_number(pool.get("pool_players", 0))) >= 3 and pool.get("pool_sd") is not None
    return {**judged, "verdict": "within range" if ranged or has_pool else "no reference"}


def _leak(
    reference: Reference,
    row: dict[str, object],
    pool: dict[str, object],
    value: float,
    opportunities: int,
    *,
    ranged: bool,
) -> dict[str, object] | None:
    """The leak of one stat, or None when the value is inside the range (when the range
    applies) and not a pool outlier."""
    mean, sd = pool.get("pool_mean"), pool.get("pool_sd")
    players = int(_number(pool.get("pool_players", 0)))
    z = (
        (value - _number(mean)) / _number(sd)
        if mean is not None and sd is not None and _number(sd) > 0 and players >= 3
        else None
    )
    if ranged and (value > reference.high or value < reference.low):
        bound = reference.high if value > reference.high else reference.low
        direction = "too high" if value > reference.high else "too low"
        gap = abs(value - bound)
        p = min(max(bound, 0.5 / opportunities), 1 - 0.5 / opportunities)
        significant = gap / math.sqrt(p * (1 - p) / opportunities) >= Z_FLAG
    elif z is not None and abs(z) >= Z_FLAG:
        direction = "above pool" if z > 0 else "below pool"
        gap = abs(value - _number(mean))
        significant = False
    else:
        return None
    per_100 = 100 * opportunities / int(_number(row["hands"]))
    difference = pool.get("result_difference")
    money = gap * per_100 * abs(_number(difference)) if difference is not None else None
    severity = (
        "major"
        if significant and money is not None and money >= MAJOR_BB_PER_100
        else "moderate"
        if significant
        else "minor"
    )
    return {
        "direction": direction,
        "z": z,
        "opportunities_per_100": per_100,
        "result_difference": difference,
        "money_at_stake": money,
        "severity": severity,
    }


def _number(value: object) -> float:
    assert isinstance(value, int | float), value
    return float(value)


def _examples(
    con: duckdb.DuckDBPyConnection, filters: Filters, found: list[dict[str, object]]
) -> list[tuple[list[int], list[str]]]:
    """For each leak, the hands where the player did what the leak says (took the action for a
    stat too high, passed it up for one too low), the most expensive first: store hand ids and
    the room's hand ids. One query marks every leak's spots on the player's hands; polars sorts
    them once and picks the first few of each (a filtered aggregate per leak costs DuckDB far
    more)."""
    if not found:
        return []
    spots = []
    params: dict[str, object] = {}
    for number, leak in enumerate(found):
        stat = BY_NAME[str(leak["stat"])]
        took = "" if leak["direction"] in ("too high", "above pool") else "NOT "
        spots.append(
            f"game = $game_{number} AND currency = $currency_{number} "
            f"AND table_size = $size_{number} AND ({stat.opportunity}) "
            f"AND {took}coalesce({stat.action}, false) AS spot_{number}"
        )
        params |= {
            f"game_{number}": leak["game"],
            f"currency_{number}": leak["currency"],
            f"size_{number}": leak["table_size"],
        }
    condition, where_params = where(replace(filters, game=None, table_size=None))
    sessions = "WITH " + sessions_sql() if filters.session is not None else ""
    marked = run(
        con,
        f"{sessions} SELECT hand_id, room_hand_id, net_bb, {', '.join(spots)} "
        f"FROM player_hands WHERE {condition}",
        {**where_params, **params},
    ).sort("net_bb", "hand_id")
    picked = []
    for number in range(len(found)):
        rows = marked.filter(pl.col(f"spot_{number}")).head(EXAMPLES)
        picked.append((rows["hand_id"].to_list(), rows["room_hand_id"].to_list()))
    return picked
