"""No exception text reaches a user (issue 41): damage that used to surface as "internal parser
error: OverflowError / KeyError / ValueError / AssertionError / IndexError" is each reader's own
finding, with the line it is on and words that say what is wrong."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from studdraw.parsers.model import HandText, SourceRef
from studdraw.parsers.problems import Code
from studdraw.parsers.reader import MAX_REASON, open_history, parse_hand
from studdraw.parsers.rooms import BY_NAME
from studdraw.parsers.text.classify import LONGEST_LINE
from studdraw.parsers.text.room import TextRoom
from studdraw.pipeline.rules.validate import check_hand
from tests.conftest import CORPUS, SAMPLES

Edit = Callable[[list[str]], list[str]]


def first_hand(path: Path) -> HandText:
    if not path.exists():
        pytest.skip(f"no {path}")
    return next(hand for hand in open_history(path).hand_texts() if not hand.stray)


def line_edit(pattern: str, replacement: str, count: int = 1) -> Edit:
    """Rewrite the first `count` lines that `pattern` matches."""

    def edit(lines: list[str]) -> list[str]:
        done, out = 0, []
        for line in lines:
            if done < count and re.search(pattern, line):
                out.append(re.sub(pattern, replacement, line, count=1))
                done += 1
            else:
                out.append(line)
        assert done, f"no line matches {pattern!r}"
        return out

    return edit


def header_then(marker: str) -> Edit:
    """The hand's first line, then everything from the line holding `marker` on."""

    def edit(lines: list[str]) -> list[str]:
        return lines[:1] + lines[next(i for i, text in enumerate(lines) if marker in text) :]

    return edit


def repeated(pattern: str, times: int) -> Edit:
    """The first line `pattern` matches printed `times` more times."""

    def edit(lines: list[str]) -> list[str]:
        at = next(i for i, line in enumerate(lines) if re.search(pattern, line))
        return lines[:at] + [lines[at]] * times + lines[at:]

    return edit


CASH = CORPUS / "cash"
CASES = [
    (
        "a seat numbered 65536",
        SAMPLES / "pokerstars" / "razz.txt",
        line_edit(r"^Seat 1:", "Seat 65536:"),
        "Seat 65536:",
        "65536",
    ),
    (
        "a seat number that is not a number (Merge)",
        CASH / "Merge" / "Draw" / "3-Draw-Limit-USD-1-2-201104.Multi.hand.sample.txt",
        line_edit(r'<player seat="\d+"', '<player seat="x"'),
        '<player seat="x"',
        "'x' is not a number",
    ),
    (
        "a seat number that is not a number (iPoker)",
        CASH / "iPoker" / "Stud" / "7-StudL-USD-0.05-0.10-201009.txt",
        line_edit(r'seat="\d+"', 'seat="x"'),
        'seat="x"',
        "'x' is not a number",
    ),
    (
        "an action number that is not a number (iPoker)",
        CASH / "iPoker" / "Stud" / "7-StudL-USD-0.05-0.10-201009.txt",
        line_edit(r'<action no="\d+"', '<action no="one"'),
        '<action no="one"',
        "is not a number",
    ),
    (
        "a seat number that is not a number (Boss)",
        CASH / "Boss" / "Draw" / "5CD-FL-EUR-2-4.Opoker.sample.xml",
        line_edit(r'SEAT="2"', 'SEAT="x"'),
        'SEAT="x"',
        "'x' is not a number",
    ),
    (
        "an OnGame header followed directly by streets",
        CASH / "OnGame" / "Draw" / "5-Carddraw-PL-USD-1.00-1.00-201111.No.Street.Delimiter.txt",
        header_then("Dealing pocket cards"),
        "Dealing pocket cards",
        "before any header line that names the game",
    ),
    (
        "is dealt 300000000 cards (Full Tilt)",
        CASH / "FTP" / "Draw" / "Badugi-FL-USD-0.10-0.20-201305.New.to.the.Game.txt",
        line_edit(r"is dealt \d+ card", "is dealt 300000000 card"),
        "is dealt 300000000",
        "more than a deck holds",
    ),
    (
        "discards 70000 cards",
        SAMPLES / "pokerstars" / "td27-no-limit.txt",
        line_edit(r"discards \d+ cards", "discards 70000 cards"),
        "discards 70000",
        "more than a deck holds",
    ),
    (
        "an amount with letters glued after it",
        SAMPLES / "pokerstars" / "stud.txt",
        line_edit(r": calls \$0\.02$", ": calls $0.02abc [As Ks]"),
        "calls $0.02abc",
        "not an amount: '$0.02abc'",
    ),
    (
        "an amount followed by a run of letters (a longer line is one no room prints)",
        SAMPLES / "pokerstars" / "stud.txt",
        line_edit(r": calls \$0\.02$", ": calls $0.02" + "x" * 4_000),
        "calls $0.02xxx",
        "not an amount",
    ),
    (
        "a stud card dealt after the river (Bovada)",
        CASH / "Bovada" / "Stud" / "7-Stud-USD-2.00-4.00-201205.txt",
        repeated(r"^Seat\+5 : Card dealt to a spot \[\w\w\]$", 8),
        "Card dealt to a spot",
        "after the last street",
    ),
]


