"""Money is never added across currencies, nor cash with tournament chips: every money figure of
the analytics and of `studdraw stats`/`leaks` on a store where the hero plays for dollars, euros,
play money and tournament chips (tests/mixed_support.py), checked against sums made per
currency straight from `hand_players`."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from pathlib import Path

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from studdraw.cli.commands import app
from studdraw.pipeline import analytics
from studdraw.pipeline.analytics import Filters
from studdraw.pipeline.analytics.leaks import wilson
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from tests.conftest import corpus_file
from tests.mixed_support import HERO, KINDS, build_mixed_store
from tests.pipeline.store_support import forget_analytics

runner = CliRunner()
CURRENCIES = {money.currency for money in KINDS}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_mixed_store(tmp_path_factory.mktemp("mixed"))


@pytest.fixture(scope="module")
def con(store: Path) -> duckdb.DuckDBPyConnection:
    return analytics.open_store(store)


@pytest.fixture(scope="module")
def truth(store: Path) -> dict[str, tuple[int, Decimal]]:
    """The hero's valid hands and exact net per currency, from the store's own tables."""
    with duckdb.connect(str(store), read_only=True) as raw:
        rows = raw.execute(
            "SELECT h.currency, count(*), sum(p.net), any_value(h.scale) FROM hand_players p "
            "JOIN hands h USING (hand_id) WHERE p.name = ? AND p.dealt_in AND h.valid "
            "GROUP BY h.currency",
            [HERO],
        ).fetchall()
    return {
        currency: (hands, Decimal(net) / Decimal(scale)) for currency, hands, net, scale in rows
    }


def test_the_store_mixes_four_kinds_of_money(truth: dict[str, tuple[int, Decimal]]) -> None:
    assert set(truth) == CURRENCIES
    assert len({net for _, net in truth.values()}) == len(truth)  # a mix would show


def test_player_stats_has_one_row_per_currency(
    con: duckdb.DuckDBPyConnection, truth: dict[str, tuple[int, Decimal]]
) -> None:
    stats = analytics.player_stats(con, Filters(player=HERO))
    assert stats.get_column("currency").is_unique().all()
    by_currency = {row["currency"]: row for row in stats.iter_rows(named=True)}
    assert set(by_currency) == CURRENCIES
    for currency, (hands, net) in truth.items():
        assert by_currency[currency]["hands"] == hands
        assert by_currency[currency]["net"] == net
    kinds = {row["currency"]: row["kind"] for row in stats.iter_rows(named=True)}
    assert kinds == {"USD": "cash", "EUR": "cash", "PLAY": "cash", "CHIPS": "tournament"}


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        (Filters(player=HERO, currency="EUR"), {"EUR"}),
        (Filters(player=HERO, kind="tournament"), {"CHIPS"}),
        (Filters(player=HERO, kind="cash"), {"USD", "EUR", "PLAY"}),
        (Filters(player=HERO, kind="cash", currency="CHIPS"), set()),
    ],
)
def test_currency_and_kind_filters(
    con: duckdb.DuckDBPyConnection, filters: Filters, expected: set[str]
) -> None:
    assert set(analytics.player_stats(con, filters).get_column("currency")) == expected


def test_a_session_with_two_currencies_has_a_row_for_each(
    con: duckdb.DuckDBPyConnection, truth: dict[str, tuple[int, Decimal]]
) -> None:
    table = analytics.sessions(con, Filters(player=HERO))
    # The dollar table and the tournament ran at once: one session, two rows.
    first = table.filter(pl.col("session") == 1)
    assert set(first.get_column("currency")) == {"USD", "CHIPS"}
    assert set(first.get_column("kind")) == {"cash", "tournament"}
    for currency, (hands, net) in truth.items():
        mine = table.filter(pl.col("currency") == currency)
        assert mine.get_column("hands").sum() == hands
        assert mine.get_column("net").sum() == net
    tournament = first.filter(pl.col("currency") == "CHIPS").row(0, named=True)
    assert tournament["stakes"] == ["4/8 chips"]
    assert tournament["worst_net"] <= 0 <= tournament["best_net"] or tournament["hands"] == 1
    # The session picker lists that session once, from its first hand in either currency.
    starts = analytics.session_starts(con, HERO).filter(pl.col("session") == 1)
    assert starts.get_column("start").to_list() == [first.get_column("start").min()]


def test_running_totals_restart_per_currency(
    con: duckdb.DuckDBPyConnection, truth: dict[str, tuple[int, Decimal]]
) -> None:
    graph = analytics.results_over_time(con, Filters(player=HERO))
    last = graph.group_by("currency").agg(pl.col("cumulative_net").last())
    assert dict(last.iter_rows()) == {currency: net for currency, (_, net) in truth.items()}


def test_per_hand_frames_carry_their_currency(con: duckdb.DuckDBPyConnection) -> None:
    starts = analytics.starting_hands(con, Filters(player=HERO))
    doors = analytics.door_cards(con, Filters(player=HERO))
    behind = analytics.hands_behind(con, Filters(player=HERO), "vpip", limit=500)
    for frame in (starts, doors, behind):
        assert set(frame.get_column("currency")) == CURRENCIES


def test_hands_with_rule_errors_are_left_out_unless_asked(con: duckdb.DuckDBPyConnection) -> None:
    everyone = Filters(currency="USD")
    assert analytics.doubtful_hands(con, everyone) == 1
    hands = analytics.player_stats(con, everyone).get_column("hands").sum()
    doubtful = Filters(currency="USD", include_doubtful=True)
    with_them = analytics.player_stats(con, doubtful).get_column("hands").sum()
    assert with_them == hands + 3  # the broken hand deals three players in
    assert "Carol" not in set(analytics.player_stats(con, everyone).get_column("player"))


def test_dates_are_days_of_the_chosen_time_zone(con: duckdb.DuckDBPyConnection) -> None:
    # The euro hands run 20:00-20:38 UTC on 4 March: 5 March in Tokyo, 4 March in Paris.
    tokyo = Filters(player=HERO, date_from=date(2026, 3, 5), time_zone="Asia/Tokyo")
    paris = Filters(player=HERO, date_from=date(2026, 3, 5), time_zone="Europe/Paris")
    assert "EUR" in set(analytics.player_stats(con, tokyo).get_column("currency"))
    assert "EUR" not in set(analytics.player_stats(con, paris).get_column("currency"))


def test_leak_report_judges_per_currency_and_table_size(con: duckdb.DuckDBPyConnection) -> None:
    checked = analytics.assess(con, Filters(player=HERO))
    assert set(checked.get_column("currency")) <= CURRENCIES
    assert set(checked.get_column("verdict")) <= {"leak", "within range", "too few spots",
                                                 "no reference"}  # fmt: skip
    # 30 hands a currency: no stat but VPIP-like ones can reach 20 spots.
    few = checked.filter(pl.col("opportunities") < analytics.MIN_OPPORTUNITIES)
    assert set(few.get_column("verdict")) == {"too few spots"}
    intervals = checked.filter(pl.col("value").is_not_null())
    assert (intervals["ci_low"] <= intervals["value"]).all()
    assert (intervals["value"] <= intervals["ci_high"]).all()
    # Ranges describe full rings only.
    short = checked.filter(pl.col("table_size") != "full ring")
    assert short.get_column("low").null_count() == short.height


def test_wilson_interval() -> None:
    low, high = wilson(0, 17)
    assert low == 0 and 0.15 < high < 0.2
    low, high = wilson(10, 20)
    assert low == pytest.approx(0.299, abs=1e-3) and high == pytest.approx(0.701, abs=1e-3)


def test_stats_command_writes_each_currency(store: Path) -> None:
    result = runner.invoke(app, ["stats", "--db", str(store)])
    assert result.exit_code == 0, result.output
    for label in ("$ (USD)", "€ (EUR)", "play money", "tournament chips"):
        assert label in result.stdout
    assert "1 hand with rule errors" in result.stderr
    records = json.loads(
        runner.invoke(app, ["stats", "--db", str(store), "--player", HERO, "--json"]).stdout
    )
    assert sorted(row["currency"] for row in records) == sorted(CURRENCIES)


def test_unknown_player_suggests_the_name(store: Path) -> None:
    for command in ("stats", "leaks"):
        result = runner.invoke(app, [command, "--db", str(store), "--player", "hero"])
        assert result.exit_code == 1
        assert "no player named 'hero'; did you mean 'Hero'?" in result.stderr


def test_leaks_command_says_when_the_sample_is_too_small(store: Path) -> None:
    result = runner.invoke(
        app, ["leaks", "--db", str(store), "--player", HERO, "--currency", "EUR"]
    )
    assert result.exit_code == 0, result.output
    assert "No leak" not in result.stdout
    assert "too few to judge" in result.stdout or "Too few hands to judge" in result.stdout


def test_a_bring_in_that_bets_completes(tmp_path: Path) -> None:
    """PokerStars prints a bring-in seat's completion as "bets": every stat counts it as the
    completion it is (hand 35874081088: Hero has the bring-in and bets $0.04; a completing
    bring-in is not a steal opportunity, docs/stats.md)."""
    history = corpus_file("cash", "Stars", "Stud", "7-Stud-USD-0.04-0.08-200911.txt")
    db = tmp_path / "bring-in.duckdb"
    ingest([history], IngestOptions(db, workers=1))
    con = analytics.open_store(db)
    row = con.execute(
        "SELECT bring_in_opp, bring_in_complete, complete_3rd, vpip, steal_opp "
        "FROM player_hands WHERE room_hand_id = '35874081088' AND name = 'Hero'"
    ).fetchall()
    assert row == [(True, True, True, True, False)]


def test_prepare_reports_its_progress_in_hands(store: Path, tmp_path: Path) -> None:
    copy = tmp_path / "prepared.duckdb"
    copy.write_bytes(store.read_bytes())
    forget_analytics(copy)  # a store an earlier studdraw imported: the rows are prepare's
    started: list[int] = []
    chunks: list[int] = []
    done = analytics.prepare(copy, workers=1, on_start=started.append, on_chunk=chunks.append)
    assert started == [done.derived_hands] and sum(chunks) == done.derived_hands > 0


def test_leaks_take_local_dates(con: duckdb.DuckDBPyConnection) -> None:
    """Days of a time zone other than UTC need the per-hand rows, the pool's too."""
    local = Filters(player=HERO, date_from=date(2026, 3, 4), time_zone="Europe/Paris")
    checked = analytics.assess(con, local)
    assert set(checked.get_column("currency")) == {"EUR", "PLAY"}


