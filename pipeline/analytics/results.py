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

from studdraw.pipeline.identities import player_condition
from studdraw.pipeline.words import stakes_text

from .filters import SESSION_GAP_MINUTES, Filters, need_player, where
from .registry import MONEY
from .source import ensure_features, run

EXACT: pl.Decimal = pl.Decimal(18, 4)
"""Money in currency units, as in every other frame."""


def _numbered(hands: pl.DataFrame) -> pl.DataFrame:
    """A player's hands in time order with their session numbers: a session ends after
    `SESSION_GAP_MINUTES` without a hand."""
    gap = timedelta(minutes=SESSION_GAP_MINUTES)
    step = pl.col("started_at").diff().fill_null(gap)
    return hands.with_columns(session=(step >= gap).cast(pl.Int64).cum_sum())


def _time_share() -> pl.Expr:
    """Each hand's share of the time at the tables, in seconds: from its start to the start of
    the player's next hand of the same session (0 for a session's last hand). The shares of a
    session add up to its length, first hand to last, however many tables were played at
    once; a hand a filter leaves out keeps its share out of every sum."""
    started = pl.col("started_at")
    gap = (started.shift(-1) - started).dt.total_milliseconds() / 1000
    same = pl.col("session").shift(-1) == pl.col("session")
    return pl.when(same).then(gap).otherwise(0.0).cast(pl.Float64)


