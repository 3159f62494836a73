"""A raise needs an opponent who can answer it (SIZ015): with every other player in the hand
all-in, the only choices are to call or to fold. Handwritten PokerStars hands, and the legal
actions the engine offers at that point."""

from __future__ import annotations

import pytest

from studdraw.parsers.model import EventKind
from studdraw.pipeline.rules import HandState, replay, start_state
from tests.conftest import parse_record

HEADER = "PokerStars Game #1000009001:  Triple Draw 2-7 Lowball Limit ($0.10/$0.20 USD)"
TRIPLE_DRAW = (
    HEADER
    + """ - 2009/11/25 14:00:00 ET
Table 'Tests' 6-max Seat #1 is the button
Seat 1: Alice ($4 in chips)
Seat 2: Bob ($0.40 in chips)
Seat 3: Carol ($4 in chips)
Bob: posts small blind $0.05
Carol: posts big blind $0.10
*** DEALING HANDS ***
Alice: calls $0.10
Bob: calls $0.05
Carol: checks
*** FIRST DRAW ***
Bob: discards 2 cards
Carol: discards 1 card
Alice: discards 1 card
Bob: bets $0.10
Carol: raises $0.10 to $0.20
{alice_early}Bob: raises $0.10 to $0.30 and is all-in
Carol: raises $0.10 to $0.40
{alice_late}Uncalled bet ($0.10) returned to Carol
*** SECOND DRAW ***
Bob: discards 1 card
Carol: stands pat
*** THIRD DRAW ***
Bob: stands pat
Carol: stands pat
*** SHOW DOWN ***
Bob: shows [8d 5d 4c 3h 2s] (Lo: 8,5,4,3,2)
Carol: shows [7c 5h 4s 3d 2c] (Lo: 7,5,4,3,2)
Carol collected ${pot} from pot
*** SUMMARY ***
Total pot ${pot} | Rake $0
"""
)

STUD_BRING_IN_ALL_IN = """
PokerStars Game #1000009002:  7 Card Stud Limit ($0.04/$0.08 USD) - 2009/11/26 10:00:00 ET
Table 'Tests' 8-max
Seat 1: Alice ($1 in chips)
Seat 2: Bob ($0.03 in chips)
Alice: posts the ante $0.01
Bob: posts the ante $0.01
*** 3rd STREET ***
Dealt to Alice [Qc]
Dealt to Bob [7d]
Bob: brings in for $0.02 and is all-in
Alice: {answer}
{uncalled}*** 4th STREET ***
Dealt to Alice [Qc] [Jd]
Dealt to Bob [7d] [8c]
*** 5th STREET ***
Dealt to Alice [Qc Jd] [9h]
Dealt to Bob [7d 8c] [Th]
*** 6th STREET ***
Dealt to Alice [Qc Jd 9h] [4s]
Dealt to Bob [7d 8c Th] [5d]
*** RIVER ***
*** SHOW DOWN ***
Alice: shows [As Ks Qc Jd 9h 4s 3c] (high card Ace)
Bob: shows [2h 2s 7d 8c Th 5d 6c] (a pair of Deuces)
Bob collected $0.06 from pot
*** SUMMARY ***
Total pot $0.06 | Rake $0
"""


def codes(text: str) -> list[str]:
    return [str(violation.code) for violation in replay(parse_record(text)).problems]


@pytest.mark.parametrize(
    ("alice_early", "alice_late", "pot", "expected"),
    [
        # Alice, not all-in, can still answer Carol's raise: a legal raise.
        ("Alice: calls $0.20\n", "Alice: folds\n", "1.10", []),
        # Alice folded before Bob's all-in: nobody can answer Carol.
        ("Alice: folds\n", "", "0.90", ["SIZ015"]),
    ],
    ids=["an-opponent-can-answer", "every-opponent-all-in"],
)
def test_a_raise_needs_an_opponent_who_can_answer(
    alice_early: str, alice_late: str, pot: str, expected: list[str]
) -> None:
    text = TRIPLE_DRAW.format(alice_early=alice_early, alice_late=alice_late, pot=pot)
    assert codes(text) == expected


@pytest.mark.parametrize(
    ("answer", "uncalled", "expected"),
    [
        ("calls $0.02", "", []),
        ("completes it to $0.04", "Uncalled bet ($0.02) returned to Alice\n", ["SIZ015"]),
    ],
    ids=["call", "completion"],
)
def test_a_completion_against_an_all_in_bring_in(
    answer: str, uncalled: str, expected: list[str]
) -> None:
    text = STUD_BRING_IN_ALL_IN.format(answer=answer, uncalled=uncalled)
    assert codes(text) == expected


def test_the_legal_actions_offer_no_raise_when_every_opponent_is_all_in() -> None:
    """Replayed up to Carol's turn after Bob's all-in raise: with Alice still in, Carol may
    raise; with Alice folded, only fold or call."""
    for alice_early, raise_offered in (("Alice: calls $0.20\n", True), ("Alice: folds\n", False)):
        text = TRIPLE_DRAW.format(alice_early=alice_early, alice_late="", pot="0")
        record = parse_record(text)
        state = start_state(record)
        events = record.events
        carol_raises = next(
            n
            for n, event in enumerate(events)
            if event.player == "Carol" and event.kind is EventKind.RAISE and event.to == 40
        )
        for n, event in enumerate(events[:carol_raises]):
            state.apply(event, n)
        actions = state.legal_actions()
        assert isinstance(state, HandState) and actions is not None and actions.player == "Carol"
        assert (EventKind.RAISE in actions.kinds) is raise_offered
        assert EventKind.CALL in actions.kinds and EventKind.FOLD in actions.kinds
