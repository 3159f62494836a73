"""The table being played, as a tracker's HUD shows it: the tables of the hands imported last,
the newest hand of one of them with every seat, and each seated player's HUD stats for that
game (with the hands and opportunities behind each figure).

"Being played" is read from the store alone: the newest hand imported (the highest `hand_id`,
which an import such as `studdraw ingest --watch` assigns in order) and the other tables with a
hand within `SESSION_GAP_MINUTES` of its start (a player multi-tabling). A seat's stats are
those of the same game, structure and currency as the table, of the seat's account in that
room (a name is an account of one room), or of every account of the person it is linked to
(pipeline/identities.py): what a HUD shows beside the seat, summed from the kept rollup rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import duckdb
import polars as pl

from studdraw.pipeline.identities import IDENTITIES, with_players

from .features import STREETS
from .filters import SESSION_GAP_MINUTES, Filters, where
from .registry import hud_stats, stat_totals
from .source import ensure_features, run

TABLES_SHOWN: Final = 12
"""The most tables `live_tables` lists (the newest first)."""

_HAND_COLUMNS: Final = (
    "hand_id, room, room_hand_id, game, structure, small_bet, big_bet, ante, bring_in, "
    "small_blind, big_blind, currency, scale, tournament_id, tournament_level, mixed, "
    "table_name, max_seats, button, started_at, room_time, players, hero, valid"
)


def live_tables(con: duckdb.DuckDBPyConnection, limit: int = TABLES_SHOWN) -> pl.DataFrame:
    """The tables of the hands imported last, newest first: room, table name, tournament id,
    game and the newest hand (`hand_id`, `started_at`). A table is listed when its newest hand
    started within `SESSION_GAP_MINUTES` of the newest hand imported (the tables one sits at
    together); the newest table comes first whatever its time."""
    return run(
        con,
        f"""WITH newest AS (SELECT started_at FROM hands ORDER BY hand_id DESC LIMIT 1)
SELECT room, table_name, tournament_id, arg_max(game, hand_id) AS game,
  max(hand_id) AS hand_id, max(started_at) AS started_at
FROM hands
WHERE started_at >= (SELECT started_at FROM newest) - INTERVAL {SESSION_GAP_MINUTES} MINUTES
GROUP BY room, table_name, tournament_id
ORDER BY hand_id DESC LIMIT $limit""",
        {"limit": limit},
    )


@dataclass(frozen=True, slots=True)
class LiveTable:
    """One table as a HUD shows it. `hand`: the newest hand's `hands` row (room, table, game,
    stakes, time...); `seats`: one row per seat of that hand, in seat order (seat, name, stack,
    sitting out, dealt in, hero, position) with the player's figures in the table's room, game,
    structure and currency: `hands`, `net` (currency units, in the hand's currency), `big_bets`,
    `bb_per_100`, and per HUD stat (`registry.hud_stats` of the game) its frequency `<name>` and
    opportunities `<name>_n` (None and 0 without any), and the aggression factor `af` with the
    bets, raises, completions and calls behind it (`af_n`). `stats`: the names of the HUD stats
    in the order shown."""

    hand: dict[str, Any]
    seats: pl.DataFrame
    stats: tuple[str, ...]


def live_table(
    con: duckdb.DuckDBPyConnection, hand_id: int, *, include_doubtful: bool = False
) -> LiveTable | None:
    """The table of hand `hand_id` (see `LiveTable`); None when the store has no such hand.
    Hands with an error-severity violation count in the stats only with `include_doubtful`."""
    ensure_features(con)
    found = run(
        con, f"SELECT {_HAND_COLUMNS} FROM hands WHERE hand_id = $hand_id", {"hand_id": hand_id}
    )
    if not found.height:
        return None
    hand = found.row(0, named=True)
    stats = hud_stats(hand["game"])
    seats = run(
        con,
        "SELECT seat, name, stack, sitting_out, dealt_in, is_hero, position FROM hand_players "
        "WHERE hand_id = $hand_id ORDER BY seat",
        {"hand_id": hand_id},
    )
    filters = Filters(
        game=hand["game"],
        structure=hand["structure"],
        currency=hand["currency"],
        include_doubtful=include_doubtful,
    )
    condition, params = where(filters, by_day=True)
    names = seats.get_column("name").to_list()
    calls = " + ".join(f"coalesce(sum(calls_{s}), 0)" for s in STREETS)
    aggressive = " + ".join(f"coalesce(sum(agg_{s}), 0)" for s in STREETS)
    figures = run(
        con,
        f"""WITH seated AS (
  SELECT s.name, coalesce(i.person, s.name) AS player, i.person IS NOT NULL AS linked
  FROM (SELECT unnest($names) AS name) s
  LEFT JOIN {IDENTITIES} i ON i.room = $room AND i.name = s.name
)
SELECT seated.name, {stat_totals()},
  ({aggressive}) / nullif({calls}, 0) AS af, ({aggressive} + {calls})::BIGINT AS af_n
FROM seated JOIN {with_players(f"player_rollup WHERE {condition}")} r
  ON r.player = seated.player AND (seated.linked OR (r.room = $room AND r.name = seated.name))
GROUP BY seated.name""",
        {**params, "names": names, "room": hand["room"]},
    )
    wanted = ["hands", "net", "big_bets", "bb_per_100", "af", "af_n"]
    for stat in stats:
        wanted += [stat.name, f"{stat.name}_n"]
    figures = figures.select("name", *dict.fromkeys(wanted))
    counts = [column for column in figures.columns if column == "hands" or column.endswith("_n")]
    joined = seats.join(figures, on="name", how="left").with_columns(pl.col(counts).fill_null(0))
    return LiveTable(hand=hand, seats=joined, stats=tuple(stat.name for stat in stats))
