"""Throughput of the rules engine's replay as installed, against its target and two baselines.

Run from the repository root: ``.venv/bin/python benchmarks/replay.py``. The PokerStars hands
of ``../shared/corpus`` are parsed once (parsing is not timed), the in-scope records repeated to
at least ``HANDS`` replays, and only ``replay`` is timed (best of ``ROUNDS`` passes, one core).

The engine measured is the one installed: compiled by mypyc where the build found a C compiler
(setup.py), else the Python sources. The target (issue 15) is ``TARGET`` hands/s as installed;
the same run also measures the Python sources (a second interpreter with STUDDRAW_PURE=1) and
prints the ratio.

The baseline plays the corpus's fixed-limit stud, stud hi/lo and razz hands move by move in
pokerkit, with every card the export reveals (hidden ones as unknown cards). Hands pokerkit
cannot play (it has no 4th-street open-pair double bet, and cannot award a showdown between
unseen hands) are left out of that sample; studdraw replays the same sample for the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from time import perf_counter
from typing import Any

from pokerkit import (
    Automation,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    Mode,
)

from studdraw.parsers.model import EventKind, Game, HandRecord
from studdraw.parsers.reader import parse_file
from studdraw.pipeline.rules import replay, state

REPO = Path(__file__).resolve().parents[1]

CORPUS = REPO.parent / "shared" / "corpus"
HANDS = 20_000
TARGET = 20_000
ROUNDS = 5
POKERKIT_GAMES: dict[Game, Any] = {
    Game.STUD: FixedLimitSevenCardStud,
    Game.STUD8: FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    Game.RAZZ: FixedLimitRazz,
}
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
BETTING = {EventKind.FOLD, EventKind.CHECK, EventKind.CALL}
AGGRESSIVE = {EventKind.BRING_IN, EventKind.COMPLETE, EventKind.BET, EventKind.RAISE}


def stars_records() -> list[HandRecord]:
    files = [
        path
        for folder in ("cash/Stars", "tour/Stars")
        for path in sorted((CORPUS / folder).rglob("*"))
        if path.is_file() and path.suffix not in (".hp", ".gt", ".hands")
    ]
    return [parsed.record for path in files for parsed in parse_file(path) if parsed.record]


def pokerkit_play(record: HandRecord, hole: dict[str, list[str]]) -> None:
    """Play one stud record in pokerkit; `hole` holds each player's cards, "??" when hidden."""
    seats = sorted(record.seats, key=lambda seat: seat.seat)
    index = {seat.player: i for i, seat in enumerate(seats)}
    stakes = record.stakes
    state = POKERKIT_GAMES[record.game].create_state(
        AUTOMATIONS,
        False,
        stakes.ante,
        stakes.bring_in,
        stakes.small_bet,
        stakes.big_bet,
        [seat.stack for seat in seats],
        len(seats),
        mode=Mode.CASH_GAME,
    )
    dealt = dict.fromkeys(index, 0)
    for event in record.events:
        kind = event.kind
        player = event.player or ""
        if kind is EventKind.DEAL:
            if event.street == 4:
                continue  # dealt to everyone at the street marker
            count = len(event.cards)
            cards = hole[player][dealt[player] : dealt[player] + count]
            dealt[player] += count
            state.deal_hole("".join(cards), index[player])
        elif kind is EventKind.BRING_IN:
            state.post_bring_in()
        elif kind in AGGRESSIVE:
            state.complete_bet_or_raise_to(event.to)
        elif kind is EventKind.FOLD:
            state.fold()
        elif kind in BETTING:
            state.check_or_call()
        elif kind is EventKind.STREET and event.street == 4:
            for name, i in index.items():  # 7th-street cards are dealt unseen to opponents
                if state.statuses[i] and dealt[name] < 7:
                    state.deal_hole(hole[name][6], i)
                    dealt[name] += 1


def pokerkit_sample(records: Sequence[HandRecord]) -> list[tuple[HandRecord, dict[str, list[str]]]]:
    """The stud records pokerkit can play, each with every player's cards ("??" if hidden)."""
    sample = []
    for record in records:
        if record.game not in POKERKIT_GAMES:
            continue
        result = replay(record)
        hole = {
            p.player: [card or "??" for card in p.cards] + ["??"] * (7 - len(p.cards))
            for p in result.players
        }
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                pokerkit_play(record, hole)
        except (ValueError, KeyError, IndexError):
            continue
        sample.append((record, hole))
    return sample


def best_rate(run: Callable[[], int]) -> tuple[int, float]:
    """(hands, seconds) of the fastest of ROUNDS runs."""
    timings = []
    for _ in range(ROUNDS):
        start = perf_counter()
        hands = run()
        timings.append(perf_counter() - start)
    return hands, min(timings)


def sources_rate() -> float:
    """Hands/s of the Python sources on the same inflated corpus, in a second interpreter."""
    run = subprocess.run(
        [sys.executable, __file__, "--rate-only"],
        env={**os.environ, "STUDDRAW_PURE": "1"},
        check=True,
        capture_output=True,
        text=True,
    )
    return float(json.loads(run.stdout)["rate"])


def replay_all(batch: Sequence[HandRecord]) -> Callable[[], int]:
    def run() -> int:
        for record in batch:
            replay(record)
        return len(batch)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--rate-only", action="store_true", help="print the corpus rate alone, as JSON"
    )
    rate_only = parser.parse_args().rate_only
    if not CORPUS.is_dir():
        sys.exit(f"the shared corpus is not at {CORPUS}")
    records = stars_records()
    inflated = records * (HANDS // len(records) + 1)
    if rate_only:
        replay_all(records)()
        hands, seconds = best_rate(replay_all(inflated))
        print(json.dumps({"rate": hands / seconds, "engine": state.__file__}))
        return
    sample = pokerkit_sample(records)
    sample_records = [record for record, _ in sample]

    def pokerkit_all() -> int:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for record, hole in sample:
                pokerkit_play(record, hole)
        return len(sample)

    replay_all(records)()  # warm up: evaluator tables, house rules
    rows = [
        ("studdraw replay, Stars corpus", *best_rate(replay_all(inflated))),
        ("studdraw replay, pokerkit sample", *best_rate(replay_all(sample_records * 100))),
        ("pokerkit, same sample", *best_rate(pokerkit_all)),
    ]
    baseline = rows[-1][1] / rows[-1][2]
    compiled = not state.__file__ or not state.__file__.endswith(".py")
    print(f"engine: {'mypyc-compiled' if compiled else 'pure Python'} ({state.__file__})")
    print(f"{len(records)} in-scope PokerStars records; pokerkit sample: {len(sample)} stud hands")
    print(f"{'run':<34}{'hands':>8}{'seconds':>10}{'hands/s':>11}{'vs pokerkit':>13}")
    for name, hands, seconds in rows:
        rate = hands / seconds
        print(f"{name:<34}{hands:>8}{seconds:>10.3f}{rate:>11.0f}{rate / baseline:>12.1f}x")
    installed = rows[0][1] / rows[0][2]
    pure = sources_rate()
    verdict = "MET" if installed >= TARGET else "MISSED"
    print(
        f"replay as installed: {installed:,.0f} hands/s, target {TARGET:,}: {verdict}; "
        f"{installed / pure:.2f}x the Python sources ({pure:,.0f} hands/s, same run)"
    )


if __name__ == "__main__":
    main()
