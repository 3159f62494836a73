"""docs/violations.md is proven: it is exactly what the code's catalogue generates, every code
has its words, and every documented hand, parsed with the PokerStars room, triggers its
documented code."""

from __future__ import annotations

import re

import pytest

from studdraw.pipeline.rules import Code
from studdraw.pipeline.rules.explain import explanations, markdown, parse_code, section
from studdraw.pipeline.rules.validate import check_hand
from tests.conftest import REPO_ROOT, parse_text

DOC = REPO_ROOT / "docs" / "violations.md"
SECTION = re.compile(r"^## (?P<code>[A-Z]{3}\d{3}) — (?P<title>.+)$", re.MULTILINE)


def test_the_page_is_generated_from_the_catalogue() -> None:
    page = DOC.read_text(encoding="utf-8")
    assert page == markdown(), "regenerate docs/violations.md from studdraw.pipeline.rules.explain"


def test_every_code_has_one_section_in_enum_order() -> None:
    found = [m["code"] for m in SECTION.finditer(markdown())]
    assert found == [str(code) for code in Code]
    assert list(explanations()) == list(Code)


@pytest.mark.parametrize("code", list(Code))
def test_section_states_title_severity_and_family(code: Code) -> None:
    text = section(code)
    assert text.startswith(f"## {code} — {code.headline}\n")
    assert f"- **Severity:** {code.severity}\n" in text
    assert f"- **Family:** {code.family} (" in text
    for part in ("**Meaning:**", "**Why it matters:**", "**Example:**", "```text\n"):
        assert part in text


@pytest.mark.parametrize("code", list(Code))
def test_documented_hand_triggers_its_code(code: Code) -> None:
    parsed = parse_text(explanations()[code].hand, path=str(DOC))
    found = check_hand(parsed)
    assert code in {violation.code for violation in found}, [
        (v.code, v.message) for v in found
    ] or parsed.problem
    assert all(v.severity == v.code.severity for v in found)


@pytest.mark.parametrize(
    ("typed", "code"),
    [("SIZ001", Code.SIZ001), ("siz001", Code.SIZ001), (" ord010 ", Code.ORD010), ("XYZ", None)],
)
def test_a_typed_code_is_found_in_any_case(typed: str, code: Code | None) -> None:
    assert parse_code(typed) is code
