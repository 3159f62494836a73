"""The rough edges a new user met in their first hour (issue 36), each as it was reproduced:
the command line says what is true in one line, exits with a documented code, and never leaves a
partial output or an empty store behind."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from studdraw.cli import shared
from studdraw.cli.commands import app
from studdraw.pipeline import export as exporter
from studdraw.pipeline.analytics.report import verdict_note
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from studdraw.pipeline.rules.specs import GAME_SPECS
from studdraw.pipeline.words import stakes_text
from tests.conftest import SAMPLES, messages

runner = CliRunner()
RAZZ = SAMPLES / "pokerstars" / "razz.txt"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("first-hour") / "s.duckdb"
    ingest([SAMPLES / "pokerstars"], IngestOptions(db, workers=1))
    return db


def one_error(output: str) -> str:
    lines = messages(output)
    assert len(lines) == 1 and lines[0].startswith("error: "), output
    assert "Traceback" not in output and "[red]" not in output
    return lines[0]


# 1. synth --out a folder, or a path that cannot be written
def test_synth_out_a_folder_or_unwritable_is_one_line(tmp_path: Path) -> None:
    folder = runner.invoke(app, ["synth", "--game", "stud", "--hands", "1", "--out", str(tmp_path)])
    assert folder.exit_code == 1
    assert "it is a folder" in one_error(folder.output)
    nowhere = tmp_path / "missing" / "out.txt"
    result = runner.invoke(app, ["synth", "--game", "stud", "--hands", "1", "--out", str(nowhere)])
    assert result.exit_code == 1
    assert f"cannot write {nowhere}" in one_error(result.output)
    assert list(tmp_path.iterdir()) == []


def test_synth_writes_aside_and_leaves_nothing_when_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "deal.txt"
    ok = runner.invoke(app, ["synth", "--game", "razz", "--hands", "3", "--out", str(out)])
    assert ok.exit_code == 0 and out.read_text(encoding="utf-8").count("PokerStars") == 3
    assert "wrote 3 hands of razz to" in ok.output  # a word of what it did, off a terminal too

    def interrupted(*_args: object, **_kwargs: object) -> object:
        yield from ()
        raise KeyboardInterrupt

    monkeypatch.setattr("studdraw.pipeline.synth.synthesize", interrupted)
    stopped = runner.invoke(app, ["synth", "--game", "razz", "--hands", "3", "--out", str(out)])
    assert stopped.exit_code == 130 and "nothing written" in stopped.output
    assert [path.name for path in tmp_path.iterdir()] == ["deal.txt"]  # the earlier one, whole


# 2. markup printed literally
@pytest.mark.parametrize(
    "arguments", [["validate", "--explain", "XYZ999"], ["validate", "--rules", "nosuchroom", "x"]]
)
def test_errors_print_no_markup(arguments: list[str]) -> None:
    result = runner.invoke(app, arguments)
    assert result.exit_code == 2
    one_error(result.output)


# 3. export of a misspelt player
def test_export_of_a_misspelt_player_suggests_the_name_and_writes_nothing(
    store: Path, tmp_path: Path
) -> None:
    out = tmp_path / "hero.phhs"
    result = runner.invoke(
        app,
        ["export", "--db", str(store), "--format", "phhs", "--out", str(out), "--player", "Heor"],
    )
    assert result.exit_code == 1
    assert "did you mean 'Hero'" in one_error(result.output)
    assert not out.exists()
    none = runner.invoke(
        app,
        ["export", "--db", str(store), "--format", "phhs", "--out", str(out), "--game", "draw5"],
    )
    assert none.exit_code == 0 and "no hand matches" in none.output and not out.exists()


# 4. a path that does not exist, an empty folder
def test_ingest_of_a_missing_path_creates_no_store(tmp_path: Path) -> None:
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["ingest", str(tmp_path / "nope"), "--db", str(db)])
    assert result.exit_code == 1
    assert "no such file or folder" in one_error(result.output)
    assert not db.exists()


@pytest.mark.parametrize("command", ["ingest", "parse", "validate"])
def test_an_empty_folder_says_nothing_was_found(tmp_path: Path, command: str) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    extra = ["--db", str(tmp_path / "x.duckdb")] if command == "ingest" else []
    result = runner.invoke(app, [command, str(empty), *extra])
    assert result.exit_code == 1
    assert "no hand-history file found" in one_error(result.output)
    assert not (tmp_path / "x.duckdb").exists()


# 5. a currency the store does not hold
def test_stats_of_an_unknown_currency_names_the_store_s(store: Path) -> None:
    result = runner.invoke(app, ["stats", "--db", str(store), "--currency", "XYZ"])
    assert result.exit_code == 1
    line = one_error(result.output)
    assert "no hands in XYZ" in line and "USD" in line


# 6. a report on a store an import holds waits, like ingest --wait
def hold(db: Path, seconds: float) -> subprocess.Popen[str]:
    """Another process holding the store for writing, as an import does, for `seconds`."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys, time; con = duckdb.connect(sys.argv[1]); "
            "print('held', flush=True); time.sleep(float(sys.argv[2]))",
            str(db),
            str(seconds),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


