"""What a store holds: hands, rooms, games, players, stakes, time span and imports, the counts the
dashboard's overview and its pickers show. Days are taken in the time zone `zone` names.

Raw store reads: nothing here depends on the derived per-hand rows (`source.VERSION`).
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any, Final

import duckdb
import polars as pl

from studdraw.pipeline.identities import IDENTITIES, any_linked, ensure_registered
from studdraw.pipeline.store.schema import TABLES
from studdraw.pipeline.words import stakes_text


def _frame(con: duckdb.DuckDBPyConnection, sql: str, *params: Any) -> pl.DataFrame:
    frame: pl.DataFrame = con.sql(sql, params=list(params)).pl()
    return frame


def store_totals(con: duckdb.DuckDBPyConnection, zone: str) -> dict[str, Any]:
    """Hands, rooms, games, the share of valid hands (1 with none), errors, warnings, the first
    and last day, and the players dealt in."""
    totals: dict[str, Any] = _frame(
        con,
        "SELECT count(*) AS hands, count(DISTINCT room) AS rooms, count(DISTINCT game) AS games, "
        "coalesce(avg(CAST(valid AS INTEGER)), 1) AS valid, sum(errors) AS errors, "
        "sum(warnings) AS warnings, "
        "CAST(min(timezone(?, started_at)) AS DATE) AS first_day, "
        "CAST(max(timezone(?, started_at)) AS DATE) AS last_day, "
        "(SELECT count(DISTINCT name) FROM hand_players WHERE dealt_in) AS players FROM hands",
        zone,
        zone,
    ).row(0, named=True)
    return totals


def hand_count(con: duckdb.DuckDBPyConnection) -> int:
    return row_count(con, "hands")


def row_count(con: duckdb.DuckDBPyConnection, table: str) -> int:
    """Rows of one of the store's tables."""
    if table not in TABLES:
        raise ValueError(f"not a store table: {table}")
    count: int = _frame(con, f"SELECT count(*) FROM {table}").item()
    return count


def span_days(con: duckdb.DuckDBPyConnection) -> int:
    """Days from the first hand to the last (0 for an empty store)."""
    days: int = _frame(
        con, "SELECT coalesce(date_diff('day', min(started_at), max(started_at)), 0) FROM hands"
    ).item()
    return days


def hands_per_bin(con: duckdb.DuckDBPyConnection, unit: str, zone: str) -> pl.DataFrame:
    """Hands per game and `unit` ("day", "week", "month", "year": its first day as `bin`)."""
    return _frame(
        con,
        "SELECT CAST(date_trunc(?, timezone(?, started_at)) AS DATE) AS bin, game, "
        "count(*) AS hands FROM hands GROUP BY ALL ORDER BY bin",
        unit,
        zone,
    )


def rooms_and_games(con: duckdb.DuckDBPyConnection, zone: str) -> pl.DataFrame:
    """Per room and game: hands, the percentage valid, the first and last day."""
    return _frame(
        con,
        "SELECT room AS room, game, count(*) AS hands, "
        "round(100 * avg(CAST(valid AS INTEGER)), 1) AS valid_pct, "
        "CAST(min(timezone(?, started_at)) AS DATE) AS first_day, "
        "CAST(max(timezone(?, started_at)) AS DATE) AS last_day "
        "FROM hands GROUP BY ALL ORDER BY room, hands DESC",
        zone,
        zone,
    )


def recent_imports(con: duckdb.DuckDBPyConnection, zone: str, limit: int) -> pl.DataFrame:
    """The latest `limit` imports: file name, room, status, start, and their counts."""
    return _frame(
        con,
        "SELECT regexp_extract(path, '[^/\\\\]+$') AS file, room, status, "
        "strftime(timezone(?, started_at), '%Y-%m-%d %H:%M') AS started, "
        "hands_seen, stored, duplicates, rejected, unsupported, with_errors FROM imports "
        "ORDER BY import_id DESC LIMIT ?",
        zone,
        limit,
    )


