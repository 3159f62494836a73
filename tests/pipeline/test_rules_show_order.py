"""Showdown order as a rule of the profiles (`showdown_order`, SHW006): the last to bet or raise
on the last round shows first; in the clockwise variants (pl, de triple draw, and PokerStars,
whose exports print the shows as they were made) else the first player left of the button
(stud: left of the dealer), then the others clockwise. Casinos Austria's third case (nobody bet:
the first to speak) is not checked. Each case is a handwritten hand, or a corpus hand with its
show lines reordered, under a profile; the hand as written is clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from studdraw.parsers.problems import Code
from studdraw.parsers.reader import parse_file
from studdraw.pipeline.rules import replay
from studdraw.pipeline.rules.house import house_rules_named
from tests.conftest import corpus_file

STUD = """\
PokerStars Game #1000009501:  7 Card Stud Limit ($0.04/$0.08 USD) - 2009/11/26 10:00:00 ET
Table 'Docs' 8-max
Seat 1: Alice ($1 in chips)
Seat 2: Bob ($1 in chips)
Seat 3: Carol ($1 in chips)
Alice: posts the ante $0.01
Bob: posts the ante $0.01
Carol: posts the ante $0.01
*** 3rd STREET ***
Dealt to Alice [Kc]
Dealt to Bob [2d]
Dealt to Carol [9s]
Bob: brings in for $0.02
Carol: calls $0.02
Alice: calls $0.02
*** 4th STREET ***
Dealt to Alice [Kc] [4d]
Dealt to Bob [2d] [5h]
Dealt to Carol [9s] [Ts]
Alice: checks
Bob: checks
Carol: checks
*** 5th STREET ***
Dealt to Alice [Kc 4d] [6s]
Dealt to Bob [2d 5h] [7c]
Dealt to Carol [9s Ts] [3h]
Alice: checks
Bob: checks
Carol: checks
*** 6th STREET ***
Dealt to Alice [Kc 4d 6s] [2h]
Dealt to Bob [2d 5h 7c] [Jd]
Dealt to Carol [9s Ts 3h] [4c]
Alice: checks
Bob: checks
Carol: checks
*** RIVER ***
Alice: checks
Bob: RIVER
Carol: calls $0.08
Alice: calls $0.08
*** SHOW DOWN ***
SHOWS
Carol collected $0.33 from pot
*** SUMMARY ***
Total pot $0.33 | Rake $0
Seat 1: Alice showed [3d 8c Kc 4d 6s 2h Qd] and lost with high card King
Seat 2: Bob showed [8h 8s 2d 5h 7c Jd Qc] and lost with a pair of Eights
Seat 3: Carol showed [Ah Ad 9s Ts 3h 4c 6d] and won ($0.33) with a pair of Aces
"""
ALICE = "Alice: shows [3d 8c Kc 4d 6s 2h Qd] (high card King)"
BOB = "Bob: shows [8h 8s 2d 5h 7c Jd Qc] (a pair of Eights)"
CAROL = "Carol: shows [Ah Ad 9s Ts 3h 4c 6d] (a pair of Aces)"


def stud(river: str, *shows: str) -> str:
    """The stud hand with Bob's river action (`bets $0.08` or `checks`) and the shows in order."""
    text = STUD.replace("Bob: RIVER", f"Bob: {river}").replace("SHOWS", "\n".join(shows))
    if river == "checks":  # nobody bet: everyone checks the river down
        text = text.replace("Carol: calls $0.08\nAlice: calls $0.08", "Carol: checks")
        text = text.replace("$0.33", "$0.09")
    return text


