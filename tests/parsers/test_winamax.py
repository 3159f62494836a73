"""Winamax room: concrete fields of concrete hands, real and handwritten.

The real hands come from ../shared/corpus/cash/Winamax (8-Game real-money tables and play-money
"export" files). The handwritten ones cover what the corpus lacks (tournaments, all-in markers,
other games) and are written in the room's format.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import pytest

from studdraw.parsers.files import discover_files
from studdraw.parsers.model import EventKind, Game, HandRecord, Outcome, Structure
from studdraw.parsers.reader import open_history, parse_file
from studdraw.pipeline.rules import replay
from tests.conftest import CORPUS, corpus_file, parse_record, parse_text
from tests.parsers.names import (
    NAMES,
    PLAIN,
    assert_name_reads_everywhere,
    fill,
    kinds_with_a_player,
    line_kinds,
)
from tests.parsers.records import actions, of_kind

RAZZ_FILE = ("cash", "Winamax", "Stud", "Razz-6max-EUR-25-50-201611._8games_.txt")
STUD_FILE = ("cash", "Winamax", "Stud", "7-Stud-6max-EUR-25-50-201611._8games_.txt")
NEGATIVE_FILE = (
    "cash",
    "Winamax",
    "Stud",
    "7-Stud-6max-EUR-25-50-201611._8games_.negative.bet.txt",
)
PLAY_STUD_FILE = ("cash", "Winamax", "Stud", "7-Stud-6max-play-0.5-0.10-201606.export.txt")
PLAY_TD_FILE = (
    "cash",
    "Winamax",
    "Draw",
    "Triple Draw 2-7-FL-6max-play-0.50-1.00-201610.export.txt",
)


def corpus_hand(parts: tuple[str, ...]) -> HandRecord:
    [parsed] = list(parse_file(corpus_file(*parts)))
    assert parsed.record is not None, parsed.problem
    return parsed.record


# --- the whole corpus ---------------------------------------------------------------------


def test_every_corpus_hand_parses() -> None:
    corpus_file("cash", "Winamax")
    outcomes: Counter[tuple[Outcome, str]] = Counter()
    for path in discover_files([CORPUS / "cash" / "Winamax"]):
        for parsed in parse_file(path):
            assert parsed.hand.room == "winamax", path
            assert parsed.record is not None, (path, parsed.problem)
            outcomes[(parsed.outcome, str(parsed.record.game))] += 1
    assert outcomes == {
        (Outcome.PARSED, "stud"): 3,
        (Outcome.PARSED, "razz"): 1,
        (Outcome.PARSED, "td27"): 1,
    }


def test_sniffing_claims_exactly_the_winamax_files() -> None:
    corpus_file("cash", "Winamax")
    for path in discover_files([CORPUS]):
        room = open_history(path).room
        assert (room is not None and room.name == "winamax") == ("Winamax" in path.parts), path


def test_the_hand_id_ends_with_the_utc_start_as_a_unix_time() -> None:
    """The evidence that the printed "UTC" is true: the id's last part is the start time."""
    corpus_file("cash", "Winamax")
    for path in discover_files([CORPUS / "cash" / "Winamax"]):
        for parsed in parse_file(path):
            record = parsed.record
            assert record is not None
            stamp = int(record.room_hand_id.rsplit("-", 1)[1])
            assert datetime.fromtimestamp(stamp, UTC) == record.started_at, path


def test_pots_add_up_once_the_rake_is_put_back() -> None:
    """Winamax prints the pot after the rake; the record keeps the whole pot."""
    corpus_file("cash", "Winamax")
    for path in discover_files([CORPUS / "cash" / "Winamax"]):
        for parsed in parse_file(path):
            r = parsed.record
            assert r is not None and r.rake is not None
            put_in = sum(e.amount for e in r.events if e.kind.is_forced or e.kind.is_betting)
            collected = sum(e.amount for e in of_kind(r, EventKind.COLLECT))
            assert r.total_pot == put_in == collected + r.rake, path


# --- concrete corpus hands ----------------------------------------------------------------


