"""`studdraw stats` and `studdraw leaks` output: rich tables for people, JSON records for scripts.

JSON is the frames as they are (`write_json`: one object per row, money as exact decimal
strings, times in ISO 8601 UTC), so a script sees exactly what the dashboard sees.
"""

from __future__ import annotations

import polars as pl
from rich.table import Table

from studdraw.pipeline.words import duration_text, plural

from .currency import currency_label, money_text
from .registry import AGGRESSION, STAT_GROUPS, STATS, street_title

SUMMARY: dict[str, str] = {"vpip": "VPIP", "went_to_showdown": "WTSD", "won_at_showdown": "W$SD"}
"""The stats shown for every player in the all-players table, with their headings."""


def _pct(value: object) -> str:
    return "-" if value is None else f"{float(str(value)):.1%}"


def _num(value: object, places: int = 2) -> str:
    return "-" if value is None else f"{float(str(value)):,.{places}f}"


def players_table(stats: pl.DataFrame) -> Table:
    """One line per player, game and currency: volume, results (in that currency) and the
    stats every game has."""
    table = Table(title="Players (money per currency: never added across currencies)")
    for column in ("player", "game", "money", "hands", "net", "bb/100", *SUMMARY.values()):
        table.add_column(
            column, justify="left" if column in ("player", "game", "money") else "right"
        )
    for row in stats.iter_rows(named=True):
        table.add_row(
            row["player"],
            row["game"],
            currency_label(row["currency"]),
            str(row["hands"]),
            money_text(row["net"], row["currency"]),
            _num(row["bb_per_100"]),
            *(_pct(row[name]) for name in SUMMARY),
        )
    return table


def with_rates(stats: pl.DataFrame, rates: pl.DataFrame) -> pl.DataFrame:
    """`player_stats` rows of one player with the time played and the rates per hour of
    `results.hourly(..., by_game=True)` (`hours`, `hands_per_hour`, `net_per_hour`,
    `big_bets_per_hour`), joined on game and currency."""
    columns = ["game", "currency", "hours", "hands_per_hour", "net_per_hour", "big_bets_per_hour"]
    return stats.join(rates.select(columns), on=["game", "currency"], how="left")


def player_table(stats: pl.DataFrame, player: str) -> Table:
    """Every stat of one player, one column per game and currency played (frequency and
    opportunities); with the columns of `with_rates`, the time played and the money and hands
    per hour."""
    rows = {(row["game"], row["currency"]): row for row in stats.iter_rows(named=True)}
    columns = list(rows)
    table = Table(title=f"{player}: statistics per game and currency")
    table.add_column("stat")
    for game, currency in columns:
        table.add_column(f"{game}\n{currency_label(currency)}", justify="right")
    table.add_row("hands", *(str(rows[key]["hands"]) for key in columns))
    table.add_row("net won", *(money_text(rows[key]["net"], key[1]) for key in columns))
    table.add_row("big bets / 100 hands", *(_num(rows[key]["bb_per_100"]) for key in columns))
    table.add_row(
        "all-in adjusted bb / 100", *(_num(rows[key]["allin_bb_per_100"]) for key in columns)
    )
    if "hours" in stats.columns:
        timed = [rows[key]["hours"] or 0 for key in columns]
        table.add_row("time played", *(duration_text(3600 * hours) for hours in timed))
        table.add_row(
            "hands per hour",
            *(
                _num(rows[key]["hands_per_hour"], 1) if t else "-"
                for key, t in zip(columns, timed, strict=True)
            ),
        )
        table.add_row(
            "net won per hour",
            *(
                money_text(rows[key]["net_per_hour"], key[1], signed=True) if t else "-"
                for key, t in zip(columns, timed, strict=True)
            ),
        )
    table.add_section()
    for stat in STATS:
        cells = [
            f"{_pct(rows[key][stat.name])} ({rows[key][stat.name + '_n']})"
            if stat.group in STAT_GROUPS.get(key[0], ()) and rows[key][stat.name + "_n"]
            else ""
            for key in columns
        ]
        if any(cells):
            table.add_row(stat.title(_filled(columns, cells)), *cells)
    table.add_section()
    for name in AGGRESSION:
        cells = [_num(rows[key][name]) if rows[key][name] is not None else "" for key in columns]
        if any(cells):
            where = street_title(int(name[-1]), _filled(columns, cells))
            table.add_row(f"aggression factor, {where}", *cells)
    return table


