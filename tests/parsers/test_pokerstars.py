"""PokerStars room: concrete fields of concrete hands, real and handwritten.

The real hands come from ../shared/corpus/{cash,tour}/Stars. The handwritten ones cover what the
corpus lacks (the current "PokerStars Hand #" header, 8-Game and HORSE rotations, home games,
completions, the community card, awkward player names) and are written in the room's format.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from studdraw.parsers.files import discover_files
from studdraw.parsers.model import EventKind, Game, Outcome, Structure
from studdraw.parsers.reader import parse_file
from tests.conftest import CORPUS, corpus_file, parse_record, parse_text
from tests.parsers.records import actions, corpus_hand, of_kind

STUD_FILE = ("cash", "Stars", "Stud", "7-Stud-USD-0.04-0.08-200911.txt")
SALM_FILE = (
    "cash",
    "Stars",
    "Stud",
    "HH20110417 Salm IX - $0.04-$0.08 Ante $0.01 - USD Limit Stud.txt",
)
STUD8_TOUR_FILE = ("tour", "Stars", "Stud", "7-StudHL-USD-10-1-200906.PT2.export.txt")
RAZZ_FILE = ("cash", "Stars", "Stud", "Razz-USD-0.04-0.08-200911.txt")
TD27_FILE = ("cash", "Stars", "Draw", "Triple Draw 2-7 Lowball-FL-USD-0.10-0.20-201106.sample.txt")
BADUGI_FILE = ("tour", "Stars", "Draw", "LBad-USD-MTT8-201011.txt")
CANCELLED_FILE = ("cash", "Stars", "Draw", "3-Draw-Limit-USD-1-2-200809.Hand.cancelled.txt")


# --- the whole corpus ---------------------------------------------------------------------


def test_every_in_scope_corpus_hand_parses_and_unsupported_ones_are_named() -> None:
    corpus_file("cash", "Stars")
    outcomes: Counter[tuple[Outcome, str]] = Counter()
    for path in discover_files([CORPUS / "cash" / "Stars", CORPUS / "tour" / "Stars"]):
        for parsed in parse_file(path):
            assert parsed.hand.room == "pokerstars", path
            if parsed.outcome is Outcome.ERROR:
                pytest.fail(
                    f"{path}:{parsed.problem.line if parsed.problem else '?'}: {parsed.problem}"
                )
            label = (
                str(parsed.record.game)
                if parsed.record
                else str(parsed.problem and parsed.game_label)
            )
            outcomes[(parsed.outcome, label)] += 1
    assert outcomes == {
        (Outcome.PARSED, "badugi"): 182,
        (Outcome.PARSED, "td27"): 18,
        (Outcome.PARSED, "stud"): 12,
        (Outcome.PARSED, "stud8"): 9,
        (Outcome.PARSED, "razz"): 9,
        (Outcome.PARSED, "draw5"): 37,  # limit, pot limit and no limit
        (Outcome.PARSED, "sd27"): 4,  # cash and a heads-up tournament
        (Outcome.UNSUPPORTED, "td27"): 1,  # the cancelled hand
    }


def test_cancelled_hand_is_unsupported_with_its_reason() -> None:
    [parsed] = list(parse_file(corpus_file(*CANCELLED_FILE)))
    assert parsed.outcome is Outcome.UNSUPPORTED
    assert parsed.room_hand_id == "20349633663"
    assert parsed.problem is not None
    assert parsed.problem.message == "hand cancelled by the room"
    assert parsed.problem.line == 7


# --- concrete corpus hands ----------------------------------------------------------------


def test_stud_cash_hand_with_uncalled_bet() -> None:
    r = corpus_hand(STUD_FILE, "35874004239")
    assert (r.room, r.game, r.structure, r.currency, r.scale) == (
        "pokerstars",
        Game.STUD,
        Structure.FIXED,
        "USD",
        100,
    )
    assert r.stakes.small_bet == 4 and r.stakes.big_bet == 8
    assert r.stakes.ante == 1 and r.stakes.bring_in == 2
    assert r.table == "Atalante II" and r.max_seats == 8 and r.button is None
    assert r.started_at == datetime(2009, 11, 26, 15, 8, 43, tzinfo=UTC)  # 10:08:43 EST
    assert r.room_time == "2009/11/26 10:08:43 ET"
    assert [(s.seat, s.player, s.stack) for s in r.seats] == [
        (1, "Hero", 160),
        (3, "Nikolay Zem", 184),
        (4, "totof51", 134),
        (5, "trs2758", 176),
        (8, "MasterTrini1", 249),
    ]
    assert r.hero == "Hero"
    assert actions(r, 0)[5:] == [
        ("bring_in", "MasterTrini1", 2, 2),
        ("call", "Hero", 2, 2),
        ("call", "Nikolay Zem", 2, 2),
        ("call", "totof51", 2, 2),
        ("call", "trs2758", 2, 2),
    ]
    assert actions(r, 4) == [("bet", "trs2758", 8, 8), ("fold", "MasterTrini1", 0, None)]
    [uncalled] = of_kind(r, EventKind.UNCALLED)
    assert (uncalled.player, uncalled.amount, uncalled.line) == ("trs2758", 8, 57)
    [collect] = of_kind(r, EventKind.COLLECT)
    assert (collect.player, collect.amount, collect.pot) == ("trs2758", 64, "main")
    assert (r.total_pot, r.rake) == (67, 3)
    joins = of_kind(r, EventKind.JOIN)
    assert [(e.player, e.street) for e in joins] == [("RoadDevil", 2)]


def test_stud_hand_with_side_pot_open_pair_and_summary_mucks() -> None:
    r = corpus_hand(SALM_FILE, "60974484959")
    # "2011/04/18 2:21:35 CET [2011/04/17 20:21:35 ET]": the bracketed ET time is used.
    assert r.room_time == "2011/04/17 20:21:35 ET"
    assert r.started_at == datetime(2011, 4, 18, 0, 21, 35, tzinfo=UTC)
    assert r.hero == "steffen780"
    [hero_deal] = [e for e in of_kind(r, EventKind.DEAL) if e.player == "steffen780"]
    assert hero_deal.cards == ("Ks", "7h", "9s") and hero_deal.up == (False, False, True)
    door = next(e for e in of_kind(r, EventKind.DEAL) if e.player == "Tumim")
    assert door.cards == (None, None, "2d") and door.up == (False, False, True)
    assert [e.street for e in of_kind(r, EventKind.OPEN_PAIR)] == [1]
    assert actions(r, 1) == [
        ("bet", "Spacemasa", 8, 8),
        ("fold", "roditopgrdk", 0, None),
        ("fold", "pirklepump", 0, None),
        ("fold", "yaoenqi001", 0, None),
        ("call", "ranchim", 8, 8),
        ("call", "Tumim", 8, 8),
    ]
    assert of_kind(r, EventKind.BET)[0].all_in
    # "ranchim: raises $0.08 to $0.16" after checking: 16 cents go in.
    assert actions(r, 2) == [
        ("check", "ranchim", 0, None),
        ("bet", "Tumim", 8, 8),
        ("raise", "ranchim", 16, 16),
        ("call", "Tumim", 8, 16),
    ]
    assert [(e.player, e.amount, e.pot) for e in of_kind(r, EventKind.COLLECT)] == [
        ("ranchim", 61, "side1"),
        ("ranchim", 42, "main"),
    ]
    [show] = of_kind(r, EventKind.SHOW)
    assert show.cards == ("Tc", "Kh", "As", "Jd", "Qd", "2s", "9c")
    assert show.text == "a straight, Ten to Ace"
    mucked = {e.player: e.cards for e in of_kind(r, EventKind.MUCK) if e.cards}
    assert mucked == {
        "Tumim": ("5c", "6c", "2d", "3h", "Ac", "4d", "8d"),
        "Spacemasa": ("Ts", "8c", "Qh", "Qs", "7c", "Td", "4c"),
    }
    assert (r.total_pot, r.rake) == (108, 5)


def test_stud_hi_lo_tournament_hand() -> None:
    r = corpus_hand(STUD8_TOUR_FILE, "29356803849")
    assert (r.game, r.currency, r.scale) == (Game.STUD8, "CHIPS", 1)
    assert r.tournament is not None
    assert (r.tournament.tournament_id, r.tournament.buy_in, r.tournament.fee) == (
        "169962475",
        1000,
        100,
    )
    assert (r.tournament.currency, r.tournament.level) == ("USD", "LEVEL I")
    assert (r.stakes.small_bet, r.stakes.big_bet, r.stakes.ante, r.stakes.bring_in) == (
        25,
        50,
        5,
        10,
    )
    assert [s.player for s in r.seats if s.sitting_out] == ["Player6"]
    assert [(e.player, e.amount) for e in of_kind(r, EventKind.COLLECT)] == [
        ("Player4", 220),
        ("Player2", 220),
    ]
    assert (r.total_pot, r.rake) == (440, 0)


def test_razz_hand() -> None:
    r = corpus_hand(RAZZ_FILE, "35874566077")
    assert r.game is Game.RAZZ
    assert actions(r, 0)[5] == ("bring_in", "kobreli", 2, 2)
    assert [e.text for e in of_kind(r, EventKind.NOTE)] == ["kurczakkr2 is disconnected"]
    assert [e.player for e in of_kind(r, EventKind.LEAVE)] == ["willy32948"]


def test_triple_draw_cash_hand() -> None:
    r = corpus_hand(TD27_FILE, "63845186378")
    assert (r.game, r.structure) == (Game.TD27, Structure.FIXED)
    assert (r.stakes.small_bet, r.stakes.big_bet, r.stakes.small_blind, r.stakes.big_blind) == (
        10,
        20,
        5,
        10,
    )
    assert r.button == 1 and r.max_seats == 6
    assert r.room_time == "2011/06/26 13:34:02 ET"
    [deal] = of_kind(r, EventKind.DEAL)
    assert (deal.player, deal.cards) == ("Hero", ("8s", "Td", "Kd", "Qs", "Qc"))
    assert [(e.player, e.count, e.street) for e in of_kind(r, EventKind.DISCARD)] == [
        ("Player2", 3, 1),
        ("Player3", 2, 1),
        ("Player1", 2, 1),
        ("Player3", 2, 2),
        ("Player3", 1, 3),
    ]
    assert [(e.player, e.street) for e in of_kind(r, EventKind.STAND_PAT)] == [
        ("Player1", 2),
        ("Player1", 3),
    ]
    assert actions(r, 3) == [("bet", "Player3", 20, 20), ("call", "Player1", 20, 20)]
    assert (r.total_pot, r.rake) == (135, 6)


def test_badugi_tournament_hand_with_reraises_and_hero_draws() -> None:
    r = corpus_hand(BADUGI_FILE, "52475779512")
    assert r.game is Game.BADUGI and r.button == 2
    assert r.tournament is not None and r.tournament.level == "Level I"
    assert (r.tournament.buy_in, r.tournament.fee) == (200, 20)
    assert actions(r, 0) == [
        ("small_blind", "Player10", 10, 10),
        ("big_blind", "Player3", 20, 20),
        ("fold", "Player12", 0, None),
        ("fold", "Player20", 0, None),
        ("fold", "Player9", 0, None),
        ("fold", "Player19", 0, None),
        ("call", "Player10", 10, 20),  # the small blind completes to the big blind
        ("check", "Player3", 0, None),
    ]
    assert actions(r, 2) == [
        ("bet", "Player10", 40, 40),
        ("raise", "Player3", 80, 80),
        ("raise", "Player10", 80, 120),
        ("call", "Player3", 40, 120),
    ]
    mucked = [e for e in of_kind(r, EventKind.MUCK) if e.cards]
    assert [(e.player, e.cards) for e in mucked] == [("Player10", ("Th", "4s", "2d", "6c"))]


def test_badugi_hero_discards_and_draws_are_known() -> None:
    records = [p.record for p in parse_file(corpus_file(*BADUGI_FILE)) if p.record]
    draws = [
        (e.cards, e.street)
        for r in records
        for e in r.events
        if e.kind is EventKind.DRAW and e.player == "Player19"
    ]
    assert (("Kh", "5c"), 1) in draws
    discards = [e for r in records for e in r.events if e.kind is EventKind.DISCARD and e.cards]
    assert any(e.cards == ("Ks", "Th") and e.count == 2 for e in discards)


def test_hand_lines_point_into_the_file() -> None:
    path = corpus_file(*STUD_FILE)
    lines = path.read_text(encoding="utf-8").splitlines()
    for parsed in parse_file(path):
        assert parsed.record is not None
        assert lines[parsed.hand.source.line - 1].startswith("PokerStars Game #")
        for event in parsed.record.events:
            text = lines[event.line - 1]
            if event.player and event.kind is not EventKind.MUCK:
                assert event.player in text, (event, text)


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
