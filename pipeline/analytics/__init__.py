"""Player statistics, results and the leak report over a store (the shared analytics interface).

Every function takes a connection from `open_store` (read-only: a DuckDB file or a Parquet
dataset folder) and returns a polars DataFrame; all counting is DuckDB SQL over `player_hands`,
one row per player per hand (features.py), kept in the store by `prepare` (source.py).
Definitions: docs/stats.md.
"""

from .currency import currency_label, money_text, units_text
from .features import TABLE_SIZES
from .filters import KINDS, SESSION_GAP_MINUTES, Filters
from .leaks import MIN_OPPORTUNITIES, Reference, assess, leaks, reference_ranges
from .live import LiveTable, live_table, live_tables
from .registry import HUD, STATS, Stat, hud_stats, street_title
from .results import (
    hourly,
    hourly_of_sessions,
    per_hour,
    results_over_time,
    session_starts,
    sessions,
)
from .source import Prepared, open_store, prepare
from .stats import (
    door_cards,
    doubtful_hands,
    hands_behind,
    player_names,
    player_stats,
    players,
    starting_hands,
)
from .tournaments import tournament_chips, tournament_results, tournament_summary

__all__ = [
    "HUD",
    "KINDS",
    "MIN_OPPORTUNITIES",
    "SESSION_GAP_MINUTES",
    "STATS",
    "TABLE_SIZES",
    "Filters",
    "LiveTable",
    "Prepared",
    "Reference",
    "Stat",
    "assess",
    "currency_label",
    "door_cards",
    "doubtful_hands",
    "hands_behind",
    "hourly",
    "hourly_of_sessions",
    "hud_stats",
    "leaks",
    "live_table",
    "live_tables",
    "money_text",
    "open_store",
    "per_hour",
    "player_names",
    "player_stats",
    "players",
    "prepare",
    "reference_ranges",
    "results_over_time",
    "session_starts",
    "sessions",
    "starting_hands",
    "street_title",
    "tournament_chips",
    "tournament_results",
    "tournament_summary",
    "units_text",
]
