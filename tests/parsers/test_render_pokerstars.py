"""Round trip: parse(render(record)) gives the record back, for every parsed corpus hand.

The renderer writes what a real export of the hero's history shows, so the comparison is on
everything the export keeps: identity, stakes, seats, times, and every event but its line.
"""

from __future__ import annotations

from studdraw.parsers.files import discover_files
from studdraw.parsers.model import HandRecord
from studdraw.parsers.reader import parse_file
from studdraw.parsers.render.pokerstars import render_pokerstars
from tests.conftest import CORPUS, corpus_file, parse_record
from tests.parsers.records import comparable
from tests.parsers.test_pokerstars_handwritten import CURRENT_STUD


def corpus_records() -> list[HandRecord]:
    corpus_file("cash", "Stars")
    paths = discover_files([CORPUS / "cash" / "Stars", CORPUS / "tour" / "Stars"])
    return [parsed.record for path in paths for parsed in parse_file(path) if parsed.record]


def test_every_corpus_hand_round_trips() -> None:
    records = corpus_records()
    assert len(records) == 271  # every parsed PokerStars hand of the corpus
    for record in records:
        text = render_pokerstars(record)
        again = parse_record(text)
        expected = comparable(record, notes=False)
        assert comparable(again, notes=False) == expected, f"{record.room_hand_id}\n{text}"


def test_handwritten_hand_round_trips_with_names_chat_and_community_card() -> None:
    record = parse_record(CURRENT_STUD)
    assert comparable(parse_record(render_pokerstars(record)), notes=False) == comparable(
        record, notes=False
    )


def test_only_the_heros_down_cards_are_printed() -> None:
    record = parse_record(CURRENT_STUD)
    text = render_pokerstars(record)
    third_street = [line for line in text.splitlines() if line.startswith("Dealt to")][:3]
    assert third_street == [
        "Dealt to Mr: [X] y [9c]",
        "Dealt to a (b) c [As 2d Kh]",
        "Dealt to Carol [2c]",
    ]


def test_renders_the_room_notation_for_money() -> None:
    text = render_pokerstars(parse_record(CURRENT_STUD))
    assert "Seat 1: Mr: [X] y ($5 in chips)" in text
    assert "a (b) c: raises $0.10 to $0.20" in text
    assert "Total pot $1.70 Main pot $0.84. Side pot $0.80. | Rake $0.06" in text
