"""Tournament results: cost from the hands' headers, finish and prize from the rooms' lines in
the hands (the real corpus) and from tournament summary files imported beside them; ROI and
in-the-money share per player and buy-in currency."""

from __future__ import annotations

import json
import shutil
from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from studdraw.cli.commands import app
from studdraw.pipeline import analytics, identities
from studdraw.pipeline.analytics import Filters
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from studdraw.pipeline.notes import notes_path
from tests.conftest import corpus_file
from tests.mixed_support import HERO, TOURNAMENT, build_mixed_store

runner = CliRunner()
SUMMARY = f"""PokerStars Tournament #{TOURNAMENT.tournament_id}, 7 Card Stud Limit
Buy-In: $3.00/$0.30 USD
6 players
Total Prize Pool: $18.00 USD
Tournament started 2026/03/02 13:01:00 ET
Tournament finished 2026/03/02 13:44:00 ET
  1: OpenPair (Canada), $9.00 (50%)
  2: {HERO} (Germany), $5.40 (30%)
  3: KingLow (Malta), $3.60 (20%)
  4: JackOfAll (Brazil),
You finished in 2nd place.
"""


def test_finishes_printed_in_the_hands(tmp_path: Path) -> None:
    history = corpus_file("tour", "Stars", "Draw", "LBad-USD-SNG8-201011.txt")
    db = tmp_path / "sng.duckdb"
    ingest([history], IngestOptions(db, workers=1))
    con = analytics.open_store(db)
    results = analytics.tournament_results(con, Filters(include_doubtful=True))
    by_player = {row["player"]: row for row in results.iter_rows(named=True)}
    third = by_player["Player5"]
    assert (third["place"], third["prize"], third["buy_in"], third["fee"]) == (
        3, Decimal("1.60"), Decimal("1.00"), Decimal("0.20"),
    )  # fmt: skip
    assert third["net"] == Decimal("0.40")
    assert (by_player["Player2"]["place"], by_player["Player2"]["prize"]) == (8, Decimal("0"))
    summary = analytics.tournament_summary(con, Filters(player="Player5", include_doubtful=True))
    row = summary.row(0, named=True)
    assert (row["tournaments"], row["known"], row["in_the_money"]) == (1, 1, 1)
    assert row["roi"] == pytest.approx(0.40 / 1.20)


@pytest.fixture(scope="module")
def with_summary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("tournament")
    db = build_mixed_store(folder)
    (folder / "summaries").mkdir()
    (folder / "summaries" / "777000111.txt").write_text(SUMMARY, encoding="utf-8")
    result = runner.invoke(
        app, ["ingest", str(folder / "histories"), str(folder / "summaries"), "--db", str(db),
              "--workers", "1", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert found["tournament_summaries"] == {"files": 1, "tournaments": 1, "results": 4}
    assert found["unsupported"] == 0  # the summary is not counted as an unknown file
    return db


def test_summary_files_give_place_prize_roi_and_itm(with_summary: Path) -> None:
    con = analytics.open_store(with_summary)
    results = analytics.tournament_results(con, Filters(player=HERO))
    assert results.height == 1
    row = results.row(0, named=True)
    assert (row["tournament_id"], row["place"], row["prize"], row["currency"]) == (
        TOURNAMENT.tournament_id, 2, Decimal("5.40"), "USD",
    )  # fmt: skip
    assert row["net"] == Decimal("2.10") and row["hands"] == 30
    summary = analytics.tournament_summary(con, Filters(player=HERO)).row(0, named=True)
    assert summary["roi"] == pytest.approx(2.10 / 3.30)
    assert summary["itm"] == 1.0
    chips = analytics.tournament_chips(con, HERO, "pokerstars", TOURNAMENT.tournament_id)
    assert chips.height == 30
    assert (chips["stack_after"] == chips["stack_before"] + chips["net"]).all()


def test_a_person_holds_the_tournaments_of_its_accounts(with_summary: Path, tmp_path: Path) -> None:
    copy = tmp_path / "linked.duckdb"
    shutil.copy(with_summary, copy)
    con = analytics.open_store(copy)
    alone = analytics.tournament_results(con, Filters(player=HERO))
    identities.link(notes_path(copy), "Me", [identities.Account("pokerstars", HERO)])
    identities.load(con, copy)
    linked = analytics.tournament_results(con, Filters(player="Me"))
    assert linked.drop("player").equals(alone.drop("player"))
    assert set(linked["player"]) == {"Me"}
    assert analytics.tournament_results(con, Filters(player=HERO)).is_empty()
    everyone = analytics.tournament_summary(con, Filters())
    assert "Me" in set(everyone["player"]) and HERO not in set(everyone["player"])
    chips = analytics.tournament_chips(con, "Me", "pokerstars", TOURNAMENT.tournament_id)
    assert chips.height == 30


def test_a_summary_imported_again_adds_nothing(with_summary: Path, tmp_path: Path) -> None:
    copy = tmp_path / "again.duckdb"
    shutil.copy(with_summary, copy)
    folder = tmp_path / "summaries"
    folder.mkdir()
    (folder / "again.txt").write_text(SUMMARY, encoding="utf-8")
    assert runner.invoke(app, ["ingest", str(folder), "--db", str(copy)]).exit_code == 0
    con = analytics.open_store(copy)
    rows = con.sql("SELECT count(*) FROM tournament_results").pl()
    assert rows.item() == 4
    assert (
        analytics.tournament_results(con, Filters(player=HERO)).filter(pl.col("place") == 2).height
        == 1
    )


def test_tournaments_command(with_summary: Path) -> None:
    table = runner.invoke(app, ["tournaments", "--db", str(with_summary)])
    assert table.exit_code == 0, table.output
    hero = next(line for line in table.stdout.splitlines() if f" {HERO} " in line)
    assert "$ (USD)" in hero and "+$2.10" in hero and "+63.6%" in hero and "100.0%" in hero
    records = json.loads(
        runner.invoke(app, ["tournaments", "--db", str(with_summary), "--player", HERO,
                            "--json"]).stdout
    )  # fmt: skip
    assert [(row["place"], row["prize"]) for row in records] == [(2, "5.40")]