def per_hour(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` (with `hands`, `seconds`, `net` in currency units and `big_bets`, one currency
    per row) with its rates per hour of play: `hours`, `hands_per_hour`, `net_per_hour` (in the
    row's currency) and `big_bets_per_hour`; None where no time was played (a session of one
    hand)."""
    hours = pl.col("seconds") / 3600
    timed = pl.when(hours > 0)
    return frame.with_columns(
        hours=hours,
        hands_per_hour=timed.then(pl.col("hands") / hours),
        net_per_hour=timed.then(pl.col("net").cast(pl.Float64) / hours),
        big_bets_per_hour=timed.then(pl.col("big_bets") / hours),
    )


def hourly(
    con: duckdb.DuckDBPyConnection, filters: Filters, *, by_game: bool = False
) -> pl.DataFrame:
    """Money and hands per hour of `filters.player` over the hands passing the filters, one row
    per currency (and per game with `by_game`; money never adds across currencies): hands,
    seconds played (each hand's share, see `_time_share`), net in that currency, big bets, and
    the rates of `per_hour`."""
    need_player(filters, "hourly")
    ensure_features(con)
    keys = ["game", "currency"] if by_game else ["currency"]
    totals = (
        _timeline(con, filters)
        .group_by(keys)
        .agg(
            hands=pl.len().cast(pl.Int64),
            seconds=pl.col("seconds").sum(),
            net=pl.col("net").sum().cast(EXACT),
            big_bets=pl.col("big_bets").sum(),
        )
        .sort(pl.col("hands"), *keys, descending=[True, *[False] * len(keys)])
    )
    return per_hour(totals)


def hourly_of_sessions(sessions: pl.DataFrame) -> pl.DataFrame:
    """The rates of `per_hour` per currency over a `sessions` frame (the sessions shown): the
    same figures as `hourly` without reading the hands again."""
    totals = sessions.group_by("currency").agg(
        pl.col("hands").sum(), pl.col("seconds").sum(), pl.col("net").sum().cast(EXACT),
        pl.col("big_bets").sum(),
    )  # fmt: skip
    return per_hour(totals.sort("hands", "currency", descending=[True, False]))


def session_starts(con: duckdb.DuckDBPyConnection, player: str) -> pl.DataFrame:
    """Each session of `player`, numbered as `sessions` numbers them, and when its first hand
    started: what a session picker lists, read without the hands' results (on a million hands
    a tenth of the time of `sessions`)."""
    ensure_features(con)
    times = run(
        con,
        f"SELECT started_at FROM player_hands WHERE {player_condition()} "
        "ORDER BY started_at, hand_id",
        {"player": player},
    )
    return (
        _numbered(times)
        .group_by("session", maintain_order=True)
        .agg(start=pl.col("started_at").first())
    )


_STAKES = ("structure", "small_bet", "big_bet", "small_blind", "big_blind", "scale", "currency")
"""The columns `stakes_text` names the stakes with."""


def _timeline(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """The player's hands passing the filters, in time order, each with its session number
    (counted over all the player's hands) and its results."""
    condition, params = where(replace(filters, session=None))
    hands = run(
        con,
        f"""SELECT hand_id, room, room_hand_id, started_at, game, currency, tournament, structure,
  small_bet, big_bet, scale, {MONEY} AS net, net_bb AS big_bets, allin_adjusted,
  allin_net / scale AS allin_net, allin_net / nullif(big_bet, 0) AS allin_big_bets,
  ({condition}) AS kept, b.small_blind, b.big_blind
FROM player_hands JOIN (SELECT hand_id, small_blind, big_blind FROM hands) b USING (hand_id)
WHERE {player_condition()} ORDER BY started_at, hand_id""",
        params,
    )
    hands = _numbered(hands).with_columns(seconds=_time_share())
    kept = pl.col("kept")
    if filters.session is not None:
        kept &= pl.col("session") == filters.session
    return hands.filter(kept).drop("kept")


def sessions(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """The sessions of `filters.player` holding hands that pass the filters, one row per session
    and currency (a session may mix a tournament with a cash table: their money never adds):
    number, currency, kind (cash or tournament), first and last hand (UTC), hands, the seconds
    played (the hands' shares of the time, see `_time_share`), net (in that currency) and big
    bets won, the games, rooms and stakes played, and the biggest win and loss
    (`best_hand`, `worst_hand`: store hand ids; `best_net`, `worst_net`)."""
    need_player(filters, "sessions")
    ensure_features(con)
    timeline = _timeline(con, filters)
    keys = ["session", "currency"]
    stakes = (
        timeline.select(*keys, *_STAKES[:-1])
        .unique()
        .sort(*keys, "big_bet")
        .with_columns(stakes=pl.struct(*_STAKES).map_elements(stakes_text, return_dtype=pl.String))
        .group_by(keys, maintain_order=True)
        .agg(pl.col("stakes").unique(maintain_order=True))
    )
    net = pl.col("net")
    return (
        timeline.group_by(keys)
        .agg(
            kind=pl.when(pl.col("tournament").any())
            .then(pl.lit("tournament"))
            .otherwise(pl.lit("cash")),
            start=pl.col("started_at").min(),
            end=pl.col("started_at").max(),
            hands=pl.len().cast(pl.Int64),
            seconds=pl.col("seconds").sum(),
            net=net.sum().cast(EXACT),
            big_bets=pl.col("big_bets").sum(),
            games=pl.col("game").unique().sort(),
            rooms=pl.col("room").unique().sort(),
            best_hand=pl.col("hand_id").sort_by(net, descending=True).first(),
            best_net=net.max().cast(EXACT),
            worst_hand=pl.col("hand_id").sort_by(net).first(),
            worst_net=net.min().cast(EXACT),
        )
        .join(stakes, on=keys, how="left")
        .sort(keys)
    )


def results_over_time(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """One row per hand of `filters.player` passing the filters, in time order: the hand, its
    session, currency, net (in that currency, and in big bets) and the running totals PER
    CURRENCY: net, big bets, and the all-in adjusted net and big bets (where the player was
    all-in before the last street with every remaining hand known, the equity share of the pots
    replaces the actual result; `allin_adjusted` marks those hands). A graph draws one currency
    (filter by it, or split the frame): the totals never cross currencies."""
    need_player(filters, "results_over_time")
    ensure_features(con)
    per_currency = "currency"
    return _timeline(con, filters).select(
        "hand_id",
        "room_hand_id",
        "started_at",
        "session",
        "game",
        "currency",
        "net",
        "big_bets",
        "allin_adjusted",
        cumulative_net=pl.col("net").cum_sum().over(per_currency).cast(EXACT),
        cumulative_big_bets=pl.col("big_bets").cum_sum().over(per_currency),
        allin_cumulative_net=pl.col("allin_net").cum_sum().over(per_currency),
        allin_cumulative_big_bets=pl.col("allin_big_bets").cum_sum().over(per_currency),
    )