@pytest.mark.parametrize("zone", ["UTC", "Asia/Tokyo", "Europe/Paris", "America/Los_Angeles"])
@pytest.mark.parametrize(
    ("first", "last"),
    [(2, 2), (2, 3), (3, 5), (4, 4), (5, 6), (1, 9), (None, 4), (4, None)],
)
def test_local_days_count_exactly_the_hands_of_those_days(
    con: duckdb.DuckDBPyConnection, zone: str, first: int | None, last: int | None
) -> None:
    """Whole UTC days come from the rollup, the partial edges from the hands: the sum is the
    hands whose local date lies in the range, whatever the zone."""
    start = date(2026, 3, first) if first else None
    end = date(2026, 3, last) if last else None
    filters = Filters(date_from=start, date_to=end, time_zone=zone)
    stats = analytics.player_stats(con, filters)
    counted = dict(stats.group_by("currency").agg(pl.col("hands").sum()).iter_rows())
    local = f"CAST(timezone('{zone}', started_at) AS DATE)"
    rows = con.execute(
        f"SELECT currency, count(*) FROM player_hands WHERE valid "
        f"AND ({local} >= ? OR ? IS NULL) AND ({local} <= ? OR ? IS NULL) GROUP BY currency",
        [start, start, end, end],
    ).fetchall()
    assert counted == dict(rows)
