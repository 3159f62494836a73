"""Games are data: a game the engine has never seen is one `GameSpec`, with no new code path.
Single-draw games (No-Limit 2-7 single draw, five-card draw: PokerStars deals both) are
defined here from the same builder as triple draw and dealt, replayed and settled by the one
state machine."""

from __future__ import annotations

import random

import pytest

from studdraw.parsers.model import EventKind, Game, Structure
from studdraw.pipeline.rules import GAME_SPECS, GameSpec, replay
from studdraw.pipeline.rules.generate import random_hand
from studdraw.pipeline.rules.specs import draw_spec

SINGLE_DRAW_27 = draw_spec(Game.TD27, "low27", 5, max_players=6, draws=1)
FIVE_CARD_DRAW = draw_spec(Game.TD27, "high", 5, max_players=6, draws=1)


@pytest.mark.parametrize("spec", [SINGLE_DRAW_27, FIVE_CARD_DRAW], ids=["sd27", "draw5"])
@pytest.mark.parametrize("structure", [Structure.NO, Structure.POT, Structure.FIXED])
def test_a_single_draw_game_is_a_spec(
    monkeypatch: pytest.MonkeyPatch, spec: GameSpec, structure: Structure
) -> None:
    monkeypatch.setitem(GAME_SPECS, Game.TD27, spec)
    rng = random.Random(7)
    draws_seen = 0
    for _ in range(60):
        record = random_hand(Game.TD27, structure, rng.randint(2, 6), rng)
        result = replay(record)
        assert result.violations == [], (record.site_hand_id, result.violations)
        assert len(result.streets) <= 2
        draws_seen += any(e.kind is EventKind.DISCARD for e in record.events)
        streets = {e.street for e in record.events if e.kind is EventKind.STREET}
        assert streets <= {0, 1}
    assert draws_seen


def test_the_specs_say_what_differs() -> None:
    assert (SINGLE_DRAW_27.draws, SINGLE_DRAW_27.last_street) == (1, 1)
    assert [street.name for street in SINGLE_DRAW_27.streets] == ["predraw", "first draw"]
    assert GAME_SPECS[Game.TD27].draws == 3
    stud = GAME_SPECS[Game.STUD]
    assert (stud.open_pair_street, stud.community_street, stud.board) == (1, 4, slice(2, 6))
    assert GAME_SPECS[Game.RAZZ].open_pair_street is None