@pytest.mark.parametrize(
    "command",
    [
        ["stats"],
        ["leaks", "--player", "Hero"],
        ["tournaments"],
        ["export", "--format", "phhs", "--out", "x.phhs"],
    ],
)
def test_reports_on_a_busy_store_give_up_after_wait_in_one_line(
    store: Path, tmp_path: Path, command: list[str]
) -> None:
    db = tmp_path / "busy.duckdb"
    db.write_bytes(store.read_bytes())
    holder = hold(db, 30)
    try:
        result = runner.invoke(app, [*command, "--db", str(db), "--wait", "0.3"])
    finally:
        holder.kill()
        holder.wait()
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert lines[0].startswith("waiting: ") and "in use by another process" in lines[0]
    assert lines[-1].startswith("error: ") and "gave up after waiting 0.3 s" in lines[-1]
    assert "Traceback" not in result.output and "Could not set lock" not in result.output


def test_a_report_waits_for_the_import_to_end(store: Path, tmp_path: Path) -> None:
    db = tmp_path / "busy.duckdb"
    db.write_bytes(store.read_bytes())
    holder = hold(db, 1.0)
    try:
        result = runner.invoke(app, ["stats", "--db", str(db), "--wait", "60"])
    finally:
        holder.wait()
    assert result.exit_code == 0, result.output
    assert "waiting: " in result.output and "Hero" in result.output


