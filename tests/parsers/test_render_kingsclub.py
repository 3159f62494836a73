"""Round trips through the KingsClub renderer for the posts out of turn the room's reader reads:
"posts blind" (a live post and its implied dead small blind), "posts straddle", and a draw
game's missed small blind, paid dead with no line (the summary's net implies it). Each such hand
is written in KingsClub's own text and reads back as the same record; a dead post that no
KingsClub line gives back is still written in PokerStars' format (which keeps the seats and the
betting, though it has no line for such a post either).

The corpus's hands of that kind (found by their events, not named) round-trip with their lines;
the handwritten ones are written in the renderer's own form, so they come back byte for byte.
"""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Final

import pytest

from studdraw.dashboard.hand_text import hand_text
from studdraw.parsers.files import discover_files
from studdraw.parsers.model import Event, EventKind, HandRecord
from studdraw.parsers.reader import parse_file
from studdraw.parsers.render.kingsclub import kingsclub_can_render, render_kingsclub
from studdraw.pipeline.hand_text import record_text
from studdraw.pipeline.rules import replay
from tests.conftest import corpus_file, one_hand_rows, parse_record
from tests.parsers.records import comparable
from tests.pipeline.test_phh_roundtrip import read_back

_POSTS: Final = frozenset({EventKind.POST, EventKind.DEAD})


def posts(record: HandRecord) -> list[tuple[str, str | None, int]]:
    return [(str(e.kind), e.player, e.amount) for e in record.events if e.kind in _POSTS]


def errors(record: HandRecord) -> list[str]:
    return [str(p.code) for p in replay(record).problems if p.severity == "error"]


def round_trip(record: HandRecord) -> HandRecord:
    """The record written in KingsClub's text and read back."""
    assert kingsclub_can_render(record)
    return parse_record(render_kingsclub(record, record.hero), "kingsclub")


# --- the corpus -----------------------------------------------------------------------------


def corpus_records() -> list[HandRecord]:
    """Every parsed KingsClub corpus hand, file by file."""
    folder = corpus_file("cash", "KingsClub")
    return [
        parsed.record
        for path in sorted(discover_files([folder]))
        for parsed in parse_file(path)
        if parsed.record is not None
    ]


def corpus_posts() -> list[HandRecord]:
    """Every parsed KingsClub corpus hand that holds a post out of turn or a dead post."""
    return [record for record in corpus_records() if posts(record)]


def test_the_corpus_hands_with_dead_or_posted_blinds_round_trip() -> None:
    """#3516416 (`...missed.sb.txt`): the missed small blind stays unprinted, every line where
    the room printed it (the event lines compared too)."""
    records = corpus_posts()
    assert records, "no KingsClub corpus hand with a dead or posted blind"
    for record in records:
        again = round_trip(record)
        assert comparable(again) == comparable(record)
        assert again.events == record.events
        assert posts(again) == posts(record)


def marked(record: HandRecord) -> HandRecord:
    """The record with the streets a marker opens named by it: KingsClub's older exports (an
    A-5 single draw of 2021) print no street markers, and the reader names the streets it
    infers so; the renderer writes the current export's markers."""
    events = [
        dataclasses.replace(e, text="marker")
        if e.kind is EventKind.STREET and "inferred" in (e.text or "")
        else e
        for e in record.events
    ]
    return dataclasses.replace(record, events=events)


def test_every_corpus_hand_round_trips_run_twice_hands_too() -> None:
    """Every KingsClub corpus hand the format holds, written and read back, is the same hand,
    its events included: the four run-twice hands' shows and draws keep their runs ("Run 2:
    Hero shows", "Hero discards [Th] draws [8c] [Qs]"; they came back as run 0)."""
    records = corpus_records()
    assert len(records) == 18 and all(kingsclub_can_render(record) for record in records)
    runs = [record for record in records if any(e.run for e in record.events)]
    assert len(runs) == 4
    for record in records:
        expected = marked(record)
        again = round_trip(record)
        assert len(again.events) == len(expected.events), record.room_hand_id
        again.events = [
            dataclasses.replace(e, text="marker") if m.text == "marker" else e
            for e, m in zip(again.events, expected.events, strict=True)
        ]
        assert comparable(again) == comparable(expected), record.room_hand_id


def test_a_stored_hand_with_a_missed_blind_is_written_back_in_kingsclubs_format(
    tmp_path: Path,
) -> None:
    """The replayer's text of #3516416 once its file is gone: KingsClub's, not PokerStars'."""
    name = "NL-2-7-SD-USD-125-250-202103.missed.sb.txt"
    source = tmp_path / name
    shutil.copy(corpus_file("cash", "KingsClub", "Draw", name), source)
    header, seats, actions = one_hand_rows(source, tmp_path / "store.duckdb")
    source.unlink()
    moved = hand_text(header, seats, actions)
    assert "in KingsClub's format" in moved.origin
    assert "Player0 raises to 500" in moved.text
    original = parse_record(corpus_file("cash", "KingsClub", "Draw", name).read_text(), "kingsclub")
    assert parse_record(moved.text, "kingsclub").events == original.events


