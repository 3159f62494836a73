"""Games are data: a game is one `GameSpec`, with no code path of its own. The single-draw games
(No-Limit 2-7 single draw, five-card draw: PokerStars, Full Tilt, Merge and Boss Media deal
them) come from the same builder as triple draw and are dealt, replayed and settled by the one
state machine."""

from __future__ import annotations

import random

import pytest

from studdraw.parsers.model import EventKind, Game, Structure
from studdraw.pipeline.rules import GAME_SPECS, replay
from studdraw.pipeline.rules.generate import random_hand
from tests.conftest import corpus_file, parse_record

SINGLE_DRAW = (Game.SD27, Game.DRAW5)


@pytest.mark.parametrize("game", SINGLE_DRAW)
@pytest.mark.parametrize("structure", [Structure.NO, Structure.POT, Structure.FIXED])
def test_a_single_draw_game_is_dealt_with_one_draw(game: Game, structure: Structure) -> None:
    rng = random.Random(7)
    draws_seen = 0
    for _ in range(60):
        record = random_hand(game, structure, rng.randint(2, 6), rng)
        result = replay(record)
        assert result.problems == [], (record.room_hand_id, result.problems)
        assert len(result.streets) <= 2
        draws_seen += any(e.kind is EventKind.DISCARD for e in record.events)
        streets = {e.street for e in record.events if e.kind is EventKind.STREET}
        assert streets <= {0, 1}
    assert draws_seen


@pytest.mark.parametrize(
    ("game", "best", "rounds", "big_bets"),
    [
        (Game.TD27, "low27", ["predraw", "first draw", "second draw", "third draw"], [2, 3]),
        (Game.BADUGI, "badugi", ["predraw", "first draw", "second draw", "third draw"], [2, 3]),
        (Game.SD27, "low27", ["predraw", "draw"], [1]),
        (Game.DRAW5, "high", ["predraw", "draw"], [1]),
    ],
)
def test_the_specs_say_what_differs(
    game: Game, best: str, rounds: list[str], big_bets: list[int]
) -> None:
    """The later half of a draw game's rounds is played for the big bet: a limit single-draw
    game bets the big bet after its one draw (the corpus' 5 Card Draw Limit hands)."""
    spec = GAME_SPECS[game]
    assert [street.name for street in spec.streets] == rounds
    assert [i for i, street in enumerate(spec.streets) if street.big_bet] == big_bets
    assert (spec.best, spec.draws, spec.last_street) == (best, len(rounds) - 1, len(rounds) - 1)
    assert all(street.draw for street in spec.streets[1:]) and not spec.streets[0].draw


def test_stud_specs() -> None:
    stud = GAME_SPECS[Game.STUD]
    assert (stud.open_pair_street, stud.community_street, stud.board) == (1, 4, slice(2, 6))
    assert GAME_SPECS[Game.RAZZ].open_pair_street is None


def test_every_game_has_a_spec() -> None:
    assert set(GAME_SPECS) == set(Game)


ANTE_ALL_IN = (
    "tour",
    "Stars",
    "Draw",
    "2-7 Single Draw-NL-USD-2max-STT-1.40-201212.ante.all.in.txt",
)


@pytest.mark.parametrize(
    ("returned", "codes"),
    [
        ("124", []),  # the big blind and the 24 chips of the ante the all-in 1 cannot match
        ("100", []),  # the big blind alone, leaving the ante's excess in the pot
        ("125", ["MNY004"]),  # more than anyone can match
        ("99", ["MNY004"]),
    ],
)
def test_a_return_may_include_the_ante_no_one_can_match(returned: str, codes: list[str]) -> None:
    """PokerStars returns 124 to the big blind when the other player is all in on a 1-chip
    ante: every chip no one can match comes back."""
    text = corpus_file(*ANTE_ALL_IN).read_text(encoding="utf-8")
    text = text.replace("Uncalled bet (124)", f"Uncalled bet ({returned})")
    collected = 2 + 124 - int(returned)
    text = text.replace("Player0 collected 2 from pot", f"Player0 collected {collected} from pot")
    text = text.replace("Total pot 2 |", f"Total pot {collected} |")
    result = replay(parse_record(text))
    assert [v.code for v in result.problems if v.code == "MNY004"] == codes
