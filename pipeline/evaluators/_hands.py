"""The evaluators: sum (or OR) the cards' precomputed codes, then one or two table lookups."""

from collections.abc import Sequence
from itertools import combinations

from ._tables import (
    BADUGI27_CODES,
    BADUGI_CODES,
    CARD_SHIFT,
    CODES,
    FLUSH_BITS,
    LOW8_WORST,
    RANK_DIGITS,
    RANKS,
    SUIT_BIAS,
    SUIT_SHIFT,
    SUITS,
    badugi_table,
    high_tables,
    low27_tables,
    low_a5_table,
)

_STUD = range(5, 8)
_FIVE = range(5, 6)
_BADUGI = range(4, 6)
_HOLE = range(2, 7)
_BOARD = range(3, 6)


def _card_error(cards: Sequence[str]) -> ValueError:
    """Name the first card string that is not a card, or else the first repeated card."""
    seen: set[str] = set()
    for card in cards:
        if card not in CODES:
            return ValueError(
                f"invalid card {card!r} in {list(cards)}: "
                f"expected a rank from {RANKS!r} then a suit from {SUITS!r}, like 'As'"
            )
        if card in seen:
            return ValueError(f"duplicate card {card!r} in {list(cards)}")
        seen.add(card)
    raise AssertionError(f"no bad card in {list(cards)}")


def _count_error(name: str, sizes: range, cards: Sequence[str]) -> ValueError:
    """Explain a wrong number of cards for one evaluator."""
    wanted = f"{sizes[0]} to {sizes[-1]}" if len(sizes) > 1 else str(sizes[0])
    return ValueError(f"{name}() takes {wanted} cards, got {len(cards)}: {list(cards)}")


def _encode(cards: Sequence[str], sizes: range, name: str) -> int:
    """Sum the cards' codes after checking the card count, every card string and duplicates.

    A repeated card carries in the one-bit-per-card field, which then has fewer set bits
    than there are cards: duplicates cost one popcount instead of building a set.
    """
    try:
        total = sum(map(CODES.__getitem__, cards))
    except KeyError:
        raise _card_error(cards) from None
    if len(cards) not in sizes:
        raise _count_error(name, sizes, cards)
    if (total >> CARD_SHIFT).bit_count() != len(cards):
        raise _card_error(cards)
    return total


def _flush_suit_mask(total: int) -> int:
    """Rank mask of the suit holding five or more of the cards, or -1 when there is none.

    At most seven cards means at most one such suit; its flag is the highest set bit.
    """
    flags = (total + SUIT_BIAS) & FLUSH_BITS
    if not flags:
        return -1
    suit = (flags.bit_length() - SUIT_SHIFT - 4) >> 2
    return (total >> (CARD_SHIFT + 13 * suit)) & 0x1FFF


def high(cards: Sequence[str]) -> int:
    """Best five-card high hand out of 5 to 7 cards; higher is better.

    Once five cards share a suit no full house or quads fit in seven cards, so the flush
    table alone decides; otherwise the rank multiset does.
    """
    total = _encode(cards, _STUD, "high")
    flush, ranks = high_tables()
    mask = _flush_suit_mask(total)
    return flush[mask] if mask >= 0 else ranks[total & RANK_DIGITS]


def omaha_high(hole: Sequence[str], board: Sequence[str]) -> int:
    """Best Omaha high hand (drawmaha's board half): exactly two of the `hole` cards (2 to 6)
    with exactly three of the `board` (3 to 5); the values of `high`, so the two compare.

    Each of the (at most) 15 x 10 pairings is one five-card lookup, as `high` does for five
    cards: a flush needs all five of one suit, which the flush flag of five cards tells."""
    if len(hole) not in _HOLE:
        raise _count_error("omaha_high", _HOLE, hole)
    if len(board) not in _BOARD:
        raise _count_error("omaha_high", _BOARD, board)
    every = [*hole, *board]
    try:
        codes = [CODES[card] for card in every]
    except KeyError:
        raise _card_error(every) from None
    if (sum(codes) >> CARD_SHIFT).bit_count() != len(codes):
        raise _card_error(every)
    flush, ranks = high_tables()
    pairs = [a + b for a, b in combinations(codes[: len(hole)], 2)]
    triples = [a + b + c for a, b, c in combinations(codes[len(hole) :], 3)]
    best = 0
    for pair in pairs:
        for triple in triples:
            total = pair + triple
            mask = _flush_suit_mask(total)
            value = flush[mask] if mask >= 0 else ranks[total & RANK_DIGITS]
            best = max(best, value)
    return best


