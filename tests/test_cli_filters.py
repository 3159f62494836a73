"""The filter options `stats`, `leaks` and `report` share (cli/filtering.py): one definition for
the three, the seat facts' allowed values held to the analytics and named by --help, each option
reaching the figures, a bad value refused with the allowed ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest
import typer
from typer.testing import CliRunner

from studdraw.cli import filtering
from studdraw.cli.commands import app
from studdraw.parsers.model import Game
from studdraw.pipeline.analytics.features import DOOR_RANKS, POSITIONS, START_GROUPS
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from studdraw.pipeline.synth import SynthOptions, render, synthesize

runner = CliRunner()
REPORTS = ("stats", "leaks", "report")
SEAT_FACTS = {
    "position": (filtering.Position, POSITIONS),
    "door": (filtering.Door, DOOR_RANKS),
    "start_group": (filtering.StartGroup, START_GROUPS),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("cli-filters")
    for number, game in enumerate((Game.STUD, Game.TD27)):
        options = SynthOptions(game=game, hands=80, max_players=6, seed=400 + number)
        text = "".join(render(record, options.room) + "\n\n\n" for record in synthesize(options))
        (folder / f"{game}.txt").write_text(text, encoding="utf-8")
    db = folder / "s.duckdb"
    assert ingest([folder], IngestOptions(db, workers=1)).stored == 160
    return db


def options_of(command: str) -> dict[str, Any]:
    """The command's options as typer builds them (its own click: a typer group, options)."""
    group: Any = typer.main.get_command(app)
    return {str(parameter.name): parameter for parameter in group.commands[command].params}


def test_the_three_reports_share_one_set_of_filter_options() -> None:
    shared = set(filtering.FilterOptions.__dataclass_fields__)
    for command in REPORTS:
        options = options_of(command)
        assert shared <= set(options), command
        for name in shared:
            first = options_of(REPORTS[0])[name]
            assert (options[name].help, options[name].opts) == (first.help, first.opts), name


@pytest.mark.parametrize("field", SEAT_FACTS)
def test_the_seat_facts_allow_what_the_analytics_compute(field: str) -> None:
    choices, computed = SEAT_FACTS[field]
    assert tuple(choice.value for choice in choices) == computed
    for command in REPORTS:
        kind = options_of(command)[field].type
        assert [str(value).casefold() for value in kind.choices] == [
            value.casefold() for value in computed
        ]


def test_help_names_the_allowed_values() -> None:
    result = runner.invoke(app, ["stats", "--help"], env={"COLUMNS": "400"})
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "early|middle|cutoff|button|small blind|big blind|bring-in|late" in text
    assert "rolled up|buried pair|split pair" in text


def stats_json(store: Path, *arguments: str) -> list[dict[str, object]]:
    result = runner.invoke(app, ["stats", "--db", str(store), "--json", *arguments])
    assert result.exit_code == 0, result.output
    rows: list[dict[str, object]] = json.loads(result.stdout)
    return rows


def seats(store: Path, condition: str) -> int:
    """Seats dealt in, counted from `hand_players` (the replay's own positions)."""
    with duckdb.connect(str(store), read_only=True) as con:
        query = f"SELECT count(*) FROM hand_players p JOIN hands USING (hand_id) WHERE {condition}"
        found = con.execute(query).fetchone()
    assert found is not None
    return int(found[0])


def test_position_and_door_reach_the_figures(store: Path) -> None:
    blinds = stats_json(store, "--position", "small blind")
    assert sum(int(str(row["hands"])) for row in blinds) == seats(store, "position = 'SB'")
    assert {row["game"] for row in blinds} == {"td27"}
    bring_in = stats_json(store, "--position", "bring-in", "--player", "Hero")
    assert sum(int(str(row["hands"])) for row in bring_in) == seats(
        store, "position = 'BI' AND name = 'Hero'"
    )
    aces = stats_json(store, "--door", "a", "--game", "stud")  # any case
    with duckdb.connect(str(store), read_only=True) as con:
        found = con.execute(
            "SELECT count(*) FROM player_streets s JOIN hands USING (hand_id) "
            "WHERE street = 0 AND game = 'stud' AND list_filter(cards, lambda c, i: up[i])[1] "
            "LIKE 'A_'"
        ).fetchone()
    assert found is not None and found[0] > 0
    assert sum(int(str(row["hands"])) for row in aces) == found[0]


def test_leaks_and_report_take_the_seat_filters(store: Path, tmp_path: Path) -> None:
    leaks = runner.invoke(
        app, ["leaks", "--db", str(store), "--player", "Hero", "--position", "late", "--json"]
    )
    assert leaks.exit_code == 0, leaks.output
    out = tmp_path / "report.html"
    arguments = ["--db", str(store), "--player", "Hero", "--out", str(out), "--game", "stud"]
    report = runner.invoke(app, ["report", *arguments, "--start-group", "other"])
    assert report.exit_code == 0, report.output
    assert "starting hand other" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("command", REPORTS)
def test_a_bad_value_is_refused_with_the_allowed_ones(command: str, store: Path) -> None:
    arguments = [command, "--db", str(store), "--position", "utg"]
    if command != "stats":
        arguments += ["--player", "Hero"]
    if command == "report":
        arguments += ["--out", "x.html"]
    result = runner.invoke(app, arguments, env={"COLUMNS": "400"})
    assert result.exit_code == 2
    text = " ".join(result.output.split())
    assert "'utg' is not one of 'early', 'middle', 'cutoff'" in text
