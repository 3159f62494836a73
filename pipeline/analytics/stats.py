"""Player statistics: the counts of every stat per player and game, per starting hand, per door
card, and the hands behind a stat. The stats themselves are defined in `registry.py` (and
docs/stats.md)."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

import duckdb
import polars as pl

from .filters import Filters, need_player, sessions_sql, where
from .registry import BY_NAME, KEY, KIND, MONEY, NET, rollup_columns, stat_totals
from .source import ensure_features, run


def _with_sessions(filters: Filters) -> str:
    return "WITH " + sessions_sql() if filters.session is not None else ""


def rollup_source(filters: Filters) -> tuple[str, dict[str, object]]:
    """The rollup rows the filters keep, as a FROM source: the kept rollup, or a rollup of the
    filtered per-hand rows when the filters need them (a session, local-time days)."""
    if not filters.needs_hands:
        condition, params = where(filters, by_day=True)
        return f"player_rollup WHERE {condition}", params
    condition, params = where(filters)
    return (
        f"""(SELECT {rollup_columns()} FROM player_hands WHERE {condition}
          GROUP BY {", ".join(KEY)})""",
        params,
    )


def player_stats(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """One row per player, game and currency (tournament chips and play money are currencies of
    their own, so `kind`, cash or tournament, follows): volume and results (hands, net in
    currency units, big bets and big bets per 100 hands, all-in adjusted net and big bets per
    100 hands) and every stat of `STATS` (`<name>` the frequency, `<name>_n` its opportunities;
    None without any), plus `af_<street>`. Sums the kept rollup rows; a session filter sums a
    rollup of the session's hands instead."""
    ensure_features(con)
    source, params = rollup_source(filters)
    return run(
        con,
        f"""{_with_sessions(filters)}
SELECT name AS player, game, currency, {KIND} AS kind, {stat_totals()}
FROM {source}
GROUP BY name, game, currency, kind ORDER BY hands DESC, player, game, currency""",
        params,
    )


def doubtful_hands(con: duckdb.DuckDBPyConnection, filters: Filters) -> int:
    """Hands that the filters would keep but for an error-severity violation (their facts are
    in doubt): what `include_doubtful=False` leaves out of every count."""
    ensure_features(con)
    condition, params = where(replace(filters, include_doubtful=True))
    frame = run(
        con,
        f"{_with_sessions(filters)} SELECT count(DISTINCT hand_id) AS n FROM player_hands "
        f"WHERE NOT valid AND {condition}",
        params,
    )
    return int(frame.item())


def players(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Every player in the store: hands, the rooms and games they played, first and last hand
    (UTC), and whether they were ever the hero (the exporting account)."""
    ensure_features(con)
    return run(
        con,
        """
SELECT name, sum(hands)::BIGINT AS hands, list_sort(list_distinct(list(site))) AS sites,
  list_sort(list_distinct(list(game))) AS games, min(first_seen) AS first_seen,
  max(last_seen) AS last_seen, bool_or(hero) AS hero
FROM player_rollup GROUP BY name ORDER BY hands DESC, name""",
        {},
    )


def player_names(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Every player name in the store, most hands first."""
    ensure_features(con)
    frame = run(
        con, "SELECT name FROM player_rollup GROUP BY name ORDER BY sum(hands) DESC, name", {}
    )
    names: list[str] = frame.get_column("name").to_list()
    return names


GROUP_ORDER: Final = (
    "rolled up", "buried pair", "split pair", "three low", "three-flush", "three-straight",
    "other", "paired", *(f"{rank} low" for rank in "A23456789TJQK"),
)  # fmt: skip


def starting_hands(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """Stud starting-hand groups (from the three 3rd-street cards, known only for the hero):
    per game, currency and group, hands dealt, hands played (VPIP), the share played, net in
    that currency and in big bets."""
    ensure_features(con)
    condition, params = where(filters)
    return run(
        con,
        f"""{_with_sessions(filters)}
SELECT game, currency, start_group AS "group", count(*) AS dealt,
  count_if(vpip)::BIGINT AS played, count_if(vpip) / count(*) AS played_pct, {NET} AS net,
  sum(net_bb) AS big_bets
FROM player_hands WHERE {condition} AND start_group IS NOT NULL
GROUP BY game, currency, start_group
ORDER BY game, currency, list_position($order, start_group)""",
        {**params, "order": list(GROUP_ORDER)},
    )


def door_cards(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """Stud games: play (VPIP) and results by the rank of the player's door card (known for
    every player), per currency, best rank first (razz: ace first; stud, stud8: ace first
    too)."""
    ensure_features(con)
    condition, params = where(filters)
    return run(
        con,
        f"""{_with_sessions(filters)}
SELECT game, currency, door[1] AS door_rank, count(*) AS dealt,
  count_if(vpip)::BIGINT AS played, count_if(vpip) / count(*) AS played_pct, {NET} AS net,
  sum(net_bb) AS big_bets
FROM player_hands WHERE {condition} AND door IS NOT NULL
GROUP BY game, currency, door[1]
ORDER BY game, currency, CASE WHEN game = 'razz' THEN strpos('A23456789TJQK', door[1])
                    ELSE 14 - strpos('23456789TJQKA', door[1]) END""",
        params,
    )


def hands_behind(
    con: duckdb.DuckDBPyConnection, filters: Filters, stat: str, limit: int = 50
) -> pl.DataFrame:
    """The player's hands where `stat`'s opportunity arose, latest first: whether they took
    the action, and the hand's net (in its currency, and in big bets)."""
    need_player(filters, "hands_behind")
    if stat not in BY_NAME:
        raise ValueError(f"unknown stat {stat!r}; known: {', '.join(BY_NAME)}")
    ensure_features(con)
    found = BY_NAME[stat]
    condition, params = where(filters)
    return run(
        con,
        f"""{_with_sessions(filters)}
SELECT hand_id, site, site_hand_id, started_at, game, currency,
  coalesce({found.action}, false) AS took, {MONEY} AS net, net_bb AS big_bets
FROM player_hands WHERE {condition} AND ({found.opportunity})
ORDER BY started_at DESC, hand_id DESC LIMIT $limit""",
        {**params, "limit": limit},
    )
