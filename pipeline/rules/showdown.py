"""Money out: the pots a hand's contributions make, the room's collects checked against them,
and the awards checked against the best hands where the cards are known.

Evaluators run only here, once per contender and pot, never in the per-event path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final, NamedTuple

from studdraw.pipeline import evaluators

from .result import PotResult

if TYPE_CHECKING:
    from .state import HandState

Evaluator = Callable[[Sequence[str]], int | None]

EVALUATORS: Final[dict[str, Evaluator]] = {
    "high": evaluators.high,
    "low_a5": evaluators.low_a5,
    "low8": evaluators.low8,
    "low27": evaluators.low27,
    "badugi": evaluators.badugi,
}


class _Pot(NamedTuple):
    """One pot as settled: its chips, who may win it, and what each collector took from it."""

    name: str
    amount: int
    eligible: tuple[int, ...]
    shares: dict[int, int]
    taken: int


def build_pots(
    invested: Sequence[int], folded: Sequence[bool], all_in: Sequence[bool]
) -> list[tuple[int, tuple[int, ...]]]:
    """(amount, eligible players) for the main pot then each side pot.

    Every all-in of a player still in the hand closes a pot at its level; players who folded
    feed the pots up to what they put in but are eligible for none.
    """
    contenders = [i for i in range(len(invested)) if not folded[i]]
    top = max(invested, default=0)
    all_ins = {invested[i] for i in contenders if all_in[i]}
    if not all_ins or all_ins == {top}:  # the common case: one pot
        return [(sum(invested), tuple(contenders))] if top else []
    pots: list[tuple[int, tuple[int, ...]]] = []
    previous = 0
    for level in sorted(all_ins | {top}):
        if level <= previous:
            continue
        amount = sum(min(paid, level) - min(paid, previous) for paid in invested)
        # A player still in who is not all-in is eligible for every pot (only a malformed
        # record leaves them short of a level; their shortfall is reported where it happened).
        eligible = tuple(i for i in contenders if invested[i] >= level or not all_in[i])
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        elif amount:
            pots.append((amount, eligible))
        previous = level
    return pots


def pot_name(position: int) -> str:
    return "main" if position == 0 else f"side{position}"


def _pot_position(label: str, count: int) -> int:
    """The position of a pot labelled "main" or "sideN" (a ":hi"/":lo" half of it counts as the
    pot) among `count` pots, or -1."""
    name = label.partition(":")[0]
    if name == "main":
        return 0 if count else -1
    number = name[4:]
    if name.startswith("side") and number.isdigit() and 0 < int(number) < count:
        return int(number)
    return -1


def settle(
    state: HandState,
    room_total: int | None,
    room_rake: int | None,
    tournament: bool,
    line: int,
) -> tuple[list[PotResult], int, int]:
    """Check the money out; returns the pots, the computed total pot and the rake."""
    names = state.names
    pots = build_pots(state.invested, state.folded, state.all_in)
    total = state.pot
    shares_by_pot: list[dict[int, int]] = [{} for _ in pots]
    collected = 0
    for player, amount, label, index, event_line in state.collects:
        collected += amount
        position = _pot_position(label, len(pots))
        if position < 0 or player not in pots[position][1]:
            reason = "does not exist" if position < 0 else "is not theirs to win"
            state.flag_at(
                "MNY005",
                index,
                event_line,
                f"{names[player]} collects {amount} from the {label} pot, which {reason}",
            )
            continue
        shares = shares_by_pot[position]
        shares[player] = shares.get(player, 0) + amount
    results: list[PotResult] = []
    for position, ((amount, eligible), shares) in enumerate(zip(pots, shares_by_pot, strict=True)):
        pot = _Pot(pot_name(position), amount, eligible, shares, sum(shares.values()))
        if pot.taken > amount:
            state.flag_at(
                "MNY007", None, line, f"{pot.taken} collected from the {pot.name} pot of {amount}"
            )
        results.extend(_judge(state, pot, line))
    rake = total - collected if room_rake is None else room_rake
    if room_total is not None and room_total != total:
        state.flag_at(
            "MNY002", None, line, f"the room's total pot is {room_total}, the bets make {total}"
        )
    if collected + rake != total or rake < 0:
        state.flag_at(
            "MNY003", None, line, f"{collected} collected and {rake} rake from a pot of {total}"
        )
    if tournament and rake:
        state.flag_at("MNY008", None, line, f"a tournament hand raked {rake}")
    percent = state.rules.rake_percent
    if (
        not tournament
        and percent is not None
        and rake * 100 * percent.denominator > total * percent.numerator
    ):
        state.flag_at(
            "MNY006", None, line, f"rake {rake} is above {percent}% of the pot of {total}"
        )
    return results, total, rake


def _judge(state: HandState, pot: _Pot, line: int) -> list[PotResult]:
    """Check one pot's award against the best hands; the pot's result entries."""
    names = state.names
    shares = pot.shares
    eligible_names = tuple([names[i] for i in pot.eligible])
    collectors = tuple([names[i] for i in shares])
    undivided = [PotResult(pot.name, pot.amount, eligible_names, collectors, None, pot.taken)]
    if not shares or not state.over:  # nothing awarded, or a hand cut short (STR005/STR006)
        return undivided
    # Who still claims the pot: a hand mucked unseen at showdown is conceded.
    size = state.spec.hand_size
    known: dict[int, list[str]] = {}
    unknown: list[str] = []
    live: list[int] = []
    for i in pot.eligible:
        hand = [card for card in state.cards[i] if card is not None]
        if len(hand) == size:
            known[i] = hand
        elif state.mucked[i]:
            continue
        else:
            unknown.append(names[i])
        live.append(i)
    if len(live) < 2:
        return undivided
    if unknown:
        state.flag_at(
            "SHW004",
            None,
            line,
            f"the {pot.name} pot cannot be checked: {', '.join(unknown)} did not show",
        )
        return undivided
    spec = state.spec
    best = EVALUATORS[spec.best]
    values = {i: best(hand) for i, hand in known.items()}
    top = max(v for v in values.values() if v is not None)
    high = [i for i in live if values[i] == top]
    low: list[int] = []
    if spec.split_low is not None:
        evaluate_low = EVALUATORS[spec.split_low]
        lows = {i: evaluate_low(hand) for i, hand in known.items()}
        qualified = [v for v in lows.values() if v is not None]
        if qualified:
            best_low = max(qualified)
            low = [i for i in live if lows[i] == best_low]
    if set(shares) != set(high) | set(low):
        _wrong_winner(state, pot, high, low, line)
        return undivided
    taken = pot.taken
    high_half = taken - taken // 2 if low else taken
    low_half = taken // 2 if low else 0
    if not _shares_fit(shares, high, high_half, low, low_half):
        swapped = bool(low) and taken % 2 == 1
        swapped = swapped and _shares_fit(shares, high, low_half, low, high_half)
        code = "SHW003" if swapped else "SHW005"
        detail = (
            "the odd chip went to the low half"
            if swapped
            else "tied hands did not share the pot evenly"
        )
        state.flag_at(code, None, line, f"{pot.name} pot: {detail}")
        return undivided
    if not low:
        half = "hi" if spec.split_low is not None else None
        return [PotResult(pot.name, pot.amount, eligible_names, collectors, half, taken)]
    high_names = tuple([names[i] for i in high])
    low_names = tuple([names[i] for i in low])
    low_amount = pot.amount // 2  # the odd chip stays with the high half
    return [
        PotResult(pot.name, pot.amount - low_amount, eligible_names, high_names, "hi", high_half),
        PotResult(pot.name, low_amount, eligible_names, low_names, "lo", low_half),
    ]


def _wrong_winner(state: HandState, pot: _Pot, high: list[int], low: list[int], line: int) -> None:
    names = state.names
    best = ", ".join(names[i] for i in high)
    got = ", ".join(names[i] for i in pot.shares)
    if state.spec.split_low is not None and set(high) <= set(pot.shares):
        if low:
            message = f"{pot.name} pot: the low half belongs to {', '.join(names[i] for i in low)}"
        else:
            message = f"{pot.name} pot: no low qualifies, yet the pot went to {got}"
        state.flag_at("SHW002", None, line, message)
    else:
        state.flag_at(
            "SHW001", None, line, f"{pot.name} pot awarded to {got}; the best hand is {best}"
        )


def _shares_fit(
    shares: dict[int, int], high: list[int], high_half: int, low: list[int], low_half: int
) -> bool:
    """Whether each winner's take matches an even split of each half (an odd chip of a tie may
    go to any of the tied players)."""
    bounds: dict[int, list[int]] = {}
    for winners, half in ((high, high_half), (low, low_half)):
        if not winners:
            continue
        base, odd = divmod(half, len(winners))
        for i in winners:
            low_high = bounds.setdefault(i, [0, 0])
            low_high[0] += base
            low_high[1] += base + (1 if odd else 0)
    return all(bounds[i][0] <= amount <= bounds[i][1] for i, amount in shares.items())
