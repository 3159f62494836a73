"""Money out: the pots a hand's contributions make, the room's collects checked against them,
and the awards checked against the best hands where the cards are known.

Evaluators run only here, once per contender and pot, never in the per-event path. `settle`
reads the finished state and returns what it finds; it never writes into the state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final, NamedTuple

from studdraw.parsers.problems import Code, Problem, Stage
from studdraw.pipeline import evaluators

from .house import percent_text
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
    "badugi27": evaluators.badugi27,
}


class _Pot(NamedTuple):
    """One pot as settled: its chips, who may win it, and what each collector took from it."""

    name: str
    amount: int
    eligible: tuple[int, ...]
    shares: dict[int, int]
    taken: int


def build_pots(
    invested: Sequence[int],
    folded: Sequence[bool],
    all_in: Sequence[bool],
    dead: Sequence[int] = (),
) -> list[tuple[int, tuple[int, ...]]]:
    """(amount, eligible players) for the main pot then each side pot.

    Every all-in of a player still in the hand closes a pot at its level; players who folded
    feed the pots up to what they put in but are eligible for none. A dead blind (`dead`, per
    player) is in `invested` but is no level: it goes to the main pot, as the rulebooks say.
    """
    extra = sum(dead)
    live = [paid - gone for paid, gone in zip(invested, dead, strict=True)] if extra else invested
    contenders = [i for i in range(len(live)) if not folded[i]]
    top = max(live, default=0)
    all_ins = {live[i] for i in contenders if all_in[i]}
    if not all_ins or all_ins == {top}:  # the common case: one pot
        return [(sum(invested), tuple(contenders))] if top or extra else []
    pots: list[tuple[int, tuple[int, ...]]] = []
    previous = 0
    for level in sorted(all_ins | {top}):
        if level <= previous:
            continue
        amount = sum(min(paid, level) - min(paid, previous) for paid in live)
        # A player still in who is not all-in is eligible for every pot (only a malformed
        # record leaves them short of a level; their shortfall is reported where it happened).
        eligible = tuple(i for i in contenders if live[i] >= level or not all_in[i])
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        elif amount:
            pots.append((amount, eligible))
        previous = level
    if pots and extra:
        pots[0] = (pots[0][0] + extra, pots[0][1])
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


class _Problems:
    """The problems `settle` finds, hand-level unless located at a collect. (It holds its
    list rather than being one: mypyc compiles no subclass of a builtin type.)"""

    def __init__(self, street: int, path: str) -> None:
        self.street = street
        self.path = path
        self.problems: list[Problem] = []

    def at(self, code: Code, index: int | None, line: int, message: str) -> None:
        street = self.street if index is not None else None
        problem = Problem(code, Stage.REPLAY, self.path, line, message, street, index)
        self.problems.append(problem)


def settle(
    state: HandState,
    room_total: int | None,
    room_rake: int | None,
    tournament: bool,
    line: int,
) -> tuple[list[PotResult], int, int, list[Problem]]:
    """Check the money out; returns the pots, the computed total pot, the rake and the
    problems found."""
    found = _Problems(state.street, state.path)
    names = state.names
    money = state.money
    pots = build_pots(state.invested, state.folded, state.all_in, state.dead)
    total = state.pot
    shares_by_pot: list[dict[int, int]] = [{} for _ in pots]
    collected = 0
    for player, amount, label, index, event_line in state.collects:
        collected += amount
        position = _pot_position(label, len(pots))
        if position < 0 or player not in pots[position][1]:
            reason = "does not exist" if position < 0 else "is not theirs to win"
            found.at(
                Code.MNY005,
                index,
                event_line,
                f"{names[player]} collects {money(amount)} from the {label} pot, which {reason}",
            )
            continue
        shares = shares_by_pot[position]
        shares[player] = shares.get(player, 0) + amount
    results: list[PotResult] = []
    for position, ((amount, eligible), shares) in enumerate(zip(pots, shares_by_pot, strict=True)):
        pot = _Pot(pot_name(position), amount, eligible, shares, sum(shares.values()))
        if pot.taken > amount:
            found.at(
                Code.MNY007,
                None,
                line,
                f"{money(pot.taken)} collected from the {pot.name} pot of {money(amount)}",
            )
        results.extend(_judge(state, pot, line, found))
    rake = total - collected if room_rake is None else room_rake
    if room_total is not None and room_total != total:
        found.at(
            Code.MNY002,
            None,
            line,
            f"the room's total pot is {money(room_total)}, the bets make {money(total)}",
        )
    if collected + rake != total or rake < 0:
        found.at(
            Code.MNY003,
            None,
            line,
            f"{money(collected)} collected and {money(rake)} rake from a pot of {money(total)}",
        )
    if tournament and rake:
        found.at(Code.MNY008, None, line, f"a tournament hand raked {money(rake)}")
    percent = state.rules.rake_percent
    if (
        not tournament
        and percent is not None
        and rake * 100 * percent.denominator > total * percent.numerator
    ):
        found.at(
            Code.MNY006,
            None,
            line,
            f"rake {money(rake)} is above {percent_text(percent)} of the pot of {money(total)}",
        )
    return results, total, rake, found.problems


def _judge(state: HandState, pot: _Pot, line: int, found: _Problems) -> list[PotResult]:
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
        found.at(
            Code.SHW004,
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
        code, message = _wrong_winner(state, pot, high, low)
        found.at(code, None, line, message)
        return undivided
    taken = pot.taken
    high_half = taken - taken // 2 if low else taken
    low_half = taken // 2 if low else 0
    if not _shares_fit(shares, high, high_half, low, low_half):
        swapped = bool(low) and taken % 2 == 1
        swapped = swapped and _shares_fit(shares, high, low_half, low, high_half)
        if swapped and state.rules.odd_chip == "any":  # the house gives it to either half
            winners = ([names[i] for i in high], [names[i] for i in low])
            return _halves(pot, eligible_names, winners, taken=(low_half, high_half))
        code = Code.SHW003 if swapped else Code.SHW005
        detail = (
            "the odd chip went to the low half"
            if swapped
            else "tied hands did not share the pot evenly"
        )
        found.at(code, None, line, f"{pot.name} pot: {detail}")
        return undivided
    if not low:
        half = "hi" if spec.split_low is not None else None
        return [PotResult(pot.name, pot.amount, eligible_names, collectors, half, taken)]
    winners = ([names[i] for i in high], [names[i] for i in low])
    return _halves(pot, eligible_names, winners, taken=(high_half, low_half))


def _halves(
    pot: _Pot,
    eligible: tuple[str, ...],
    winners: tuple[list[str], list[str]],
    *,
    taken: tuple[int, int],
) -> list[PotResult]:
    """A split pot's high and low results: `winners` and what they `taken` from each half. The
    pot's odd chip counts in the half that took it (the high half by the rulebooks)."""
    odd = pot.amount % 2 if taken[1] > taken[0] else 0
    low_amount = pot.amount // 2 + odd
    high, low = winners
    return [
        PotResult(pot.name, pot.amount - low_amount, eligible, tuple(high), "hi", taken[0]),
        PotResult(pot.name, low_amount, eligible, tuple(low), "lo", taken[1]),
    ]


def _wrong_winner(state: HandState, pot: _Pot, high: list[int], low: list[int]) -> tuple[Code, str]:
    """Why an award is wrong: the code and its message."""
    names = state.names
    best = ", ".join(names[i] for i in high)
    got = ", ".join(names[i] for i in pot.shares)
    if state.spec.split_low is not None and set(high) <= set(pot.shares):
        if low:
            return Code.SHW002, (
                f"{pot.name} pot: the low half belongs to {', '.join(names[i] for i in low)}"
            )
        return Code.SHW002, f"{pot.name} pot: no low qualifies, yet the pot went to {got}"
    return Code.SHW001, f"{pot.name} pot awarded to {got}; the best hand is {best}"


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