def test_razz_8_game_hand() -> None:
    r = corpus_hand(RAZZ_FILE)
    assert (r.room, r.room_hand_id, r.game, r.structure, r.currency, r.scale) == (
        "winamax",
        "9250793-444-1478990340",
        Game.RAZZ,
        Structure.FIXED,
        "EUR",
        100,
    )
    assert (r.stakes.ante, r.stakes.bring_in, r.stakes.small_bet, r.stakes.big_bet) == (
        500,
        1000,
        2500,
        5000,
    )
    assert (r.table, r.max_seats, r.button, r.mixed) == ("Pampelune", 6, None, None)
    assert r.room_time == "2016/11/12 22:39:00 UTC"
    assert r.started_at == datetime(2016, 11, 12, 22, 39, tzinfo=UTC)
    assert [(s.seat, s.player, s.stack) for s in r.seats] == [
        (1, "Hero", 154672),
        (4, "Player0", 66456),
    ]
    assert r.hero == "Hero"
    deals = {e.player: (e.cards, e.up) for e in of_kind(r, EventKind.DEAL) if e.street == 0}
    assert deals == {
        "Hero": (("4s", "Ad", "Td"), (False, False, True)),
        "Player0": ((None, None, "8h"), (False, False, True)),
    }
    assert actions(r, 0) == [
        ("ante", "Hero", 500, None),
        ("ante", "Player0", 500, None),
        ("bring_in", "Hero", 1000, 1000),
        ("complete", "Player0", 2500, 2500),  # printed "raises 25€ to 25€"
        ("call", "Hero", 1500, 2500),
    ]
    assert actions(r, 3) == [("bet", "Player0", 5000, 5000), ("fold", "Hero", 0, None)]
    # No "uncalled bet" line: the unmatched 50€ is inside the 258€ collected.
    assert not of_kind(r, EventKind.UNCALLED)
    [collect] = of_kind(r, EventKind.COLLECT)
    assert (collect.player, collect.amount, collect.pot, collect.line) == (
        "Player0",
        25800,
        "main",
        29,
    )
    assert (r.total_pot, r.rake) == (26000, 200)


def test_stud_8_game_hand_with_a_hidden_river() -> None:
    r = corpus_hand(STUD_FILE)
    river = {e.player: (e.cards, e.up) for e in of_kind(r, EventKind.DEAL) if e.street == 4}
    assert river == {"Player0": ((None,), (False,)), "Hero": (("Th",), (False,))}
    assert actions(r, 4) == [
        ("bet", "Player0", 5000, 5000),
        ("raise", "Hero", 10000, 10000),
        ("call", "Player0", 5000, 10000),
    ]
    assert [(e.player, e.text) for e in of_kind(r, EventKind.SHOW)] == [
        ("Player0", "Straight King high"),
        ("Hero", "Flush Queen high"),
    ]
    assert (r.total_pot, r.rake) == (46000, 200)


def test_raise_by_the_bring_in_reads_the_room_total_plus_the_bring_in() -> None:
    """ "Player0 raises -6.10€ to 18.90€": the room leaves the raiser's own 10€ bring-in out of
    the total. 33.90 - 5 (ante) - 10 (bring-in) = 18.90: Player0 goes all in to 28.90, which
    Player1's call of 3.90 over 25 and the 72.80 pot confirm."""
    r = corpus_hand(NEGATIVE_FILE)
    assert r.room_hand_id == "9250793-1578-1479092164"
    assert actions(r, 0)[3:] == [
        ("bring_in", "Player0", 1000, 1000),
        ("complete", "Player1", 2500, 2500),
        ("fold", "Hero", 0, None),
        ("raise", "Player0", 1890, 2890),
        ("call", "Player1", 390, 2890),
    ]
    assert r.notes == ["line 17: raise total read as printed + bring-in"]
    [stack] = [s.stack for s in r.seats if s.player == "Player0"]
    put_in = sum(
        e.amount
        for e in r.events
        if e.player == "Player0" and (e.kind.is_forced or e.kind.is_betting)
    )
    assert put_in == stack  # everything in, nothing behind
    assert (r.total_pot, r.rake) == (7280, 250)
    # Read this way, the hand is legal: a short all-in raise, called.
    assert replay(r).problems == []