BET, CHECK = "bets $0.08", "checks"
# (profile or None for the room's, hand text, the code expected or None for a clean hand)
CASES = [
    # The river bettor shows first: Bob, then clockwise Carol, Alice.
    (None, stud(BET, BOB, CAROL, ALICE), None),
    (None, stud(BET, CAROL, BOB, ALICE), Code.SHW006),
    (None, stud(BET, BOB, ALICE, CAROL), Code.SHW006),  # not clockwise from Bob
    ("polish", stud(BET, BOB, CAROL, ALICE), None),
    ("polish", stud(BET, ALICE, BOB, CAROL), Code.SHW006),
    ("casinos-austria", stud(BET, CAROL, BOB, ALICE), Code.SHW006),
    ("casinos-austria", stud(BET, BOB, ALICE, CAROL), None),  # the others in no fixed order
    # Checked down: the first left of the dealer (seat 1, Alice), then clockwise.
    (None, stud(CHECK, ALICE, BOB, CAROL), None),
    (None, stud(CHECK, BOB, CAROL, ALICE), Code.SHW006),
    ("polish", stud(CHECK, CAROL, ALICE, BOB), Code.SHW006),
    ("casinos-austria", stud(CHECK, CAROL, ALICE, BOB), None),  # "the first to speak": unchecked
    ("german", stud(BET, CAROL, BOB, ALICE), None),  # its order is the triple draw text's
    ("italian", stud(BET, CAROL, BOB, ALICE), None),  # says nothing of the order
]


def codes(text: str, profile: str | None, tmp_path: Path) -> set[Code]:
    path = tmp_path / "hand.txt"
    path.write_text(text, encoding="utf-8")
    [parsed] = list(parse_file(path))
    assert parsed.record is not None, parsed.problem
    rules = house_rules_named(profile) if profile else None
    return {problem.code for problem in replay(parsed.record, rules).problems}


@pytest.mark.parametrize(("profile", "text", "code"), CASES)
def test_the_showdown_order_of_the_profile(
    profile: str | None, text: str, code: Code | None, tmp_path: Path
) -> None:
    found = codes(text, profile, tmp_path) & {Code.SHW006}  # the profile's other rules aside
    assert found == ({code} if code else set())


def triple_draw(first: str, second: str) -> str:
    """A corpus triple draw hand (#35839412131: tom1206 bets the last round, bakter9 calls)
    with its two show lines in the order given."""
    path = corpus_file("cash", "Stars", "Draw", "3-Draw-Limit-USD-0.10-0.20-200911.txt")
    texts = path.read_text(encoding="utf-8-sig").replace("\r\n", "\n").split("\n\n\n")
    [hand] = [text for text in texts if "#35839412131:" in text]
    lines = hand.strip("\n").split("\n")
    shows = [i for i, line in enumerate(lines) if ": shows [" in line]
    assert len(shows) == 2
    by_player = {lines[i].split(":")[0]: lines[i] for i in shows}
    lines[shows[0]], lines[shows[1]] = by_player[first], by_player[second]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("profile", "first", "second", "code"),
    [
        (None, "tom1206", "bakter9", None),
        ("german", "tom1206", "bakter9", None),
        ("german", "bakter9", "tom1206", Code.SHW006),
        (None, "bakter9", "tom1206", Code.SHW006),
        ("polish", "bakter9", "tom1206", None),  # a stud rulebook: no draw order
    ],
)
def test_the_showdown_order_of_a_draw_game(
    profile: str | None, first: str, second: str, code: Code | None, tmp_path: Path
) -> None:
    found = codes(triple_draw(first, second), profile, tmp_path) & {Code.SHW006}
    assert found == ({code} if code else set())


def test_a_room_that_prints_its_own_order_is_not_judged(tmp_path: Path) -> None:
    """Full Tilt's exports do not print the shows in the order they were made: its hands are
    not judged by a profile's order."""
    text = stud(BET, CAROL, BOB, ALICE)
    path = tmp_path / "hand.txt"
    path.write_text(text, encoding="utf-8")
    [parsed] = list(parse_file(path))
    assert parsed.record is not None
    record = parsed.record
    record.room = "fulltilt"
    problems = replay(record, house_rules_named("polish")).problems
    assert Code.SHW006 not in {problem.code for problem in problems}
