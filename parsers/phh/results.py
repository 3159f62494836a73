"""A PHH hand's result: what the file states (`winnings`, `finishing_stacks`) made into collects,
and checked against the play.

PHH states a result in two ways, either or both: `winnings` (what each player collected, after
rake) and `finishing_stacks` (each stack once the hand is over; pokerkit's own data states only
these). A player's winnings are then their finishing stack less what the play leaves them
(`Play.stacks` once the betting is over). A file that states both must agree with its play:
where it does not, the record carries PHH001 and the winnings stand. A result in per-player sums
is shared out over the pots the play makes (`share_out`), so the rules engine judges each pot's
winners like a room's collects. A hand that states no result is won by the last player left when
everyone else folded; at a showdown nobody collects, the hand says so (PHH002) and the reader
books no rake (a pot is never taken as rake because a result was missing).
"""

from __future__ import annotations

from collections.abc import Sequence

from studdraw.parsers.phh.play import Play
from studdraw.parsers.problems import Code, Problem, Stage

Pot = tuple[int, tuple[int, ...]]
"""A pot's chips and the players who may win it (in PHH order)."""


def pots(
    invested: Sequence[int], folded: Sequence[bool], all_in: Sequence[bool], dead: Sequence[int]
) -> list[Pot]:
    """The main pot then each side pot, as the rules engine builds them: every all-in of a
    player still in closes a pot at its level; folded players feed the pots they reached and
    are eligible for none; dead money goes to the main pot."""
    live = [paid - gone for paid, gone in zip(invested, dead, strict=True)]
    contenders = [i for i in range(len(live)) if not folded[i]]
    levels = sorted({live[i] for i in contenders if all_in[i]} | {max(live, default=0)})
    found: list[Pot] = []
    previous = 0
    for level in levels:
        if level <= previous:
            continue
        amount = sum(min(paid, level) - min(paid, previous) for paid in live)
        eligible = tuple(i for i in contenders if live[i] >= level or not all_in[i])
        if found and found[-1][1] == eligible:
            found[-1] = (found[-1][0] + amount, eligible)
        elif amount:
            found.append((amount, eligible))
        previous = level
    if found and sum(dead):
        found[0] = (found[0][0] + sum(dead), found[0][1])
    return found


def pot_label(position: int) -> str:
    return "main" if position == 0 else f"side{position}"


def share_out(winnings: Sequence[int], made: Sequence[Pot]) -> list[tuple[int, str, int]]:
    """Each player's winnings as collects from the pots (player, pot, amount), main pot first.

    The pots are shared from the last side pot down, each among its eligible players with
    winnings left, in equal parts as far as their winnings go: the winner of a pot also wins
    every later pot they are eligible for (the best hand among more players is the best among
    fewer), so the players still owed something at a side pot are its winners. Winnings beyond
    every pot a player may win are collected from the main pot, where the rules engine
    reports them (a collect beyond the pot, or from a pot not theirs)."""
    left = list(winnings)
    shares: dict[tuple[int, int], int] = {}
    for position in range(len(made) - 1, -1, -1):
        amount, eligible = made[position]
        owed = sorted((i for i in eligible if left[i] > 0), key=lambda i: (left[i], i))
        for k, i in enumerate(owed):
            take = min(left[i], amount // (len(owed) - k) + (amount % (len(owed) - k) > 0))
            if take:
                shares[(position, i)] = take
                left[i] -= take
                amount -= take
    for i, amount in enumerate(left):
        if amount > 0:
            shares[(0, i)] = shares.get((0, i), 0) + amount
    return [(i, pot_label(position), amount) for (position, i), amount in sorted(shares.items())]


def settle(
    play: Play,
    winnings: Sequence[int] | None,
    finishing: Sequence[int] | None,
    collects: Sequence[tuple[int, str, int]] | None,
    where: tuple[str, int],
) -> tuple[list[Problem], bool]:
    """End the play with the file's result: its collects (studdraw's `_collects`), else its
    winnings, else the winnings its finishing stacks imply. Returns the problems found and
    whether the file states a result at all."""
    path, line = where
    problems: list[Problem] = []
    play.end_betting()
    left = list(play.stacks)
    names = play.names
    if collects is None:
        if winnings is not None:
            owed = list(winnings)
        elif finishing is not None:
            owed = [max(end - now, 0) for end, now in zip(finishing, left, strict=True)]
        else:
            return _unstated(play, path, line), False
        dead = list(play.dead)
        if play.table_ante >= 0:
            dead[play.table_ante] += play.anted[play.table_ante]
        made = pots(play.invested, play.folded, [stack == 0 for stack in left], dead)
        collects = share_out(owed, made)
    play.collect(collects)
    if finishing is not None:
        won = [0] * len(left)
        for i, _, amount in collects:
            won[i] += amount
        for i, (end, now, taken) in enumerate(zip(finishing, left, won, strict=True)):
            if end != now + taken:
                message = (
                    f"{names[i]} finishes with {end} in the file; the play leaves {now}"
                    f" and {names[i]} collects {taken}"
                )
                problems.append(Problem(Code.PHH001, Stage.PARSE, path, line, message))
    return problems, True


def _unstated(play: Play, path: str, line: int) -> list[Problem]:
    """No result in the file: everyone else folded, the last player in wins every pot; at a
    showdown nobody collects, and the hand says so."""
    still_in = [i for i, folded in enumerate(play.folded) if not folded]
    total = sum(play.invested)
    if len(still_in) == 1:
        if total:
            play.collect([(still_in[0], "main", total)])
        return []
    message = (
        f"the file states neither winnings nor finishing stacks, and the pot of {total} goes"
        " to a showdown: nobody collects it"
    )
    return [Problem(Code.PHH002, Stage.PARSE, path, line, message)]
