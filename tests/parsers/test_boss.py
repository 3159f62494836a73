"""Boss Media room: every hand is read as XML and counted unsupported with its game.

The corpus (../shared/corpus/cash/Boss) holds five-card draw only, a `<ROOT>` file and a
file of bare `<HISTORY>` elements; FPDB-3's reader knows no other games than hold'em, Omaha and
five-card draw. Handwritten hands cover the other codes and a malformed hand.
"""

from __future__ import annotations

import pytest

from studdraw.parsers.model import Outcome
from studdraw.parsers.reader import parse_file
from tests.conftest import corpus_file, parse_text

ROOT_FILE = ("cash", "Boss", "Draw", "5CD-FL-EUR-2-4.Opoker.sample.xml")
BARE_FILE = ("cash", "Boss", "Draw", "5CD-PL-EUR-0.50-1.00-201307.txt")


@pytest.mark.parametrize(
    ("parts", "first_id", "line", "label", "count"),
    [
        (ROOT_FILE, "2692984519", 3, "GAME_FCD FL 2.00/4.00", 14),
        (BARE_FILE, "3042344309", 1, "GAME_FCD PL 0.50/1.00", 1),
    ],
)
def test_corpus_hands_are_five_card_draw(
    parts: tuple[str, ...], first_id: str, line: int, label: str, count: int
) -> None:
    parsed = list(parse_file(corpus_file(*parts)))
    assert len(parsed) == count
    first = parsed[0]
    assert (first.site_hand_id, first.hand.source.line) == (first_id, line)
    for hand in parsed:
        assert hand.outcome is Outcome.UNSUPPORTED
        assert hand.problem is not None and hand.problem.game_label == label
        assert "Five Card Draw is not a stud or triple-draw game" in hand.problem.message


HAND = (
    '<HISTORY ID="5" SESSION="session1.xml" TABLE="T" GAME="{game}" GAMETYPE="GAMETYPE_REAL" '
    'GAMEKIND="GAMEKIND_CASH" TABLECURRENCY="EUR" LIMIT="NL" STAKES="0.01/0.02" DATE="1" '
    'TABLETOURNEYID="" WIN="0" LOSS="0" ENDTIME="2">\n'
    '<PLAYER NAME="A" SEAT="1" AMOUNT="1.00" STATE="STATE_PLAYING" DEALER="Y"></PLAYER>\n'
    "</HISTORY>"
)


@pytest.mark.parametrize(
    ("game", "name"),
    [("GAME_THM", "Texas Hold'em"), ("GAME_OMAHL", "Omaha Hi/Lo"), ("GAME_XYZ", "an unknown")],
)
def test_every_game_is_unsupported_with_its_label(game: str, name: str) -> None:
    parsed = parse_text(HAND.format(game=game), "boss")
    assert parsed.outcome is Outcome.UNSUPPORTED
    assert parsed.problem is not None
    assert parsed.problem.game_label == f"{game} NL 0.01/0.02"
    assert name in parsed.problem.message


def test_a_malformed_hand_is_an_error() -> None:
    parsed = parse_text(HAND.format(game="GAME_FCD").replace("</PLAYER>", ""), "boss")
    assert parsed.outcome is Outcome.ERROR
    assert parsed.problem is not None and "malformed XML" in parsed.problem.message
