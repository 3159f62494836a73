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
BoardEvaluator = Callable[[Sequence[str], Sequence[str]], int]

EVALUATORS: Final[dict[str, Evaluator]] = {
    "high": evaluators.high,
    "low_a5": evaluators.low_a5,
    "low8": evaluators.low8,
    "low27": evaluators.low27,
    "badugi": evaluators.badugi,
    "badugi27": evaluators.badugi27,
}
BOARD_EVALUATORS: Final[dict[str, BoardEvaluator]] = {"omaha_high": evaluators.omaha_high}
"""The evaluators that read the board besides the cards held (the games with a board)."""


def evaluate(name: str, hand: Sequence[str], board: Sequence[str]) -> int | None:
    """The value of `hand` by the evaluator `name` of a spec (with the board where it reads
    one)."""
    on_board = BOARD_EVALUATORS.get(name)
    return EVALUATORS[name](hand) if on_board is None else on_board(hand, board)


class _Pot(NamedTuple):
    """One pot as settled: its chips, who may win it, what each collector took from it, and,
    of the collects that name a run (a hand run twice), what each took in each run."""

    name: str
    amount: int
    eligible: tuple[int, ...]
    shares: dict[int, int]
    taken: int
    run_shares: dict[int, dict[int, int]]


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
    run_shares_by_pot: list[dict[int, dict[int, int]]] = [{} for _ in pots]
    collected = 0
    for player, amount, label, index, event_line, run in state.collects:
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
        if run:
            by_run = run_shares_by_pot[position].setdefault(run, {})
            by_run[player] = by_run.get(player, 0) + amount
    # Each run's hands: the shared cards, or in a hand run twice each run's own.
    hands = (
        [state.cards]
        if state.runs < 2
        else [state.run_cards(run) for run in range(1, state.runs + 1)]
    )
    if len(hands) > 1:
        state.check_kept_cards(hands)
    results: list[PotResult] = []
    for position, ((amount, eligible), shares) in enumerate(zip(pots, shares_by_pot, strict=True)):
        run_shares = run_shares_by_pot[position]
        pot = _Pot(pot_name(position), amount, eligible, shares, sum(shares.values()), run_shares)
        if pot.taken > amount:
            found.at(
                Code.MNY007,
                None,
                line,
                f"{money(pot.taken)} collected from the {pot.name} pot of {money(amount)}",
            )
        results.extend(_judge(state, pot, line, found, hands))
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


def _judge(
    state: HandState,
    pot: _Pot,
    line: int,
    found: _Problems,
    hands: list[list[list[str | None]]],
) -> list[PotResult]:
    """Check one pot's award against the best hands of each run (`hands`: each run's cards of
    every player, one run unless the hand was run twice); the pot's result entries."""
    names = state.names
    eligible_names = tuple([names[i] for i in pot.eligible])
    collectors = tuple([names[i] for i in pot.shares])
    undivided = [PotResult(pot.name, pot.amount, eligible_names, collectors, None, pot.taken)]
    if not pot.shares or not state.over:  # nothing awarded, or a hand cut short (STR005/STR006)
        return undivided
    runs = len(hands)
    if runs > 1 and not state.run_events:  # the collects name runs the export does not deal
        return _unseen_runs(state, pot, line, found, runs) or undivided
    awards: list[tuple[list[int], list[int]]] = []
    for run, cards in enumerate(hands, 1 if runs > 1 else 0):
        award = _best(state, pot, cards, line, found, run=run)
        if award is None:
            return undivided
        awards.append(award)
    if runs == 1:
        return _award(state, pot, line, found, awards[0], run=0)
    if not _names_runs(pot):
        return _award_runs(state, pot, line, found, awards)
    # The room said which run each collect is from: each run's award is checked alone.
    if not _run_takes_fit(state, pot, line, found, runs):
        return undivided
    results: list[PotResult] = []
    amounts = _run_split(pot.amount, runs)
    for run, (award, amount) in enumerate(zip(awards, amounts, strict=True), 1):
        shares = pot.run_shares.get(run, {})
        run_pot = _Pot(pot.name, amount, pot.eligible, shares, sum(shares.values()), {})
        results.extend(_award(state, run_pot, line, found, award, run=run))
    return results


def _names_runs(pot: _Pot) -> bool:
    """Whether every collect from the pot names its run."""
    return sum(sum(shares.values()) for shares in pot.run_shares.values()) == pot.taken


def _run_takes_fit(state: HandState, pot: _Pot, line: int, found: _Problems, runs: int) -> bool:
    """Whether each run's collects took that run's share of the pot (SHW007 where not)."""
    least, most = _bounds(pot.taken, runs)
    for run in range(1, runs + 1):
        taken = sum(pot.run_shares.get(run, {}).values())
        if not least <= taken <= most:
            found.at(
                Code.SHW007,
                None,
                line,
                f"{pot.name} pot: run {run} paid {state.money(taken)} of "
                f"{state.money(pot.taken)} run {runs} times",
            )
            return False
    return True


