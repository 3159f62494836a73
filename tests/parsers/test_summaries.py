"""Tournament summary files (PokerStars, Full Tilt), read from hand-written files in the rooms'
formats (learned from the summaries FPDB-3 keeps as regression tests)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studdraw.parsers.summaries import Finisher, cents, is_summary, read_summaries

FILES = Path(__file__).parent / "summaries"


@pytest.mark.parametrize(
    ("file", "index", "expected"),
    [
        (
            "stars-razz-sng.txt",
            0,
            {
                "room": "pokerstars", "tournament_id": "901000001", "currency": "USD",
                "buy_in": 300, "fee": 30, "bounty": None, "entries": 6, "prize_pool": 1800,
                "started": "2026/03/01 20:00:00 ET",
            },
        ),
        (
            "stars-stud-ko-two.txt",
            0,
            {
                "tournament_id": "901000002", "currency": "EUR", "buy_in": 160, "bounty": 20,
                "fee": 20, "entries": 4,
            },
        ),
        (
            "stars-stud-ko-two.txt",
            1,
            {"tournament_id": "901000003", "currency": "PLAY", "buy_in": 10000, "fee": 1000},
        ),
        (
            "fulltilt-badugi-ko.txt",
            0,
            {
                "room": "fulltilt", "tournament_id": "902000001", "currency": "USD",
                "buy_in": 800, "fee": 100, "bounty": 100, "entries": 5, "prize_pool": 4000,
            },
        ),
    ],
)  # fmt: skip
def test_tournament_facts(file: str, index: int, expected: dict[str, object]) -> None:
    summary = read_summaries(FILES / file)[index]
    assert {key: getattr(summary, key) for key in expected} == expected


@pytest.mark.parametrize(
    ("file", "index", "name", "expected"),
    [
        ("stars-razz-sng.txt", 0, "Hero", Finisher("Hero", 2, 540)),
        ("stars-razz-sng.txt", 0, "Aces Low", Finisher("Aces Low", 5, None)),
        ("stars-razz-sng.txt", 0, "Bring In Bob", Finisher("Bring In Bob", 6, None)),
        # "You collected 1 bounty": the account is the finisher at "You finished" 's place.
        ("stars-stud-ko-two.txt", 0, "Hero", Finisher("Hero", 3, None, 20)),
        ("stars-stud-ko-two.txt", 1, "Hero", Finisher("Hero", 1, 20000)),
        # Two knockouts of $1 each.
        ("fulltilt-badugi-ko.txt", 0, "Hero", Finisher("Hero", 1, 2600, 200)),
        ("fulltilt-badugi-ko.txt", 0, "PatHand", Finisher("PatHand", 3, None)),
    ],
)
def test_finishers(file: str, index: int, name: str, expected: Finisher) -> None:
    finishers = {f.name: f for f in read_summaries(FILES / file)[index].finishers}
    assert finishers[name] == expected


def test_every_line_is_read_or_reported() -> None:
    for path in FILES.glob("*.txt"):
        for summary in read_summaries(path):
            expected = [(17, "The Fish Tank mystery line")] if path.name.startswith("full") else []
            assert summary.unknown_lines == expected, path.name


def test_summaries_are_told_from_hand_histories(tmp_path: Path) -> None:
    assert all(is_summary(path) for path in FILES.glob("*.txt"))
    history = tmp_path / "history.txt"
    history.write_text("PokerStars Hand #1: Tournament #901000001, $3.00+$0.30 USD Razz\n")
    assert not is_summary(history)


@pytest.mark.parametrize(
    ("text", "value"), [("$1,234.56", 123456), ("€0.2", 20), ("100", 10000), ("£3", 300)]
)
def test_cents(text: str, value: int) -> None:
    assert cents(text) == value
