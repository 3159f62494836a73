"""`--stakes` as the rooms print stakes: which of a store's stakes a user's text names."""

from __future__ import annotations

from datetime import UTC, datetime

import duckdb
import pytest

from studdraw.pipeline.analytics.inventory import stakes_held, stakes_matching

# structure, small bet, big bet, small blind, big blind, scale (units per currency unit),
# currency, tournament id
TABLES = [
    ("fixed", 10, 20, 5, 10, 100, "USD", None),
    ("no", 10, 10, 5, 10, 100, "USD", None),
    ("fixed", 1000, 2000, 0, 0, 100, "EUR", None),
    ("fixed", 10, 20, 0, 0, 1, "CHIPS", 7),
]


@pytest.fixture
def con() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE hands (room VARCHAR, game VARCHAR, structure VARCHAR, small_bet BIGINT, "
        "big_bet BIGINT, small_blind BIGINT, big_blind BIGINT, scale INTEGER, currency VARCHAR, "
        "tournament_id BIGINT, started_at TIMESTAMPTZ)"
    )
    for row in TABLES:
        con.execute(
            "INSERT INTO hands VALUES ('pokerstars', 'stud', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [*row, datetime(2026, 1, 1, tzinfo=UTC)],
        )
    return con


@pytest.mark.parametrize(
    ("asked", "currency", "expected"),
    [
        ("0.10/0.20", None, [("USD", "$0.10/$0.20", 20)]),
        ("$0.10/$0.20", None, [("USD", "$0.10/$0.20", 20)]),
        ("0.20", None, [("USD", "$0.10/$0.20", 20)]),
        ("$0.05/$0.10", None, [("USD", "$0.05/$0.10", 10)]),  # no limit: the blinds
        ("10/20", None, [("EUR", "€10.00/€20.00", 2000), ("CHIPS", "10/20 chips", 20)]),
        ("10/20", "CHIPS", [("CHIPS", "10/20 chips", 20)]),
        ("1,000/2,000", None, []),
        ("0.20/0.40", None, []),
        ("cheap", None, []),
        ("1/2/3", None, []),
    ],
)
def test_stakes_are_named_as_the_rooms_print_them(
    con: duckdb.DuckDBPyConnection,
    asked: str,
    currency: str | None,
    expected: list[tuple[str, str, int]],
) -> None:
    assert sorted(stakes_matching(con, asked, currency)) == sorted(expected)


def test_the_stakes_held_are_listed_once_each(con: duckdb.DuckDBPyConnection) -> None:
    assert sorted(stakes_held(con)) == sorted(
        ["$0.10/$0.20", "$0.05/$0.10", "€10.00/€20.00", "10/20 chips"]
    )
    assert stakes_held(con, "CHIPS") == ["10/20 chips"]