def _filled(columns: list[tuple[str, str]], cells: list[str]) -> list[str]:
    """The games of the columns a row has a value in: the ones its street label must fit."""
    return [game for (game, _), cell in zip(columns, cells, strict=True) if cell]


def leaks_table(found: pl.DataFrame, player: str) -> Table:
    """The leak report, worst first: each leak with its 95% interval and the room's ids of
    example hands."""
    table = Table(title=f"{player}: leaks (money at stake in big bets per 100 hands)")
    for column in (
        "severity", "game", "money", "table", "stat", "value", "95% interval", "range", "pool",
        "z", "spots", "at stake", "examples (room hand ids)",
    ):  # fmt: skip
        table.add_column(column, justify="right" if column in ("value", "z", "spots") else "left")
    for row in found.iter_rows(named=True):
        bounds = "-" if row["low"] is None else f"{row['low']:.0%}-{row['high']:.0%}"
        table.add_row(
            row["severity"],
            row["game"],
            currency_label(row["currency"]),
            row["table_size"],
            f"{row['label']} ({row['direction']})",
            _pct(row["value"]),
            f"{_pct(row['ci_low'])}-{_pct(row['ci_high'])}",
            bounds,
            _pct(row["pool_mean"]),
            _num(row["z"]),
            str(row["opportunities"]),
            _num(row["money_at_stake"]),
            ", ".join(f"#{hand}" for hand in row["example_room_hand_ids"][:3]),
        )
    return table


def verdict_note(checked: pl.DataFrame, minimum: int) -> str:
    """One sentence on what the leak report could judge: never "no leak" on too few hands."""
    counts = dict(checked.group_by("verdict").len().iter_rows())
    judged = counts.get("leak", 0) + counts.get("within range", 0)
    few = counts.get("too few spots", 0)
    unranged = counts.get("no reference", 0)
    if not judged:
        return (
            f"Too few hands to judge: none of the {checked.height} stats checked has "
            f"{minimum} spots yet."
            if checked.height
            else "Nothing to judge: no hands match."
        )
    parts = [f"{plural(counts.get('leak', 0), 'leak')} in {plural(judged, 'stat')} judged"]
    if few:
        parts.append(f"{few} with fewer than {minimum} spots, too few to judge")
    if unranged:
        parts.append(f"{unranged} with no reference for their table size and too small a pool")
    return "; ".join(parts) + "."


def tournaments_table(summary: pl.DataFrame) -> Table:
    """Per player and buy-in currency: tournaments, known results, cost, winnings, ROI, ITM."""
    table = Table(title="Tournaments (per buy-in currency; ROI and ITM over known results)")
    for column in ("player", "buy-ins in", "tournaments", "results known", "cost", "won", "net",
                   "ROI", "ITM"):  # fmt: skip
        table.add_column(column, justify="left" if column in ("player", "buy-ins in") else "right")
    for row in summary.iter_rows(named=True):
        currency = row["currency"] or "?"
        table.add_row(
            row["player"],
            currency_label(currency),
            str(row["tournaments"]),
            str(row["known"]),
            money_text(row["cost"], currency),
            money_text(row["won"], currency),
            money_text(row["net"], currency, signed=True),
            "-" if row["roi"] is None else f"{row['roi']:+.1%}",
            _pct(row["itm"]),
        )
    return table
