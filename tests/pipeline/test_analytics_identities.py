"""Player identities (pipeline/identities.py): accounts linked into one person count under it in
every report, and a person's figures are exactly the sums of its accounts' figures, computed
per account before any link; a split restores them, and the links outlive a re-import.

The store: synthesised stud hands of three rooms, the hero "Hero" at PokerStars and at Full Tilt
(same name, two accounts), "HeroIP" at iPoker; the opponents' names repeat across rooms."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from studdraw.cli.commands import app
from studdraw.parsers.model import Game
from studdraw.pipeline import analytics, identities
from studdraw.pipeline.analytics import Filters, inventory
from studdraw.pipeline.analytics import hands as stored_hands
from studdraw.pipeline.analytics.registry import STATS
from studdraw.pipeline.export import Selection, select_hand_ids
from studdraw.pipeline.export import open_store as open_export
from studdraw.pipeline.identities import Account
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from studdraw.pipeline.notes import notes_path
from studdraw.pipeline.synth import SynthOptions, render, synthesize

START = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)
DEALS = (  # room, hero, hands, seed, days after START
    ("pokerstars", "Hero", 40, 71, 0),
    ("fulltilt", "Hero", 35, 72, 2),
    ("ipoker", "HeroIP", 30, 73, 4),
)
STARS, TILT, IPOKER = (Account(room, hero) for room, hero, *_ in DEALS)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("identities")
    histories = folder / "histories"
    histories.mkdir()
    for room, hero, hands, seed, days in DEALS:
        options = SynthOptions(
            room=room, game=Game.STUD, hands=hands, seed=seed, hero=hero,
            start=START + timedelta(days=days),
        )  # fmt: skip
        text = "".join(render(r, room) + "\n\n\n" for r in synthesize(options))
        (histories / f"{room}.txt").write_text(text, encoding="utf-8")
    db = folder / "store.duckdb"
    ingest([histories], IngestOptions(db, workers=1))
    return db


@pytest.fixture
def db(built: Path, tmp_path: Path) -> Path:
    """A copy of the store with no notes file: each test links on its own."""
    copy = tmp_path / "store.duckdb"
    shutil.copy(built, copy)
    return copy


@pytest.fixture
def con(db: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    connection = analytics.open_store(db)
    yield connection
    connection.close()


def _counts(frame: pl.DataFrame) -> dict[str, Any]:
    """What adds up across accounts, per game and currency: volume, money, every stat's
    opportunities and the times the action was taken."""
    assert frame.height == 1, frame
    row = frame.row(0, named=True)
    found: dict[str, Any] = {"hands": row["hands"], "net": row["net"]}
    for stat in STATS:
        n = row[f"{stat.name}_n"]
        found[f"{stat.name}_n"] = n
        found[f"{stat.name}_k"] = 0 if not n else round(row[stat.name] * n)
    return found


def _figures(con: duckdb.DuckDBPyConnection, player: str, **more: Any) -> dict[str, Any]:
    return _counts(analytics.player_stats(con, Filters(player=player, **more)))


def _account(con: duckdb.DuckDBPyConnection, account: Account) -> dict[str, Any]:
    """An account's own figures: its name in its room (before any link)."""
    return _figures(con, account.name, room=account.room)


def _sum(*figures: dict[str, Any]) -> dict[str, Any]:
    return {key: sum(f[key] for f in figures) for key in figures[0]}


def _link(con: duckdb.DuckDBPyConnection, db: Path, person: str, *accounts: Account) -> None:
    identities.link(notes_path(db), person, list(accounts))
    identities.load(con, db)


def test_by_default_a_name_is_one_player_across_rooms(con: duckdb.DuckDBPyConnection) -> None:
    stars, tilt = _account(con, STARS), _account(con, TILT)
    assert stars["hands"] == 40 and tilt["hands"] == 35
    assert _figures(con, "Hero") == _sum(stars, tilt)


