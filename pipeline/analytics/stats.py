"""Player statistics: the counts of every stat per player and game, per starting hand, per door
card, and the hands behind a stat. The stats themselves are defined in `registry.py` (and
docs/stats.md)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import duckdb
import polars as pl

from studdraw.pipeline.identities import with_players

from .features import A5_STUD_GAMES, LOW27_STUD_GAMES, START_GROUPS, is_game
from .filters import Filters, need_player, sessions_sql, where
from .registry import BY_NAME, KEY, KIND, MONEY, NET, rollup_columns, stat_totals
from .source import ensure_features, run


def _with_sessions(filters: Filters) -> str:
    return "WITH " + sessions_sql() if filters.session is not None else ""


def rollup_source(filters: Filters) -> tuple[str, dict[str, object]]:
    """The rollup rows the filters keep, as a FROM source: the kept rollup; for days of another
    time zone, the kept rollup of the whole UTC days inside the range plus a rollup of the
    per-hand rows of its two partial edges (bounded: at most two days of hands); for a session
    or a seat's facts (position, door card, starting hand), a rollup of the per-hand rows."""
    if not filters.needs_hands:
        condition, params = where(filters, by_day=True)
        return f"player_rollup WHERE {condition}", params
    if filters.session is None and not filters.by_seat:
        return _local_days_source(filters)
    condition, params = where(filters)
    return _hands_rollup(condition), params


def _hands_rollup(condition: str) -> str:
    return f"""(SELECT {rollup_columns()} FROM player_hands WHERE {condition}
          GROUP BY {", ".join(KEY)})"""


def _local_days_source(filters: Filters) -> tuple[str, dict[str, object]]:
    """Rollup rows for local days: whole UTC days from the kept rollup, the edges from hands."""
    zone = ZoneInfo(filters.time_zone)
    start = end = None
    if filters.date_from is not None:
        start = datetime.combine(filters.date_from, time(), zone).astimezone(UTC)
    if filters.date_to is not None:
        end = datetime.combine(filters.date_to + timedelta(days=1), time(), zone).astimezone(UTC)
    # Whole UTC days inside [start, end): from the first UTC midnight at or after start to the
    # last UTC midnight at or before end.
    first = None if start is None else _utc_midnight(start, up=True)
    last = None if end is None else _utc_midnight(end, up=False)
    undated = replace(filters, date_from=None, date_to=None, time_zone="UTC")
    hands_condition, params = where(undated)
    if first is not None and last is not None and first >= last:  # no whole UTC day inside
        params |= {"edge_start": start, "edge_end": end}
        condition = f"{hands_condition} AND started_at >= $edge_start AND started_at < $edge_end"
        return _hands_rollup(condition), params
    middle = replace(
        undated,
        date_from=None if first is None else first.date(),
        date_to=None if last is None else (last - timedelta(days=1)).date(),
    )
    rollup_condition, rollup_params = where(middle, by_day=True)
    edges = []
    if start is not None and first is not None and start < first:
        edges.append("(started_at >= $edge_start AND started_at < $first_midnight)")
        params |= {"edge_start": start, "first_midnight": first}
    if end is not None and last is not None and last < end:
        edges.append("(started_at >= $last_midnight AND started_at < $edge_end)")
        params |= {"last_midnight": last, "edge_end": end}
    source = f"SELECT * FROM player_rollup WHERE {rollup_condition}"
    if edges:
        edge_rows = _hands_rollup(f"{hands_condition} AND ({' OR '.join(edges)})")
        source += f" UNION ALL BY NAME SELECT * FROM {edge_rows}"
    return f"({source})", params | rollup_params


def _utc_midnight(moment: datetime, *, up: bool) -> datetime:
    """The UTC midnight at or after (`up`) or at or before `moment`."""
    midnight = datetime.combine(moment.astimezone(UTC).date(), time(), UTC)
    return midnight + timedelta(days=1) if up and midnight < moment else midnight


def player_stats(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """One row per player, game and currency (tournament chips and play money are currencies of
    their own, so `kind`, cash or tournament, follows): volume and results (hands, net in
    currency units, big bets and big bets per 100 hands, all-in adjusted net and big bets per
    100 hands) and every stat of `STATS` (`<name>` the frequency, `<name>_n` its opportunities;
    None without any), plus `af_<street>`. A player is a person (the sum of its accounts'
    rows) or a name (its accounts linked to nobody). Sums the kept rollup rows; a session
    filter sums a rollup of the session's hands instead."""
    ensure_features(con)
    source, params = rollup_source(filters)
    return run(
        con,
        f"""{_with_sessions(filters)}
SELECT player, game, currency, {KIND} AS kind, {stat_totals()}
FROM {with_players(source)}
GROUP BY player, game, currency, kind ORDER BY hands DESC, player, game, currency""",
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
    """Every player in the store (`name`: a person, or a name of accounts linked to nobody):
    hands, the rooms and games they played, their accounts (`ROOM:NAME`), first and last hand
    (UTC), and whether they were ever the hero (the exporting account)."""
    ensure_features(con)
    return run(
        con,
        f"""
SELECT player AS name, sum(hands)::BIGINT AS hands,
  list_sort(list_distinct(list(room))) AS rooms, list_sort(list_distinct(list(game))) AS games,
  list_sort(list_distinct(list(room || ':' || name))) AS accounts,
  min(first_seen) AS first_seen, max(last_seen) AS last_seen, bool_or(hero) AS hero
FROM {with_players("player_rollup")} GROUP BY player ORDER BY hands DESC, player""",
        {},
    )


def player_names(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Every player in the store, most hands first: the persons and the names of accounts
    linked to nobody."""
    ensure_features(con)
    frame = run(
        con,
        f"SELECT player FROM {with_players('player_rollup')} GROUP BY player "
        "ORDER BY sum(hands) DESC, player",
        {},
    )
    names: list[str] = frame.get_column("player").to_list()
    return names


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
        {**params, "order": list(START_GROUPS)},
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
ORDER BY game, currency,
  CASE WHEN game {is_game(A5_STUD_GAMES)} THEN strpos('A23456789TJQK', door[1])
       WHEN game {is_game(LOW27_STUD_GAMES)} THEN strpos('23456789TJQKA', door[1])
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
SELECT hand_id, room, room_hand_id, started_at, game, currency,
  coalesce({found.action}, false) AS took, {MONEY} AS net, net_bb AS big_bets
FROM player_hands WHERE {condition} AND ({found.opportunity})
ORDER BY started_at DESC, hand_id DESC LIMIT $limit""",
        {**params, "limit": limit},
    )


def filtered_hand_ids(con: duckdb.DuckDBPyConnection, filters: Filters, limit: int) -> list[int]:
    """The hands the filters select (a player's, in a session if one is chosen), at most
    `limit` of the newest, in store order."""
    ensure_features(con)
    condition, params = where(filters)
    found = run(
        con,
        f"{_with_sessions(filters)} SELECT DISTINCT hand_id FROM player_hands WHERE {condition} "
        "ORDER BY hand_id DESC LIMIT $limit",
        {**params, "limit": limit},
    )
    return sorted(found.get_column("hand_id").to_list())