def test_play_money_stud_export_without_deals() -> None:
    r = corpus_hand(PLAY_STUD_FILE)
    assert (r.currency, r.scale, r.table, r.button, r.hero) == (
        "PLAY",
        100,
        "Ceské Budejovice",
        None,  # "Seat #0 is the button"
        None,
    )
    assert (r.stakes.ante, r.stakes.bring_in, r.stakes.small_bet, r.stakes.big_bet) == (
        1,
        2,
        5,
        10,
    )
    assert not of_kind(r, EventKind.DEAL)
    assert [e.text for e in of_kind(r, EventKind.STREET)] == [
        "THIRD",
        "FOURTH",
        "FIFTH",
        "SIXTH",
        "SEVENTH",
    ]
    assert actions(r, 0)[3] == ("bring_in", "Player1", 2, 2)
    assert (r.total_pot, r.rake) == (69, 4)


def test_play_money_triple_draw_export() -> None:
    r = corpus_hand(PLAY_TD_FILE)
    assert (r.game, r.currency, r.button, r.max_seats, r.hero) == (
        Game.TD27,
        "PLAY",
        4,
        6,
        None,
    )
    assert (r.stakes.small_blind, r.stakes.big_blind, r.stakes.small_bet, r.stakes.big_bet) == (
        25,
        50,
        50,
        100,
    )
    assert actions(r, 0)[:8] == [
        ("small_blind", "Player0", 25, 25),
        ("big_blind", "Hero", 50, 50),
        ("post", "Player4", 50, 50),  # "posts big blind 0.50 out of position"
        ("post", "Player3", 50, 50),
        ("post", "Player2", 50, 50),
        ("check", "Player4", 0, None),
        ("check", "Player3", 0, None),
        ("raise", "Player2", 50, 100),
    ]
    draws = [
        (e.street, str(e.kind), e.player, e.count)
        for e in r.events
        if e.kind in (EventKind.DISCARD, EventKind.STAND_PAT)
    ]
    assert draws[:5] == [
        (1, "discard", "Player0", 2),
        (1, "discard", "Hero", 2),
        (1, "discard", "Player4", 4),
        (1, "discard", "Player3", 2),
        (1, "stand_pat", "Player2", 0),  # "discard 0 card"
    ]
    assert [e.text for e in of_kind(r, EventKind.STREET)] == [
        "FIRST-BET",
        "FIRST-DRAW",
        "SECOND-DRAW",
        "THIRD-DRAW",
    ]
    assert actions(r, 3) == [
        ("bet", "Player4", 100, 100),
        ("call", "Player3", 100, 100),
        ("call", "Player2", 100, 100),
    ]
    assert (r.total_pot, r.rake) == (1300, 85)


# --- handwritten hands in formats the corpus lacks -----------------------------------------

TOURNAMENT_STUD = """\
Winamax Poker - Tournament "Stud Party" buyIn: 4.50€ + 0.50€ level: 3 - HandId: \
#1234567-12-1479000000 - 7-Card Stud Hi/Lo fixed limit (10/40/80) - 2016/11/13 01:20:00 UTC
Table: 'Stud Party(123456789)#002' 8-max (real money)
Seat 1: Alice (1500)
Seat 2: Bob (55)
*** ANTE/BLINDS ***
Alice posts ante 10
Bob posts ante 10
*** 3rd STREET ***
Dealt to Alice [Ah 2h 3d]
Dealt to Bob [X X Kc]
Alice brings in 20
Bob raises 40 to 40
Alice raises 20 to 60
Bob calls 5 and is all-in
*** 4th STREET ***
Dealt to Alice [Ah 2h 3d] [4d]
Dealt to Bob [X X Kc] [Ks]
*** 5th STREET ***
Dealt to Alice [Ah 2h 3d 4d] [5s]
Dealt to Bob [X X Kc Ks] [Qd]
*** 6th STREET ***
Dealt to Alice [Ah 2h 3d 4d 5s] [9c]
Dealt to Bob [X X Kc Ks Qd] [Jd]
*** 7th STREET ***
Dealt to Alice [Ah 2h 3d 4d 5s 9c] [Tc]
Dealt to Bob [X X Kc Ks Qd Jd] [X]
*** SHOW DOWN ***
Alice shows [Ah 2h 3d 4d 5s 9c Tc] (Straight Five high)
Bob shows [Kd 7c Kc Ks Qd Jd 2s] (Trips : Kings)
Alice collected 145 from pot
*** SUMMARY ***
Total pot 145 | No rake
Seat 1: Alice showed [Ah 2h 3d 4d 5s 9c Tc] and won 145 with Straight Five high
Seat 2: Bob showed [Kd 7c Kc Ks Qd Jd 2s] and lost with Trips : Kings
"""


