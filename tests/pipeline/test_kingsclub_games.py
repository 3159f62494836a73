"""The games KingsClub alone deals are each one `GameSpec` entry and the room's label: A-5 single
draw, 2-7 razz (razz's deal ranked deuce-to-seven), badacey (badugi and A-5 low, split) and
badeucey (badugi and 2-7 low, both aces high). The corpus hands replay as the room played them,
synthesised hands go through KingsClub's text and PHH and back, broken hands are caught with
their codes, and the winners of each half agree with pokerkit's hand classes (pokerkit deals
none of these games, but ranks each half: tests/pipeline/test_evaluators_pokerkit.py compares the
evaluators themselves)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import pytest
from pokerkit import (
    BadugiHand,
    Hand,
    RegularLowHand,
    StandardBadugiHand,
    StandardLowHand,
)

from studdraw.parsers.model import EventKind, Game, HandRecord, Structure
from studdraw.parsers.reader import parse_file
from studdraw.parsers.render.kingsclub import render_kingsclub
from studdraw.pipeline.phh import dumps, variant_code
from studdraw.pipeline.rules import GAME_SPECS, replay
from studdraw.pipeline.rules.generate import random_hand
from studdraw.pipeline.rules.house import house_rules_for
from studdraw.pipeline.rules.specs import BringIn, Opener
from tests.conftest import corpus_file, parse_record

GAMES = (Game.SDA5, Game.RAZZ27, Game.BADACEY, Game.BADEUCEY)
FOLDER = ("cash", "KingsClub")
KINGSCLUB = house_rules_for("kingsclub")


def corpus_record(*parts: str) -> HandRecord:
    [parsed] = parse_file(corpus_file(*FOLDER, *parts))
    assert parsed.record is not None, parsed.problem
    return parsed.record


def codes(record: HandRecord) -> set[str]:
    return {str(problem.code) for problem in replay(record).problems}


def mutated(record: HandRecord, index: int, **changes: object) -> HandRecord:
    events = list(record.events)
    events[index] = dataclasses.replace(events[index], **changes)  # type: ignore[arg-type]
    return dataclasses.replace(record, events=events)


def first(record: HandRecord, kind: EventKind, street: int = 0) -> int:
    return next(i for i, e in enumerate(record.events) if e.kind is kind and e.street == street)


# --- the specs ------------------------------------------------------------------------------


def test_the_specs() -> None:
    sda5, razz27 = GAME_SPECS[Game.SDA5], GAME_SPECS[Game.RAZZ27]
    badacey, badeucey = GAME_SPECS[Game.BADACEY], GAME_SPECS[Game.BADEUCEY]
    assert (sda5.best, sda5.split_low, sda5.draws, sda5.hand_size) == ("low_a5", None, 1, 5)
    assert [s.big_bet for s in sda5.streets] == [False, True]
    assert (razz27.best, razz27.bring_in, razz27.open_pair_street) == (
        "low27",
        BringIn.HIGH_CARD_ACES_HIGH,
        None,
    )
    assert [s.opener for s in razz27.streets[1:]] == [Opener.LOW_BOARD_ACES_HIGH] * 4
    assert [len(s.deal) for s in razz27.streets] == [3, 1, 1, 1, 1]
    assert (badacey.best, badacey.split_low, badacey.hand_size, badacey.draws) == (
        "badugi",
        "low_a5",
        5,
        3,
    )
    assert (badeucey.best, badeucey.split_low, badeucey.max_players) == ("badugi27", "low27", 6)
    codes = [variant_code(game, Structure.FIXED) for game in GAMES]
    assert codes == ["FA5L1D", "F2R", "FB/A5L3D", "FB/2L3D"]


# --- the corpus -----------------------------------------------------------------------------


def test_a5_single_draw_opens_its_unmarked_draw() -> None:
    """The room prints no marker before A-5 single draw's draw: the first draw line opens it,
    and the hand replays clean, Player0's pat 9-8-5-2 beating Hero's pair of threes."""
    record = corpus_record("Draw", "A5-1-Draw-Limit-USD-50-100-202102.txt")
    assert record.game is Game.SDA5
    streets = [(e.street, e.line) for e in record.events if e.kind is EventKind.STREET]
    assert streets[-1] == (1, 12)
    result = replay(record)
    assert result.problems == []
    assert [(p.winners, p.half) for p in result.pots] == [(("Player0",), None)]
    draw = first(record, EventKind.DRAW, 1)
    extra = mutated(record, draw, cards=(*record.events[draw].cards, "2c"))
    assert "CRD003" in codes(extra)


def test_2_7_razz_brings_in_the_ace_and_opens_the_lowest_2_7_board() -> None:
    """#40091899: Hero's ace of hearts brings in (the ace is high: above Player4's queen);
    on 4th street Player5's 8-2 opens before Player0's J-4, on 5th Player0's J-5-4 before
    Player5's K-8-2. The room's raise of one bring-in over the completion is its SIZ005."""
    record = corpus_record("Stud", "2-7 Razz-USD-22-44-202101.txt")
    assert record.game is Game.RAZZ27
    result = replay(record)
    assert [(str(p.code), p.line) for p in result.problems] == [("SIZ005", 31)]
    openers = [street.first_actor for street in result.streets]
    assert openers[:4] == ["Hero", "Player5", "Player0", "Player5"]
    bring_in = first(record, EventKind.BRING_IN)
    assert record.events[bring_in].player == "Hero"
    queen = mutated(record, bring_in, player="Player4")
    assert {"ORD001", "FRC004"} & codes(queen), codes(queen)


def test_the_split_draws_split_as_the_room_did() -> None:
    """Badacey #40201390: Player1's 9-6-5-4 badugi and Hero's 9-8-7-2-A low (Player1 is
    paired) share the pot; badeucey #40200897: Player4's 6-5-4-3 badugi and Player2's
    8-7-5-3-2 share it, Hero's 8-7-6-3-2 losing both halves."""
    badacey = corpus_record("Draw", "Badacey-Limit-USD-22-44-202101.txt")
    badeucey = corpus_record("Draw", "Badeucey-Limit-USD-22-44-202101.txt")
    for record, halves in (
        (badacey, [(("Player1",), "hi"), (("Hero",), "lo")]),
        (badeucey, [(("Player4",), "hi"), (("Player2",), "lo")]),
    ):
        result = replay(record)
        assert result.problems == []
        assert [(p.winners, p.half) for p in result.pots] == halves
        collects = [i for i, e in enumerate(record.events) if e.kind is EventKind.COLLECT]
        # the badugi's winner takes the low half too: the low belongs to another
        scoop = mutated(record, collects[0], player=record.events[collects[1]].player)
        assert "SHW002" in codes(scoop), codes(scoop)


