"""The live table (`analytics.live_tables`, `analytics.live_table`) and the rates per hour
(`analytics.hourly`, `per_hour`, the sessions' `seconds`), checked against counts and times
made straight from the store's own tables."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from itertools import pairwise
from pathlib import Path

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from studdraw.cli.commands import app
from studdraw.parsers.model import Game
from studdraw.pipeline import analytics
from studdraw.pipeline.analytics import Filters
from studdraw.pipeline.analytics.registry import BY_NAME, HUD, STAT_GROUPS
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from studdraw.pipeline.synth import SynthOptions, render, synthesize
from studdraw.pipeline.words import duration_text, money_text

START = datetime(2026, 6, 1, 18, 0, tzinfo=UTC)
DEALS = (  # game, hands, seed, start: an old stud session, then two tables played together
    (Game.STUD, 30, 61, START - timedelta(days=3)),
    (Game.STUD, 25, 62, START),
    (Game.TD27, 20, 63, START + timedelta(minutes=5)),
)


def _write(folder: Path) -> None:
    for number, (game, hands, seed, start) in enumerate(DEALS):
        options = SynthOptions(room="pokerstars", game=game, hands=hands, seed=seed, start=start)
        text = "".join(render(r, "pokerstars") + "\n\n\n" for r in synthesize(options))
        (folder / f"{number}-{game}.txt").write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("live")
    histories = folder / "histories"
    histories.mkdir()
    _write(histories)
    db = folder / "store.duckdb"
    ingest([histories], IngestOptions(db, workers=1))
    return db


@pytest.fixture(scope="module")
def con(store: Path) -> duckdb.DuckDBPyConnection:
    return analytics.open_store(store)


@pytest.fixture(scope="module")
def raw(store: Path) -> duckdb.DuckDBPyConnection:
    return duckdb.connect(str(store), read_only=True)


def test_the_newest_table_comes_first_with_the_tables_played_beside_it(
    con: duckdb.DuckDBPyConnection, raw: duckdb.DuckDBPyConnection
) -> None:
    tables = analytics.live_tables(con)
    newest = raw.execute(
        "SELECT hand_id, room, table_name FROM hands ORDER BY hand_id DESC LIMIT 1"
    ).fetchone()
    assert newest is not None
    first = tables.row(0, named=True)
    assert (first["hand_id"], first["room"], first["table_name"]) == newest
    # The stud table played at the same time is listed; the one of three days before is not.
    recent = raw.execute(
        "SELECT DISTINCT table_name FROM hands WHERE started_at >= ?", [START]
    ).fetchall()
    assert set(tables.get_column("table_name").to_list()) == {name for (name,) in recent}
    assert tables.height == 2
    for row in tables.iter_rows(named=True):
        last = raw.execute(
            "SELECT max(hand_id), max(started_at) FROM hands WHERE table_name = ?",
            [row["table_name"]],
        ).fetchone()
        assert (row["hand_id"], row["started_at"]) == last


@pytest.mark.parametrize("include_doubtful", [False, True])
def test_every_seat_has_its_hands_and_stats_at_this_room_game_and_currency(
    con: duckdb.DuckDBPyConnection, raw: duckdb.DuckDBPyConnection, include_doubtful: bool
) -> None:
    tables = analytics.live_tables(con)
    for hand_id in tables.get_column("hand_id").to_list():
        table = analytics.live_table(con, hand_id, include_doubtful=include_doubtful)
        assert table is not None
        hand = table.hand
        seats = raw.execute(
            "SELECT seat, name FROM hand_players WHERE hand_id = ? ORDER BY seat", [hand_id]
        ).fetchall()
        assert list(table.seats.select("seat", "name").iter_rows()) == seats
        assert table.stats == tuple(
            name for name in HUD if BY_NAME[name].group in STAT_GROUPS[hand["game"]]
        )
        for row in table.seats.iter_rows(named=True):
            hands, net = raw.execute(
                "SELECT count(*), coalesce(sum(p.net), 0) FROM hand_players p "
                "JOIN hands h USING (hand_id) WHERE p.name = ? AND p.dealt_in AND h.room = ? "
                "AND h.game = ? AND h.structure = ? AND h.currency = ? AND (h.valid OR ?)",
                [row["name"], hand["room"], hand["game"], hand["structure"], hand["currency"],
                 include_doubtful],
            ).fetchone() or (0, 0)  # fmt: skip
            assert row["hands"] == hands, row["name"]
            assert row["vpip_n"] == hands
            assert Decimal(row["net"] or 0) == Decimal(net) / hand["scale"]


def test_a_stud_table_shows_stud_stats_and_a_draw_table_draw_stats(
    con: duckdb.DuckDBPyConnection,
) -> None:
    shown = {}
    for hand_id in analytics.live_tables(con).get_column("hand_id").to_list():
        table = analytics.live_table(con, hand_id)
        assert table is not None
        shown[table.hand["game"]] = set(table.stats)
    assert {"complete_3rd", "steal"} <= shown["stud"]
    assert not {"rfi", "pat_1"} & shown["stud"]
    assert {"rfi", "pat_1", "breaking"} <= shown["td27"]
    assert not {"complete_3rd", "steal"} & shown["td27"]


def test_no_such_hand(con: duckdb.DuckDBPyConnection) -> None:
    assert analytics.live_table(con, 10**9) is None


def _hero_times(raw: duckdb.DuckDBPyConnection) -> list[datetime]:
    rows = raw.execute(
        "SELECT h.started_at FROM hand_players p JOIN hands h USING (hand_id) "
        "WHERE p.name = 'Hero' AND p.dealt_in AND h.valid ORDER BY h.started_at, h.hand_id"
    ).fetchall()
    return [moment for (moment,) in rows]


def test_the_time_played_is_each_session_from_first_hand_to_last(
    con: duckdb.DuckDBPyConnection, raw: duckdb.DuckDBPyConnection
) -> None:
    times = _hero_times(raw)
    gap = timedelta(minutes=analytics.SESSION_GAP_MINUTES)
    played = sum(
        ((b - a).total_seconds() for a, b in pairwise(times) if b - a < gap),
        0.0,
    )
    sessions = analytics.sessions(con, Filters(player="Hero"))
    assert sessions.get_column("seconds").sum() == pytest.approx(played)
    for row in sessions.iter_rows(named=True):  # one currency: a session's share is its span
        assert row["seconds"] == pytest.approx((row["end"] - row["start"]).total_seconds())
    rates = analytics.hourly(con, Filters(player="Hero"))
    assert rates.height == 1
    row = rates.row(0, named=True)
    assert row["hands"] == len(times)
    assert row["hours"] == pytest.approx(played / 3600)
    assert row["hands_per_hour"] == pytest.approx(len(times) / (played / 3600))
    assert row["net_per_hour"] == pytest.approx(float(row["net"]) / (played / 3600))
    assert analytics.hourly_of_sessions(sessions).drop("hours").equals(rates.drop("hours"))


def test_the_time_of_two_tables_at_once_is_shared_between_their_games(
    con: duckdb.DuckDBPyConnection,
) -> None:
    by_game = analytics.hourly(con, Filters(player="Hero"), by_game=True)
    total = analytics.hourly(con, Filters(player="Hero"))
    assert set(by_game.get_column("game").to_list()) == {"stud", "td27"}
    assert by_game.get_column("seconds").sum() == pytest.approx(total.item(0, "seconds"))
    assert by_game.get_column("hands").sum() == total.item(0, "hands")
    stud = analytics.hourly(con, Filters(player="Hero", game="stud"))
    assert stud.item(0, "seconds") == pytest.approx(
        by_game.filter(pl.col("game") == "stud").item(0, "seconds")
    )


def test_no_time_no_rate() -> None:
    frame = pl.DataFrame(
        {
            "currency": ["USD"],
            "hands": [1],
            "seconds": [0.0],
            "net": [Decimal("1.5")],
            "big_bets": [0.75],
        }
    )
    rates = analytics.per_hour(frame).row(0, named=True)
    assert rates["hours"] == 0
    assert rates["hands_per_hour"] is None
    assert rates["net_per_hour"] is None


def test_stats_gives_the_time_and_rates_per_hour_per_game_and_currency(
    store: Path, con: duckdb.DuckDBPyConnection
) -> None:
    rates = analytics.hourly(con, Filters(player="Hero"), by_game=True)
    printed = CliRunner().invoke(app, ["stats", "--db", str(store), "--player", "Hero"])
    assert printed.exit_code == 0, printed.output
    rows = [line for line in printed.stdout.splitlines() if "│" in line]
    lines = {line.split("│")[1].strip(): line for line in rows}
    for name in ("time played", "hands per hour", "net won per hour"):
        assert name in lines
    for row in rates.iter_rows(named=True):
        assert duration_text(row["seconds"]) in lines["time played"]
        assert f"{row['hands_per_hour']:,.1f}" in lines["hands per hour"]
        assert money_text(row["net_per_hour"], "USD", signed=True) in lines["net won per hour"]
    records = json.loads(
        CliRunner().invoke(app, ["stats", "--db", str(store), "--player", "Hero", "--json"]).stdout
    )
    by_game = {record["game"]: record for record in records}
    for row in rates.iter_rows(named=True):
        assert by_game[row["game"]]["hands_per_hour"] == pytest.approx(row["hands_per_hour"])
        assert by_game[row["game"]]["net_per_hour"] == pytest.approx(row["net_per_hour"])
