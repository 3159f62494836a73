"""The dedupe policy both engines share, decision by decision: every text is counted once, in
exactly one of stored, duplicates, rejected and unsupported (stray texts apart), and a stored
hand is never replaced."""

from __future__ import annotations

from collections import Counter

import pytest

from studdraw.pipeline.importer.dedupe import Verdict, on_cut, on_fate
from studdraw.pipeline.importer.process import REJECTED, STORED, STRAY_FATE, UNSUPPORTED_FATE
from studdraw.pipeline.store.db import Key, record_key

KEY: Key = record_key("pokerstars", "a.txt", 7)
OTHER: Key = record_key("pokerstars", "a.txt", 9)

CUTS = [
    # stray, stored hash, recorded, pending -> verdict, tally
    (False, None, set(), set(), Verdict.PROCESS, {"hands_seen": 1}),
    (False, 7, set(), set(), Verdict.SKIP, {"hands_seen": 1, "duplicates": 1}),
    (False, 8, set(), set(), Verdict.CHANGED, {"hands_seen": 1, "rejected": 1, "changed": 1}),
    (False, 8, {KEY}, set(), Verdict.SKIP, {"hands_seen": 1, "duplicates": 1}),
    (False, None, {KEY}, set(), Verdict.SKIP, {"hands_seen": 1, "duplicates": 1}),
    (False, None, set(), {KEY}, Verdict.SKIP, {"hands_seen": 1, "duplicates": 1}),
    (False, None, {OTHER}, set(), Verdict.PROCESS, {"hands_seen": 1}),
    (True, None, set(), set(), Verdict.PROCESS, {"stray_texts": 1}),
    (True, None, {KEY}, set(), Verdict.SKIP, {"stray_texts": 1}),
    (True, None, set(), {KEY}, Verdict.SKIP, {"stray_texts": 1}),
]


@pytest.mark.parametrize(("stray", "stored", "recorded", "pending", "verdict", "tally"), CUTS)
def test_a_text_as_it_is_cut(
    *,
    stray: bool,
    stored: int | None,
    recorded: set[Key],
    pending: set[Key],
    verdict: Verdict,
    tally: dict[str, int],
) -> None:
    counts: Counter[str] = Counter()
    was_pending = KEY in pending
    assert (
        on_cut(counts, KEY, 7, stored, stray=stray, recorded=recorded, pending=pending) is verdict
    )
    assert counts == Counter(tally)
    assert (KEY in pending) == (verdict is Verdict.PROCESS or was_pending)
    assert (KEY in recorded) == (verdict is Verdict.CHANGED or KEY in recorded)


FATES = [
    # fate, stored hash, recorded -> verdict, tally, recorded after
    (STORED, None, set(), Verdict.PROCESS, {"stored": 1}, False),
    (STORED, 7, set(), Verdict.SKIP, {"duplicates": 1}, False),
    (STORED, 8, set(), Verdict.CHANGED, {"rejected": 1, "changed": 1}, True),
    (STORED, 8, {KEY}, Verdict.SKIP, {"duplicates": 1}, True),
    (REJECTED, None, set(), Verdict.SKIP, {"rejected": 1}, True),
    (UNSUPPORTED_FATE, None, set(), Verdict.SKIP, {"unsupported": 1}, True),
    (STRAY_FATE, None, set(), Verdict.SKIP, {}, True),  # counted when it was cut
]


@pytest.mark.parametrize(("fate", "stored", "recorded", "verdict", "tally", "kept"), FATES)
def test_a_text_as_its_fate_comes_back(
    *,
    fate: int,
    stored: int | None,
    recorded: set[Key],
    verdict: Verdict,
    tally: dict[str, int],
    kept: bool,
) -> None:
    counts: Counter[str] = Counter()
    pending = {KEY}
    assert on_fate(counts, KEY, 7, fate, stored, recorded=recorded, pending=pending) is verdict
    assert counts == Counter(tally)
    assert not pending
    assert (KEY in recorded) == kept
