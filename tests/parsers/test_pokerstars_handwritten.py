"""PokerStars room: handwritten hands in the room's format, for what the corpus lacks (the
current "PokerStars Hand #" header, 8-Game and HORSE rotations, home games, completions, the
community card, awkward player names).

The real hands of ../shared/corpus/{cash,tour}/Stars are in test_pokerstars_corpus.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from studdraw.parsers.files import discover_files
from studdraw.parsers.model import EventKind, Game, Outcome, Structure
from tests.conftest import parse_record, parse_text
from tests.parsers.records import actions, of_kind

# --- handwritten hands in formats the corpus lacks -----------------------------------------


@dataclass(frozen=True)
class Expected:
    game: Game
    structure: Structure = Structure.FIXED
    mixed: str | None = None
    currency: str = "USD"
    small_bet: int = 0
    big_bet: int = 0
    tournament_id: str | None = None
    level: str | None = None
    buy_in: tuple[int, int, str] | None = None  # (buy-in, fee, currency) when stated


HEADERS: list[tuple[str, Expected]] = [
    (
        "PokerStars Hand #227151398421: Tournament #3052498483, $3.30+$0.30 USD 8-Game "
        "(Razz Limit) - Level IV (200/400) - 2021/09/27 13:51:30 ET",
        Expected(
            Game.RAZZ,
            mixed="8-Game",
            currency="CHIPS",
            small_bet=200,
            big_bet=400,
            tournament_id="3052498483",
            level="Level IV",
        ),
    ),
    (
        "PokerStars Hand #85193487410:  HORSE (Razz Limit, $2/$4 USD) - 2012/09/18 21:36:37 ET",
        Expected(Game.RAZZ, mixed="HORSE", small_bet=200, big_bet=400),
    ),
    (
        "PokerStars Hand #85193487411:  8-Game (7 Card Stud Hi/Lo Limit, $0.50/$1 USD) - "
        "2012/09/18 21:36:37 ET",
        Expected(Game.STUD8, mixed="8-Game", small_bet=50, big_bet=100),
    ),
    (
        "PokerStars Hand #85193487412:  Triple Stud (7 Card Stud Limit, $1/$2 USD) - "
        "2012/09/18 21:36:37 ET",
        Expected(Game.STUD, mixed="Triple Stud", small_bet=100, big_bet=200),
    ),
    (
        "PokerStars Home Game #37295003131: {Orange County Club}  Razz Limit ($0.10/$0.20 USD) - "
        "2012/09/18 21:36:37 ET",
        Expected(Game.RAZZ, small_bet=10, big_bet=20),
    ),
    (
        "PokerStars Hand #85193487413:  Razz Limit (10/20) - 2012/09/18 21:36:37 ET",
        Expected(Game.RAZZ, currency="PLAY", small_bet=10, big_bet=20),
    ),
    (
        "PokerStars Hand #85193487414:  7 Card Stud Limit (€0.10/€0.20 EUR) - "
        "2012/09/18 21:36:37 CET",
        Expected(Game.STUD, currency="EUR", small_bet=10, big_bet=20),
    ),
    (
        "PokerStars Hand #85193487415: Tournament #55, Freeroll  Razz Limit - Level I (10/20) - "
        "2012/09/18 21:36:37 ET",
        Expected(
            Game.RAZZ,
            currency="CHIPS",
            small_bet=10,
            big_bet=20,
            tournament_id="55",
            level="Level I",
        ),
    ),
    (
        "PokerStars Hand #85193487416:  7 Card Stud Pot Limit ($0.10/$0.25 USD) - "
        "2012/09/18 21:36:37 ET",
        Expected(Game.STUD, structure=Structure.POT, small_bet=25, big_bet=25),
    ),
    # --- the forms of docs/rooms/pokerstars.md that the rows above do not show
    (
        "PokerStars Home Game Hand #250000000001: {Club Hearts}  Razz Limit ($0.10/$0.20 USD) - "
        "2020/05/01 12:00:00 ET",
        Expected(Game.RAZZ, small_bet=10, big_bet=20),
    ),
    (
        "POKERSTARS GAME #20000000001:  RAZZ LIMIT ($0.10/$0.20) - 2008/08/17 - 01:14:43 (ET)",
        Expected(Game.RAZZ, small_bet=10, big_bet=20),
    ),
    (
        "PokerStars Game #20000000002:  7 Card Stud Limit ($0.10/$0.20) - 2008/08/17 1:14 ET",
        Expected(Game.STUD, small_bet=10, big_bet=20),
    ),
    (
        "PokerStars Hand #164954571699:  8-GAME (7 Card Stud Hi/Lo Limit, £0.50/£1 GBP) - "
        "2017/01/21 16:58:03 ET",
        Expected(Game.STUD8, mixed="8-GAME", currency="GBP", small_bet=50, big_bet=100),
    ),
    (
        "PokerStars Hand #164954571700:  Razz Limit (€0.10/€0.20 EUR) [ADM ID: 9F4K2M] - "
        "2017/01/21 16:58:03 CET [2017/01/21 10:58:03 ET]",
        Expected(Game.RAZZ, currency="EUR", small_bet=10, big_bet=20),
    ),
    (
        "PokerStars Hand #164954571701:  Razz Limit (₹10/₹20 INR) - 2017/01/21 16:58:03 ET",
        Expected(Game.RAZZ, currency="INR", small_bet=1000, big_bet=2000),
    ),
    (
        "PokerStars Hand #164954571702:  Razz Limit (¥1/¥2 CNY) - 2017/01/21 16:58:03 ET",
        Expected(Game.RAZZ, currency="CNY", small_bet=100, big_bet=200),
    ),
    (
        "PokerStars Hand #164954571703:  Razz Limit ($0.10/$0.20 CAD) - 2017/01/21 16:58:03 ET",
        Expected(Game.RAZZ, currency="CAD", small_bet=10, big_bet=20),
    ),
    (
        "PokerStars Hand #164954571704: Tournament #77, $10+$2+$1 USD Razz Limit - Level II "
        "(10/20) - 2017/01/21 16:58:03 ET",
        Expected(
            Game.RAZZ,
            currency="CHIPS",
            small_bet=10,
            big_bet=20,
            tournament_id="77",
            level="Level II",
            buy_in=(1200, 100, "USD"),
        ),
    ),
    (
        "PokerStars Hand #164954571705: Tournament #78, 450 FPP Razz Limit - Level I (10/20) - "
        "2017/01/21 16:58:03 ET",
        Expected(
            Game.RAZZ,
            currency="CHIPS",
            small_bet=10,
            big_bet=20,
            tournament_id="78",
            level="Level I",
            buy_in=(45000, 0, "FPP"),
        ),
    ),
    (
        "PokerStars Hand #164954571706: Tournament #79, 1000+100 Razz Limit - Level I (10/20) - "
        "2017/01/21 16:58:03 ET",
        Expected(
            Game.RAZZ,
            currency="CHIPS",
            small_bet=10,
            big_bet=20,
            tournament_id="79",
            level="Level I",
            buy_in=(100000, 10000, "PLAY"),
        ),
    ),
    (
        "PokerStars Hand #164954571707: Zoom Tournament #80, €5+€0.50 EUR Razz Limit - "
        "Match Round I, Level I (10/20) - 2017/01/21 16:58:03 CET [2017/01/21 10:58:03 ET]",
        Expected(
            Game.RAZZ,
            currency="CHIPS",
            small_bet=10,
            big_bet=20,
            tournament_id="80",
            level="Match Round I, Level I",
            buy_in=(500, 50, "EUR"),
        ),
    ),
]

RAZZ_BODY = """\
Table 'Aase II' 8-max Seat #1 is the button
Seat 1: Alice ($10 in chips)
Seat 2: Bob ($10 in chips)
Alice: posts the ante $0.10
Bob: posts the ante $0.10
*** 3rd STREET ***
Dealt to Alice [Kd]
Dealt to Bob [2c 3d 4h]
Alice: brings in for $0.10
Bob: folds
Uncalled bet ($0.10) returned to Alice
Alice collected $0.20 from pot
*** SUMMARY ***
Total pot $0.20 | Rake $0
Seat 1: Alice (button) collected ($0.20)
Seat 2: Bob folded on the 3rd Street (didn't bet)
"""


@pytest.mark.parametrize(("header", "expected"), HEADERS, ids=lambda v: str(v)[:40])
def test_header_formats(header: str, expected: Expected) -> None:
    body = RAZZ_BODY
    symbol = {"EUR": "€", "GBP": "£", "INR": "₹", "CNY": "¥"}.get(expected.currency, "$")
    if expected.currency in ("CHIPS", "PLAY"):
        body = body.replace("$0.10", "10").replace("$0.20", "20").replace("$", "")
    else:
        body = body.replace("$", symbol)
    record = parse_record(f"{header}\n{body}")
    assert record.game is expected.game
    assert record.structure is expected.structure
    assert record.mixed == expected.mixed
    assert record.currency == expected.currency
    assert (record.stakes.small_bet, record.stakes.big_bet) == (
        expected.small_bet,
        expected.big_bet,
    )
    tournament = record.tournament
    assert (tournament.tournament_id if tournament else None) == expected.tournament_id
    assert (tournament.level if tournament else None) == expected.level
    if expected.buy_in is not None:
        assert tournament is not None
        assert (tournament.buy_in, tournament.fee, tournament.currency) == expected.buy_in


def test_home_game_keeps_the_club() -> None:
    record = parse_record(f"{HEADERS[4][0]}\n{RAZZ_BODY}")
    assert record.notes == ["home game club Orange County Club"]


@pytest.mark.parametrize(
    "label",
    [
        "Hold'em No Limit",
        "Omaha Pot Limit",
        "5 Card Stud Limit",
        "Courchevel Pot Limit",
    ],
)
def test_other_games_are_unsupported_not_errors(label: str) -> None:
    header = f"PokerStars Hand #1:  8-Game ({label}, $1/$2 USD) - 2012/09/18 21:36:37 ET"
    text = f"{header}\n*** HOLE CARDS ***"
    parsed = parse_text(text)
    assert parsed.outcome is Outcome.UNSUPPORTED
    assert parsed.problem is not None and parsed.game_label == label


CURRENT_STUD = """\
PokerStars Hand #230000000001:  7 Card Stud Limit ($0.10/$0.20 USD) - 2021/10/02 20:15:04 ET
Table 'Zeno III' 8-max Seat #1 is the button
Seat 1: Mr: [X] y ($5.00 in chips)
Seat 2: a (b) c ($5.00 in chips)
Seat 3: Carol ($0.30 in chips)
Mr: [X] y: posts the ante $0.02
a (b) c: posts the ante $0.02
Carol: posts the ante $0.02
*** 3rd STREET ***
Dealt to Mr: [X] y [9c]
Dealt to a (b) c [As 2d Kh]
Dealt to Carol [2c]
Carol: brings in for $0.05
Mr: [X] y said, "a (b) c: folds"
Mr: [X] y: completes it to $0.10
a (b) c: raises $0.10 to $0.20
Carol: calls $0.15 and is all-in
Mr: [X] y: calls $0.10
*** 4th STREET ***
Dealt to Mr: [X] y [9c] [9d]
Dealt to a (b) c [As 2d Kh] [Ks]
Dealt to Carol [2c] [3c]
Pair on board - a double bet is allowed
Mr: [X] y: bets $0.20
a (b) c: raises $0.20 to $0.40
Mr: [X] y: calls $0.20
*** 5th STREET ***
Dealt to Mr: [X] y [9c 9d] [4s]
Dealt to a (b) c [As 2d Kh Ks] [Qd]
Dealt to Carol [2c 3c] [5c]
Mr: [X] y: checks
a (b) c: checks
*** 6th STREET ***
Dealt to Mr: [X] y [9c 9d 4s] [8h]
Dealt to a (b) c [As 2d Kh Ks Qd] [Jc]
Dealt to Carol [2c 3c 5c] [6c]
Mr: [X] y: checks
a (b) c: checks
*** RIVER *** [Th]
Mr: [X] y: checks
a (b) c: checks
*** SHOW DOWN ***
Mr: [X] y: shows [7d 6s 9c 9d 4s 8h Th] (a pair of Nines)
a (b) c: shows [As 2d Kh Ks Qd Jc Th] (a straight, Ten to Ace)
Carol: shows [3h 3s 2c 3c 5c 6c Th] (a flush, Ten high)
Carol collected $0.84 from main pot
a (b) c collected $0.80 from side pot
*** SUMMARY ***
Total pot $1.70 Main pot $0.84. Side pot $0.80. | Rake $0.06
Board [Th]
Seat 1: Mr: [X] y (button) showed [7d 6s 9c 9d 4s 8h Th] and lost with a pair of Nines
Seat 2: a (b) c showed [As 2d Kh Ks Qd Jc Th] and won ($0.80) with a straight, Ten to Ace
Seat 3: Carol showed [3h 3s 2c 3c 5c 6c Th] and won ($0.84) with a flush, Ten high
"""


def test_current_format_stud_with_awkward_names_completion_and_community_card() -> None:
    r = parse_record(CURRENT_STUD)
    assert [s.player for s in r.seats] == ["Mr: [X] y", "a (b) c", "Carol"]
    assert r.hero == "a (b) c"
    assert actions(r, 0)[3:] == [
        ("bring_in", "Carol", 5, 5),
        ("complete", "Mr: [X] y", 10, 10),
        ("raise", "a (b) c", 20, 20),
        ("call", "Carol", 15, 20),
        ("call", "Mr: [X] y", 10, 20),
    ]
    [chat] = of_kind(r, EventKind.CHAT)
    assert (chat.player, chat.text) == ("Mr: [X] y", "a (b) c: folds")
    assert not any(e.kind is EventKind.FOLD for e in r.events)
    assert of_kind(r, EventKind.CALL)[0].all_in
    [community] = of_kind(r, EventKind.COMMUNITY)
    assert (community.cards, community.street) == (("Th",), 4)
    assert [(e.player, e.amount, e.pot) for e in of_kind(r, EventKind.COLLECT)] == [
        ("Carol", 84, "main"),
        ("a (b) c", 80, "side1"),
    ]


def test_old_format_bets_after_bring_in_is_a_completion() -> None:
    text = CURRENT_STUD.replace("Mr: [X] y: completes it to $0.10", "Mr: [X] y: bets $0.10")
    r = parse_record(text)
    completion = next(
        e for e in r.events if e.player == "Mr: [X] y" and e.street == 0 and e.amount == 10
    )
    assert completion.kind is EventKind.COMPLETE


@pytest.mark.parametrize(
    ("cut", "message"),
    [
        (12, "hand ends early"),  # truncated in the middle of 3rd street
        (58, "hand ends early"),  # no summary lines after the marker: still a whole hand? no:
    ],
)
def test_truncated_hands_are_errors_with_a_reason(cut: int, message: str) -> None:
    lines = CURRENT_STUD.splitlines()[:cut]
    parsed = parse_text("\n".join(lines))
    if cut == 58:
        # Cut right after "*** SUMMARY ***": the hand is complete enough to be read.
        assert parsed.outcome is Outcome.PARSED
        return
    assert parsed.outcome is Outcome.ERROR
    assert parsed.problem is not None and message in parsed.problem.message


def test_line_out_of_place_is_an_error() -> None:
    lines = CURRENT_STUD.splitlines()
    lines.insert(3, "*** SUMMARY ***")
    parsed = parse_text("\n".join(lines))
    assert parsed.outcome is Outcome.ERROR
    assert parsed.problem is not None and parsed.problem.line == 4


def test_sample_file_names_are_discovered(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(CURRENT_STUD, encoding="utf-8")
    (tmp_path / "a.txt.hp").write_text("not a history", encoding="utf-8")
    assert [p.name for p in discover_files([tmp_path])] == ["a.txt"]
