"""A player's results in time: sessions and the hand-by-hand graph, actual and all-in adjusted.

Sessions are numbered over all the player's hands (any game, room or date), so a session keeps
its number whatever page asks for it; the filters then pick which hands count. DuckDB reads the
player's hands in time order, marking those that pass the filters; polars numbers the sessions
and runs the totals (running sums over a million rows cost DuckDB's windows seconds, polars
milliseconds).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import duckdb
import polars as pl

from .filters import SESSION_GAP_MINUTES, Filters, need_player, where
from .registry import MONEY
from .source import ensure_features, run

EXACT: pl.Decimal = pl.Decimal(18, 4)
"""Money in currency units, as in every other frame."""


def _timeline(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """The player's hands passing the filters, in time order, each with its session number
    (counted over all the player's hands) and its results."""
    condition, params = where(replace(filters, session=None))
    hands = run(
        con,
        f"""SELECT hand_id, site_hand_id, started_at, game, {MONEY} AS net, net_bb AS big_bets,
  allin_adjusted, allin_net / scale AS allin_net, allin_net / nullif(big_bet, 0) AS allin_big_bets,
  ({condition}) AS kept
FROM player_hands WHERE name = $player ORDER BY started_at, hand_id""",
        params,
    )
    gap = timedelta(minutes=SESSION_GAP_MINUTES)
    step = pl.col("started_at").diff().fill_null(gap)
    hands = hands.with_columns(session=(step >= gap).cast(pl.Int64).cum_sum())
    kept = pl.col("kept")
    if filters.session is not None:
        kept &= pl.col("session") == filters.session
    return hands.filter(kept).drop("kept")


def sessions(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """The sessions of `filters.player` holding hands that pass the filters: number, first and
    last hand (UTC), hands, net (currency units) and big bets won."""
    need_player(filters, "sessions")
    ensure_features(con)
    return (
        _timeline(con, filters)
        .group_by("session")
        .agg(
            start=pl.col("started_at").min(),
            end=pl.col("started_at").max(),
            hands=pl.len().cast(pl.Int64),
            net=pl.col("net").sum().cast(EXACT),
            big_bets=pl.col("big_bets").sum(),
        )
        .sort("session")
    )


def results_over_time(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """One row per hand of `filters.player` passing the filters, in time order: the hand, its
    session, net (currency units, big bets) and the running totals: net, big bets, and the
    all-in adjusted net and big bets (where the player was all-in before the last street with
    every remaining hand known, the equity share of the pots replaces the actual result;
    `allin_adjusted` marks those hands)."""
    need_player(filters, "results_over_time")
    ensure_features(con)
    return _timeline(con, filters).select(
        "hand_id",
        "site_hand_id",
        "started_at",
        "session",
        "game",
        "net",
        "big_bets",
        "allin_adjusted",
        cumulative_net=pl.col("net").cum_sum().cast(EXACT),
        cumulative_big_bets=pl.col("big_bets").cum_sum(),
        allin_cumulative_net=pl.col("allin_net").cum_sum(),
        allin_cumulative_big_bets=pl.col("allin_big_bets").cum_sum(),
    )
