"""Known hands, descriptions, bad input, and best-of-subsets properties of the evaluators."""

import random
from collections.abc import Callable, Sequence
from itertools import combinations, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studdraw.pipeline.evaluators import (
    KINDS,
    badugi,
    badugi27,
    describe,
    high,
    low8,
    low27,
    low_a5,
)

DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
EVALUATORS: dict[str, Callable[[Sequence[str]], int | None]] = {
    "high": high,
    "low_a5": low_a5,
    "low8": low8,
    "low27": low27,
    "badugi": badugi,
    "badugi27": badugi27,
}
SIZES = {"high": 7, "low_a5": 7, "low8": 7, "low27": 5, "badugi": 4, "badugi27": 4}


def cards(hand: str) -> list[str]:
    return hand.split()


def evaluate(kind: str, hand: str) -> int | None:
    return EVALUATORS[kind](cards(hand))


def best_of_fives(
    evaluate_five: Callable[[Sequence[str]], int | None], hand: list[str]
) -> int | None:
    """The reference rule: the best value over every five-card subset (None never wins)."""
    values = [value for five in combinations(hand, 5) if (value := evaluate_five(five)) is not None]
    return max(values, default=None)


# (kind, better hand, worse hand): the first must score strictly higher.
ORDERED = [
    ("high", "2c 3d 4h 5s 6c", "Ah 2c 3d 4s 5h"),  # the wheel is the lowest straight...
    ("high", "Ah 2c 3d 4s 5h", "Ac Ad Ah Ks Qs"),  # ...but still beats three aces
    ("high", "Ac Ad Kc Kd 3h", "Ac Ad Kc Kd 2h"),  # kicker
    ("high", "2c 2d 2h 3s 3c", "Ac Kc Qc Jc 9c"),  # full house over flush
    ("high", "As 2s 3s 4s 5s", "Kc Kd Kh Ks Ac"),  # steel wheel over quads
    ("high", "Ac Ad Kc Kd Qc Qd 2h", "Ac Ad Kc Kd Jh Js 8h"),  # best two pair keeps the queen
    ("low_a5", "5c 4d 3h 2s Ac", "6c 4d 3h 2s Ac"),
    ("low_a5", "5c 4c 3c 2c Ac", "6c 4d 3h 2s Ac"),  # flushes and straights do not count
    ("low_a5", "Kc Qd Jh Ts 9c", "Ac Ad 2c 3d 4h"),  # any unpaired hand beats a pair
    ("low_a5", "Ac Ad 2c 3d 4h", "2c 2d Ac 3d 4h"),  # a pair of aces is the best pair
    ("low_a5", "Ac Ad Kc Kd Qh", "2c 2d 2h 3c 4d"),  # two pair beats three of a kind
    ("low8", "8c 7d 6h 5s 4c", "9c 6d 4h 3s Ac"),  # 9-high does not qualify: None sorts lowest
    ("low27", "7c 5d 4h 3s 2c", "7c 6d 4h 3s 2c"),
    ("low27", "8c 6d 4h 3s 2c", "7c 6d 5h 4s 3c"),  # 7-6-5-4-3 is a straight
    ("low27", "Ac Kd Qh Js 9c", "2c 3d 4h 5s 6c"),  # the worst no-pair hand beats a straight
    ("low27", "Kc Qd Jh Ts 8c", "Ac 2d 3h 4s 5c"),  # A-5-4-3-2 is just ace high
    ("low27", "Ac 2d 3h 4s 5c", "2c 2d 3h 4s 5c"),  # ...which still beats a pair
    ("low27", "2c 2d 3h 4s 5c", "7c 5c 4c 3c 2c"),  # a pair beats a flush
    ("badugi", "Ac 2d 3h 4s", "Ac 2d 3h 5s"),
    ("badugi", "Kc Qd Jh Ts", "Ac 2d 3h 3s"),  # four cards beat any three
    ("badugi", "7c 5d 2h 2s", "7c 6d 2h 2s"),
    ("badugi", "Ad 2c 3d 4d", "2c 3d 4d 5d"),  # 2-A beats 3-2
]

# (kind, hand, hand): the same value.
EQUAL = [
    ("high", "Ac Ad Kc Kd Qc Qd 2h", "As Ah Ks Kh Qs"),
    ("high", "9c 9d 9h 8s 8c 8d 2h", "9c 9d 9h 8s 8c"),  # two trips make nines full
    ("low_a5", "Ac 2d 3h 4s 5c Kd Kh", "As 2s 3s 4s 5s"),
    ("low_a5", "Kc Kd Qh Qs Jc Jd 2h", "Ks Qs Jc Jd 2h"),  # forced pair: the lowest pair wins
    ("low27", "7c 5d 4h 3s 2c", "7d 5h 4s 3c 2d"),
    ("badugi", "Ac 2d 3h 4s", "As 2h 3d 4c"),
    ("badugi", "Ac Ad 2c 3d", "Ah 2d 2h 3h"),  # Ad-2c and Ah-2d: 2-card 2-A either way
]

