"""Tournament forced bets are checked against the level where the room's structure fixes them
(`tournament_forced` in house_rules.toml) or its header prints them: a corpus hand whose posts
of one kind are all changed to a size the level does not allow (so that no other player's post
shows the right size) is caught with its code, and the same hand as the room wrote it is clean.
Each room with tournament hands in the corpus has its case; where neither the room's structure
nor the header fixes a post, its docs/rooms page says so."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from studdraw.parsers.model import Game, HandRecord
from studdraw.parsers.problems import Code
from studdraw.parsers.reader import open_history, parse_hand
from studdraw.pipeline.rules import replay
from studdraw.pipeline.rules.house import house_rules_for
from studdraw.pipeline.rules.stakes import tournament_stakes
from tests.conftest import corpus_file

# (corpus file, text the hand's header holds, a post as printed, the same post mutated, code)
CASES = [
    # Full Tilt stud: the header prints the ante ("800/1600 Ante 150").
    (
        ("tour", "FTP", "Stud", "5-Stud-USD-MTT-100-201303.txt"),
        "800/1600 Ante 150",
        " antes 150",
        " antes 125",
        Code.SIZ012,
    ),
    (
        ("tour", "FTP", "Stud", "Razz-USD-HUSNG-200-201211.all.in.ante.txt"),
        "40/80 Ante 7",
        "Hero antes 7",
        "Hero antes 8",
        Code.SIZ012,
    ),
    # Party stud: the header prints the level's ante ("Stakes-Antes(60/120-10)").
    (
        ("tour", "PartyPoker", "Stud", "7-Stud-USD-MTT-6.00-201205.txt"),
        "#Game No",
        "posts ante [10]",
        "posts ante [12]",
        Code.SIZ012,
    ),
    # Bovada stud: the ante is a fifth of the small bet (2 at 10/20).
    (
        ("tour", "Bovada", "Stud", "7-Stud-USD-MTT - $10-$1 - 201206.txt"),
        "Level 1 ",
        ": Ante chip 2",
        ": Ante chip 3",
        Code.SIZ012,
    ),
    # PokerStars no-limit single draw: the level's big blind (50/100).
    (
        ("tour", "Stars", "Draw", "2-7 Single Draw-NL-USD-2max-STT-1.40-201212.ante.all.in.txt"),
        "Level V (50/100)",
        "posts big blind 100",
        "posts big blind 80",
        Code.SIZ013,
    ),
    # The case: a badugi small blind of 45 at a 60/120 level (the room posts 30).
    (
        ("tour", "Stars", "Draw", "LBad-USD-MTT8-201011.txt"),
        "Level III (60/120)",
        "posts small blind 30",
        "posts small blind 45",
        Code.SIZ013,
    ),
    (
        ("tour", "Stars", "Draw", "LBad-USD-SNG8-201011.txt"),
        "(150/300)",
        "posts small blind 75",
        "posts small blind 100",
        Code.SIZ013,
    ),
    (
        ("tour", "FTP", "Draw", "3-Draw-Limit-USD-STT-2max-10-201211.txt"),
        "60/120",
        "posts the small blind of 30",
        "posts the small blind of 40",
        Code.SIZ013,
    ),
    (
        ("tour", "Bovada", "Stud", "7-Stud-USD-MTT - $10-$1 - 201206.txt"),
        "Level 1 ",
        ": Big blind/Bring in 5",
        ": Big blind/Bring in 4",
        Code.SIZ002,
    ),
]


def hands_with(parts: tuple[str, ...], header: str, post: str) -> list[str]:
    """The texts of the file's hands whose header holds `header` and that print `post`."""
    history = open_history(corpus_file(*parts))
    return [
        hand.text
        for hand in history.hand_texts()
        if header in hand.text.split("\n", 1)[0] and post in hand.text
    ]


def codes(text: str, parts: tuple[str, ...]) -> list[Code]:
    history = open_history(corpus_file(*parts))
    first = next(history.hand_texts())
    parsed = parse_hand(replace(first, text=text))
    assert parsed.record is not None, parsed.problem
    return [problem.code for problem in replay(parsed.record).problems]


@pytest.mark.parametrize(("parts", "header", "post", "mutated", "code"), CASES)
def test_a_forced_bet_off_the_level_is_caught(
    parts: tuple[str, ...], header: str, post: str, mutated: str, code: Code
) -> None:
    texts = hands_with(parts, header, post)
    assert texts, f"no hand of {header} prints {post!r}"
    for text in texts:
        assert code not in codes(text, parts)
        assert code in codes(text.replace(post, mutated), parts)


def test_a_level_fixes_only_whole_chips_of_the_room_family() -> None:
    """The sizes come from the level, never from the posts; a fraction that is no whole chip
    fixes nothing, and a draw rule never fixes a stud hand's posts (nor the reverse)."""
    [hand] = [
        h
        for h in open_history(
            corpus_file("tour", "Stars", "Draw", "LBad-USD-MTT8-201011.txt")
        ).hand_texts()
        if "Level III (60/120)" in h.text.split("\n", 1)[0]
    ][:1]
    record = parse_hand(hand).record
    assert isinstance(record, HandRecord)
    rules = house_rules_for("pokerstars")
    assert tournament_stakes(record, "draw", rules) == {"small_blind": 30}
    odd = replace(record, stakes=replace(record.stakes, small_bet=45))
    assert tournament_stakes(odd, "draw", rules) == {}
    assert tournament_stakes(replace(record, tournament=None), "draw", rules) == {}
    stud_rules = replace(rules, tournament_forced=(("ante", Fraction(1, 5)),))
    assert tournament_stakes(replace(record, game=Game.STUD), "stud", stud_rules) == {"ante": 12}
    assert tournament_stakes(record, "draw", stud_rules) == {}