def test_a_persons_stats_are_the_sums_of_its_accounts(
    con: duckdb.DuckDBPyConnection, db: Path
) -> None:
    stars, tilt, ipoker = (_account(con, a) for a in (STARS, TILT, IPOKER))
    everyone = analytics.player_stats(con, Filters())
    _link(con, db, "Me", STARS, IPOKER)
    assert _figures(con, "Me") == _sum(stars, ipoker)
    assert _figures(con, "Hero") == tilt  # the account linked to nobody keeps the name
    names = analytics.player_names(con)
    assert {"Me", "Hero"} <= set(names) and "HeroIP" not in names
    # The all-players table counts every hand once: Me instead of HeroIP, the same totals.
    linked = analytics.player_stats(con, Filters())
    assert set(linked["player"]) == set(everyone["player"]) - {"HeroIP"} | {"Me"}
    for column in ("hands", "vpip_n", "net"):
        assert linked[column].sum() == everyone[column].sum()
    me = analytics.players(con).filter(pl.col("name") == "Me").row(0, named=True)
    assert me["accounts"] == [str(IPOKER), str(STARS)]
    assert me["hands"] == stars["hands"] + ipoker["hands"]


def test_sessions_results_and_hands_of_a_person_are_those_of_its_accounts(
    con: duckdb.DuckDBPyConnection, db: Path
) -> None:
    def hand_ids(player: str, **more: Any) -> set[int]:
        frame = analytics.results_over_time(con, Filters(player=player, **more))
        return set(frame.get_column("hand_id").to_list())

    stars, ipoker = hand_ids("Hero", room="pokerstars"), hand_ids("HeroIP")
    _link(con, db, "Me", STARS, IPOKER)
    assert hand_ids("Me") == stars | ipoker
    sessions = analytics.sessions(con, Filters(player="Me"))
    assert sessions.get_column("hands").sum() == len(stars | ipoker)
    assert sorted({room for rooms in sessions["rooms"] for room in rooms}) == [
        "ipoker",
        "pokerstars",
    ]
    assert set(analytics.session_starts(con, "Me")["session"]) == set(sessions["session"])
    days = stored_hands.player_days(con, "Me", "UTC")
    assert days == sorted({(START + timedelta(days=d)).date() for d in (0, 4)})
    assert inventory.names_by_hands(con)[0] in ("Me", "Hero")
    assert "HeroIP" not in inventory.names_by_hands(con)
    assert inventory.main_hero(con) == "Me"
    checked = analytics.assess(con, Filters(player="Me"))
    vpip = checked.filter(pl.col("stat") == "vpip").row(0, named=True)
    assert vpip["opportunities"] == len(stars | ipoker)


def test_same_named_accounts_can_be_two_people(con: duckdb.DuckDBPyConnection, db: Path) -> None:
    stars, tilt = _account(con, STARS), _account(con, TILT)
    _link(con, db, "Hero at Stars", STARS)
    _link(con, db, "Hero at Tilt", TILT)
    assert _figures(con, "Hero at Stars") == stars
    assert _figures(con, "Hero at Tilt") == tilt
    assert "Hero" not in analytics.player_names(con)
    assert analytics.player_stats(con, Filters(player="Hero")).is_empty()


def test_a_split_restores_the_figures_and_links_outlive_a_reimport(
    con: duckdb.DuckDBPyConnection, db: Path, built: Path
) -> None:
    before = {name: _figures(con, name) for name in ("Hero", "HeroIP")}
    _link(con, db, "Me", TILT, IPOKER)
    merged = _figures(con, "Me")
    con.close()
    db.unlink()  # a new store from the same hands: the notes file beside it stays
    shutil.copy(built, db)
    again = analytics.open_store(db)
    try:
        assert _figures(again, "Me") == merged
        assert identities.split(notes_path(db), "Me") == [TILT, IPOKER]
        identities.load(again, db)
        assert {name: _figures(again, name) for name in before} == before
        assert "Me" not in analytics.player_names(again)
    finally:
        again.close()


