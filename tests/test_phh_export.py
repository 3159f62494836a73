"""`studdraw export`: every stored corpus hand exports, from a DuckDB store or a Parquet
dataset, to the very PHH the same hands parsed from their files give; the filters select what
they say; the exit codes."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from studdraw.cli.commands import app
from studdraw.parsers.model import HandRecord
from studdraw.parsers.phh.vocabulary import players_in_order
from studdraw.pipeline import export
from studdraw.pipeline.phh import dumps
from tests.conftest import CORPUS
from tests.pipeline.test_phh_pokerkit import corpus_records
from tests.replay_digest import as_phh, generated_hands

runner = CliRunner()
Key = tuple[str, str]


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The corpus ingested once: a DuckDB store and its Parquet dataset."""
    if not CORPUS.is_dir():
        pytest.skip(f"the shared corpus is not at {CORPUS}")
    folder = tmp_path_factory.mktemp("store")
    db, parquet = folder / "corpus.duckdb", folder / "parquet"
    args = ["ingest", str(CORPUS), "--db", str(db), "--parquet", str(parquet), "--workers", "1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return db, parquet


def exported(args: list[str], out: Path) -> dict[Key, dict[str, Any]]:
    result = runner.invoke(app, ["export", *args, "--format", "phhs", "--out", str(out)])
    assert result.exit_code == 0, result.output
    hands = tomllib.loads(out.read_text(encoding="utf-8"), parse_float=Decimal).values()
    return {(hand["_room"], str(hand["hand"])): hand for hand in hands}


def without_source(hands: dict[Key, dict[str, Any]]) -> dict[Key, dict[str, Any]]:
    return {key: {k: v for k, v in hand.items() if k != "_source"} for key, hand in hands.items()}


def test_every_stored_hand_exports_as_its_files_give_it(
    stores: tuple[Path, Path], tmp_path: Path
) -> None:
    db, parquet = stores
    from_db = exported(["--db", str(db)], tmp_path / "db.phhs")
    from_parquet = exported(["--db", str(parquet)], tmp_path / "parquet.phhs")
    from_files = exported([str(CORPUS)], tmp_path / "files.phhs")
    stored = {(r.room, r.room_hand_id) for r in corpus_records()}
    assert set(from_db) == stored  # one corpus hand id is read twice: the store keeps one
    assert without_source(from_parquet) == without_source(from_db)
    assert without_source(from_db) == without_source(from_files)


def _dealt(name: str) -> Callable[[HandRecord], bool]:
    return lambda r: any(seat.player == name for seat in players_in_order(r))


FILTERS: list[tuple[list[str], Callable[[HandRecord], bool]]] = [
    (["--player", "Hero"], _dealt("Hero")),
    (["--game", "razz", "--game", "stud8"], lambda r: r.game in ("razz", "stud8")),
    (["--room", "fulltilt"], lambda r: r.room == "fulltilt"),
    (
        ["--since", "2011-01-01", "--until", "2011-06-30"],
        lambda r: (
            datetime(2011, 1, 1, tzinfo=UTC) <= r.started_at < datetime(2011, 7, 1, tzinfo=UTC)
        ),
    ),
    (
        ["--hand", "35874004239", "--hand", "52591316765"],
        lambda r: r.room_hand_id in ("35874004239", "52591316765"),
    ),
    (
        ["--room", "pokerstars", "--game", "badugi", "--player", "Player1"],
        lambda r: r.room == "pokerstars" and r.game == "badugi" and _dealt("Player1")(r),
    ),
]


@pytest.mark.parametrize(
    ("args", "wanted"), FILTERS, ids=lambda v: " ".join(v) if isinstance(v, list) else ""
)
def test_filters_select_the_same_hands_from_store_and_files(
    stores: tuple[Path, Path], tmp_path: Path, args: list[str], wanted: Callable[[HandRecord], bool]
) -> None:
    expected = {(r.room, r.room_hand_id) for r in corpus_records() if wanted(r)}
    assert expected  # every filter of the table selects something
    assert set(exported(["--db", str(stores[0]), *args], tmp_path / "db.phhs")) == expected
    assert set(exported([str(CORPUS), *args], tmp_path / "files.phhs")) == expected


def test_one_file_per_hand(stores: tuple[Path, Path], tmp_path: Path) -> None:
    out = tmp_path / "hands"
    args = [
        "export",
        "--db",
        str(stores[0]),
        "--room",
        "winamax",
        "--format",
        "phh",
        "--out",
        str(out),
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    files = sorted(out.iterdir())
    assert len(files) == sum(1 for r in corpus_records() if r.room == "winamax")
    assert all(f.name.startswith("winamax-") and f.suffix == ".phh" for f in files)
    assert "exported" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["--db", "no-such-store.duckdb"],
        ["--since", "not a date"],
    ],
)
def test_exit_code_2(tmp_path: Path, args: list[str]) -> None:
    result = runner.invoke(app, ["export", *args, "--format", "phhs", "--out", str(tmp_path / "x")])
    assert result.exit_code == 2


def test_an_unwritable_output_is_exit_code_1(stores: tuple[Path, Path], tmp_path: Path) -> None:
    args = ["export", "--db", str(stores[0]), "--format", "phhs", "--out", str(tmp_path)]
    result = runner.invoke(app, args)  # a folder where the .phhs file should go
    assert result.exit_code == 1
    assert "cannot write" in result.stderr


def test_start_times_are_utc_whatever_the_store_sessions_zone(stores: tuple[Path, Path]) -> None:
    """DuckDB gives TIMESTAMPTZ values in its session's zone (the machine's by default): the
    export reads instants, so PHH's `time` (with `time_zone = "UTC"`) stays UTC."""
    started = {(r.room, r.room_hand_id): r.started_at for r in corpus_records()}
    with export.open_store(stores[0]) as con:
        con.execute("SET TimeZone = 'Pacific/Chatham'")
        ids = export.select_hand_ids(con, export.Selection())
        hands = list(export.records_from_store(con, ids))
    assert len(hands) == len(ids)
    for record, _ in hands:
        when = started[(record.room, record.room_hand_id)]
        assert record.started_at == when
        assert record.started_at.utcoffset() == timedelta(0)
        text = dumps(record)
        assert f'\ntime = {when:%H:%M:%S}\ntime_zone = "UTC"\nday = {when.day}\n' in text


def test_the_texts_are_the_whole_records_phh(stores: tuple[Path, Path]) -> None:
    """An export of texts reads only the event fields the PHH writer uses: its texts are the
    PHH of the whole stored records."""
    db = stores[0]
    with export.open_store(db) as con:
        ids = export.select_hand_ids(con, export.Selection())
        whole = [dumps(record, found) for record, found in export.records_from_store(con, ids)]
    assert [text for _, text in export.texts_from_store(db, ids)] == whole


@pytest.mark.slow  # starts a pool of export processes
def test_worker_processes_write_the_same_hands_in_the_same_order(
    stores: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = stores[0]
    with export.open_store(db) as con:
        ids = export.select_hand_ids(con, export.Selection())
    alone = list(export.texts_from_store(db, ids, workers=1))
    monkeypatch.setattr(export, "CHUNK", 100)  # several chunks, so the pool is used
    assert list(export.texts_from_store(db, ids, workers=2)) == alone
    assert len(alone) == len(ids)


def test_every_mutated_hand_exports() -> None:
    """A hand that breaks the rules is exported with its problems, whatever it breaks: the
    mutations of the property tests (a street past the game's last among them) included."""
    hands = generated_hands()
    assert len(hands) > 1000
    for record in hands:
        assert "variant = " in as_phh(record), record.room_hand_id
