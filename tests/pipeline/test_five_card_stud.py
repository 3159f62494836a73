"""Five-card stud is one `GameSpec` entry and the rooms' labels: Full Tilt's tournament hand and
iPoker's cash hand replay clean, synthesised hands go through both rooms' formats and PHH and
back, and a broken hand is caught with its code. pokerkit has no five-card stud, so there is no
cross-check by it (docs/phh.md)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from studdraw.parsers.model import EventKind, Game, HandRecord, Structure
from studdraw.parsers.reader import parse_file
from studdraw.parsers.render.fulltilt import render_fulltilt
from studdraw.pipeline.phh import dumps, variant_code
from studdraw.pipeline.rules import GAME_SPECS, replay
from studdraw.pipeline.rules.generate import random_hand
from tests.conftest import corpus_file, parse_record

FULL_TILT = ("tour", "FTP", "Stud", "5-Stud-USD-MTT-100-201303.txt")
IPOKER = ("cash", "iPoker", "Stud", "5-StudL-USD-0.05-0.10-201111.Sample.with.showdown.xml")


def test_the_spec_deals_one_down_then_four_up() -> None:
    spec = GAME_SPECS[Game.STUD5]
    assert [street.name for street in spec.streets] == [
        "2nd street",
        "3rd street",
        "4th street",
        "5th street",
    ]
    assert [street.deal for street in spec.streets] == [(False, True), (True,), (True,), (True,)]
    assert [i for i, street in enumerate(spec.streets) if street.big_bet] == [2, 3]
    assert (spec.hand_size, spec.board, spec.community_street) == (5, slice(1, 5), None)
    assert (spec.best, spec.split_low, spec.kind) == ("high", None, Game.STUD.kind)
    assert variant_code(Game.STUD5, Structure.FIXED) == "F5S"


@pytest.mark.parametrize("parts", [FULL_TILT, IPOKER], ids=["fulltilt", "ipoker"])
def test_the_corpus_hands_replay_clean(parts: tuple[str, ...]) -> None:
    hands = list(parse_file(corpus_file(*parts)))
    assert len(hands) == 1
    record = hands[0].record
    assert record is not None, hands[0].problem
    assert record.game is Game.STUD5
    result = replay(record)
    assert result.problems == []
    deals = [e for e in record.events if e.kind is EventKind.DEAL]
    assert {e.up for e in deals if e.street == 0} == {(False, True)}
    assert {e.up for e in deals if e.street > 0} == {(True,)}
    assert max(e.street for e in record.events) == 3


def test_full_tilt_names_the_streets_by_the_cards_held() -> None:
    record = next(iter(parse_file(corpus_file(*FULL_TILT)))).record
    assert record is not None
    streets = [e.text for e in record.events if e.kind is EventKind.STREET]
    assert streets == ["2ND STREET", "3RD STREET", "4TH STREET", "5TH STREET"]
    hero = [e for e in record.events if e.kind is EventKind.DEAL and e.player == "Hero"]
    assert hero[0].cards == ("6s", "6h")


def _mutated(record: HandRecord, index: int, **changes: object) -> HandRecord:
    events = list(record.events)
    events[index] = dataclasses.replace(events[index], **changes)  # type: ignore[arg-type]
    return dataclasses.replace(record, events=events)


def _first(record: HandRecord, kind: EventKind, street: int) -> int:
    return next(i for i, e in enumerate(record.events) if e.kind is kind and e.street == street)


def test_a_broken_corpus_hand_is_caught_with_its_code() -> None:
    """Full Tilt's hand: 3rd street bets the small bet (800); the big bet there is too much, as
    the small bet on 4th street is too little; a sixth card is more than the game deals."""
    record = next(iter(parse_file(corpus_file(*FULL_TILT)))).record
    assert record is not None
    bet = _first(record, EventKind.BET, 1)
    assert record.events[bet].amount == 800
    too_big = replay(_mutated(record, bet, amount=1600, to=1600))
    assert "SIZ" in {v.code[:3] for v in too_big.problems}, too_big.problems
    late = _first(record, EventKind.BET, 2)
    too_small = replay(_mutated(record, late, amount=800, to=800))
    assert "SIZ" in {v.code[:3] for v in too_small.problems}, too_small.problems
    door = _first(record, EventKind.DEAL, 0)
    seen = record.events[door + 1]
    duplicate = replay(_mutated(record, door, cards=(None, seen.cards[-1])))
    assert "CRD001" in {v.code for v in duplicate.problems}, duplicate.problems


def _bring_in_by(record: HandRecord, rng: random.Random) -> HandRecord | None:
    """The bring-in posted by another player than the lowest door card (None when the lowest
    door card completed instead)."""
    if not any(e.kind is EventKind.BRING_IN for e in record.events):
        return None
    index = _first(record, EventKind.BRING_IN, 0)
    others = [s.player for s in record.seats if s.player != record.events[index].player]
    if not others:
        return None
    return _mutated(record, index, player=rng.choice(others))


def test_synthesised_hands_replay_clean_and_round_trip() -> None:
    rng = random.Random("stud5")
    wrong_bring_in = 0
    for structure in (Structure.FIXED, Structure.POT, Structure.NO, Structure.SPREAD):
        for _ in range(40):
            record = random_hand(Game.STUD5, structure, rng.randint(2, 8), rng)
            assert replay(record).problems == [], record.room_hand_id
            assert all(len(e.cards) <= 2 for e in record.events if e.kind is EventKind.DEAL)
            mutated = _bring_in_by(record, rng)
            if mutated is not None:
                codes = {v.code for v in replay(mutated).problems}
                assert codes, "a bring-in by the wrong player passed"
                wrong_bring_in += 1
    assert wrong_bring_in


def test_full_tilt_text_round_trips() -> None:
    rng = random.Random(5)
    for _ in range(30):
        record = random_hand(Game.STUD5, Structure.FIXED, rng.randint(2, 8), rng)
        text = render_fulltilt(record)
        assert "*** 2ND STREET ***" in text
        again = parse_record(text, "fulltilt")
        assert again.game is Game.STUD5
        assert replay(again).problems == [], text
        dealt = [(e.player, e.up) for e in again.events if e.kind is EventKind.DEAL]
        assert dealt == [(e.player, e.up) for e in record.events if e.kind is EventKind.DEAL]


def test_phh_round_trips() -> None:
    """PHH has no five-card stud code: "F5S" with `_game`, read back as the same hand."""
    rng = random.Random(55)
    for _ in range(30):
        record = random_hand(Game.STUD5, Structure.FIXED, rng.randint(2, 8), rng)
        text = dumps(record)
        assert 'variant = "F5S"' in text
        again = parse_record(text, "phh")
        assert again.game is Game.STUD5
        assert replay(again).problems == [], text
        dealt = [(e.player, e.cards, e.up) for e in again.events if e.kind is EventKind.DEAL]
        names = dict(zip(again.players, record.players, strict=True))
        assert [(names.get(p or "", p), c, u) for p, c, u in dealt] == [
            (e.player, e.cards, e.up) for e in record.events if e.kind is EventKind.DEAL
        ]


def test_the_bring_in_s_problems_name_five_card_stud_s_street() -> None:
    """Without its bring-in a hand is caught on 2nd street, the street five-card stud brings
    in on, and the messages say so, never seven-card stud's 3rd."""
    rng = random.Random("stud5 bring-in")
    messages: dict[str, str] = {}
    for _ in range(60):
        record = random_hand(Game.STUD5, Structure.FIXED, rng.randint(2, 8), rng)
        events = [e for e in record.events if e.kind is not EventKind.BRING_IN]
        for problem in replay(dataclasses.replace(record, events=events)).problems:
            if problem.code.value in ("ORD003", "STR002"):
                messages[problem.code.value] = problem.message
    assert set(messages) == {"ORD003", "STR002"}, messages
    assert all("2nd street" in text and "3rd" not in text for text in messages.values())