@pytest.mark.parametrize(
    ("path", "edit", "marker", "words"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_damage_is_the_readers_own_finding(path: Path, edit: Edit, marker: str, words: str) -> None:
    hand = first_hand(path)
    lines = edit(hand.text.split("\n"))
    parsed = parse_hand(replace(hand, text="\n".join(lines)))
    problem = parsed.problem
    assert problem is not None and problem.code is Code.PRS001, problem
    assert words in problem.message and "Error" not in problem.message
    at = problem.line - hand.source.line
    assert marker in lines[at], (lines[at], problem)


def test_an_action_by_a_player_with_no_seat_is_a_rule_finding() -> None:
    """KingsClub: the replay says the player has no seat (ORD006), the reader does not fail."""
    hand = first_hand(CASH / "KingsClub" / "Draw" / "Badugi-Limit-USD-30-60-202010.txt")
    lines = line_edit(r"^Player0 raises to 60", "Stranger raises to 60")(hand.text.split("\n"))
    parsed = parse_hand(replace(hand, text="\n".join(lines)))
    assert parsed.problem is None, parsed.problem
    found = [problem.code for problem in check_hand(parsed)]
    assert Code.ORD006 in found and Code.INT001 not in found


def endless_numbers(head: str) -> str:
    """Every number of a header as 2^64 written 12 times (240 in the fuzz input of 24 KB: 151 s
    of CPU, the line patterns' time cubic in a run of digits)."""
    return re.sub(r"\d+", "18446744073709551616" * 12, head)


def nul_padded(head: str) -> str:
    """A header padded with 32,000 NULs (a fuzz input of 2026-12-04: 25 s of CPU in the line
    patterns, whose time grows faster than the line)."""
    return head.replace(" (", " " + "\x00" * 32_000 + " (", 1)


@pytest.mark.parametrize("damage", [endless_numbers, nul_padded], ids=lambda f: f.__name__)
def test_a_hostile_header_is_a_finding_without_the_line_patterns(
    monkeypatch: pytest.MonkeyPatch, damage: Callable[[str], str]
) -> None:
    """A header no room prints is the hand's error at once: never handed whole to the
    classifier, its message one bounded line."""
    text = (SAMPLES / "pokerstars" / "razz.txt").read_text(encoding="utf-8").split("\n\n\n")[0]
    head, rest = text.split("\n", 1)
    damaged = damage(head)
    room = BY_NAME["pokerstars"]
    assert isinstance(room, TextRoom)
    syntax = room.syntax
    real = syntax.classifier
    asked: list[int] = []

    class Counting:
        def match(self, line: str) -> re.Match[str] | None:
            asked.append(len(line))
            return real.match(line)

    monkeypatch.setattr(syntax, "classifier", Counting())
    parsed = parse_hand(HandText(damaged + "\n" + rest, SourceRef("fuzz", 0, 1), "pokerstars"))
    assert parsed.problem is not None and parsed.problem.code is Code.TXT002
    assert parsed.problem.line == 1 and len(parsed.problem.message) <= MAX_REASON
    assert max(asked, default=0) <= min(len(damaged) - 1, LONGEST_LINE)