def test_tournament_hand_with_a_bring_in_raise_and_an_all_in_call() -> None:
    r = parse_record(TOURNAMENT_STUD, "winamax")
    assert (r.game, r.currency, r.scale) == (Game.STUD8, "CHIPS", 1)
    assert r.tournament is not None
    assert (r.tournament.tournament_id, r.tournament.buy_in, r.tournament.fee) == (
        "123456789",
        450,
        50,
    )
    assert (r.tournament.currency, r.tournament.level) == ("EUR", "3")
    assert r.notes[0] == "tournament 'Stud Party'"
    assert (r.stakes.ante, r.stakes.small_bet, r.stakes.big_bet) == (10, 40, 80)
    assert actions(r, 0)[2:] == [
        ("bring_in", "Alice", 20, 20),
        ("complete", "Bob", 40, 40),
        ("raise", "Alice", 60, 80),  # "raises 20 to 60" leaves out her bring-in
        ("call", "Bob", 5, 45),
    ]
    assert of_kind(r, EventKind.CALL)[0].all_in
    assert [(e.player, e.amount) for e in of_kind(r, EventKind.COLLECT)] == [("Alice", 145)]
    assert (r.total_pot, r.rake) == (145, 0)


@pytest.mark.parametrize(
    ("label", "outcome"),
    [
        ("Holdem no limit", Outcome.UNSUPPORTED),
        ("Omaha Hi/Lo pot limit", Outcome.UNSUPPORTED),
        ("5-Card Draw pot limit", Outcome.UNSUPPORTED),
        ("Lowball27 no limit", Outcome.UNSUPPORTED),  # may be single draw: not read as td27
        ("2-7 Triple Draw fixed limit", Outcome.ERROR),  # in scope: the line below is wrong
    ],
)
def test_other_games_are_unsupported_not_errors(label: str, outcome: Outcome) -> None:
    header = (
        f"Winamax Poker - CashGame - HandId: #1-2-1479000000 - {label} (0.01€/0.02€) - "
        "2016/11/13 01:20:00 UTC"
    )
    parsed = parse_text(f"{header}\n*** PRE-FLOP ***", "winamax")
    assert parsed.outcome is outcome
    assert parsed.problem is not None
    if outcome is Outcome.UNSUPPORTED:
        assert parsed.game_label == label


def test_draw_marker_out_of_order_is_an_error() -> None:
    text = corpus_file(*PLAY_TD_FILE).read_text(encoding="utf-8")
    parsed = parse_text(text.replace("*** SECOND-BET ***", "*** THIRD-BET ***"), "winamax")
    assert parsed.outcome is Outcome.ERROR
    assert parsed.problem is not None and parsed.problem.line == 30


# --- awkward names on every kind of line -------------------------------------------------------