def _unseen_runs(
    state: HandState, pot: _Pot, line: int, found: _Problems, runs: int
) -> list[PotResult]:
    """A pot whose collects name their runs ("from main pot 1", Winning) where the export deals
    no run's cards of its own: the winners cannot be checked (SHW004), each run's take still
    is (SHW007); each run's result where every collect names its run."""
    found.at(
        Code.SHW004,
        None,
        line,
        f"the {pot.name} pot was run {runs} times; the export shows no run's own cards",
    )
    if not _names_runs(pot) or not _run_takes_fit(state, pot, line, found, runs):
        return []
    names = state.names
    eligible = tuple([names[i] for i in pot.eligible])
    results = []
    for run, amount in enumerate(_run_split(pot.amount, runs), 1):
        shares = pot.run_shares.get(run, {})
        won = tuple([names[i] for i in shares])
        results.append(PotResult(pot.name, amount, eligible, won, None, sum(shares.values()), run))
    return results


def _best(
    state: HandState,
    pot: _Pot,
    cards: list[list[str | None]],
    line: int,
    found: _Problems,
    *,
    run: int,
) -> tuple[list[int], list[int]] | None:
    """The players whose hands win the pot on `cards` (the high half's, the low half's), or
    None when the award cannot be checked (one player left claiming it, a hand not shown)."""
    names = state.names
    # Who still claims the pot: a hand mucked unseen at showdown is conceded.
    size = state.spec.hand_size
    known: dict[int, list[str]] = {}
    unknown: list[str] = []
    live: list[int] = []
    for i in pot.eligible:
        hand = [card for card in cards[i] if card is not None]
        if len(hand) == size:
            known[i] = hand
        elif state.mucked[i]:
            continue
        else:
            unknown.append(names[i])
        live.append(i)
    if len(live) < 2:
        return None
    if unknown:
        where = f"run {run} of the {pot.name} pot" if run else f"the {pot.name} pot"
        found.at(
            Code.SHW004, None, line, f"{where} cannot be checked: {', '.join(unknown)} did not show"
        )
        return None
    spec = state.spec
    board = [card for card in state.board_cards if card is not None]
    if len(board) != spec.community_cards:
        found.at(
            Code.SHW004,
            None,
            line,
            f"the {pot.name} pot cannot be checked: {len(board)} of the board's "
            f"{spec.community_cards} cards are known",
        )
        return None
    values = {i: evaluate(spec.best, hand, board) for i, hand in known.items()}
    top = max(v for v in values.values() if v is not None)
    high = [i for i in live if values[i] == top]
    low: list[int] = []
    if spec.split_low is not None:
        lows = {i: evaluate(spec.split_low, hand, board) for i, hand in known.items()}
        qualified = [v for v in lows.values() if v is not None]
        if qualified:
            best_low = max(qualified)
            low = [i for i in live if lows[i] == best_low]
    return high, low


def _award(
    state: HandState,
    pot: _Pot,
    line: int,
    found: _Problems,
    award: tuple[list[int], list[int]],
    *,
    run: int,
) -> list[PotResult]:
    """Check the collects of one pot (of one run, `run` > 0) against its winners."""
    names = state.names
    shares = pot.shares
    high, low = award
    eligible_names = tuple([names[i] for i in pot.eligible])
    collectors = tuple([names[i] for i in shares])
    undivided = [PotResult(pot.name, pot.amount, eligible_names, collectors, None, pot.taken, run)]
    if set(shares) != set(high) | set(low):
        code, message = _wrong_winner(state, pot, high, low)
        found.at(code, None, line, f"run {run}'s {message}" if run else message)
        return undivided
    taken = pot.taken
    high_half = taken - taken // 2 if low else taken
    low_half = taken // 2 if low else 0
    if not _fits(shares, [(high, high_half, high_half), (low, low_half, low_half)]):
        swapped = bool(low) and taken % 2 == 1
        swapped = swapped and _fits(
            shares, [(high, low_half, low_half), (low, high_half, high_half)]
        )
        if swapped and state.rules.odd_chip == "any":  # the house gives it to either half
            winners = ([names[i] for i in high], [names[i] for i in low])
            return _halves(pot, eligible_names, winners, taken=(low_half, high_half), run=run)
        code = Code.SHW003 if swapped else Code.SHW005
        detail = (
            "the odd chip went to the low half"
            if swapped
            else "tied hands did not share the pot evenly"
        )
        where = f"run {run}'s {pot.name} pot" if run else f"{pot.name} pot"
        found.at(code, None, line, f"{where}: {detail}")
        return undivided
    if not low:
        half = "hi" if state.spec.split_low is not None else None
        return [PotResult(pot.name, pot.amount, eligible_names, collectors, half, taken, run)]
    winners = ([names[i] for i in high], [names[i] for i in low])
    return _halves(pot, eligible_names, winners, taken=(high_half, low_half), run=run)


