"""Properties every store must satisfy, checked on synthesised hands of all six games: money adds
up, frequencies are frequencies, the per-page functions agree with each other, and the store,
its prepared rows and its Parquet dataset give the same answers."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from studdraw.parsers.model import Game
from studdraw.pipeline import analytics
from studdraw.pipeline.analytics import (
    STATS,
    Filters,
    hands_behind,
    leaks,
    open_store,
    player_stats,
    prepare,
    results_over_time,
    sessions,
)
from studdraw.pipeline.analytics import source as analytics_source
from studdraw.pipeline.analytics.leaks import MIN_OPPORTUNITIES
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from studdraw.pipeline.synth import GAMES_DEALT, SynthOptions, render, synthesize
from tests.pipeline.store_support import forget_analytics

HANDS_PER_GAME = 120


def synth_files(folder: Path, hands: int, seed: int) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for offset, game in enumerate(g for g in Game if g in GAMES_DEALT["pokerstars"]):
        options = SynthOptions(
            game=game,
            hands=hands,
            seed=seed + offset,
            session_hands=40,
            start=datetime(2026, 2, 1 + offset, 18, 0, tzinfo=UTC),
        )
        path = folder / f"{game}-{seed}.txt"
        path.write_text("".join(render(r, "pokerstars") + "\n\n\n" for r in synthesize(options)))
        files.append(path)
    return files


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A store of synthesised hands and its Parquet dataset."""
    root = tmp_path_factory.mktemp("synth")
    synth_files(root / "histories", HANDS_PER_GAME, seed=7)
    db, parquet = root / "synth.duckdb", root / "parquet"
    summary = ingest([root / "histories"], IngestOptions(db, parquet=parquet, workers=1))
    assert summary.stored == HANDS_PER_GAME * len(GAMES_DEALT["pokerstars"])
    return db, parquet


@pytest.fixture(scope="module")
def con(built: tuple[Path, Path]) -> duckdb.DuckDBPyConnection:
    return open_store(built[0])


def test_net_sums_to_minus_rake_per_hand(con: duckdb.DuckDBPyConnection) -> None:
    wrong = con.sql(
        "SELECT p.hand_id FROM player_hands p JOIN hands h USING (hand_id) WHERE h.valid "
        "GROUP BY p.hand_id, h.rake HAVING sum(p.net) <> -h.rake"
    ).fetchall()
    assert wrong == []


def test_allin_adjustment_moves_money_between_players_only(
    con: duckdb.DuckDBPyConnection,
) -> None:
    per_hand = con.sql(
        "SELECT sum(net)::DOUBLE AS actual, sum(allin_net) AS adjusted, "
        "count_if(allin_adjusted) AS n FROM player_hands GROUP BY hand_id"
    ).pl()
    assert per_hand["n"].sum() > 0
    assert per_hand["adjusted"].to_list() == pytest.approx(per_hand["actual"].to_list())


def test_frequencies_are_frequencies(con: duckdb.DuckDBPyConnection) -> None:
    frame = player_stats(con, Filters())
    for stat in STATS:
        values, counts = frame[stat.name], frame[f"{stat.name}_n"]
        assert ((values >= 0) & (values <= 1)).all(), stat.name
        assert (values.is_null() == (counts == 0)).all(), stat.name
    assert frame["vpip_n"].sum() == frame["hands"].sum()


def test_volume_matches_the_store(con: duckdb.DuckDBPyConnection) -> None:
    frame = player_stats(con, Filters())
    dealt = con.sql("SELECT count(*) FROM hand_players WHERE dealt_in").fetchall()[0][0]
    assert frame["hands"].sum() == dealt
    expected = (
        con.sql(
            "SELECT p.name AS player, h.game, sum(p.net / h.big_bet) AS big_bets, "
            "sum(p.net / h.scale) AS currency FROM hand_players p JOIN hands h USING (hand_id) "
            "WHERE p.dealt_in GROUP BY ALL"
        )
        .pl()
        .join(frame, on=["player", "game"])
    )
    per_100 = expected["bb_per_100"] * expected["hands"] / 100
    assert expected["big_bets_right"].to_list() == pytest.approx(expected["big_bets"].to_list())
    assert per_100.to_list() == pytest.approx(expected["big_bets"].to_list())
    assert expected["net"].cast(pl.Float64).to_list() == pytest.approx(
        expected["currency"].to_list()
    )


def test_sessions_and_results_agree(con: duckdb.DuckDBPyConnection) -> None:
    found = sessions(con, Filters(player="Hero"))
    graph = results_over_time(con, Filters(player="Hero"))
    assert found["hands"].sum() == graph.height == HANDS_PER_GAME * len(GAMES_DEALT["pokerstars"])
    assert found["session"].to_list() == list(range(1, found.height + 1))
    gap = timedelta(minutes=analytics.SESSION_GAP_MINUTES)
    starts, ends = found["start"].to_list(), found["end"].to_list()
    assert all(start - end >= gap for start, end in zip(starts[1:], ends[:-1], strict=True))
    within = graph.with_columns(step=pl.col("started_at").diff()).filter(
        pl.col("session") == pl.col("session").shift(1)
    )
    assert (within["step"] < gap).all()
    assert graph["cumulative_net"][-1] == found["net"].sum()
    assert graph["cumulative_big_bets"][-1] == pytest.approx(found["big_bets"].sum())
    assert graph["net"].sum() == graph["cumulative_net"][-1]
    for row in found.head(4).iter_rows(named=True):  # the SQL session filter numbers alike
        in_session = player_stats(con, Filters(player="Hero", session=row["session"]))
        assert in_session["hands"].sum() == row["hands"]
        assert in_session["net"].sum() == row["net"]


