"""Finding stored hands and reading one whole: by player and day, by the room's hand id, the
player's hand before or after another, and every row of one hand (the dashboard's replayer).
Days are taken in the time zone `zone` names.

Raw store reads: nothing here depends on the derived per-hand rows (`source.VERSION`).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any, Final

import duckdb
import polars as pl

HAND_TABLES: Final = {
    "hands": "hand_id",
    "hand_players": "seat",
    "actions": "seq",
    "streets": "street",
    "player_streets": "street, name",
    "pots": "pot_no",
    "violations": "seq",
}
"""The tables holding a hand's rows, each with the order its rows are read in."""


def _frame(con: duckdb.DuckDBPyConnection, sql: str, *params: Any) -> pl.DataFrame:
    frame: pl.DataFrame = con.sql(sql, params=list(params)).pl()
    return frame


def hand_rows(con: duckdb.DuckDBPyConnection, hand_id: int, table: str) -> pl.DataFrame:
    """The rows of one hand in one of `HAND_TABLES`, in order."""
    order = HAND_TABLES[table]  # a KeyError for any other name: nothing else is interpolated
    return _frame(con, f"SELECT * FROM {table} WHERE hand_id = ? ORDER BY {order}", hand_id)


def neighbour_hand(
    con: duckdb.DuckDBPyConnection,
    player: str,
    at: datetime,
    hand_id: int,
    *,
    before: bool,
    window: timedelta | None,
) -> int | None:
    """The player's hand just before (`before`) or after this one (started `at`) in time, ties
    broken by id; looked for within `window` of `at` only, when given."""
    compare, order = ("<", "DESC") if before else (">", "ASC")
    bound = ""
    params: tuple[Any, ...] = (player, at, at, hand_id)
    if window is not None:
        bound = f" AND h.started_at {'>=' if before else '<='} ?"
        params += (at - window if before else at + window,)
    found = _frame(
        con,
        "SELECT h.hand_id FROM hand_players p JOIN hands h USING (hand_id) "
        "WHERE p.name = ? AND p.dealt_in "
        f"AND (h.started_at {compare} ? OR (h.started_at = ? AND h.hand_id {compare} ?))"
        f"{bound} ORDER BY h.started_at {order}, h.hand_id {order} LIMIT 1",
        *params,
    )
    neighbour: int | None = found.item() if found.height else None
    return neighbour


def hand_day(con: duckdb.DuckDBPyConnection, hand_id: int, zone: str) -> date | None:
    """The day a hand started on."""
    found = _frame(
        con,
        "SELECT CAST(timezone(?, started_at) AS DATE) FROM hands WHERE hand_id = ?",
        zone,
        hand_id,
    )
    day: date | None = found.item() if found.height else None
    return day


def hand_player_and_day(
    con: duckdb.DuckDBPyConnection, hand_id: int, zone: str
) -> dict[str, Any] | None:
    """Whom a hand is shown for (its hero, else the first player dealt in) and its day."""
    found = _frame(
        con,
        "SELECT coalesce(h.hero, p.name) AS player, "
        "CAST(timezone(?, h.started_at) AS DATE) AS day FROM hands h "
        "JOIN hand_players p USING (hand_id) WHERE h.hand_id = ? AND p.dealt_in "
        "ORDER BY p.name = h.hero DESC, p.seat LIMIT 1",
        zone,
        hand_id,
    )
    row: dict[str, Any] | None = found.row(0, named=True) if found.height else None
    return row


def player_days(con: duckdb.DuckDBPyConnection, player: str, zone: str) -> list[date]:
    """The days the player was dealt in, in order."""
    days: list[date] = (
        _frame(
            con,
            "SELECT CAST(timezone(?, h.started_at) AS DATE) AS day FROM hand_players p "
            "JOIN hands h USING (hand_id) WHERE p.name = ? AND p.dealt_in "
            "GROUP BY day ORDER BY day",
            zone,
            player,
        )
        .get_column("day")
        .to_list()
    )
    return days


def player_hands_between(
    con: duckdb.DuckDBPyConnection,
    player: str,
    zone: str,
    *,
    start: datetime,
    end: datetime,
    limit: int,
) -> pl.DataFrame:
    """The player's first `limit` hands in [start, end): id, time of day, room and id, game,
    structure, stakes, currency, the player's net and whether the hand is valid."""
    return _frame(
        con,
        "SELECT h.hand_id, strftime(timezone(?, h.started_at), '%H:%M:%S') AS time, "
        "h.room, h.room_hand_id, h.game, h.structure, h.small_bet, h.big_bet, h.small_blind, "
        "h.big_blind, h.scale, h.currency, p.net, h.valid FROM hand_players p "
        "JOIN hands h USING (hand_id) "
        "WHERE p.name = ? AND p.dealt_in AND h.started_at >= ? AND h.started_at < ? "
        "ORDER BY h.started_at, h.hand_id LIMIT ?",
        zone,
        player,
        start,
        end,
        limit,
    )


def hands_with_room_id(con: duckdb.DuckDBPyConnection, room_hand_id: str) -> pl.DataFrame:
    """The stored hands (id, room, game) with this room hand id: one per room at most."""
    return _frame(
        con,
        "SELECT hand_id, room, game FROM hands WHERE room_hand_id = ? ORDER BY room LIMIT 20",
        room_hand_id,
    )
