"""`studdraw validate`: lint-style lines, per-file summaries, JSON lines and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from studdraw.pipeline.cli import app
from tests.pipeline.test_rules_docs import DOCUMENTED, HAND

runner = CliRunner()


def doc_hand(code: str) -> str:
    """The hand docs/violations.md gives for `code`."""
    found = HAND.search(DOCUMENTED[code])
    assert found is not None
    return found["hand"]


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
        "2 hands, 1 replayed (0 with errors), 0 unparsable, 1 unsupported; 0 errors, 0 warnings"
    )
    assert result.stdout.splitlines() == [f"{path}: {counts}", f"total: {counts}"]


def test_errors_are_lint_lines_and_exit_one(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.txt", doc_hand("SIZ001"), doc_hand("ORD005"), doc_hand("PRS001"))
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{path}:19: SIZ001 Carol bets 6")
    assert any(line.startswith(f"{path}:") and " ORD005 [warning] " in line for line in lines)
    assert any(" PRS001 unrecognised line: 'Alice: dances on the table'" in line for line in lines)
    counts = (
        "3 hands, 2 replayed (1 with errors), 1 unparsable, 0 unsupported; 2 errors, 1 warnings"
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
        "site_hand_id": "1000001701",
        "code": "SIZ001",
        "severity": "error",
        "street": 1,
        "message": "Carol bets 6, the bet is 4",
    }
    assert rows[1]["severity"] == "warning"
    assert "2 errors" not in result.stdout  # the summaries go to stderr
