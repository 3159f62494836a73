"""The summary held against the play: what a hand's summary says each player won (or netted),
and how it splits the pot into main and side pots (the record's `claims`, read by the rooms
whose summary states them), against what the collects paid out. A summary that disagrees with
its own hand is a defect of the export (SUM001-SUM003); the room's "Total pot" is checked apart
(MNY002)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from studdraw.parsers.model import EventKind, HandRecord
from studdraw.parsers.problems import Code, Problem, Stage

from .result import PlayerResult


def check_claims(record: HandRecord, players: Sequence[PlayerResult] = ()) -> list[Problem]:
    """The problems of a record's summary claims: a winner it names who collected nothing (or
    a collector it says won nothing), an amount won unlike the collects, a pot's size unlike
    what was collected from it. A net result is made an amount won with what the replay says
    the player put in (`players`, uncalled returns taken off)."""
    if not record.claims:
        return []
    by_player: Counter[str] = Counter()
    by_pot: Counter[str] = Counter()
    for event in record.events:
        if event.kind is EventKind.COLLECT and event.player is not None:
            by_player[event.player] += event.amount
            by_pot[(event.pot or "main").partition(":")[0]] += event.amount
    invested = {result.player: result.invested for result in players}
    # A player's lines add up (Winamax prints one line per half of a hi/lo pot); the first
    # line is where the claim is.
    said: dict[str, tuple[int, int]] = {}
    nets: dict[str, tuple[int, int]] = {}
    for claim in record.claims:
        if claim.player is None:
            continue
        kept = nets if claim.net else said
        line, amount = kept.get(claim.player, (claim.line, 0))
        kept[claim.player] = (line, amount + claim.amount)
    path = record.source.path
    problems: list[Problem] = []
    for player, (line, amount) in said.items():
        got = by_player[player]
        if amount != got:
            code = Code.SUM001 if (amount == 0) != (got == 0) else Code.SUM002
            message = f"the summary says {player} won {amount}; the collects pay {got}"
            problems.append(Problem(code, Stage.REPLAY, path, line, message))
    for player, (line, net) in nets.items():
        if player not in invested:
            continue  # not dealt in: the replay's own problems say so
        got, put_in = by_player[player], invested[player]
        if net + put_in != got:
            code = Code.SUM001 if (net + put_in <= 0) != (got == 0) else Code.SUM002
            message = (
                f"the summary says {player} netted {net} (won {net + put_in}, having put in"
                f" {put_in}); the collects pay {got}"
            )
            problems.append(Problem(code, Stage.REPLAY, path, line, message))
    for claim in record.claims:
        if claim.pot is not None:
            got = by_pot[claim.pot]
            if claim.amount == got:
                continue
            message = f"the summary's {claim.pot} pot is {claim.amount}; {got} was collected"
            problems.append(Problem(Code.SUM003, Stage.REPLAY, path, claim.line, message))
    return problems
