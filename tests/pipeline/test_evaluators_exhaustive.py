"""Every five-card hand (and every four-card badugi hand) against the known class counts."""

from collections import Counter
from itertools import combinations, pairwise

import pytest

from studdraw.pipeline.evaluators import badugi, describe, high, low8, low27, low_a5

pytestmark = pytest.mark.slow  # 2.6 million hands an evaluator: `make test` runs them

DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
FIVE_CARD_HANDS = 2_598_960

# (category, hands, distinct classes), weakest category first.
HIGH_CATEGORIES = [
    ("high card", 1_302_540, 1_277),
    ("pair", 1_098_240, 2_860),
    ("two pair", 123_552, 858),
    ("three of a kind", 54_912, 858),
    ("straight", 10_200, 10),
    ("flush", 5_108, 1_277),
    ("full house", 3_744, 156),
    ("four of a kind", 624, 156),
    ("straight flush", 40, 10),
]
# Description prefixes, most specific first ("a straight flush" before "a straight").
PREFIXES = [
    ("a royal flush", "straight flush"),
    ("a straight flush", "straight flush"),
    ("four of a kind", "four of a kind"),
    ("a full house", "full house"),
    ("a flush", "flush"),
    ("a straight", "straight"),
    ("three of a kind", "three of a kind"),
    ("two pair", "two pair"),
    ("a pair", "pair"),
]


def high_category(value: int) -> str:
    """The category a high value belongs to, read back from its description."""
    text = describe("high", value)
    return next((name for prefix, name in PREFIXES if text.startswith(prefix)), "high card")


def test_high_gives_7462_classes_with_the_known_category_counts() -> None:
    counts = Counter(map(high, combinations(DECK, 5)))
    assert sum(counts.values()) == FIVE_CARD_HANDS
    assert len(counts) == 7_462

    hands: Counter[str] = Counter()
    values: dict[str, list[int]] = {name: [] for name, _, _ in HIGH_CATEGORIES}
    for value, count in counts.items():
        category = high_category(value)
        hands[category] += count
        values[category].append(value)
    assert [(name, hands[name], len(values[name])) for name, _, _ in HIGH_CATEGORIES] == (
        HIGH_CATEGORIES
    )
    # Each category's values lie strictly above every value of the weaker categories.
    bands = [(min(values[name]), max(values[name])) for name, _, _ in HIGH_CATEGORIES]
    assert all(top < bottom for (_, top), (bottom, _) in pairwise(bands))


def test_low27_gives_7462_classes_and_the_nuts_is_seven_five() -> None:
    counts = Counter(map(low27, combinations(DECK, 5)))
    assert len(counts) == 7_462  # the wheel is a plain ace-high hand, not a straight
    best, worst = max(counts), min(counts)
    assert describe("low27", best) == "7-5-4-3-2"
    assert counts[best] == 4**5 - 4  # every 7-5-4-3-2 except the four flushes
    assert describe("low27", worst) == "A-K-Q-J-T (straight flush)"


def test_low_a5_and_low8_class_counts() -> None:
    counts = Counter(map(low_a5, combinations(DECK, 5)))
    assert len(counts) == 6_175  # five ranks, at most four of each: C(17, 5) - 13
    assert describe("low_a5", max(counts)) == "5-4-3-2-A low"
    assert describe("low_a5", min(counts)) == "K-K-K-K-Q (four of a kind)"

    lows = Counter(map(low8, combinations(DECK, 5)))
    assert lows[None] == FIVE_CARD_HANDS - 56 * 4**5
    assert len(lows) == 56 + 1  # C(8, 5) qualifying classes and None


def test_badugi_gives_1092_classes_with_the_known_size_counts() -> None:
    counts = Counter(map(badugi, combinations(DECK, 4)))
    assert len(counts) == 715 + 286 + 78 + 13  # C(13, k) rank sets of 4, 3, 2 and 1 cards
    sizes: Counter[str] = Counter()
    for value, count in counts.items():
        sizes[describe("badugi", value).split()[0]] += count
    # 13*12*11*10 rank sequences over 4 distinct suits make the 4-card badugis.
    assert sizes["badugi"] == 13 * 12 * 11 * 10
    assert sum(sizes.values()) == 270_725
    assert describe("badugi", max(counts)) == "badugi 4-3-2-A"
    assert describe("badugi", min(counts)) == "1-card K"
