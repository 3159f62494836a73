"""Every corpus hand exported as PHH, loaded by pokerkit (an independent engine, test-only) and
played to the end: the final stacks must be studdraw's (the winners' surplus equal to the
room's rake, which pokerkit does not take).

A hand is left out only for a reason read from the hand itself, where pokerkit's rules are not
the room's (docs/phh.md lists them with the corpus counts): a variant PHH has no code for, an
illegal hand, the 4th-street open-pair double bet, more raises than pokerkit's cap, blinds
posted out of position, a short all-in ante or blind (pokerkit calls the short blind, rooms the
full one), a bet or raise when everyone left is all-in (pokerkit refuses it; the rules engine
takes it back as uncalled), a community card, a tie between equal stud boards (pokerkit ranks
suits its own way), a split pot with odd chips or shared halves, and a hand run twice (a draw
game's runs are studdraw's `_runs`, which pokerkit does not read).

PHH's one single-draw code, N2L1D (no-limit 2-7 single draw), is checked on the corpus and on
random legal hands.
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from collections.abc import Iterator
from decimal import Decimal
from typing import Final

import pytest
from pokerkit import HandHistory

from studdraw.parsers.files import discover_files
from studdraw.parsers.model import EventKind, Game, HandRecord, Structure
from studdraw.parsers.phh.vocabulary import SPEC_VARIANTS, players_in_order
from studdraw.parsers.reader import parse_file
from studdraw.pipeline.phh import dumps, phh_fields, variant_code
from studdraw.pipeline.rules import ReplayResult, replay
from studdraw.pipeline.rules.boards import board_key
from studdraw.pipeline.rules.generate import random_hand
from tests.conftest import CORPUS

POKERKIT_CAP: Final = 4  # completions, bets and raises per street in fixed limit
_WAGERS: Final = frozenset({EventKind.BET, EventKind.RAISE, EventKind.COMPLETE})


def corpus_records() -> Iterator[HandRecord]:
    if not CORPUS.is_dir():
        pytest.skip(f"the shared corpus is not at {CORPUS}")
    for path in discover_files([CORPUS]):
        for parsed in parse_file(path):
            if parsed.record is not None:
                yield parsed.record


def pokerkit_gap(record: HandRecord, result: ReplayResult) -> str | None:
    """Why pokerkit cannot replay the hand as the room played it, or None."""
    if variant_code(record.game, record.structure) not in SPEC_VARIANTS:
        return "no PHH variant code"
    if any(v.severity == "error" for v in result.problems):
        return "illegal hand"
    if record.stakes.small_bet == 0:
        return "no bet sizes in the export"
    if record.runs > 1:  # PHH's draws and shows are one run's; the others are studdraw's `_runs`
        return "a hand run twice"
    return _event_gap(record) or _showdown_gap(record, result)


def _event_gap(record: HandRecord) -> str | None:
    order = [seat.player for seat in players_in_order(record)]
    blind_seats = set(order[:2])  # PHH's p1 and p2: the blinds (heads-up too, reversed)
    up_cards = {player for player in order if not record.game.is_stud}
    wagers: Counter[int] = Counter()
    highest: dict[int, int] = {}
    short_raise: set[int] = set()  # streets with an all-in raise short of a full one
    out: set[str | None] = set()  # players folded or all-in
    for event in record.events:
        kind = event.kind
        if kind in _WAGERS and set(order) - out <= {event.player}:
            return "a bet or raise no one left can answer"
        if kind is EventKind.FOLD or event.all_in:
            out.add(event.player)
        if kind in (EventKind.SMALL_BLIND, EventKind.BIG_BLIND) and event.all_in:
            return "short all-in blind"
        if kind in (EventKind.POST, EventKind.DEAD) or (
            kind in (EventKind.SMALL_BLIND, EventKind.BIG_BLIND) and event.player not in blind_seats
        ):
            return "blind posted out of position"
        if kind is EventKind.COMMUNITY:
            return "community card"
        if kind is EventKind.ANTE and event.all_in:
            return "short all-in ante"
        if (
            kind is EventKind.DEAL
            and event.street == 0
            and any(card for card, up in zip(event.cards, event.up, strict=True) if up)
        ):
            up_cards.add(event.player)
        if kind in _WAGERS:
            wagers[event.street] += 1
            unit = record.stakes.small_bet if event.street < 2 else record.stakes.big_bet
            to = event.to or 0
            increment = to - highest.get(event.street, 0)
            if event.street in short_raise:
                return "a raise after an all-in raise short of a full raise"
            if event.all_in and increment < unit:
                short_raise.add(event.street)
            highest[event.street] = max(highest.get(event.street, 0), to)
            if record.game.is_stud and event.street == 1 and increment > record.stakes.small_bet:
                return "open-pair double bet"
        elif event.to is not None:
            highest[event.street] = max(highest.get(event.street, 0), event.to)
    if record.game.is_stud and len(up_cards) < len(order):
        return "a door card the export does not show"
    if any(count > POKERKIT_CAP for count in wagers.values()):
        return "more raises than pokerkit's cap"
    return None


def _showdown_gap(record: HandRecord, result: ReplayResult) -> str | None:
    if record.game.is_stud and _tied_boards(record, result):
        return "tie between equal stud boards"
    for pot in result.pots:
        if pot.half is not None and (pot.collected % 2 or len(pot.winners) > 1):
            return "split pot with odd chips or shared halves"
    return None


def _tied_boards(record: HandRecord, result: ReplayResult) -> bool:
    ace_low = record.game is Game.RAZZ
    for street in result.streets[1:]:
        boards = [
            board_key([c for c, up in zip(p.cards, p.up, strict=True) if up and c], ace_low)
            for p in street.players
            if not p.folded
        ]
        best = min(boards) if ace_low else max(boards)
        if boards.count(best) > 1:
            return True
    return False


def pokerkit_difference(record: HandRecord) -> str | None:
    """Load the exported hand in pokerkit, play it out, compare the final stacks."""
    fields = dict(phh_fields(record))
    expected = [Decimal(v) for v in fields["finishing_stacks"].strip("[]").split(", ")]
    rake = Decimal(fields.get("_rake", "0"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            final = list(HandHistory.loads(dumps(record)))[-1]
        except (ValueError, KeyError) as error:
            return f"pokerkit refused it: {type(error).__name__}: {error}"
    surplus = [Decimal(got) - want for got, want in zip(final.stacks, expected, strict=True)]
    if all(s == 0 for s in surplus) or (min(surplus) >= 0 and sum(surplus) == rake):
        return None
    return f"final stacks differ by {[str(s) for s in surplus]} (rake {rake})"


def test_pokerkit_replays_every_exported_corpus_hand_it_supports() -> None:
    gaps: Counter[str] = Counter()
    failures: list[str] = []
    played = 0
    for record in corpus_records():
        gap = pokerkit_gap(record, replay(record))
        if gap is not None:
            gaps[gap] += 1
            continue
        played += 1
        difference = pokerkit_difference(record)
        if difference is not None:
            failures.append(f"{record.room} {record.room_hand_id}: {difference}")
    assert not failures, "\n".join(failures)
    assert played >= 300, (played, gaps)  # the corpus has 388 hands; most are plain


def test_pokerkit_agrees_on_no_limit_single_draw() -> None:
    """The corpus' no-limit 2-7 single draw hands (PokerStars, Full Tilt) and random legal ones
    play out in pokerkit to studdraw's stacks."""
    corpus = [r for r in corpus_records() if r.game is Game.SD27]
    rng = random.Random(5)
    generated = [random_hand(Game.SD27, Structure.NO, rng.randint(2, 6), rng) for _ in range(60)]
    played: Counter[str] = Counter()
    for source, records in (("corpus", corpus), ("random", generated)):
        for record in records:
            if pokerkit_gap(record, replay(record)) is None:
                assert pokerkit_difference(record) is None, (source, record.room_hand_id)
                played[source] += 1
    assert played["corpus"] >= 4 and played["random"] >= 40, played
