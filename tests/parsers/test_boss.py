"""Boss Media room: five-card draw read in full, every other game read as XML and counted
unsupported with its game.

The corpus (../shared/corpus/cash/Boss) holds five-card draw only, a `<ROOT>` file and a file of
bare `<HISTORY>` elements; FPDB-3's reader knows no other games than hold'em, Omaha and
five-card draw. Handwritten hands cover the other codes, the card numbering and a malformed hand.
"""

from __future__ import annotations

import pytest

from studdraw.parsers.model import EventKind, Game, Outcome, Structure
from studdraw.parsers.reader import parse_file
from studdraw.parsers.rooms.boss import card
from studdraw.pipeline.rules import replay
from tests.conftest import corpus_file, parse_text

ROOT_FILE = ("cash", "Boss", "Draw", "5CD-FL-EUR-2-4.Opoker.sample.xml")
BARE_FILE = ("cash", "Boss", "Draw", "5CD-PL-EUR-0.50-1.00-201307.txt")


@pytest.mark.parametrize(
    ("parts", "first_id", "line", "structure", "count"),
    [
        (ROOT_FILE, "2692984519", 3, Structure.FIXED, 14),
        (BARE_FILE, "3042344309", 1, Structure.POT, 1),
    ],
)
def test_corpus_hands_are_five_card_draw_and_validate(
    parts: tuple[str, ...], first_id: str, line: int, structure: Structure, count: int
) -> None:
    parsed = list(parse_file(corpus_file(*parts)))
    assert len(parsed) == count
    first = parsed[0]
    assert (first.room_hand_id, first.hand.source.line) == (first_id, line)
    for hand in parsed:
        assert hand.outcome is Outcome.PARSED, hand.problem
        record = hand.record
        assert record is not None
        assert (record.game, record.structure, record.currency) == (Game.DRAW5, structure, "EUR")
        errors = [v for v in replay(record).problems if v.severity == "error"]
        assert errors == [], (record.room_hand_id, errors)


def test_the_first_corpus_hand_reads_as_the_room_played_it() -> None:
    """#2692984519: SB raises to 4.00, the BB calls to 4.00; one draw; a bet of 4.00 folded to,
    returned without a word; 7.75 won after a 0.25 rake."""
    record = next(iter(parse_file(corpus_file(*ROOT_FILE)))).record
    assert record is not None
    stakes = record.stakes
    assert (stakes.small_bet, stakes.big_bet, stakes.small_blind, stakes.big_blind) == (
        200,
        400,
        100,
        200,
    )
    assert record.button == 2 and record.hero == "Hero"
    moves = [
        (e.kind, e.player, e.street, e.amount)
        for e in record.events
        if e.kind.is_forced or e.kind.is_betting or e.kind is EventKind.UNCALLED
    ]
    assert moves == [
        (EventKind.SMALL_BLIND, "Player3", 0, 100),
        (EventKind.BIG_BLIND, "Hero", 0, 200),
        (EventKind.FOLD, "Player2", 0, 0),
        (EventKind.RAISE, "Player3", 0, 300),
        (EventKind.CALL, "Hero", 0, 200),
        (EventKind.BET, "Player3", 1, 400),
        (EventKind.FOLD, "Hero", 1, 0),
        (EventKind.UNCALLED, "Player3", 1, 400),
    ]
    hero_draw = [e for e in record.events if e.player == "Hero" and e.street == 1 and e.cards]
    assert [(e.kind, e.cards) for e in hero_draw] == [
        (EventKind.DISCARD, ("5h", "9s", "Jd")),
        (EventKind.DRAW, ("Ad", "Kc", "5d")),
    ]
    assert (record.total_pot, record.rake) == (800, 25)


@pytest.mark.parametrize(
    ("link", "expected"),
    [
        ("0", "Ad"),
        ("12", "Kd"),
        ("13", "Ac"),
        ("22", "Tc"),
        ("26", "Ah"),
        ("51", "Ks"),
        ("b", None),
    ],
)
def test_card_numbers(link: str, expected: str | None) -> None:
    assert card(link, 1) == expected


HAND = (
    '<HISTORY ID="5" SESSION="session1.xml" TABLE="T" GAME="{game}" GAMETYPE="GAMETYPE_REAL" '
    'GAMEKIND="GAMEKIND_CASH" TABLECURRENCY="EUR" LIMIT="NL" STAKES="0.01/0.02" DATE="1" '
    'TABLETOURNEYID="" WIN="0" LOSS="0" ENDTIME="2">\n'
    '<PLAYER NAME="A" SEAT="1" AMOUNT="1.00" STATE="STATE_PLAYING" DEALER="Y"></PLAYER>\n'
    "{actions}</HISTORY>"
)


@pytest.mark.parametrize(
    ("game", "name"),
    [("GAME_THM", "Texas Hold'em"), ("GAME_OMAHL", "Omaha Hi/Lo"), ("GAME_XYZ", "an unknown")],
)
def test_every_other_game_is_unsupported_with_its_label(game: str, name: str) -> None:
    parsed = parse_text(HAND.format(game=game, actions=""), "boss")
    assert parsed.outcome is Outcome.UNSUPPORTED
    assert parsed.problem is not None
    assert parsed.game_label == f"{game} NL 0.01/0.02"
    assert name in parsed.problem.message


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        ('<ACTION TYPE="ACTION_DANCE" PLAYER="A"></ACTION>\n', "unknown action 'ACTION_DANCE'"),
        (
            '<ACTION TYPE="HAND_DEAL" PLAYER="A"><CARD LINK="52"></CARD></ACTION>\n',
            "unknown card '52'",
        ),
        ("", "without its <SHOWDOWN>"),
    ],
)
def test_what_the_reader_does_not_know_is_an_error(actions: str, message: str) -> None:
    parsed = parse_text(HAND.format(game="GAME_FCD", actions=actions), "boss")
    assert parsed.outcome is Outcome.ERROR
    assert parsed.problem is not None and message in parsed.problem.message


def test_a_malformed_hand_is_an_error() -> None:
    text = HAND.format(game="GAME_FCD", actions="").replace("</PLAYER>", "")
    parsed = parse_text(text, "boss")
    assert parsed.outcome is Outcome.ERROR
    assert parsed.problem is not None and "malformed XML" in parsed.problem.message
