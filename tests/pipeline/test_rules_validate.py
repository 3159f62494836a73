"""`studdraw validate`: lint-style lines, per-file summaries, JSON lines and exit codes."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

from typer.testing import CliRunner

from studdraw.cli.commands import app
from studdraw.parsers.model import EventKind, Game, Structure
from studdraw.parsers.problems import Code
from studdraw.pipeline.rules.explain import explanations
from studdraw.pipeline.rules.generate import random_hand
from studdraw.pipeline.rules.replay import replay, start_state

runner = CliRunner()


def doc_hand(code: str) -> str:
    """The hand docs/violations.md gives for `code`."""
    return explanations()[Code[code]].hand


CLEAN = (
    doc_hand("ORD005")
    .replace(
        "Carol: bets $0.04\nAlice: folds\nBob: folds", "Bob: bets $0.04\nCarol: folds\nAlice: folds"
    )
    .replace("Carol collected", "Bob collected")
    .replace("returned to Carol", "returned to Bob")
)
UNSUPPORTED = "PokerStars Hand #9: Hold'em No Limit ($1/$2 USD) - 2020/01/01 10:00:00 ET\n"


def write(tmp_path: Path, name: str, *hands: str) -> Path:
    path = tmp_path / name
    path.write_text("\n\n\n".join(hands), encoding="utf-8")
    return path


def test_clean_file_exits_zero_with_a_summary(tmp_path: Path) -> None:
    path = write(tmp_path, "clean.txt", CLEAN, UNSUPPORTED)
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    counts = (
        "2 hands, 1 replayed (0 with errors), 0 unparsable, 1 unsupported; "
        "0 errors (0 play, 0 export), 0 warnings"
    )
    assert result.stdout.splitlines() == [f"{path}: {counts}", f"total: {counts}"]


def test_errors_are_lint_lines_and_exit_one(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.txt", doc_hand("SIZ001"), doc_hand("ORD005"), doc_hand("TXT002"))
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{path}:19: SIZ001 Carol bets $0.06")
    assert any(line.startswith(f"{path}:") and " ORD005 [warning] " in line for line in lines)
    assert any(
        " TXT002 [export] unknown line with money or cards: 'Alice: dances on the table for $0.05'"
        in line
        for line in lines
    )
    counts = (
        "3 hands, 2 replayed (1 with errors), 1 unparsable, 0 unsupported; "
        "2 errors (1 play, 1 export), 1 warnings"
    )
    assert lines[-2:] == [f"{path}: {counts}", f"total: {counts}"]


def test_warnings_alone_exit_zero(tmp_path: Path) -> None:
    path = write(tmp_path, "warn.txt", doc_hand("ORD005"))
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output


def test_jsonl_has_the_contract_keys(tmp_path: Path) -> None:
    first = write(tmp_path, "a.txt", doc_hand("SIZ001"))
    second = write(tmp_path, "b.txt", doc_hand("ORD005"))
    result = runner.invoke(app, ["validate", "--jsonl", str(first), str(second)])
    assert result.exit_code == 1
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["code"] for row in rows] == ["SIZ001", "ORD005"]
    assert rows[0] == {
        "source": str(first),
        "line": 19,
        "room_hand_id": "1000001701",
        "code": "SIZ001",
        "severity": "error",
        "origin": "play",
        "stage": "replay",
        "street": 1,
        "message": "Carol bets $0.06, the bet is $0.04",
    }
    assert rows[1]["severity"] == "warning"
    assert "2 errors" not in result.stdout  # the summaries go to stderr


def test_explain_prints_the_codes_section() -> None:
    result = runner.invoke(app, ["validate", "--explain", "crd001"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("## CRD001 — Duplicate card\n")
    assert "- **Origin:** export" in result.stdout
    assert doc_hand("CRD001") in result.stdout


def test_explain_of_an_unknown_code_exits_two() -> None:
    result = runner.invoke(app, ["validate", "--explain", "XYZ999"])
    assert result.exit_code == 2
    assert "no problem code 'XYZ999'" in result.stderr


def test_validate_without_paths_exits_two() -> None:
    assert runner.invoke(app, ["validate"]).exit_code == 2


def test_rules_profile_changes_the_verdict(tmp_path: Path) -> None:
    """A 2-cent bring-in at $0.04/$0.08 is the room's stake, but under the Italian rulebook
    the bring-in is the ante (1 cent)."""
    path = write(tmp_path, "clean.txt", CLEAN)
    assert runner.invoke(app, ["validate", str(path)]).exit_code == 0
    result = runner.invoke(app, ["validate", "--rules", "italian", str(path)])
    assert result.exit_code == 1
    assert " SIZ002 Alice brings in for $0.02: the bring-in is $0.01 " in result.stdout


def test_unknown_rules_profile_exits_two_naming_the_choices(tmp_path: Path) -> None:
    path = write(tmp_path, "clean.txt", CLEAN)
    result = runner.invoke(app, ["validate", "--rules", "vegas", str(path)])
    assert result.exit_code == 2
    assert "casinos-austria" in result.stderr


def test_a_draw_into_a_hand_holding_fewer_cards_is_no_engine_failure() -> None:
    """The 100,000-input fuzz run of 2026-12-04 (three inputs): a damaged file left a player
    holding fewer cards than their draw replaces, and the replay raised IndexError (an
    internal-error reject in ingest). The draw fills the slots the hand has."""
    rng = random.Random(7)
    record = next(
        hand
        for hand in (random_hand(Game.TD27, Structure.FIXED, 3, rng) for _ in range(50))
        if any(event.kind is EventKind.DRAW for event in hand.events)
    )
    at = next(k for k, event in enumerate(record.events) if event.kind is EventKind.DRAW)
    state = start_state(record)
    state.run(record.events[:at])
    drawer = state.index[record.events[at].player or ""]
    state.cards[drawer][:] = []  # what the damaged file left the drawer
    state.run(record.events[at : at + 1])
    assert state.cards[drawer] == []


def test_a_hand_no_one_is_dealt_into_is_no_engine_failure() -> None:
    """The 100,000-input fuzz run of 2026-12-04 with seed 20261208 (two inputs): a damaged
    UTF-16 iPoker file left every seat sitting out under a name that never acts, so no one was
    dealt in, and closing the first betting round raised ValueError (max of no bets). Each actor
    is ORD006 instead."""
    record = random_hand(Game.STUD, Structure.FIXED, 3, random.Random(5))
    record.seats = [
        replace(seat, player=f"gone {seat.player}", sitting_out=True) for seat in record.seats
    ]
    result = replay(record)
    codes = {problem.code for problem in result.problems}
    assert Code.ORD006 in codes and Code.INT001 not in codes