# 8. an export stopped half-way
def test_an_interrupted_export_leaves_no_partial_file(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "all.phhs"
    real = exporter.write_export

    def half_then_stop(hands: object, aside: Path, format: exporter.Format) -> int:
        def first_ten() -> object:
            for count, hand in enumerate(hands, 1):  # type: ignore[call-overload]
                if count > 10:
                    raise KeyboardInterrupt
                yield hand

        real(first_ten(), aside, format)  # type: ignore[arg-type]
        raise AssertionError("not reached")

    monkeypatch.setattr(exporter, "write_export", half_then_stop)
    result = runner.invoke(
        app, ["export", "--db", str(store), "--format", "phhs", "--out", str(out), "--workers", "1"]
    )
    assert result.exit_code == 130
    assert "nothing written" in result.output
    assert list(tmp_path.iterdir()) == []


def test_written_aside_takes_the_name_only_when_whole(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    with pytest.raises(RuntimeError), shared.written_aside(out) as aside:
        aside.write_text("half", encoding="utf-8")
        assert not out.exists()
        raise RuntimeError
    assert list(tmp_path.iterdir()) == []
    with shared.written_aside(out) as aside:
        aside.write_text("whole", encoding="utf-8")
    assert out.read_text(encoding="utf-8") == "whole" and list(tmp_path.iterdir()) == [out]


# 9. a hand caught half-written, stored once whole
def test_a_half_written_hand_leaves_no_stale_reject(tmp_path: Path) -> None:
    hands = [text for text in RAZZ.read_text(encoding="utf-8").split("\n\n\n") if text.strip()]
    live = tmp_path / "live.txt"
    db = tmp_path / "s.duckdb"
    live.write_text(hands[0] + "\n\n\n" + hands[1][: hands[1].index("*** 4th")], encoding="utf-8")
    first = ingest([live], IngestOptions(db, workers=1))
    assert (first.stored, first.rejected) == (1, 1)
    live.write_text(hands[0] + "\n\n\n" + hands[1] + "\n", encoding="utf-8")
    second = ingest([live], IngestOptions(db, workers=1))
    assert (second.stored, second.duplicates) == (1, 1)
    con = duckdb.connect(str(db), read_only=True)
    assert con.sql("SELECT count(*) FROM rejects").fetchall() == [(0,)]
    con.close()


# 10. a damaged store
def test_ingest_into_a_truncated_store_says_so_with_a_documented_code(
    store: Path, tmp_path: Path
) -> None:
    db = tmp_path / "cut.duckdb"
    db.write_bytes(store.read_bytes()[: len(store.read_bytes()) // 2])
    result = runner.invoke(app, ["ingest", str(RAZZ), "--db", str(db)])
    assert result.exit_code in (2, 3), result.output
    assert "Traceback" not in result.output
    assert f" {result.exit_code} " in runner.invoke(app, ["ingest", "--help"]).output


# 11. --help and the messages say what is true
def test_help_names_every_game_and_every_exit_code() -> None:
    top = " ".join(runner.invoke(app, ["--help"]).output.split()).lower()
    assert "triple-draw hand histories" not in top
    words = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    words += ("eleven", "twelve", "thirteen", "fourteen", "fifteen")
    assert f"{words[len(GAME_SPECS) - 1]} stud and draw games" in top
    assert all(spec.title.lower() in top for spec in GAME_SPECS.values()), top
    ingest_help = " ".join(
        runner.invoke(app, ["ingest", "--help"], terminal_width=200).output.split()
    )
    for code in ("Exits 0 when done", "1 if", "2 on", "3 if", "130 (Ctrl-C)", "143"):
        assert code in ingest_help, code


def test_counts_take_their_plurals(tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    ingest([RAZZ], IngestOptions(db, workers=1))
    result = runner.invoke(app, ["ingest", str(RAZZ), "--db", str(db)], terminal_width=300)
    assert result.exit_code == 0
    caption = " ".join(result.output.split())
    assert "1 file already imported" in caption and "1 files" not in caption


def test_leaks_note_takes_its_plurals() -> None:
    note = verdict_note(pl.DataFrame({"verdict": ["leak", "within range"]}), 20)
    assert note.startswith("1 leak in 2 stats judged")


def _hands_of(output: str) -> dict[tuple[str, str], int]:
    return {(row["player"], row["game"]): row["hands"] for row in json.loads(output)}


def test_stats_take_the_dashboards_room_and_date_filters(store: Path) -> None:
    """`--room`, `--since` and `--until` narrow `stats` as the dashboard's sidebar does: each
    day (UTC) holds exactly the players' hands started on it."""
    with duckdb.connect(str(store), read_only=True) as con:
        rows = con.execute(
            "SELECT CAST(timezone('UTC', h.started_at) AS DATE) AS day, p.name, h.game, "
            "count(*) FROM hands h JOIN hand_players p USING (hand_id) WHERE p.dealt_in "
            "GROUP BY ALL"
        ).fetchall()
    base = ["stats", "--db", str(store), "--json", "--include-doubtful"]
    every = _hands_of(runner.invoke(app, base).output)
    assert every
    assert _hands_of(runner.invoke(app, [*base, "--room", "PokerStars"]).output) == every
    assert _hands_of(runner.invoke(app, [*base, "--room", "ipoker"]).output) == {}
    assert _hands_of(runner.invoke(app, [*base, "--since", "2030-01-01"]).output) == {}
    for day in sorted({row[0] for row in rows}):
        expected = {(name, game): n for d, name, game, n in rows if d == day}
        bounds = ["--since", str(day), "--until", str(day)]
        shown = _hands_of(runner.invoke(app, [*base, *bounds]).output)
        assert {key: shown[key] for key in expected} == expected
        assert set(shown) == set(expected)


def test_leaks_take_the_room_filter(store: Path) -> None:
    base = ["leaks", "--player", "Hero", "--db", str(store), "--json"]
    assert json.loads(runner.invoke(app, [*base, "--room", "ipoker"]).output) == []


def test_stats_take_the_stakes_as_the_rooms_print_them(store: Path) -> None:
    """`--stakes` names stakes as the labels do (both amounts, with or without the currency's
    symbol, or the big one alone) and gives exactly the hands played at them."""
    with duckdb.connect(str(store), read_only=True) as con:
        rows = con.execute(
            "SELECT h.structure, h.small_bet, h.big_bet, h.small_blind, h.big_blind, h.scale, "
            "h.currency, p.name, h.game, count(*) FROM hands h JOIN hand_players p "
            "USING (hand_id) WHERE p.dealt_in GROUP BY ALL"
        ).fetchall()
    keys = ("structure", "small_bet", "big_bet", "small_blind", "big_blind", "scale", "currency")
    base = ["stats", "--db", str(store), "--json", "--include-doubtful"]
    labels = {stakes_text(dict(zip(keys, row[:7], strict=True))): row[2] for row in rows}
    assert len(labels) > 1
    for label, big_bet in labels.items():
        expected: Counter[tuple[str, str]] = Counter()
        for row in rows:
            if row[2] == big_bet:
                expected[row[7], row[8]] += row[9]
        bare = label.replace("$", "")
        for asked in (label, bare, bare.split("/")[-1]):
            shown = _hands_of(runner.invoke(app, [*base, "--stakes", asked]).output)
            assert shown == expected, asked
    missing = runner.invoke(app, [*base, "--stakes", "123.45/246.90"])
    assert missing.exit_code == 1
    assert one_error(missing.output).startswith("error: no hands at stakes '123.45/246.90'; ")
    assert all(label in missing.output for label in labels)
