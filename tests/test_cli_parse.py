"""`studdraw parse`: the summary table, the JSON lines contract and the exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from studdraw.cli.commands import app
from tests.conftest import CORPUS, corpus_file
from tests.parsers.test_pokerstars_handwritten import CURRENT_STUD

runner = CliRunner()
RAZZ_SAMPLE = (
    Path(__file__).resolve().parent.parent / "sample_histories" / "pokerstars" / "razz.txt"
)


def test_jsonl_has_the_contract_keys(tmp_path: Path) -> None:
    path = tmp_path / "h.txt"
    path.write_text(
        CURRENT_STUD
        + "\n\nPokerStars Hand #9: Hold'em No Limit ($1/$2 USD) - 2020/01/01 10:00:00 ET\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["parse", str(path), "--jsonl"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(rows) == 2
    for row in rows:
        assert {
            "source",
            "line",
            "room",
            "room_hand_id",
            "game",
            "structure",
            "players",
            "events",
            "error",
        } <= row.keys()
    parsed, unsupported = rows
    assert (parsed["game"], parsed["structure"], parsed["error"]) == ("stud", "fixed", None)
    assert parsed["players"][0] == {
        "seat": 1,
        "name": "Mr: [X] y",
        "stack": 500,
        "sitting_out": False,
    }
    assert parsed["events"][0] == {
        "kind": "ante",
        "line": 6,
        "street": 0,
        "player": "Mr: [X] y",
        "amount": 2,
    }
    assert unsupported["line"] == 56 and unsupported["game"] is None
    assert unsupported["error"] == "Hold'em No Limit is not a stud or draw game studdraw reads"
    assert (unsupported["error_code"], unsupported["outcome"]) == ("UNS001", "unsupported")
    assert parsed["problems"] == []


def test_jsonl_lists_the_readers_problems(tmp_path: Path) -> None:
    """A line read as unknown is on its hand's JSON object, not only counted in the summary."""
    path = tmp_path / "h.txt"
    lines = CURRENT_STUD.strip().splitlines()
    lines.insert(5, "The dealer smiles")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["parse", str(path), "--jsonl"])
    [row] = [json.loads(line) for line in result.stdout.splitlines()]
    assert row["problems"] == [
        {
            "code": "TXT001",
            "severity": "warning",
            "origin": "export",
            "stage": "parse",
            "line": 6,
            "message": "unknown line: 'The dealer smiles'",
        }
    ]


def cells(line: str, bar: str = "│") -> list[str]:
    """The cells of a row of a rich table (`bar` divides them; the header's is heavier)."""
    return [cell.strip() for cell in line.split(bar)[1:-1]]


def test_summary_counts_per_room_and_game() -> None:
    corpus_file("cash", "Stars")
    result = runner.invoke(app, ["parse", str(CORPUS / "cash" / "Stars" / "Stud")])
    assert result.exit_code == 0
    rows = {tuple(cells(line)) for line in result.stdout.splitlines() if "│" in line}
    [header] = [line for line in result.stdout.splitlines() if "┃" in line]
    columns = ["room", "game", "hands", "parsed", "unsupported", "errors", "warnings"]
    assert cells(header, "┃") == columns
    assert ("pokerstars", "stud", "12", "12", "0", "0", "0") in rows
    assert ("pokerstars", "razz", "9", "9", "0", "0", "0") in rows
    assert ("total", "", "29", "29", "0", "0", "0") in rows


def test_summary_counts_the_lines_read_as_unknown(tmp_path: Path) -> None:
    path = tmp_path / "h.txt"
    lines = CURRENT_STUD.strip().splitlines()
    lines.insert(5, "The dealer smiles")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["parse", str(path)])
    assert result.exit_code == 0, result.output
    [total] = [line for line in result.stdout.splitlines() if "total" in line]
    assert cells(total) == ["total", "", "1", "1", "0", "0", "1"]


def test_unreadable_path_exits_non_zero(tmp_path: Path) -> None:
    result = runner.invoke(app, ["parse", str(tmp_path / "missing.txt")])
    assert result.exit_code == 1
    assert "no such file or folder" in result.stderr
    both = runner.invoke(app, ["parse", str(tmp_path / "missing.txt"), str(RAZZ_SAMPLE)])
    assert both.exit_code == 1
    assert "cannot read" in both.stderr


def test_parse_names_the_file_and_line_of_each_error(tmp_path: Path) -> None:
    path = tmp_path / "cut.txt"
    # The current stud hand cut after its 3rd-street deals: unreadable from that line on.
    lines = CURRENT_STUD.strip("\n").splitlines()
    cut = next(n for n, line in enumerate(lines) if line.startswith("*** 4th")) + 1
    path.write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["parse", str(path)])
    assert result.exit_code == 0
    errors = [line for line in result.stderr.splitlines() if line.startswith(str(path))]
    assert len(errors) == 1 and errors[0].startswith(f"{path}:")
    assert errors[0].split(":")[1].isdigit()


def test_parse_names_each_text_no_room_recognises(tmp_path: Path) -> None:
    """Text that starts no room's hand is no hand (not counted as one), but never passed over
    quietly: each stray text is named with its file and line, and the summary counts them."""
    path = tmp_path / "notes.txt"
    path.write_text("my shopping list\neggs\n", encoding="utf-8")
    result = runner.invoke(app, ["parse", str(path)])
    assert result.exit_code == 0
    assert f"{path}:1: text that starts no room's hand: 'my shopping list'" in result.stderr
    assert "1 stray text (text that starts no room's hand; not counted as hands)" in result.stdout


def test_validate_ends_with_a_total() -> None:
    corpus_file("cash", "Stars")
    result = runner.invoke(app, ["validate", str(CORPUS / "cash" / "Stars" / "Stud")])
    last = result.stdout.strip().splitlines()[-1]
    assert last.startswith("total: 29 hands, 29 replayed")
