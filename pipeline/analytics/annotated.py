"""The stored hands behind notes and tags (pipeline/notes.py keys them by room and room hand
id, which survive re-imports; the dashboard links to a hand by its store id)."""

from __future__ import annotations

from collections.abc import Sequence

import duckdb
import polars as pl

from .source import run


def hands_of_keys(con: duckdb.DuckDBPyConnection, keys: Sequence[tuple[str, str]]) -> pl.DataFrame:
    """The stored hands among these (room, room hand id) pairs, oldest first: hand_id, room,
    room_hand_id, started_at, game; a key the store does not hold is left out."""
    if not keys:
        return pl.DataFrame(
            schema={"hand_id": pl.Int64, "room": pl.String, "room_hand_id": pl.String,
                    "started_at": pl.Datetime(time_zone="UTC"), "game": pl.String}
        )  # fmt: skip
    return run(
        con,
        "SELECT h.hand_id, h.room, h.room_hand_id, h.started_at, h.game FROM hands h "
        "JOIN (SELECT unnest($rooms) AS room, unnest($ids) AS room_hand_id) k "
        "USING (room, room_hand_id) ORDER BY h.started_at, h.hand_id",
        {"rooms": [room for room, _ in keys], "ids": [key for _, key in keys]},
    )
