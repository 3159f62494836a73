"""Finding stored hands and reading one whole: by player and day, by the room's hand id, the
player's hand before or after another, and every row of one hand (the dashboard's replayer).
Days are taken in the time zone `zone` names; a player is a person (every account linked to
it) or a name (its accounts linked to nobody), as everywhere.

Raw store reads: nothing here depends on the derived per-hand rows (`source.VERSION`).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any, Final

import duckdb
import polars as pl

from studdraw.pipeline.identities import IDENTITIES, ensure_registered, player_condition

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


def _named(con: duckdb.DuckDBPyConnection, sql: str, params: dict[str, Any]) -> pl.DataFrame:
    """A query naming its parameters, on a connection holding the identities (an empty table
    when it was opened without them)."""
    ensure_registered(con)
    frame: pl.DataFrame = con.sql(sql, params=params).pl()
    return frame


def _player() -> str:
    """A `hand_players p` row of a hand `h` counts under `$player` (a person or a name)."""
    return player_condition("h.room", "p.name")


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
    params: dict[str, Any] = {"player": player, "at": at, "hand_id": hand_id}
    if window is not None:
        bound = f" AND h.started_at {'>=' if before else '<='} $bound"
        params["bound"] = at - window if before else at + window
    found = _named(
        con,
        "SELECT h.hand_id FROM hand_players p JOIN hands h USING (hand_id) "
        f"WHERE {_player()} AND p.dealt_in "
        f"AND (h.started_at {compare} $at OR (h.started_at = $at AND h.hand_id {compare} $hand_id))"
        f"{bound} ORDER BY h.started_at {order}, h.hand_id {order} LIMIT 1",
        params,
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
    """Whom a hand is shown for (the player its hero counts under, else the first player dealt
    in) and its day."""
    found = _named(
        con,
        "SELECT coalesce(i.person, p.name) AS player, "
        "CAST(timezone($zone, h.started_at) AS DATE) AS day FROM hands h "
        f"JOIN hand_players p USING (hand_id) LEFT JOIN {IDENTITIES} i "
        "ON i.room = h.room AND i.name = p.name WHERE h.hand_id = $hand_id AND p.dealt_in "
        "ORDER BY p.name = h.hero DESC, p.seat LIMIT 1",
        {"zone": zone, "hand_id": hand_id},
    )
    row: dict[str, Any] | None = found.row(0, named=True) if found.height else None
    return row


def player_days(con: duckdb.DuckDBPyConnection, player: str, zone: str) -> list[date]:
    """The days the player was dealt in, in order."""
    days: list[date] = (
        _named(
            con,
            "SELECT CAST(timezone($zone, h.started_at) AS DATE) AS day FROM hand_players p "
            f"JOIN hands h USING (hand_id) WHERE {_player()} AND p.dealt_in "
            "GROUP BY day ORDER BY day",
            {"zone": zone, "player": player},
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
    return _named(
        con,
        "SELECT h.hand_id, strftime(timezone($zone, h.started_at), '%H:%M:%S') AS time, "
        "h.room, h.room_hand_id, h.game, h.structure, h.small_bet, h.big_bet, h.small_blind, "
        "h.big_blind, h.scale, h.currency, p.net, h.valid FROM hand_players p "
        "JOIN hands h USING (hand_id) "
        f"WHERE {_player()} AND p.dealt_in AND h.started_at >= $start AND h.started_at < $end "
        "ORDER BY h.started_at, h.hand_id LIMIT $limit",
        {"zone": zone, "player": player, "start": start, "end": end, "limit": limit},
    )


def hands_with_room_id(con: duckdb.DuckDBPyConnection, room_hand_id: str) -> pl.DataFrame:
    """The stored hands (id, room, game) with this room hand id: one per room at most."""
    return _frame(
        con,
        "SELECT hand_id, room, game FROM hands WHERE room_hand_id = ? ORDER BY room LIMIT 20",
        room_hand_id,
    )