# (kind, hand, description)
DESCRIPTIONS = [
    ("high", "As Ks Qs Js Ts 9s 8s", "a royal flush"),
    ("high", "9s 8s 7s 6s 5s 4d", "a straight flush, Five to Nine"),
    ("high", "As 2s 3s 4s 5s 6d", "a straight flush, Ace to Five"),
    ("high", "9c 9d 9h 9s 2c", "four of a kind, Nines"),
    ("high", "9c 9d 9h 8s 8c 8d 2h", "a full house, Nines full of Eights"),
    ("high", "Ac Kc 7c 4c 2c 2d 2h", "a flush, Ace high"),
    ("high", "Tc Jd Qh Ks Ac", "a straight, Ten to Ace"),
    ("high", "2c 3d 4h 5s 6c 7d 8h", "a straight, Four to Eight"),
    ("high", "Ah 2c 3d 4s 5h", "a straight, Ace to Five"),
    ("high", "6c 6d 6h Ks 2c", "three of a kind, Sixes"),
    ("high", "9c 9d 8h 8s 2c", "two pair, Nines and Eights"),
    ("high", "Jc Jd 8h 4s 2c", "a pair of Jacks"),
    ("high", "Kc Jd 8h 4s 2c 3d 7c", "King high"),
    ("low_a5", "8c 6d 4h 3s Ac Kd Kh", "8-6-4-3-A low"),
    ("low_a5", "Ac Ad 2c 2d 3h 3s 4c", "4-3-2-A-A (pair)"),
    ("low_a5", "Kc Kd Qh Qs Jc Jd 2h", "K-Q-J-J-2 (pair)"),
    ("low_a5", "Kc Kd Kh Ks Qc Qd Qh", "K-K-Q-Q-Q (full house)"),
    ("low8", "8c 6d 4h 3s Ac Kd Kh", "8-6-4-3-A low"),
    ("low8", "5c 4d 3h 2s Ac", "5-4-3-2-A low"),
    ("low27", "7c 5d 4h 3s 2c", "7-5-4-3-2"),
    ("low27", "Ac Kd Qh Js 9c", "A-K-Q-J-9"),
    ("low27", "Ac 2d 3h 4s 5c", "A-5-4-3-2"),
    ("low27", "2c 3d 4h 5s 6c", "6-5-4-3-2 (straight)"),
    ("low27", "7c 5c 4c 3c 2c", "7-5-4-3-2 (flush)"),
    ("low27", "7c 7d 5c 3h 2c", "7-7-5-3-2 (pair)"),
    ("badugi", "8c 5d 3h As", "badugi 8-5-3-A"),
    ("badugi", "7c 4d 2h Kh", "3-card 7-4-2"),
    ("badugi", "2s 3s 4d 7h", "3-card 7-4-2"),
    ("badugi", "Ac Ad 2c 3d", "2-card 2-A"),
    ("badugi", "Kc Kd Kh Ks", "1-card K"),
    ("badugi", "Ac 2c 3c 4c", "1-card A"),
]


@pytest.mark.parametrize(("kind", "better", "worse"), ORDERED)
def test_known_orderings(kind: str, better: str, worse: str) -> None:
    worse_value = evaluate(kind, worse)
    better_value = evaluate(kind, better)
    assert better_value is not None
    assert worse_value is None or better_value > worse_value


@pytest.mark.parametrize(("kind", "first", "second"), EQUAL)
def test_known_ties(kind: str, first: str, second: str) -> None:
    assert evaluate(kind, first) == evaluate(kind, second)


@pytest.mark.parametrize(("kind", "hand", "text"), DESCRIPTIONS)
def test_describe(kind: str, hand: str, text: str) -> None:
    assert describe(kind, evaluate(kind, hand)) == text


@pytest.mark.parametrize(
    "hand",
    ["9c Td Jh Qs Kc Ad 2h", "Ac Ad 2c 2d 3h 3s 4c", "9c 7d 6h 5s 4c", "Ac 2c 3c 4c 9c Tc Jc"],
)
def test_low8_without_a_qualifier_is_none(hand: str) -> None:
    assert low8(cards(hand)) is None
    assert describe("low8", None) == "no low"


def test_low8_equals_low_a5_when_it_qualifies() -> None:
    hand = cards("8c 6d 4h 3s Ac Kd Kh")
    assert low8(hand) == low_a5(hand)