NAMED_STUD = """\
Winamax Poker - CashGame - HandId: #4000051-1-1478990787 - 7-Card Stud Hi/Lo fixed limit \
(5€/25€/50€) - 2016/11/12 22:46:27 UTC
Table: 'Pampelune' 6-max (real money)
Seat 1: {A} (500€)
Seat 2: {B} (500€)
Seat 3: Ana (500€)
*** ANTE/BLINDS ***
{A} posts ante 5€
{B} posts ante 5€
Ana posts ante 5€
*** 3rd STREET ***
Dealt to {A} [Ac 2c 3d]
Dealt to {B} [X X Kh]
Dealt to Ana [X X 9s]
{A} brings in 10€
{B} raises 25€ to 25€
Ana folds
{A} is disconnected
{A} is connected
{A} calls 15€
*** 4th STREET ***
Dealt to {A} [Ac 2c 3d] [4h]
Dealt to {B} [X X Kh] [Kd]
{B} bets 25€
{A} raises 25€ to 50€
{B} calls 25€
*** 5th STREET ***
Dealt to {A} [Ac 2c 3d 4h] [5s]
Dealt to {B} [X X Kh Kd] [7c]
{B} checks
{A} bets 50€
{B} has timed out
{B} calls 50€
*** 6th STREET ***
Dealt to {A} [Ac 2c 3d 4h 5s] [6d]
Dealt to {B} [X X Kh Kd 7c] [8c]
{B} checks
{A} checks
*** 7th STREET ***
Dealt to {A} [Ac 2c 3d 4h 5s 6d] [Jc]
Dealt to {B} [X X Kh Kd 7c 8c] [X]
{B} checks
{A} checks
*** SHOW DOWN ***
{B} shows [Qs Qd Kh Kd 7c 8c 9d] (Two pairs : Kings and Queens)
{A} shows [Ac 2c 3d 4h 5s 6d Jc] (HI : Straight Six high)
{A} shows [Ac 2c 3d 4h 5s 6d Jc] (LO : High card : 6)
{A} collected 107€ from pot(HI)
{B} collected 106€ from pot (LO)
*** SUMMARY ***
Total pot 213€ | Rake 2€
Seat 1: {A} showed [Ac 2c 3d 4h 5s 6d Jc] and won 107€ with HI : Straight Six high
Seat 2: {B} showed [Qs Qd Kh Kd 7c 8c 9d] and won 106€ with LO : Two pairs
"""

NAMED_DRAW = """\
Winamax Poker - CashGame - HandId: #4000052-2-1478989461 - 2-7 Triple Draw fixed limit \
(25€/50€) - 2016/11/12 22:30:00 UTC
Table: 'Pampelune' 6-max (real money) Seat #1 is the button
Seat 1: {A} (1500€)
Seat 2: {B} (400€)
Seat 3: Ana (400€)
*** ANTE/BLINDS ***
{B} posts small blind 12.50€
Ana posts big blind 25€
{A} posts big blind 25€ out of position
*** FIRST-BET ***
Dealt to {A} [7h 5d 4c 3s Kh]
Dealt to {B} [X X X X X]
Dealt to Ana [X X X X X]
{A} checks
{B} calls 12.50€
Ana checks
*** FIRST-DRAW ***
{B} discard 1 card
Ana discard 0 card
{A} discards 1 card [Kh]
Dealt to {A} [7h 5d 4c 3s] [2h]
*** SECOND-BET ***
{B} bets 25€
Ana folds
{A} raises 25€ to 50€
{B} calls 25€
*** SECOND-DRAW ***
{B} stands pat [X X X X X]
{A} stands pat [7h 5d 4c 3s 2h]
*** THIRD-BET ***
{B} bets 25€ and is all-in
{A} calls 25€
{A} collected 248€ from pot
*** SUMMARY ***
Total pot 248€ | Rake 2€
Seat 1: {A} won 248€
"""


def test_the_name_tables_cover_every_line_kind_that_names_a_player() -> None:
    plain = [fill(template, *PLAIN) for template in (NAMED_STUD, NAMED_DRAW)]
    covered = set().union(*(line_kinds("winamax", text) for text in plain))
    assert kinds_with_a_player("winamax") <= covered


@pytest.mark.parametrize("template", [NAMED_STUD, NAMED_DRAW], ids=["stud", "draw"])
@pytest.mark.parametrize("name", NAMES)
def test_awkward_names_read_on_every_kind_of_line(template: str, name: str) -> None:
    assert_name_reads_everywhere("winamax", template, name)