def test_session_starts_are_the_sessions_first_hands(con: duckdb.DuckDBPyConnection) -> None:
    """The session picker's list: every session `sessions` numbers (all the player's hands,
    rule errors included), each with its first hand's start, whatever currencies it holds."""
    found = sessions(con, Filters(player="Hero", include_doubtful=True))
    expected = found.group_by("session").agg(pl.col("start").min()).sort("session")
    starts = analytics.session_starts(con, "Hero")
    assert starts.height > 1
    assert_frame_equal(starts, expected)


def test_hands_behind_count_the_stat(con: duckdb.DuckDBPyConnection) -> None:
    row = player_stats(con, Filters(player="Hero", game="stud")).row(0, named=True)
    for name in ("vpip", "steal", "fold_to_bet_4th", "went_to_showdown"):
        behind = hands_behind(con, Filters(player="Hero", game="stud"), name, limit=10_000)
        assert behind.height == row[f"{name}_n"]
        assert behind["took"].sum() == round(row[name] * row[f"{name}_n"])


def test_leak_report(con: duckdb.DuckDBPyConnection) -> None:
    found = leaks(con, Filters(player="Hero"))
    assert found.height > 0  # random players are far from a solid player's ranges
    assert set(found["severity"]) <= {"major", "moderate", "minor"}
    order = found["severity"].replace_strict(["major", "moderate", "minor"], [0, 1, 2])
    assert order.to_list() == sorted(order.to_list())
    assert (found["opportunities"] >= MIN_OPPORTUNITIES).all()
    assert (found["money_at_stake"].drop_nulls() >= 0).all()
    for row in found.iter_rows(named=True):
        behind = hands_behind(
            con, Filters(player="Hero", game=row["game"]), row["stat"], limit=10_000
        )
        took = row["direction"] in ("too high", "above pool")
        spots = set(behind.filter(pl.col("took") == took)["hand_id"])
        assert row["examples"] and set(row["examples"]) <= spots


def test_parquet_dataset_gives_the_same_answers(built: tuple[Path, Path]) -> None:
    db, parquet = built
    from_db = player_stats(open_store(db), Filters())
    from_parquet = player_stats(open_store(parquet), Filters())
    assert_frame_equal(from_parquet, from_db, check_exact=False)  # float sums in another order


def test_prepare_is_idempotent_and_follows_imports(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    db = tmp_path / "copy.duckdb"
    shutil.copy(built[0], db)
    before = player_stats(open_store(db), Filters())
    forget_analytics(db)  # a store an earlier studdraw imported: no rows kept
    first = prepare(db)
    assert (
        first.derived_hands == HANDS_PER_GAME * len(GAMES_DEALT["pokerstars"]) and not first.rebuilt
    )
    assert prepare(db).derived_hands == 0
    assert_frame_equal(player_stats(open_store(db), Filters()), before, check_exact=False)
    ingest(synth_files(tmp_path / "more", 10, seed=99), IngestOptions(db, workers=1))
    grown = open_store(db)
    count = grown.sql("SELECT count(DISTINCT hand_id) FROM player_hands").fetchall()[0][0]
    assert count == (HANDS_PER_GAME + 10) * len(GAMES_DEALT["pokerstars"])
    # The import kept the rows of its hands: nothing left to derive on open, nor to prepare.
    assert grown.sql("SELECT count(*) FROM duckdb_tables() WHERE temporary").fetchall() == [(0,)]
    kept = player_stats(grown, Filters())
    grown.close()  # DuckDB: no writer while this process holds a read-only connection
    assert prepare(db).derived_hands == 0
    forget_analytics(db)
    assert prepare(db).derived_hands == (HANDS_PER_GAME + 10) * len(GAMES_DEALT["pokerstars"])
    assert_frame_equal(player_stats(open_store(db), Filters()), kept, check_exact=False)


def test_prepare_rebuilds_rows_of_other_definitions(
    built: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "copy.duckdb"
    shutil.copy(built[0], db)
    prepare(db)
    monkeypatch.setattr(analytics_source, "VERSION", "another")
    assert open_store(db).sql("SELECT count(*) FROM analytics_recent").fetchall()[0][0] > 0
    again = prepare(db)
    assert again.rebuilt and again.derived_hands == HANDS_PER_GAME * len(GAMES_DEALT["pokerstars"])


def test_prepare_rebuilds_a_rollup_of_other_columns(
    built: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "copy.duckdb"
    shutil.copy(built[0], db)
    prepare(db)
    expected = player_stats(open_store(db), Filters())
    monkeypatch.setattr(analytics_source, "ROLLUP_VERSION", "another")
    stale = open_store(db)  # sums the kept rows itself rather than trust the old rollup
    assert stale.sql("SELECT count(*) FROM analytics_recent_rollup").fetchall()[0][0] > 0
    assert_frame_equal(player_stats(stale, Filters()), expected, check_exact=False)
    stale.close()
    again = prepare(db)
    assert again.derived_hands == 0 and not again.rebuilt
    fresh = open_store(db)
    tables = fresh.sql("SELECT table_name FROM duckdb_tables() WHERE temporary").fetchall()
    assert tables == []  # nothing left to derive on open


def test_open_store_reports_a_missing_store(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        open_store(tmp_path / "nothing.duckdb")


def test_empty_store_has_every_column(tmp_path: Path) -> None:
    db = tmp_path / "empty.duckdb"
    ingest([], IngestOptions(db, workers=1))
    con = open_store(db)
    frame = player_stats(con, Filters())
    assert frame.height == 0 and {"vpip", "vpip_n", "af_0", "net"} <= set(frame.columns)
    assert analytics.players(con).height == 0
