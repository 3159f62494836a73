"""docs/violations.md is proven: every documented hand, parsed with the PokerStars dialect,
triggers its documented code, and the catalogue and the code agree on the list of codes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from studdraw.pipeline.rules import CODES
from studdraw.pipeline.rules.validate import check_hand
from tests.conftest import REPO_ROOT, parse_text

DOC = REPO_ROOT / "docs" / "violations.md"
SECTION = re.compile(r"^## (?P<code>[A-Z]{3}\d{3}) — (?P<title>.+)$", re.MULTILINE)
HAND = re.compile(r"^```text\n(?P<hand>.*?)^```$", re.MULTILINE | re.DOTALL)
SEVERITY = re.compile(r"^- \*\*Severity:\*\* (?P<severity>error|warning)$", re.MULTILINE)


def sections(path: Path) -> dict[str, str]:
    """Each code's section text, from its heading to the next."""
    text = path.read_text(encoding="utf-8")
    found = list(SECTION.finditer(text))
    bounds = [*(m.start() for m in found[1:]), len(text)]
    return {m["code"]: text[m.start() : end] for m, end in zip(found, bounds, strict=True)}


DOCUMENTED = sections(DOC)


def test_every_code_has_a_section_and_every_section_a_code() -> None:
    assert set(DOCUMENTED) == set(CODES)
    assert list(DOCUMENTED) == list(CODES), "sections follow the order of codes.py"


@pytest.mark.parametrize("code", list(CODES))
def test_section_states_title_and_severity(code: str) -> None:
    section = DOCUMENTED[code]
    heading = SECTION.search(section)
    severity = SEVERITY.search(section)
    assert heading is not None and heading["title"] == CODES[code].title
    assert severity is not None and severity["severity"] == CODES[code].severity
    for part in ("**Meaning:**", "**Why it matters:**"):
        assert part in section


@pytest.mark.parametrize("code", list(CODES))
def test_documented_hand_triggers_its_code(code: str) -> None:
    hands = HAND.findall(DOCUMENTED[code])
    assert len(hands) == 1, f"{code} needs exactly one ```text hand"
    parsed = parse_text(hands[0], path=str(DOC))
    found = check_hand(parsed)
    assert code in {violation.code for violation in found}, [
        (v.code, v.message) for v in found
    ] or parsed.problem
    assert all(v.severity == CODES[v.code].severity for v in found)
