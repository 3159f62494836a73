"""Round trip: parse(render(record)) gives the record back, for every parsed iPoker corpus hand;
synthesised hands render as iPoker XML that reads back legal, with every player's net kept."""

from __future__ import annotations

import io

import pytest

from studdraw.parsers.files import detect_encoding, discover_files
from studdraw.parsers.model import EventKind, Game, HandRecord, Structure
from studdraw.parsers.reader import parse_file
from studdraw.parsers.render.ipoker import render_ipoker
from studdraw.parsers.rooms import BY_NAME
from studdraw.pipeline.rules import replay
from studdraw.pipeline.synth import SynthOptions, synthesize
from tests.conftest import CORPUS, corpus_file
from tests.parsers.records import comparable, net_results


def read_back(text: str) -> HandRecord:
    """The one hand of a rendered iPoker file, through the room's splitter and parser."""
    data = text.encode("utf-8")
    room = BY_NAME["ipoker"]
    [hand] = list(room.hand_texts(io.BytesIO(data), detect_encoding(data), "<rendered>"))
    parsed = room.parse(hand)
    assert parsed.record is not None, (parsed.problem, text)
    return parsed.record


def corpus_records() -> list[HandRecord]:
    corpus_file("cash", "iPoker")
    paths = discover_files([CORPUS / "cash" / "iPoker", CORPUS / "tour" / "iPoker"])
    return [parsed.record for path in paths for parsed in parse_file(path) if parsed.record]


def test_every_corpus_hand_round_trips() -> None:
    records = corpus_records()
    assert len(records) == 120
    for record in records:
        text = render_ipoker(record, reveal=set(record.players))
        again = read_back(text)
        expected = comparable(record, notes=False)
        assert comparable(again, notes=False) == expected, f"{record.room_hand_id}\n{text}"


@pytest.mark.parametrize("game", [Game.STUD, Game.STUD8, Game.STUD5])
def test_synthesised_hands_read_back_legal(game: Game) -> None:
    options = SynthOptions(room="ipoker", game=game, hands=60, seed=11)
    for record in synthesize(options):
        again = read_back(render_ipoker(record))
        assert replay(again).problems == [], record.room_hand_id
        assert net_results(again) == net_results(record)
        # iPoker prints no bring-in or ante size: they are read from the posts, when there are
        sizes = (again.stakes.small_bet, again.stakes.big_bet)
        assert sizes == (record.stakes.small_bet, record.stakes.big_bet)
        assert (again.game, again.seats) == (record.game, record.seats)


def test_only_the_heros_and_shown_down_cards_are_printed() -> None:
    record = next(r for r in corpus_records() if r.room_hand_id == "2418630592")
    text = render_ipoker(record)
    assert '<cards type="Third Street" player="Hero">D4 S7 C8</cards>' in text
    assert '<cards type="Third Street" player="WurmX">X X H6</cards>' not in text  # other hand
    assert '<cards type="Third Street" player="komanchi7">X X ' in text


@pytest.mark.parametrize(
    ("game", "structure"), [(Game.RAZZ, Structure.FIXED), (Game.STUD, Structure.SPREAD)]
)
def test_what_ipoker_never_dealt_is_refused(game: Game, structure: Structure) -> None:
    record = next(iter(synthesize(SynthOptions(room="pokerstars", game=game, hands=1))))
    record.structure = structure
    with pytest.raises(ValueError, match="iPoker deals no"):
        render_ipoker(record)


def test_an_uncalled_bet_is_paid_back_inside_the_win() -> None:
    for record in synthesize(SynthOptions(room="ipoker", game=Game.STUD, hands=40, seed=2)):
        returned = [e for e in record.events if e.kind is EventKind.UNCALLED]
        if returned:
            again = read_back(render_ipoker(record))
            assert not any(e.kind is EventKind.UNCALLED for e in again.events)
            assert net_results(again) == net_results(record)
            return
    pytest.fail("no synthesised hand with an uncalled bet")