# --- handwritten hands, in the renderer's own form -------------------------------------------

TRIPLE_DRAW: Final = """\
#40000010: Limit 2-7 Triple Draw - 40/80
2021-01-02 15:42:06
Table '8 Game Mix' Seat 4 is the button
Seat 1: Player0 (500)
Seat 2: Player1 (500)
Seat 3: Back (500)
Seat 4: Hero (500)
*** 1ST BETTING ROUND ***
Player0: posts the small blind 20
Player1: posts the big blind 40
{posts}Dealt to Player0: [X X X X X]
Dealt to Player1: [X X X X X]
Dealt to Back: [X X X X X]
Dealt to Hero: [2c 3d 4h 5s 7c]
Back folds
Hero raises to 80
Player0 folds
Player1 folds
*** SUMMARY ***
Seat 1: Player0 ({player0}) -{player0_net}
Seat 2: Player1 (460) -40
Seat 3: Back ({back}) -{back_net}
Seat 4: Hero ({hero}) +{hero_net}
Hero wins ({win}) from pot"""
"""A limit 2-7 triple draw hand folded to Hero's raise; `posts` are the lines after the
blinds, the summary's stacks and nets are each case's."""

SINGLE_DRAW: Final = """\
#45383150: No Limit 2-7 Single Draw - 25/50
2021-08-04 06:54:20
Table 'The Zoo' Seat 1 is the button
Seat 1: Player0 (1,200)
Seat 2: Hero (1,200)
Seat 3: Player1 (1,200)
Seat 4: Player2 (1,200)
*** 1ST BETTING ROUND ***
{posts}Dealt to Player0: [X X X X X]
Dealt to Hero: [5d 7h Th Td 2h]
Dealt to Player1: [X X X X X]
Dealt to Player2: [X X X X X]
{acts}Player0 folds
Hero folds
Player1 folds
*** SUMMARY ***
{summary}
Player2 wins ({win}) from pot"""
"""A no-limit 2-7 single draw hand folded to Player2 (`acts`: his raise, else nothing: he
straddled); the big blind's 50 is the most anyone else puts in live."""


def triple_draw(posts: str, back: int, player0: int, hero: int, win: int) -> str:
    """The hand with Back's and Player0's forced bets (`back`, `player0` in), Hero's net and
    the pot he wins."""
    return TRIPLE_DRAW.format(
        posts=posts,
        win=win,
        back=500 - back,
        back_net=back,
        player0=500 - player0,
        player0_net=player0,
        hero=500 + hero,
        hero_net=hero,
    )


def single_draw(posts: str, losses: dict[str, int], acts: str = "Player2 raises to 150\n") -> str:
    """The hand with these forced bets and the others' losses, which Player2 nets: he wins
    them and the 50 he matched of the big blind."""
    nets = {**{name: -lost for name, lost in losses.items()}, "Player2": sum(losses.values())}
    summary = "\n".join(
        f"Seat {seat}: {name} ({1200 + nets[name]:,}) {'-' if nets[name] < 0 else '+'}"
        f"{abs(nets[name]):,}"
        for seat, name in enumerate(("Player0", "Hero", "Player1", "Player2"), 1)
    )
    win = f"{nets['Player2'] + 50:,}"
    return SINGLE_DRAW.format(posts=posts, acts=acts, summary=summary, win=win)


CASES: Final[dict[str, tuple[str, list[tuple[str, str | None, int]]]]] = {
    # a returning player's live big blind and the small blind posted, dead
    "posts blind": (
        triple_draw("Back: posts blind 40\n", back=60, player0=20, hero=120, win=160),
        [("post", "Back", 4000), ("dead", "Back", 2000)],
    ),
    # no small blind posted: the dead half is half the big blind
    "posts blind, no small blind": (
        single_draw(
            "Player1: posts the big blind 50\nHero: posts blind 50\n",
            {"Player0": 0, "Hero": 75, "Player1": 50},
        ),
        [("post", "Hero", 5000), ("dead", "Hero", 2500)],
    ),
    "posts straddle": (
        single_draw(
            "Hero: posts the small blind 25\nPlayer1: posts the big blind 50\n"
            "Player2: posts straddle 100\n",
            {"Player0": 0, "Hero": 25, "Player1": 50},
            acts="",
        ),
        [("post", "Player2", 10000)],
    ),
    # no line: Player0's net is short by the small blind, paid dead
    "missed small blind": (
        single_draw(
            "Hero: posts the small blind 25\nPlayer1: posts the big blind 50\n",
            {"Player0": 25, "Hero": 25, "Player1": 50},
        ),
        [("dead", "Player0", 2500)],
    ),
    "missed small blinds of two, in seat order": (
        single_draw(
            "Player1: posts the big blind 50\n",
            {"Player0": 25, "Hero": 25, "Player1": 50},
        ),
        [("dead", "Player0", 2500), ("dead", "Hero", 2500)],
    ),
    # limit: the small blind is half the small bet
    "missed small blind and posts blind": (
        triple_draw("Back: posts blind 40\n", back=60, player0=20, hero=120, win=180),
        [("post", "Back", 4000), ("dead", "Back", 2000), ("dead", "Hero", 2000)],
    ),
}
"""Each kind of post the reader reads, alone and together, with the posts it books."""


