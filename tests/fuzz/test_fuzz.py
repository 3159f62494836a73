"""The fuzz harness, briefly, with the test suite: no input crashes `parse`, `validate` or
`ingest`, none hangs, and every hand the reader cuts is accounted for in the ledger."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studdraw.parsers.model import HandText, SourceRef
from studdraw.parsers.reader import parse_hand
from studdraw.parsers.rooms import ROOMS
from studdraw.parsers.text.room import TextRoom
from studdraw.pipeline.rules.validate import Validation

from .harness import Harness, check_parsed, run
from .inputs import mutated_hand

TEXT_ROOMS = [room.name for room in ROOMS if isinstance(room, TextRoom)]
"""Every text room of the registry: each is handed any mutated hand and any bytes."""


@pytest.mark.slow  # hostile files through parse, validate and ingest (`make fuzz` runs it long)
def test_a_brief_fuzz_run_finds_nothing(tmp_path: Path) -> None:
    harness = Harness(tmp_path / "work", tmp_path / "kept", batch=40)
    tally = run(harness, inputs=120, seed=20261124)
    assert tally.inputs == 120 and tally.hand_texts > 50
    assert tally.crashes == [] and tally.hangs == [] and tally.hands_lost == 0
    assert tally.internal_errors == [] and tally.miscounted == []
    assert tally.headers_counted > 20 and tally.headers > 20  # the count without the reader ran


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated_hand(), st.sampled_from(TEXT_ROOMS))
def test_any_room_reads_any_mutated_hand(text: str, room: str) -> None:
    """A hand handed to the wrong room, or a right one damaged: a problem, never a crash."""
    parsed = parse_hand(HandText(text, SourceRef("fuzz", 0, 1), room))
    check_parsed(parsed)
    for _ in Validation().lines([parsed]):
        pass


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.binary(max_size=2048), st.sampled_from(TEXT_ROOMS))
def test_random_bytes_as_a_hand(raw: bytes, room: str) -> None:
    parsed = parse_hand(HandText(raw.decode("latin-1"), SourceRef("fuzz", 0, 1), room))
    check_parsed(parsed)
