"""pokerkit's own final-table hands, read as PHH written elsewhere: the unit tests pokerkit ships
replay the 2023 WSOP $50,000 Players Championship (Day 5) and $10,000 H.O.R.S.E. (Day 4) hand by
hand and end each with `HandHistory.from_game_state`. Each of those hands, written by pokerkit
as PHH with its `finishing_stacks` and no `winnings` (as pokerkit's published data is), must
read and replay clean in studdraw, take no rake, and end at pokerkit's stacks (the big-blind
antes of the single-draw hands included)."""

from __future__ import annotations

import importlib
import io
import tomllib
import unittest
from collections import Counter
from typing import Any, Final

import pytest
from pokerkit import HandHistory

from studdraw.parsers.model import HandText, SourceRef
from studdraw.parsers.phh.vocabulary import SPEC_VARIANTS
from studdraw.parsers.rooms.phh import PHH
from studdraw.pipeline.rules import replay

EVENTS: Final = ("test_2023_43_5", "test_2023_54_4")


def pokerkit_hands(
    module_name: str, monkeypatch: pytest.MonkeyPatch
) -> list[tuple[str, list[int]]]:
    """Every hand pokerkit's tests of one event play, as PHH text with its finishing stacks."""
    try:
        module = importlib.import_module(f"pokerkit.tests.test_wsop.{module_name}")
    except ImportError:
        pytest.skip("pokerkit's own tests are not installed")
    original = HandHistory.from_game_state
    found: list[tuple[str, list[int]]] = []

    def capture(game: Any, state: Any) -> HandHistory:
        history = original(game, state)
        stacks = [int(stack) for stack in state.stacks]
        text = history.dumps().rstrip("\n") + f"\nfinishing_stacks = {stacks}\n"
        found.append((text, stacks))
        return history

    monkeypatch.setattr(HandHistory, "from_game_state", capture)
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(module.StateTestCase)
    outcome = unittest.TextTestRunner(stream=io.StringIO()).run(suite)
    assert outcome.wasSuccessful()
    return found


@pytest.mark.parametrize("event", EVENTS)
def test_pokerkits_final_table_hands_end_at_its_stacks(
    event: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    room = PHH()
    read: Counter[str] = Counter()
    for text, stacks in pokerkit_hands(event, monkeypatch):
        assert "winnings" not in text
        variant = tomllib.loads(text)["variant"]
        if variant not in SPEC_VARIANTS:
            continue  # hold'em and Omaha: not stud or draw
        parsed = room.parse(HandText(text, SourceRef("pokerkit.phh", 0, 1), "phh"))
        record = parsed.record
        assert record is not None, parsed.problem
        result = replay(record)
        assert [p.code for p in [*record.problems, *result.problems]] == [], text
        assert result.rake == 0
        nets = {player.player: player.net for player in result.players}
        assert [seat.stack + nets[seat.player] for seat in record.seats] == stacks, text
        read[variant] += 1
    # the stud and draw games each event played (a check that the hands were there at all)
    expected = {"F7S", "FR", "F7S/8", "F2L3D", "N2L1D"} if event.endswith("43_5") else {"F7S/8"}
    assert set(read) >= expected
