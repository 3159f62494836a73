"""Player statistics, results and the leak report over a store (the shared analytics interface).

Every function takes a connection from `open_store` (read-only: a DuckDB file or a Parquet
dataset folder) and returns a polars DataFrame; all counting is DuckDB SQL over `player_hands`,
one row per player per hand (features.py), kept in the store by `prepare` (source.py).
Definitions: docs/stats.md.
"""

from .filters import SESSION_GAP_MINUTES, Filters
from .leaks import Reference, leaks, reference_ranges
from .registry import STATS, Stat
from .results import results_over_time, sessions
from .source import Prepared, open_store, prepare
from .stats import (
    door_cards,
    hands_behind,
    player_stats,
    players,
    starting_hands,
)

__all__ = [
    "SESSION_GAP_MINUTES",
    "STATS",
    "Filters",
    "Prepared",
    "Reference",
    "Stat",
    "door_cards",
    "hands_behind",
    "leaks",
    "open_store",
    "player_stats",
    "players",
    "prepare",
    "reference_ranges",
    "results_over_time",
    "sessions",
    "starting_hands",
]
