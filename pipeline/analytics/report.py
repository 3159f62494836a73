"""`studdraw stats` and `studdraw leaks` output: rich tables for people, JSON records for scripts.

JSON is the frames as they are (`write_json`: one object per row, money as exact decimal
strings, times in ISO 8601 UTC), so a script sees exactly what the dashboard sees.
"""

from __future__ import annotations

import polars as pl
from rich.table import Table

from .features import STREET_NAMES
from .registry import AGGRESSION, FAMILIES, STATS

SUMMARY: dict[str, str] = {"vpip": "VPIP", "went_to_showdown": "WTSD", "won_at_showdown": "W$SD"}
"""The stats shown for every player in the all-players table, with their headings."""


def _pct(value: object) -> str:
    return "-" if value is None else f"{float(str(value)):.1%}"


def _num(value: object, places: int = 2) -> str:
    return "-" if value is None else f"{float(str(value)):,.{places}f}"


def players_table(stats: pl.DataFrame) -> Table:
    """One line per player and game: volume, results and the stats every game has."""
    table = Table(title="Players")
    for column in ("player", "game", "hands", "net", "bb/100", *SUMMARY.values()):
        table.add_column(column, justify="left" if column in ("player", "game") else "right")
    for row in stats.iter_rows(named=True):
        table.add_row(
            row["player"],
            row["game"],
            str(row["hands"]),
            _num(row["net"]),
            _num(row["bb_per_100"]),
            *(_pct(row[name]) for name in SUMMARY),
        )
    return table


def player_table(stats: pl.DataFrame, player: str) -> Table:
    """Every stat of one player, one column per game played (frequency and opportunities)."""
    games = stats["game"].to_list()
    rows = {row["game"]: row for row in stats.iter_rows(named=True)}
    families = {"stud" if "stud" in FAMILIES.get(game, ()) else "draw" for game in games}
    family = families.pop() if len(families) == 1 else None
    table = Table(title=f"{player}: statistics per game")
    table.add_column("stat")
    for game in games:
        table.add_column(game, justify="right")
    for label, key, show in (
        ("hands", "hands", str),
        ("net won", "net", _num),
        ("big bets / 100 hands", "bb_per_100", _num),
        ("all-in adjusted bb / 100", "allin_bb_per_100", _num),
    ):
        table.add_row(label, *(show(rows[game][key]) for game in games))
    table.add_section()
    for stat in STATS:
        cells = [
            f"{_pct(rows[g][stat.name])} ({rows[g][stat.name + '_n']})"
            if stat.family in FAMILIES.get(g, ()) and rows[g][stat.name + "_n"]
            else ""
            for g in games
        ]
        if any(cells):
            table.add_row(stat.title(family), *cells)
    table.add_section()
    for name in AGGRESSION:
        cells = [_num(rows[g][name]) if rows[g][name] is not None else "" for g in games]
        if any(cells):
            street = int(name[-1])
            where = {
                kind: streets[street]
                for kind, streets in STREET_NAMES.items()
                if street < len(streets)
            }
            table.add_row(
                f"aggression factor, {where.get(family or '', ' / '.join(where.values()))}",
                *cells,
            )
    return table


def leaks_table(found: pl.DataFrame, player: str) -> Table:
    """The leak report, worst first."""
    table = Table(title=f"{player}: leaks (money at stake in big bets per 100 hands)")
    for column in (
        "severity", "game", "stat", "value", "range", "pool", "z", "spots", "at stake",
        "examples",
    ):  # fmt: skip
        table.add_column(column, justify="right" if column in ("value", "z", "spots") else "left")
    for row in found.iter_rows(named=True):
        table.add_row(
            row["severity"],
            row["game"],
            f"{row['label']} ({row['direction']})",
            _pct(row["value"]),
            f"{row['low']:.0%}-{row['high']:.0%}",
            _pct(row["pool_mean"]),
            _num(row["z"]),
            str(row["opportunities"]),
            _num(row["money_at_stake"]),
            ", ".join(str(hand) for hand in row["examples"][:3]),
        )
    return table