@pytest.mark.parametrize("card", ["1s", "as", "AS", "A", "Asd", "", "Ax", "10h", " As"])
@pytest.mark.parametrize("kind", KINDS)
def test_invalid_card_is_a_value_error(kind: str, card: str) -> None:
    hand = [*cards("2c 3d 4h 5s 6c")[: SIZES[kind] - 1], card]
    with pytest.raises(ValueError, match=f"invalid card {card!r}"):
        EVALUATORS[kind](hand)


@pytest.mark.parametrize("kind", KINDS)
def test_duplicate_card_is_a_value_error(kind: str) -> None:
    hand = [*cards("Kd 2c 3d 4h 5s 6c")[: SIZES[kind] - 1], "Kd"]
    with pytest.raises(ValueError, match="duplicate card 'Kd'"):
        EVALUATORS[kind](hand)


@pytest.mark.parametrize(
    ("kind", "count"),
    [
        ("high", 4),
        ("high", 8),
        ("low_a5", 3),
        ("low8", 8),
        ("low27", 4),
        ("low27", 8),
        ("badugi", 3),
        ("badugi", 6),
        ("badugi27", 6),
    ],
)
def test_wrong_card_count_is_a_value_error(kind: str, count: int) -> None:
    with pytest.raises(ValueError, match=f"{kind}\\(\\) takes .* cards, got {count}"):
        EVALUATORS[kind](DECK[:count])


def test_describe_rejects_unknown_kinds_and_foreign_values() -> None:
    with pytest.raises(ValueError, match="unknown evaluator kind 'razz'"):
        describe("razz", high(cards("As Ks Qs Js Ts")))
    with pytest.raises(ValueError, match="is not a high value"):
        describe("high", 0)
    with pytest.raises(ValueError, match="is not a low8 value"):
        describe("low8", low_a5(cards("Kc Kd Kh Ks Qc")))
    with pytest.raises(ValueError, match="is not a badugi value"):
        describe("badugi", None)


@pytest.mark.parametrize("kind", ["high", "low_a5", "low8"])
@pytest.mark.parametrize("size", [6, 7])
def test_stud_evaluators_take_the_best_five_cards(kind: str, size: int) -> None:
    rng = random.Random(f"{kind}-{size}")
    evaluator = EVALUATORS[kind]
    for _ in range(2_000):
        hand = rng.sample(DECK, size)
        assert evaluator(hand) == best_of_fives(evaluator, hand), hand


def test_stud_evaluators_on_rank_heavy_hands() -> None:
    """Few ranks force quads, full houses and razz hands that must play a pair."""
    rng = random.Random("rank-heavy")
    for _ in range(2_000):
        ranks = rng.sample("23456789TJQKA", rng.randint(2, 4))
        hand = rng.sample([rank + suit for rank in ranks for suit in "cdhs"], 7)
        for evaluator in (high, low_a5, low8):
            assert evaluator(hand) == best_of_fives(evaluator, hand), hand


def reference_badugi(hand: Sequence[str]) -> tuple[int, list[int]]:
    """Brute force: (cards used, negated ace-low ranks highest first) is bigger when better."""
    for size in (4, 3, 2, 1):
        keys = [
            sorted(("A23456789TJQK".index(card[0]) for card in subset), reverse=True)
            for subset in combinations(hand, size)
            if len({card[0] for card in subset}) == len({card[1] for card in subset}) == size
        ]
        if keys:
            return size, [-rank for rank in min(keys)]
    raise AssertionError("one card is always a badugi")


def test_badugi_matches_brute_force_ordering() -> None:
    rng = random.Random("badugi")
    small_decks = [[rank + suit for rank in "A2345K" for suit in suits] for suits in ("cdh", "cd")]
    hands = [rng.sample(rng.choice(small_decks), 4) for _ in range(1_000)]
    hands += [rng.sample(DECK, 4) for _ in range(1_000)]
    ranked = sorted(hands, key=badugi)
    for lower, upper in pairwise(ranked):
        ours = badugi(lower) < badugi(upper)
        reference = reference_badugi(lower), reference_badugi(upper)
        assert reference[0] <= reference[1], (lower, upper)
        assert ours == (reference[0] < reference[1]), (lower, upper)


@settings(max_examples=300, deadline=None)
@given(
    hand=st.permutations(DECK).map(lambda deck: deck[:7]),
    suits=st.permutations("cdhs"),
    rng=st.randoms(use_true_random=False),
)
def test_values_ignore_card_order_and_suit_names(
    hand: list[str], suits: list[str], rng: random.Random
) -> None:
    rename = dict(zip("cdhs", suits, strict=True))
    for kind, evaluator in EVALUATORS.items():
        subset = hand[: SIZES[kind]]
        renamed = [card[0] + rename[card[1]] for card in subset]
        rng.shuffle(renamed)
        assert evaluator(subset) == evaluator(renamed)