def main_hero(con: duckdb.DuckDBPyConnection) -> str | None:
    """The player the hero of the most hands counts under (the person its account is linked
    to, else its name): whose histories were imported."""
    ensure_registered(con)
    top = _frame(
        con,
        f"SELECT coalesce(i.person, h.hero) AS hero FROM hands h LEFT JOIN {IDENTITIES} i "
        "ON i.room = h.room AND i.name = h.hero WHERE h.hero IS NOT NULL GROUP BY 1 "
        "ORDER BY count(*) DESC, 1 LIMIT 1",
    )
    hero: str | None = top.item() if top.height else None
    return hero


def names_by_hands(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The players dealt in, most hands first: one grouping of `hand_players`, by name, and
    once any account is linked, by the player each account counts under (persons and the names
    of accounts linked to nobody)."""
    ensure_registered(con)
    sql = "SELECT name FROM hand_players WHERE dealt_in GROUP BY name ORDER BY count(*) DESC, name"
    if any_linked(con):
        sql = f"""SELECT coalesce(i.person, a.name) AS name FROM (
  SELECT h.room, p.name, count(*) AS n FROM hand_players p JOIN hands h USING (hand_id)
  WHERE p.dealt_in GROUP BY ALL
) a LEFT JOIN {IDENTITIES} i ON i.room = a.room AND i.name = a.name
GROUP BY 1 ORDER BY sum(a.n) DESC, 1"""
    names: list[str] = _frame(con, sql).get_column("name").to_list()
    return names


def tables_played(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Every (room, game, structure, stakes, currency, cash or tournament) held, with its hands
    and its first and last UTC day, most hands first."""
    return _frame(
        con,
        "SELECT room, game, structure, small_bet, big_bet, small_blind, big_blind, scale, "
        "currency, tournament_id IS NOT NULL AS tournament, count(*) AS hands, "
        "CAST(min(timezone('UTC', started_at)) AS DATE) AS first_day, "
        "CAST(max(timezone('UTC', started_at)) AS DATE) AS last_day "
        "FROM hands GROUP BY ALL ORDER BY hands DESC",
    )


_NUMBER: Final = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _amounts(text: str) -> tuple[Decimal, ...]:
    """The numbers of a stakes label, whatever the symbols and separators ("$0.10/$0.20",
    "0.10/0.20", "1,000/2,000 chips")."""
    return tuple(Decimal(found.replace(",", "")) for found in _NUMBER.findall(text))


def stakes_matching(
    con: duckdb.DuckDBPyConnection, asked: str, currency: str | None = None
) -> list[tuple[str, str, int]]:
    """The stakes the store holds that `asked` names, as the rooms print them: both amounts
    ("0.10/0.20", with or without the currency's symbol) or the big one alone ("0.20"). Each as
    (currency, label, big bet in the smallest unit: what `Filters.stakes` holds), one per
    currency and big bet, in the order of `tables_played`."""
    wanted = _amounts(asked)
    if not wanted or len(wanted) > 2:
        return []
    found: dict[tuple[str, int], str] = {}
    for row in tables_played(con).iter_rows(named=True):
        if currency is not None and row["currency"] != currency:
            continue
        label = stakes_text(row)
        amounts = _amounts(label)
        if wanted == amounts or wanted == amounts[-1:]:
            found.setdefault((row["currency"], row["big_bet"]), label)
    return [(code, label, big_bet) for (code, big_bet), label in found.items()]


def stakes_held(con: duckdb.DuckDBPyConnection, currency: str | None = None) -> list[str]:
    """The labels of the stakes the store holds (of `currency`, if given), most hands first."""
    labels = (
        stakes_text(row)
        for row in tables_played(con).iter_rows(named=True)
        if currency is None or row["currency"] == currency
    )
    return list(dict.fromkeys(labels))
