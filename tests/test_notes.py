"""Notes and tags on hands and players: kept in `<store>.notes.sqlite` beside the store, keyed
by room and room hand id or room and player name, written from the command line."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from studdraw.cli.commands import app
from studdraw.pipeline.notes import Kind, Target, annotated, notes_path, set_note, tag
from tests.conftest import SAMPLES

HAND = Target(Kind.HAND, "pokerstars", "230000000001")
PLAYER = Target(Kind.PLAYER, "pokerstars", "Carol")


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