def test_the_broken_2_7_razz_hand_is_stored_with_its_money_short() -> None:
    """FPDB's failing 2-7 razz hand #3703449: the room paid out less than the pot (MNY006),
    the hand ends on 6th street with two players' cards shown short (SHW004), and the summary
    nets Player1 what no collect pays him (SUM001, the export's error)."""
    record = corpus_record("Stud", "2-7 Razz-USD-500-1000-202102.multi.pot.failure.txt")
    assert {(str(p.code), p.severity) for p in replay(record).problems} == {
        ("MNY006", "warning"),
        ("SHW004", "warning"),
        ("SUM001", "error"),
    }


# --- synthesised hands ----------------------------------------------------------------------


def _dealt(record: HandRecord, hero: str) -> list[tuple[str | None, tuple[str | None, ...]]]:
    """The hero's cards and every player's up cards, as a KingsClub export shows them."""
    return [
        (
            e.player,
            e.cards
            if e.player == hero
            else tuple(
                c if u else None
                for c, u in zip(e.cards, e.up or (False,) * len(e.cards), strict=False)
            ),
        )
        for e in record.events
        if e.kind is EventKind.DEAL
    ]


@pytest.mark.parametrize("game", (*GAMES, Game.DRAWMAHA), ids=str)
def test_synthesised_hands_round_trip_through_kingsclub_text(game: Game) -> None:
    """Each game only KingsClub deals, drawmaha's board too, reads back as it was dealt."""
    rng = random.Random(f"kingsclub {game}")
    written = 0
    for structure in (Structure.FIXED, Structure.POT, Structure.NO):
        for _ in range(25):
            record = random_hand(game, structure, rng.randint(2, 6), rng, KINGSCLUB)
            if any(e.kind is EventKind.RESHUFFLE for e in record.events):
                continue
            assert replay(record, KINGSCLUB).problems == []
            hero = record.seats[0].player
            text = render_kingsclub(record, hero)
            again = parse_record(text, "kingsclub")
            assert (again.game, again.structure) == (game, structure)
            assert replay(again).problems == [], text
            assert _dealt(again, hero) == _dealt(record, hero)
            board = [e.cards for e in record.events if e.kind is EventKind.COMMUNITY]
            assert [e.cards for e in again.events if e.kind is EventKind.COMMUNITY] == board
            # (a no-limit stud bet over the bring-in reads back as the completion it is)
            betting = [(e.player, e.amount) for e in record.events if e.kind.puts_in]
            assert [(e.player, e.amount) for e in again.events if e.kind.puts_in] == betting
            written += 1
    assert written >= 40


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_synthesised_hands_round_trip_through_phh(game: Game) -> None:
    rng = random.Random(f"phh {game}")
    for _ in range(30):
        record = random_hand(game, Structure.FIXED, rng.randint(2, 6), rng)
        text = dumps(record)
        assert f'variant = "{variant_code(game, Structure.FIXED)}"' in text
        again = parse_record(text, "phh")
        assert again.game is game
        assert replay(again).problems == [], text
        shown = [e.cards for e in again.events if e.kind is EventKind.SHOW]
        assert shown == [e.cards for e in record.events if e.kind is EventKind.SHOW]


