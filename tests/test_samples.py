"""The bundled sample histories: what `make demo` shows must be what the README says."""

from __future__ import annotations

from pathlib import Path

import pytest

from studdraw.parsers.files import discover_files
from studdraw.parsers.model import Outcome
from studdraw.parsers.reader import parse_file
from studdraw.pipeline.rules import replay
from tests.conftest import SAMPLES

BROKEN = SAMPLES / "pokerstars" / "handwritten" / "broken.txt"


@pytest.mark.parametrize(
    "path",
    [p for p in discover_files([SAMPLES]) if p != BROKEN],
    ids=lambda p: str(p.relative_to(SAMPLES)),
)
def test_sample_files_validate_clean(path: Path) -> None:
    for parsed in parse_file(path):
        assert parsed.record is not None, parsed.problem
        result = replay(parsed.record)
        assert result.valid, [v for v in result.problems if v.severity == "error"]


def test_the_broken_file_breaks_each_hand_as_documented() -> None:
    outcomes = {p.room_hand_id: p for p in parse_file(BROKEN)}
    illegal = outcomes["230000000001"].record
    assert illegal is not None
    codes = {v.code for v in replay(illegal).problems}
    assert {"SIZ014", "ORD004", "CRD008", "MNY002"} <= codes
    assert outcomes["230000000010"].outcome is Outcome.ERROR
    assert outcomes["230000000011"].outcome is Outcome.UNSUPPORTED
    assert outcomes["230000000012"].outcome is Outcome.UNSUPPORTED


def test_the_hero_plays_every_game_over_several_sessions() -> None:
    records = [
        parsed.record
        for path in discover_files([SAMPLES])
        for parsed in parse_file(path)
        if parsed.record is not None
    ]
    assert len(records) > 400
    assert {r.game for r in records if r.hero == "Hero"} == {
        "stud",
        "stud8",
        "razz",
        "td27",
        "tda5",
        "badugi",
    }