def low_a5(cards: Sequence[str]) -> int:
    """Best ace-to-five low out of 5 to 7 cards (razz, A-5 triple draw); higher is better.

    Suits never matter, so one lookup by rank multiset, pairs included, decides.
    """
    return low_a5_table()[_encode(cards, _STUD, "low_a5") & RANK_DIGITS]


def low8(cards: Sequence[str]) -> int | None:
    """Best eight-or-better low out of 5 to 7 cards, or None when none qualifies.

    If any five distinct ranks of 8 or under exist, the best ace-to-five low is such a hand,
    so the qualifier is a single comparison; values equal ``low_a5`` for qualifying hands.
    """
    value = low_a5_table()[_encode(cards, _STUD, "low8") & RANK_DIGITS]
    return value if value >= LOW8_WORST else None


def low27(cards: Sequence[str]) -> int:
    """Best deuce-to-seven low out of 5 to 7 cards (2-7 draw games, 2-7 razz): aces high,
    straights and flushes count against. Seven cards are scored as their best five (21 lookups);
    the draw games hold five."""
    total = _encode(cards, _STUD, "low27")
    if len(cards) == 5:
        return _low27_five(total)
    codes = [CODES[card] for card in cards]
    return max([_low27_five(sum(five)) for five in combinations(codes, 5)])


def _low27_five(total: int) -> int:
    flush, ranks = low27_tables()
    mask = _flush_suit_mask(total)
    return flush[mask] if mask >= 0 else ranks[total & RANK_DIGITS]


def badugi(cards: Sequence[str]) -> int:
    """Badugi value of 4 cards, or of the best four of 5 (badacey), aces low: more cards beat
    fewer, then lower is better."""
    return _badugi(cards, BADUGI_CODES, "badugi")


def badugi27(cards: Sequence[str]) -> int:
    """Badugi with the ace high (badeucey's badugi half: 2-3-4-5 is the best), of 4 or 5 cards;
    the values of `badugi`'s table with the ranks ordered 2 to ace."""
    return _badugi(cards, BADUGI27_CODES, "badugi27")


def _badugi(cards: Sequence[str], table_codes: dict[str, int], name: str) -> int:
    if len(cards) not in _BADUGI:
        raise _count_error(name, _BADUGI, cards)
    try:
        # (A list, not `map`: compiled by mypyc, unpacking a map loses the KeyError.)
        codes = [table_codes[card] for card in cards]
    except KeyError:
        raise _card_error(cards) from None
    if len(set(codes)) != len(codes):
        raise _card_error(cards)
    if len(codes) == 4:
        return _badugi_four(codes[0], codes[1], codes[2], codes[3])
    return max([_badugi_four(a, b, c, d) for a, b, c, d in combinations(codes, 4)])


def _badugi_four(a: int, b: int, c: int, d: int) -> int:
    """The best valid subset of four cards' codes: a subset is valid when OR-ing its codes sets
    two bits per card (distinct suits and ranks); the best valid subset of the largest size
    wins, and one card always is valid."""
    table = badugi_table()
    every = a | b | c | d
    if every.bit_count() == 8:
        return table[every >> 4]
    triples = (a | b | c, a | b | d, a | c | d, b | c | d)
    best = max([table[m >> 4] for m in triples if m.bit_count() == 6], default=0)
    if best:
        return best
    pairs = (a | b, a | c, a | d, b | c, b | d, c | d)
    best = max([table[m >> 4] for m in pairs if m.bit_count() == 4], default=0)
    return best or table[min(a, b, c, d) >> 4]
