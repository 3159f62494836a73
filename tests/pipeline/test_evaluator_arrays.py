"""The numpy evaluators (`evaluators.arrays`, behind the all-in equities) give every hand the
value its one-hand evaluator gives, flushes, straights, pairs and missing lows included."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from studdraw.pipeline.evaluators import arrays, high, low8, low_a5

hands = st.lists(
    st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True), min_size=1, max_size=60
)


@settings(max_examples=200, deadline=None)
@given(hands)
def test_every_value_is_the_one_hand_evaluators(rows: list[list[int]]) -> None:
    matrix = np.array(rows, dtype=np.int64)
    cards = [[arrays.DECK[i] for i in row] for row in rows]
    assert arrays.high(matrix).tolist() == [high(hand) for hand in cards]
    assert arrays.low_a5(matrix).tolist() == [low_a5(hand) for hand in cards]
    assert arrays.low8(matrix).tolist() == [
        arrays.NO_LOW if (value := low8(hand)) is None else value for hand in cards
    ]


def test_flushes_and_straight_flushes_of_seven_cards() -> None:
    named = [
        ["Ah", "Kh", "Qh", "Jh", "Th", "2c", "2d"],  # royal flush beside a pair
        ["9s", "8s", "7s", "6s", "2s", "9d", "9c"],  # a flush, not the trips
        ["5d", "4d", "3d", "2d", "Ad", "Kd", "Ks"],  # the wheel in diamonds
        ["Ac", "Ad", "Ah", "As", "Kc", "Qc", "Jc"],  # quads, three clubs
    ]
    matrix = np.array([[arrays.INDEX[card] for card in hand] for hand in named], dtype=np.int64)
    assert arrays.high(matrix).tolist() == [high(hand) for hand in named]
