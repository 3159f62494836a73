"""The catalogue of problem codes is proven: every code has its words, docs/violations.md is
generated from them (`make docs`; tests/test_generated_docs.py checks the file), and every
documented text, read as the stage that reports its code reads it, triggers that code; the two
codes no short text can show are triggered by the case each test builds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from studdraw.parsers import files
from studdraw.parsers.model import Outcome
from studdraw.parsers.problems import Code, Origin, Stage
from studdraw.parsers.reader import parse_file, parse_hand
from studdraw.parsers.rooms import BY_NAME
from studdraw.pipeline.importer.process import PendingHand, process_hands
from studdraw.pipeline.rules import validate
from studdraw.pipeline.rules.explain import explanations, markdown, parse_code, section
from studdraw.pipeline.rules.validate import check_hand
from studdraw.pipeline.store.normalize import out_of_range
from tests.conftest import parse_text

SECTION = re.compile(r"^## (?P<code>[A-Z]{3}\d{3}) — (?P<title>.+)$", re.MULTILINE)
NO_SHORT_TEXT = {Code.FIL002, Code.INT001}
"""The codes documented without a text: a line of megabytes, a bug of studdraw."""

CLEAN = explanations()[Code.FIL001].hand.split("\n\n", 1)[1]
"""A hand that validates clean: the one the stray text of FIL001's example comes before."""


def test_every_code_has_one_section_in_enum_order() -> None:
    found = [m["code"] for m in SECTION.finditer(markdown())]
    assert found == [str(code) for code in Code]
    assert list(explanations()) == list(Code)


@pytest.mark.parametrize("code", list(Code))
def test_section_states_title_severity_and_origin(code: Code) -> None:
    text = section(code)
    assert text.startswith(f"## {code} — {code.headline}\n")
    assert f"- **Severity:** {code.severity}\n" in text
    assert f"- **Origin:** {code.origin} (" in text
    for part in ("**Meaning:**", "**Why it matters:**", "**Example:**"):
        assert part in text
    assert ("```text\n" in text) is (code not in NO_SHORT_TEXT)


def triggered(code: Code, tmp_path: Path) -> set[Code]:
    """The codes a documented text triggers, read from a file as `studdraw validate` reads it
    (an unsupported hand's problem is counted, not listed: it is taken from the parse), and
    for the import's codes, checked as `studdraw ingest` checks a parsed hand."""
    path = tmp_path / "documented.txt"
    path.write_text(explanations()[code].hand.lstrip("\n"), encoding="utf-8")
    found: set[Code] = set()
    for parsed in parse_file(path):
        found |= {problem.code for problem in check_hand(parsed)}
        if parsed.problem is not None:
            found.add(parsed.problem.code)
        if parsed.record is not None and (beyond := out_of_range(parsed.record)) is not None:
            found.add(beyond.code)
        assert all(problem.path == str(path) for problem in check_hand(parsed))
    return found


@pytest.mark.parametrize("code", [code for code in Code if code not in NO_SHORT_TEXT])
def test_documented_text_triggers_its_code(code: Code, tmp_path: Path) -> None:
    assert code in triggered(code, tmp_path)


def test_the_clean_hand_of_the_examples_is_clean() -> None:
    parsed = parse_text(CLEAN)
    assert parsed.record is not None and check_hand(parsed) == []


def test_a_line_too_long_to_read_is_fil002(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files, "MAX_LINE", 1 << 12)
    lines = CLEAN.split("\n")
    lines.insert(5, "\x00" * 10_000)
    path = tmp_path / "long.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    [parsed] = list(parse_file(path))
    [problem] = check_hand(parsed)
    assert (problem.code, problem.stage, problem.line) == (Code.FIL002, Stage.READ, 6)
    assert parsed.outcome is Outcome.ERROR


def test_a_failing_stage_is_int001_never_blamed_on_the_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parsed = parse_text(CLEAN)

    def broken(*_: object) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(validate, "replay", broken)
    [problem] = check_hand(parsed)
    assert (problem.code, problem.stage, problem.origin) == (
        Code.INT001,
        Stage.REPLAY,
        Origin.INTERNAL,
    )
    assert problem.message.startswith("the rules engine failed on this hand (ZeroDivisionError")
    summary = validate.Validation()
    list(summary.lines([parsed]))
    assert summary.failed and summary.total.internal_errors == 1
    assert "1 errors (0 play, 0 export, 1 internal)" in summary.total.summary()

    monkeypatch.setattr(BY_NAME["pokerstars"], "parse", broken)
    failed = parse_hand(parsed.hand)
    assert failed.problem is not None
    assert (failed.problem.code, failed.problem.stage) == (Code.INT001, Stage.PARSE)


def test_a_hand_a_stage_fails_on_is_an_internal_error_reject(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hand = parse_text(CLEAN).hand

    def broken(*_: object) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr("studdraw.pipeline.importer.process.replay", broken)
    batch = process_hands([PendingHand(hand, "1000006001", 7, 1)])
    [row] = batch.tables["rejects"].to_pylist()
    assert row["kind"] == "internal_error" and row["error_line"] == hand.source.line
    assert row["reason"].startswith("the replay failed on this hand, a studdraw bug to report")


@pytest.mark.parametrize(
    ("typed", "code"),
    [("SIZ001", Code.SIZ001), ("siz001", Code.SIZ001), (" ord010 ", Code.ORD010), ("XYZ", None)],
)
def test_a_typed_code_is_found_in_any_case(typed: str, code: Code | None) -> None:
    assert parse_code(typed) is code
