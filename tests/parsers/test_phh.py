"""The PHH room on PHH written elsewhere: pokerkit's own example hand (the spec's triple-draw
hand, without studdraw's `_` fields), `.phhs` splitting, sniffing, and bad input as data."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from studdraw.parsers.model import EventKind, Game, HandText, Outcome, SourceRef, Structure
from studdraw.parsers.phh.vocabulary import money, parse_cards, to_units
from studdraw.parsers.problems import Code
from studdraw.parsers.reader import parse_file
from studdraw.parsers.rooms import sniff
from studdraw.parsers.rooms.phh import PHH
from studdraw.pipeline.rules import replay

# The triple-draw hand of pokerkit's tests (Yockey-Arieh, 2019 WSOP PPC), as a .phh file.
YOCKEY_ARIEH = """\
# A bad beat between Yockey and Arieh.
variant = "F2L3D"
ante_trimming_status = true
antes = [0, 0, 0, 0]
blinds_or_straddles = [75000, 150000, 0, 0]
small_bet = 150000
big_bet = 300000
starting_stacks = [1180000, 4340000, 5910000, 10765000]
actions = [
  # Pre-draw
  "d dh p1 7h6c4c3d2c",  # Yockey
  "d dh p2 ??????????",
  "d dh p3 ??????????",
  "d dh p4 AsQs6s5c3c",
  "p3 f", "p4 cbr 300000", "p1 cbr 450000", "p2 f", "p4 cc",
  "p1 sd", "p4 sd AsQs", "d dh p4 2hQh",
  "p1 cbr 150000", "p4 cc",
  "p1 sd", "p4 sd Qh", "d dh p4 4d",
  "p1 cbr 300000", "p4 cc",
  "p1 sd", "p4 sd 6s", "d dh p4 7c",
  "p1 cbr 280000 # all in", "p4 cc",
  "p1 sm 7h6c4c3d2c", "p4 sm 2h4d7c5c3c",
]
event = "2019 World Series of Poker Event #58"
day = 28
month = 6
year = 2019
time_zone = "America/Los_Angeles"
players = ["Bryce Yockey", "Phil Hui", "John Esposito", "Josh Arieh"]
"""


def phh_hand(text: str, line: int = 1) -> HandText:
    return HandText(text, SourceRef("hand.phh", 0, line), "phh")


def test_a_phh_hand_written_elsewhere_reads_and_replays_clean() -> None:
    parsed = PHH().parse(phh_hand(YOCKEY_ARIEH))
    record = parsed.record
    assert record is not None, parsed.problem
    assert (record.game, record.structure, record.currency, record.scale) == (
        Game.TD27,
        Structure.FIXED,
        "CHIPS",
        1,
    )
    assert record.room_hand_id.startswith("sha:")  # no `_room`: a digest of the text
    assert record.started_at.isoformat() == "2019-06-28T07:00:00+00:00"
    assert record.button == 4  # the last player is the button
    kinds = [(e.kind, e.player, e.amount) for e in record.events if e.kind.is_forced]
    assert kinds == [
        (EventKind.SMALL_BLIND, "Bryce Yockey", 75000),
        (EventKind.BIG_BLIND, "Phil Hui", 150000),
    ]
    last_bet = [e for e in record.events if e.player == "Bryce Yockey" and e.kind.is_betting][-1]
    assert (last_bet.kind, last_bet.amount, last_bet.all_in) == (EventKind.BET, 280000, True)
    note = next(e for e in record.events if e.kind is EventKind.NOTE)
    assert note.text == "all in" and note.line == record.source.line + 20
    assert [problem.code for problem in record.problems] == [Code.PHH002]  # no result stated
    assert record.rake == 0  # and nobody collects: the pot is not taken as rake
    with_winnings = PHH().parse(phh_hand(YOCKEY_ARIEH + "winnings = [0, 0, 0, 2510000]\n"))
    assert with_winnings.record is not None
    result = replay(with_winnings.record)
    assert [v.code for v in result.problems] == []
    finals = [p.net for p in sorted(result.players, key=lambda p: p.seat)]
    stacks = [1180000, 4340000, 5910000, 10765000]
    # pokerkit's own test of this hand ends with these stacks
    assert [s + n for s, n in zip(stacks, finals, strict=True)] == [0, 4190000, 5910000, 12095000]


def test_phhs_sections_are_hands_and_comments_stay_with_them(tmp_path: Path) -> None:
    body = YOCKEY_ARIEH.split("\n", 1)[1]
    path = tmp_path / "two.phhs"
    path.write_text(f"# two hands\n\n[1]\n{body}\n# the second\n[2]\n{body}", encoding="utf-8")
    parsed = list(parse_file(path))
    assert [p.outcome for p in parsed] == [Outcome.PARSED, Outcome.PARSED]
    second = path.read_text(encoding="utf-8").split("\n").index("[2]") + 1
    assert [p.hand.source.line for p in parsed] == [1, second]
    assert parsed[0].hand.text.startswith("# two hands\n\n[1]")
    assert parsed[1].hand.text.startswith("[2]\n")


@pytest.mark.parametrize(
    ("head", "is_phh"),
    [
        (YOCKEY_ARIEH, True),
        ("[1]\nvariant = 'FR'\n", True),
        ('# comment\n\nvariant = "F7S"\nantes = [1, 1]\n', True),
        ("PokerStars Hand #1: Razz Limit ($0.04/$0.08 USD)\nvariant = 'FR'\n", False),
        ("title = 'not poker'\n", False),
    ],
)
def test_sniffing(head: str, is_phh: bool) -> None:
    room = sniff(head)
    assert (room is not None and room.name == "phh") is is_phh


@pytest.mark.parametrize(
    ("text", "outcome", "message", "line"),
    [
        ('variant = "F7S"\nantes = [1, 1]\nbring_in = = 2\n', Outcome.ERROR, "invalid TOML", 3),
        (
            'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n'
            "starting_stacks = [200, 200]\nactions = []\n",
            Outcome.UNSUPPORTED,
            "PHH variant NT is not a stud or draw game studdraw reads",
            1,
        ),
        (
            'variant = "FR"\nantes = [1, 1]\nbring_in = 1\nsmall_bet = 2\nbig_bet = 4\n'
            'starting_stacks = [50, 50]\nactions = [\n  "d dh p1 AsAd2c",\n  "p3 f",\n]\n',
            Outcome.ERROR,
            "no player 'p3'",
            9,
        ),
        (
            'variant = "FR"\nantes = [0.001, 1]\nbring_in = 1\nsmall_bet = 2\nbig_bet = 4\n'
            "starting_stacks = [50, 50]\nactions = []\n_scale = 100\n",
            Outcome.ERROR,
            "not a whole number",
            1,
        ),
    ],
)
def test_bad_hands_are_problems_with_their_line(
    text: str, outcome: Outcome, message: str, line: int
) -> None:
    parsed = PHH().parse(phh_hand(text))
    assert parsed.problem is not None and parsed.record is None
    assert parsed.outcome is outcome
    assert message in parsed.problem.message
    assert parsed.problem.line == line


def test_the_id_read_before_parsing_is_the_parsed_id() -> None:
    text = YOCKEY_ARIEH + '_room = "pokerstars"\nhand = 35874004239\n'
    room = PHH()
    parsed = room.parse(phh_hand(text))
    assert room.hand_id(text) == parsed.room_hand_id == "pokerstars:35874004239"


@pytest.mark.parametrize(
    ("amount", "scale", "text"), [(150, 100, "1.5"), (200, 100, "2"), (7, 1, "7"), (5, 100, "0.05")]
)
def test_money_is_exact_both_ways(amount: int, scale: int, text: str) -> None:
    assert money(amount, scale) == text
    assert to_units(Decimal(text) if "." in text else int(text), scale) == amount


def test_cards() -> None:
    assert parse_cards("As??Td") == ("As", None, "Td")
    with pytest.raises(ValueError, match="bad card"):
        parse_cards("Ax")