def _award_runs(
    state: HandState,
    pot: _Pot,
    line: int,
    found: _Problems,
    awards: list[tuple[list[int], list[int]]],
) -> list[PotResult]:
    """Check the collects of a pot run twice whose collects do not say their run (KingsClub's
    "Player1 wins pot (2,610)"): each player's take must be their share of every run they won,
    a run's share being the pot's take over the runs (the odd chip in the first run)."""
    names = state.names
    shares = pot.shares
    runs = len(awards)
    eligible_names = tuple([names[i] for i in pot.eligible])
    collectors = tuple([names[i] for i in shares])
    undivided = [PotResult(pot.name, pot.amount, eligible_names, collectors, None, pot.taken)]
    winners = {i for high, low in awards for i in high + low}
    least, most = _bounds(pot.taken, runs)
    groups: list[tuple[list[int], int, int]] = []
    for high, low in awards:
        if low:
            groups.extend(
                ((high, least - least // 2, most - most // 2), (low, least // 2, most // 2))
            )
        else:
            groups.append((high, least, most))
    if set(shares) == winners and _fits(shares, groups):
        results: list[PotResult] = []
        amounts, takes = _run_split(pot.amount, runs), _run_split(pot.taken, runs)
        for run, (high, low) in enumerate(awards, 1):
            run_pot = _Pot(pot.name, amounts[run - 1], pot.eligible, {}, takes[run - 1], {})
            taken = takes[run - 1]
            if low:
                each = ([names[i] for i in high], [names[i] for i in low])
                results.extend(
                    _halves(
                        run_pot,
                        eligible_names,
                        each,
                        taken=(taken - taken // 2, taken // 2),
                        run=run,
                    )
                )
                continue
            half = "hi" if state.spec.split_low is not None else None
            won = tuple([names[i] for i in high])
            results.append(
                PotResult(pot.name, run_pot.amount, eligible_names, won, half, taken, run)
            )
        return results
    best = "; ".join(
        f"run {run}: {', '.join(names[i] for i in high + low)}"
        for run, (high, low) in enumerate(awards, 1)
    )
    got = ", ".join(f"{names[i]} {state.money(amount)}" for i, amount in shares.items())
    code = Code.SHW001 if set(shares) != winners else Code.SHW007
    found.at(
        code,
        None,
        line,
        f"{pot.name} pot run {runs} times paid {got}; each run's winners are {best}",
    )
    return undivided


def _bounds(amount: int, runs: int) -> tuple[int, int]:
    """The least and the most one run's share of `amount` may be (the odd chips to some)."""
    return amount // runs, -(-amount // runs)


def _run_split(amount: int, runs: int) -> list[int]:
    """`amount` shared between `runs` runs, the odd chips to the first runs."""
    base, odd = divmod(amount, runs)
    return [base + (1 if run < odd else 0) for run in range(runs)]


def _halves(
    pot: _Pot,
    eligible: tuple[str, ...],
    winners: tuple[list[str], list[str]],
    *,
    taken: tuple[int, int],
    run: int = 0,
) -> list[PotResult]:
    """A split pot's high and low results: `winners` and what they `taken` from each half. The
    pot's odd chip counts in the half that took it (the high half by the rulebooks)."""
    odd = pot.amount % 2 if taken[1] > taken[0] else 0
    low_amount = pot.amount // 2 + odd
    high, low = winners
    return [
        PotResult(pot.name, pot.amount - low_amount, eligible, tuple(high), "hi", taken[0], run),
        PotResult(pot.name, low_amount, eligible, tuple(low), "lo", taken[1], run),
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


def _fits(shares: dict[int, int], groups: list[tuple[list[int], int, int]]) -> bool:
    """Whether each winner's take matches an even split of each group's chips: `groups` are
    (winners, the least and the most the group won), a half of a pot or a run's share; an odd
    chip of a tie may go to any of the tied players."""
    bounds: dict[int, list[int]] = {}
    for winners, least, most in groups:
        if not winners:
            continue
        count = len(winners)
        for i in winners:
            low_high = bounds.setdefault(i, [0, 0])
            low_high[0] += least // count
            low_high[1] += -(-most // count)
    return all(
        i in bounds and bounds[i][0] <= amount <= bounds[i][1] for i, amount in shares.items()
    )
