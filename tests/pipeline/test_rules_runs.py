"""A draw hand run twice keeps each player's kept cards in every run: the corpus hands of
KingsClub (NL-2-7-SD-USD-25-50-202108.N.RIT.txt) replay clean, and a run's show that keeps
fewer of the other run's cards than the draw left is CRD005 at that show."""

from __future__ import annotations

import pytest

from studdraw.pipeline.rules import replay
from tests.conftest import corpus_file, parse_record


def corpus_text(number: str) -> str:
    path = corpus_file("cash", "KingsClub", "Draw", f"NL-2-7-SD-USD-25-50-202108.{number}.RIT.txt")
    return path.read_text(encoding="utf-8")


def problems(text: str) -> list[tuple[str, int, str]]:
    result = replay(parse_record(text, "kingsclub"))
    return [(str(v.code), v.line, v.message) for v in result.problems]


def line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


@pytest.mark.parametrize("number", ["1", "2", "3", "4"])
def test_the_corpus_hands_run_twice_keep_their_kept_cards(number: str) -> None:
    assert problems(corpus_text(number)) == []


@pytest.mark.parametrize(
    ("number", "shown", "mutated", "message"),
    [
        (  # Player4 draws 2: runs 1 and 2 share 4c 8d 6h 2h; three cards changed here
            "1",
            "Run 2: Player4 shows [4c 8d 6h 2h 5c]",
            "Run 2: Player4 shows [4c 8d 3c 6c 5c]",
            "Player4's hands of runs 1 and 2 differ in 3 cards; 2 were drawn after the betting",
        ),
        (  # Player1 draws 2: 5h 9c 8d 4s in both runs; 9c and 4s changed here
            "4",
            "Run 2: Player1 shows [5h 9c 7c 8d 4s]",
            "Run 2: Player1 shows [5h 6c 7c 8d 2s]",
            "Player1's hands of runs 1 and 2 differ in 3 cards; 2 were drawn after the betting",
        ),
        (  # Player1 stands pat: a hand shown in each run must be the same hand
            "2",
            "Player1 shows [6c 8s 7s 2c 5c]",
            "Run 1: Player1 shows [6c 8s 7s 2c 5c]\nRun 2: Player1 shows [6c 8s 7s 2c 4c]",
            "Player1's hands of runs 1 and 2 differ in 1 card; 0 were drawn after the betting",
        ),
    ],
)
def test_a_kept_card_changed_in_the_second_run_is_crd005(
    number: str, shown: str, mutated: str, message: str
) -> None:
    text = corpus_text(number)
    assert shown in text
    text = text.replace(shown, mutated)
    line = line_of(text, mutated.splitlines()[-1])
    assert [p for p in problems(text) if p[0] == "CRD005"] == [("CRD005", line, message)]


def test_the_heros_kept_card_changed_in_the_second_run_is_crd005() -> None:
    """The hero's kept cards are known: run 2's show must hold them (4c here)."""
    text = corpus_text("3").replace(
        "Run 2: Hero shows [4c 9s 7h 2s 3h]", "Run 2: Hero shows [5d 9s 7h 2s 3h]"
    )
    line = line_of(text, "Run 2: Hero shows")
    assert ("CRD005", line) in [(code, at) for code, at, _ in problems(text)]


def test_a_card_of_one_run_may_go_to_another_player_in_the_other_run() -> None:
    """The room deals each run from the stub the draw left (#45383178: Player1's 2h in both
    runs): Player1's run-1 5c may be the hero's run-2 card."""
    text = (
        corpus_text("3")
        .replace("draws [6d] [3h]", "draws [6d] [5c]")
        .replace("Run 2: Hero shows [4c 9s 7h 2s 3h]", "Run 2: Hero shows [4c 9s 7h 2s 5c]")
    )
    assert problems(text) == []