# --- each half against pokerkit --------------------------------------------------------------

HALVES: dict[Game, tuple[type[Hand], type[Hand] | None]] = {
    Game.SDA5: (RegularLowHand, None),
    Game.RAZZ27: (StandardLowHand, None),
    Game.BADACEY: (BadugiHand, RegularLowHand),
    Game.BADEUCEY: (StandardBadugiHand, StandardLowHand),
}


def _best(shown: dict[str, tuple[str, ...]], hand_class: type[Hand]) -> tuple[str, ...]:
    hands = {name: hand_class.from_game("".join(cards)) for name, cards in shown.items()}
    top = max(hands.values())
    return tuple(sorted(name for name, hand in hands.items() if hand == top))


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_the_winners_of_each_half_are_pokerkit_s(game: Game) -> None:
    """Hands that reach a showdown of one pot: pokerkit's hand classes pick the same winners
    of each half as the replay (no half has a qualifier: a player who wins both scoops)."""
    rng = random.Random(f"halves {game}")
    high_class, low_class = HALVES[game]
    checked = 0
    halves: Callable[[str | None], bool] = lambda half: half in (None, "hi")  # noqa: E731
    while checked < 60:
        record = random_hand(game, Structure.FIXED, rng.randint(2, 6), rng)
        result = replay(record)
        shown = {
            e.player or "": tuple(c for c in e.cards if c is not None)
            for e in record.events
            if e.kind is EventKind.SHOW
        }
        if len(shown) < 2 or len({p.name for p in result.pots}) != 1:
            continue
        pots = result.pots
        assert [tuple(sorted(p.winners)) for p in pots if halves(p.half)] == [
            _best(shown, high_class)
        ]
        if low_class is not None:
            lows = [tuple(sorted(p.winners)) for p in pots if p.half == "lo"]
            assert lows == [_best(shown, low_class)], (shown, pots)
        checked += 1
