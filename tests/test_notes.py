"""Notes and tags on hands and players: kept in `<store>.notes.sqlite` beside the store, keyed
by room and room hand id or room and player name, written from the command line."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import duckdb
from typer.testing import CliRunner

from studdraw.cli.commands import app
from studdraw.pipeline.notes import Kind, Target, annotated, notes_path, set_note, tag
from tests.conftest import SAMPLES

HAND = Target(Kind.HAND, "pokerstars", "230000000001")
PLAYER = Target(Kind.PLAYER, "pokerstars", "Carol")
TABLES = ("hands", "rejects")


def test_notes_and_tags_round_trip(tmp_path: Path) -> None:
    path = notes_path(tmp_path / "store.duckdb")
    assert path.name == "store.duckdb.notes.sqlite"
    assert annotated(path) == []  # no file yet: nothing, and no file made
    assert not path.exists()
    set_note(path, HAND, "  check-raise the turn  ")
    set_note(path, HAND, "value-bet the river")  # replaces the first
    tag(path, HAND, ["review", "student-1", "review", " "])
    tag(path, PLAYER, ["calling station"])
    found = annotated(path)
    assert [(a.target, a.note, a.tags) for a in found] == [
        (HAND, "value-bet the river", ("review", "student-1")),
        (PLAYER, "", ("calling station",)),
    ]
    assert [a.target for a in annotated(path, tag="review")] == [HAND]
    assert [a.target for a in annotated(path, kind=Kind.PLAYER)] == [PLAYER]
    tag(path, HAND, ["review"], remove=True)
    set_note(path, HAND, "")
    assert [(a.target, a.note, a.tags) for a in annotated(path, kind=Kind.HAND)] == [
        (HAND, "", ("student-1",))
    ]


def test_the_command_line_notes_and_tags_and_they_outlive_a_reimport(tmp_path: Path) -> None:
    runner = CliRunner()
    db = tmp_path / "store.duckdb"
    histories = SAMPLES / "pokerstars" / "handwritten"
    assert runner.invoke(app, ["ingest", str(histories), "--db", str(db)]).exit_code == 0
    commands = [
        ["note", "hand", "PokerStars", "#230000000001", "Carol's all-in call"],
        ["tag", "hand", "pokerstars", "230000000001", "review", "rules"],
        ["note", "player", "pokerstars", "Carol", "calls too much"],
        ["tag", "player", "pokerstars", "Carol", "fish"],
    ]
    for command in commands:
        result = runner.invoke(app, [*command, "--db", str(db)])
        assert result.exit_code == 0, result.output
    db.unlink()  # a new store from the same files: the notes file is untouched
    assert runner.invoke(app, ["ingest", str(histories), "--db", str(db)]).exit_code == 0
    result = runner.invoke(app, ["notes", "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [(r["on"], r["room"], r["key"], r["note"], r["tags"]) for r in rows] == [
        ("hand", "pokerstars", "230000000001", "Carol's all-in call", ["review", "rules"]),
        ("player", "pokerstars", "Carol", "calls too much", ["fish"]),
    ]
    listed = runner.invoke(app, ["notes", "--db", str(db), "--tag", "fish"])
    assert "Carol" in listed.output and "230000000001" not in listed.output


def test_the_export_carries_the_notes_in_studdraw_fields(tmp_path: Path) -> None:
    runner = CliRunner()
    db = tmp_path / "store.duckdb"
    histories = SAMPLES / "pokerstars" / "handwritten"
    assert runner.invoke(app, ["ingest", str(histories), "--db", str(db)]).exit_code == 0
    path = notes_path(db)
    set_note(path, HAND, 'Carol\'s "all-in"')
    tag(path, HAND, ["review"])
    set_note(path, PLAYER, "calls too much")
    tag(path, PLAYER, ["fish", "loose"])
    out = tmp_path / "out"
    args = ["export", "--db", str(db), "--format", "phh", "--out", str(out)]
    assert runner.invoke(app, args).exit_code == 0
    broken = tomllib.loads((out / "pokerstars-230000000001.phh").read_text(encoding="utf-8"))
    assert (broken["_note"], broken["_tags"]) == ('Carol\'s "all-in"', ["review"])
    carol = broken["players"].index("Carol")
    assert broken["_player_notes"][carol] == "calls too much"
    assert broken["_player_tags"][carol] == ["fish", "loose"]
    assert {note for i, note in enumerate(broken["_player_notes"]) if i != carol} == {""}
    other = tomllib.loads((out / "pokerstars-230000000003.phh").read_text(encoding="utf-8"))
    assert not {"_note", "_tags", "_player_notes"} & other.keys()
    # studdraw reads its own export back, the new fields and all.
    again = runner.invoke(app, ["ingest", str(out), "--db", str(tmp_path / "again.duckdb")])
    assert again.exit_code == 0, again.output
    with duckdb.connect(str(tmp_path / "again.duckdb"), read_only=True) as con:
        counts = [con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0] for t in TABLES]
    assert counts == [3, 0]  # every exported hand stored, none rejected