@pytest.mark.parametrize("case", CASES)
def test_each_post_the_reader_reads_round_trips_through_kingsclub_text(case: str) -> None:
    text, booked = CASES[case]
    record = parse_record(text, "kingsclub")
    assert posts(record) == booked
    assert errors(record) == []
    assert render_kingsclub(record, record.hero) == text
    again = round_trip(record)
    assert comparable(again) == comparable(record)
    assert again.events == record.events


# --- what no KingsClub line gives back: PokerStars' format ----------------------------------


def _dead(record: HandRecord, player: str, amount: int, at: int | None = None) -> HandRecord:
    """The record with a dead post of `amount` for `player`, before the deal (else at `at`)."""
    events = list(record.events)
    deal = next(i for i, e in enumerate(events) if not e.kind.is_forced)
    events.insert(deal if at is None else at, Event(EventKind.DEAD, 9, 0, player, amount))
    return dataclasses.replace(record, events=events)


def _resized(record: HandRecord, kind: EventKind, amount: int) -> HandRecord:
    events = [dataclasses.replace(e, amount=amount) if e.kind is kind else e for e in record.events]
    return dataclasses.replace(record, events=events)


def _hand(case: str) -> HandRecord:
    return parse_record(CASES[case][0], "kingsclub")


def _corpus(*parts: str) -> HandRecord:
    return parse_record(corpus_file("cash", "KingsClub", *parts).read_text(), "kingsclub")


UNHELD: Final[dict[str, Callable[[], HandRecord]]] = {
    # "posts blind" implies the small blind dead, not the big blind
    "a posted blind's dead big blind": lambda: _resized(_hand("posts blind"), EventKind.DEAD, 4000),
    "a dead big blind alone": lambda: _resized(_hand("missed small blind"), EventKind.DEAD, 5000),
    "a small blind's player posting dead too": lambda: _dead(_hand("posts straddle"), "Hero", 2500),
    "a dead post after the deal": lambda: _dead(_hand("posts straddle"), "Player0", 2500, at=-3),
    "missed small blinds out of seat order": lambda: _dead(
        _hand("missed small blind"), "Player2", 2500, at=2
    ),
    "a dead post in stud": lambda: _dead(_corpus("Stud", "Razz-USD-40-80-202101.txt"), "Hero", 500),
    "a dead big blind in badacey": lambda: _dead(
        _corpus("Draw", "Badacey-Limit-USD-22-44-202101.txt"), "Hero", 2200
    ),
}
"""Dead posts the reader never books from KingsClub text: the room has no line for them."""
NOT_DEALT_AT_POKERSTARS: Final = {"a dead big blind in badacey"}
"""PokerStars deals no badacey (nor 2-7 razz, A-5 single draw, badeucey, drawmaha): PHH."""


@pytest.mark.parametrize("case", UNHELD)
def test_a_dead_post_no_kingsclub_line_gives_back_falls_back_to_pokerstars_or_phh(
    case: str,
) -> None:
    """Each reads back: a KingsClub stud table prints no size nor button, and the PokerStars
    text names the highest seat's size (its reader needs one); a game PokerStars never dealt
    is PHH (the KeyError and the unreadable "Table '8 Game Mix'" of before)."""
    record = UNHELD[case]()
    assert not kingsclub_can_render(record)
    text = record_text(record, None)
    if case in NOT_DEALT_AT_POKERSTARS:
        assert "written back from the store as PHH" in text.origin
        again = read_back(text.text)
        assert sorted((s.player, s.stack) for s in again.seats) == sorted(
            (s.player, s.stack) for s in record.seats if not s.sitting_out
        )
        return
    assert "written back from the store in PokerStars' format" in text.origin
    again = parse_record(text.text, "pokerstars")
    assert [(s.player, s.stack) for s in again.seats] == [(s.player, s.stack) for s in record.seats]
    assert wagers(again) == wagers(record)


def wagers(record: HandRecord) -> list[tuple[str, str | None, int]]:
    """The bets after the forced ones: what PokerStars' text keeps of a hand whose dead post it
    has no line for either (it prints one only before the live post, "small & big blinds")."""
    return [
        (str(e.kind), e.player, e.amount)
        for e in record.events
        if e.kind.puts_in and not e.kind.is_forced
    ]