def test_the_live_table_shows_a_linked_seat_with_its_persons_figures(
    con: duckdb.DuckDBPyConnection, db: Path
) -> None:
    sql = "SELECT max(hand_id) FROM hands WHERE room = 'ipoker'"
    newest = int(con.execute(sql).fetchall()[0][0])

    def hero_hands() -> int:
        table = analytics.live_table(con, newest)
        assert table is not None
        seat = table.seats.filter(pl.col("name") == "HeroIP").row(0, named=True)
        return int(seat["hands"])

    alone = hero_hands()
    assert alone == 30
    _link(con, db, "Me", STARS, IPOKER)
    assert hero_hands() == 40 + 30


def test_the_export_selects_every_account_of_a_person(db: Path) -> None:
    identities.link(notes_path(db), "Me", [STARS, IPOKER])
    with open_export(db) as con:
        me = select_hand_ids(con, Selection(players=("Me",)))
        hero = select_hand_ids(con, Selection(players=("Hero",)))
        both = select_hand_ids(con, Selection(players=("Me", "Hero")))
        tilt = select_hand_ids(con, Selection(rooms=("fulltilt",)))
    assert len(me) == 40 + 30 and hero == tilt
    assert both == sorted(set(me) | set(hero))


def test_the_command_line_links_lists_splits_and_reports(db: Path) -> None:
    runner = CliRunner()

    def call(*args: str) -> Any:
        return runner.invoke(app, [*args, "--db", str(db)])

    unknown = call("identity", "link", "Me", "nowhere:Hero")
    assert unknown.exit_code == 1
    assert "no hand of the room 'nowhere'" in unknown.output and "pokerstars" in unknown.output
    assert call("identity", "link", "Me", "Hero").exit_code == 1  # not ROOM:NAME
    typo = call("identity", "link", "Me", "PokerStars:hero", "ipoker:HeroIP")
    assert typo.exit_code == 0, typo.output
    assert "no hand of pokerstars:hero" in typo.output and "did you mean 'Hero'" in typo.output
    assert call("identity", "link", "Me", "pokerstars:Hero").exit_code == 0
    listed = call("identity", "list", "--json")
    assert json.loads(listed.output) == [
        {
            "person": "Me",
            "accounts": [
                {"room": "ipoker", "name": "HeroIP"},
                {"room": "pokerstars", "name": "Hero"},
                {"room": "pokerstars", "name": "hero"},
            ],
        }
    ]
    assert call("identity", "split", "Me", "pokerstars:hero").exit_code == 0
    assert call("identity", "split", "Me", "fulltilt:Hero").exit_code == 1  # not the person's
    stats = call("stats", "--player", "Me", "--json")
    assert stats.exit_code == 0, stats.output
    rows = json.loads(stats.output)
    assert [(row["player"], row["hands"]) for row in rows] == [("Me", 70)]
    assert Decimal(str(rows[0]["net"])) == sum(
        _net(db, room, name) for room, name in (("pokerstars", "Hero"), ("ipoker", "HeroIP"))
    )
    near = call("stats", "--player", "me")
    assert near.exit_code == 1 and "did you mean 'Me'" in near.output
    assert call("identity", "split", "Me").exit_code == 0
    assert "no accounts linked" in call("identity", "list").output


def _net(db: Path, room: str, name: str) -> Decimal:
    """An account's net won in currency units, from the store's own tables."""
    with duckdb.connect(str(db), read_only=True) as raw:
        row = raw.execute(
            "SELECT sum(p.net_amount) FROM hand_players_money p JOIN hands h USING (hand_id) "
            "WHERE h.room = ? AND p.name = ?",
            [room, name],
        ).fetchall()
    return Decimal(str(row[0][0]))
