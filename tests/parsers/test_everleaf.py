"""Everleaf room: concrete fields of concrete hands, real and handwritten.

The real hands come from ../shared/corpus/cash/Everleaf/Stud (the 2011 USD export, which prints
no dealt cards). The corpus has no hand of the EUR export (cp1252, "€ 2.50 EURO", "Dealt to"
lines, "** Dealing 4th Street **"): the EUR hands below are handwritten in that format, written
to a file as cp1252 bytes (the euro sign is byte 0x80) and read back through the file reader.
"""

from __future__ import annotations

import itertools
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest

from studdraw.parsers.files import discover_files, read_head
from studdraw.parsers.model import EventKind, Game, HandRecord, Outcome, Structure
from studdraw.parsers.reader import parse_file
from studdraw.parsers.rooms import sniff
from studdraw.pipeline.rules import replay
from tests.conftest import CORPUS, corpus_file, parse_record, parse_text
from tests.parsers import records
from tests.parsers.records import actions, net_results, of_kind

USD_FILE = ("cash", "Everleaf", "Stud", "7-Stud-USD-0.05-0.10.201107.txt")


def corpus_hand(hand_id: str) -> HandRecord:
    """A hand of the USD file, the corpus's Everleaf file with hand ids to look up."""
    return records.corpus_hand(USD_FILE, hand_id)


# --- the whole corpus ---------------------------------------------------------------------


def test_every_corpus_hand_parses() -> None:
    outcomes: Counter[tuple[Outcome, str]] = Counter()
    for path in discover_files([CORPUS / "cash" / "Everleaf"]):
        for parsed in parse_file(path):
            assert parsed.hand.room == "everleaf", path
            assert parsed.record is not None, (path, parsed.problem)
            outcomes[(parsed.outcome, str(parsed.record.game))] += 1
    assert outcomes == {(Outcome.PARSED, "stud"): 19}


def test_sniff_claims_everleaf_files_only() -> None:
    corpus_file(*USD_FILE)
    for path in discover_files([CORPUS]):
        room = sniff(read_head(path)[1])
        is_everleaf = room is not None and room.name == "everleaf"
        assert is_everleaf == ("Everleaf" in path.parts), path


def test_stacks_carry_over_from_hand_to_hand() -> None:
    """Each player's next stack is this stack plus the hand's net result, which proves the
    amounts, the raise semantics and the inferred uncalled bets; the one exception is a top-up
    between hands."""
    records = [p.record for p in parse_file(corpus_file(*USD_FILE)) if p.record]
    assert len(records) == 19
    top_ups = []
    for before, after in itertools.pairwise(records):
        stacks = {s.player: s.stack for s in before.seats}
        net = net_results(before)
        for seat in after.seats:
            if seat.player in stacks and stacks[seat.player] + net[seat.player] != seat.stack:
                top_ups.append((after.room_hand_id, seat.player, seat.stack - stacks[seat.player]))
    # Player1 went from $0.14 to $0.11 in hand 285998708 and sat down with $0.61 in the next.
    assert top_ups == [("285998978", "Player1", 47)]


def test_hand_lines_point_into_the_file() -> None:
    path = corpus_file(*USD_FILE)
    lines = path.read_text(encoding="utf-8").splitlines()
    for parsed in parse_file(path):
        assert parsed.record is not None
        assert lines[parsed.hand.source.line - 1].startswith("Everleaf Gaming Game #")
        for event in parsed.record.events:
            if event.player:
                assert lines[event.line - 1].startswith(event.player), event


def test_rules_engine_finds_no_error_in_the_hands_it_can_check() -> None:
    """Hand 285999989 bets the big bet on 4th street, legal only with an open pair, and the USD
    export shows no up cards: not checkable (docs/rooms/everleaf.md), so it is left out here."""
    errors = {}
    for parsed in parse_file(corpus_file(*USD_FILE)):
        assert parsed.record is not None
        found = [v.code for v in replay(parsed.record).problems if v.severity == "error"]
        if found:
            errors[parsed.record.room_hand_id] = found
    assert set(errors) <= {"285999989"}


# --- concrete corpus hands ----------------------------------------------------------------


def test_stud_hand_to_showdown() -> None:
    r = corpus_hand("285997876")
    assert (r.room, r.game, r.structure, r.currency, r.scale) == (
        "everleaf",
        Game.STUD,
        Structure.FIXED,
        "USD",
        100,
    )
    assert (r.stakes.small_bet, r.stakes.big_bet, r.stakes.ante, r.stakes.bring_in) == (5, 10, 1, 2)
    assert r.room_time == "2011/07/08 - 00:10:56"
    assert r.started_at == datetime(2011, 7, 8, 0, 10, 56, tzinfo=UTC)
    assert r.notes == ["no time zone printed; UTC assumed"]
    assert (r.table, r.max_seats, r.button, r.hero, r.tournament) == (
        "Clarkdale 20",
        None,
        None,
        None,
        None,
    )
    assert [(s.seat, s.player, s.stack) for s in r.seats] == [
        (1, "Player1", 52),
        (2, "Player2", 142),
        (3, "Player3", 145),
        (4, "Player4", 162),
    ]
    assert actions(r, 0) == [
        ("ante", "Player1", 1, None),
        ("ante", "Player2", 1, None),
        ("ante", "Player3", 1, None),
        ("ante", "Player4", 1, None),
        ("bring_in", "Player3", 2, 2),
        ("complete", "Player4", 5, 5),
        ("fold", "Player1", 0, None),
        ("call", "Player2", 5, 5),
        ("fold", "Player3", 0, None),
    ]
    assert actions(r, 1) == [
        ("check", "Player2", 0, None),
        ("bet", "Player4", 5, 5),
        ("call", "Player2", 5, 5),
    ]
    # "Player2 raises [$ 0.20 USD]" over a 0.10 bet; the caller then adds 0.10.
    assert actions(r, 2) == [
        ("check", "Player2", 0, None),
        ("bet", "Player4", 10, 10),
        ("raise", "Player2", 20, 20),
        ("call", "Player4", 10, 20),
    ]
    assert actions(r, 4) == [("bet", "Player2", 10, 10), ("call", "Player4", 10, 10)]
    streets = of_kind(r, EventKind.STREET)
    assert [(e.street, e.line, e.text) for e in streets] == [
        (0, 81, "3rd street"),
        (1, 87, "4th street"),
        (2, 91, "5th street"),
        (3, 96, "6th street"),
        (4, 99, "7th street"),
    ]
    assert of_kind(r, EventKind.DEAL) == []  # the USD export prints no dealt cards
    [show] = of_kind(r, EventKind.SHOW)
    assert (show.player, show.line, show.text) == ("Player2", 102, "a flush, king high")
    assert show.cards == ("5d", "8d", "Kd", "7d", "9d", "Jh", "Qc")
    [muck] = of_kind(r, EventKind.NOTE)
    assert (muck.player, muck.text) == ("Player4", "does not show cards")
    [collect] = of_kind(r, EventKind.COLLECT)
    assert (collect.player, collect.amount, collect.pot, collect.line) == (
        "Player2",
        98,
        "main",
        104,
    )
    assert of_kind(r, EventKind.UNCALLED) == []
    assert (r.total_pot, r.rake) == (None, None)  # Everleaf prints neither


def test_unprinted_uncalled_bet_is_inferred() -> None:
    r = corpus_hand("285997460")
    # 6th street: "Player4: bets [$ 0.10 USD]", "Player2 folds", then the pot is settled.
    [uncalled] = of_kind(r, EventKind.UNCALLED)
    assert (uncalled.player, uncalled.amount, uncalled.line, uncalled.street) == (
        "Player4",
        10,
        29,
        3,
    )
    assert uncalled.text == "inferred: the room does not print uncalled bets"
    [collect] = of_kind(r, EventKind.COLLECT)
    assert (collect.player, collect.amount) == ("Player4", 8)  # 4 antes, bring-in and call
    assert net_results(r) == {"Player1": -1, "Player2": -3, "Player3": -1, "Player4": 5}


def test_unmatched_completion_and_bring_in_are_returned() -> None:
    completed = corpus_hand("285998132")
    [uncalled] = of_kind(completed, EventKind.UNCALLED)
    assert (uncalled.player, uncalled.amount, uncalled.street) == ("Player3", 3, 0)
    bring_in_only = corpus_hand("285999807")
    [uncalled] = of_kind(bring_in_only, EventKind.UNCALLED)
    assert (uncalled.player, uncalled.amount) == ("Player3", 2)
    assert [e.amount for e in of_kind(bring_in_only, EventKind.COLLECT)] == [2]


def test_river_raise_and_fold() -> None:
    r = corpus_hand("285998238")
    assert actions(r, 0)[4:] == [
        ("bring_in", "Player1", 2, 2),
        ("fold", "Player2", 0, None),
        ("call", "Player3", 2, 2),
        ("complete", "Player4", 5, 5),
        ("call", "Player1", 3, 5),
        ("call", "Player3", 3, 5),
    ]
    assert actions(r, 4) == [
        ("bet", "Player1", 10, 10),
        ("raise", "Player3", 20, 20),
        ("fold", "Player1", 0, None),
    ]
    [uncalled] = of_kind(r, EventKind.UNCALLED)
    assert (uncalled.player, uncalled.amount) == ("Player3", 10)


# --- the EUR export (handwritten: the corpus has none) ------------------------------------

EUR_HANDS = """\
Everleaf Gaming Game #300000101
***** Hand history for game #300000101 *****
€0.10/€0.20 7 Card Stud - 2011/08/20 - 21:15:42
Table Kuopio
Total number of players: 3
Seat 2: Ansa (  € 4.00 EURO )
Seat 5: Hero_fi (  € 5.50 EURO )
Seat 7: Pekka K (  € 3.20 EURO )
Ansa: posts ante [€ 0.02 EURO]
Hero_fi: posts ante [€ 0.02 EURO]
Pekka K: posts ante [€ 0.02 EURO]
** Dealing down cards **
Dealt to Ansa [ 3c ].
Dealt to Hero_fi [ 9h, 9s, 6d ].
Dealt to Pekka K [ Kc ].
Ansa posts bring-in €0.05.
Hero_fi completes to €0.10.
Pekka K raises [€ 0.20 EURO]
Ansa folds
Hero_fi raises [€ 0.20 EURO]
Pekka K calls [€ 0.10 EURO]
** Dealing 4th Street **
Dealt to Hero_fi [ 6h ].
Dealt to Pekka K [ Kd ].
Pekka K: bets [€ 0.20 EURO]
Hero_fi calls [€ 0.20 EURO]
** Dealing 5th Street **
Dealt to Hero_fi [ 2c ].
Dealt to Pekka K [ 7s ].
Pekka K: bets [€ 0.20 EURO]
Hero_fi raises [€ 0.40 EURO]
Pekka K calls [€ 0.20 EURO]
** Dealing 6th Street **
Dealt to Hero_fi [ 9c ].
Dealt to Pekka K [ 4d ].
Pekka K checks
Hero_fi: bets [€ 0.20 EURO]
Pekka K calls [€ 0.20 EURO]
** Dealing River **
Dealt to Hero_fi [ Ad ].
Pekka K checks
Hero_fi: bets [€ 0.20 EURO]
Pekka K folds
Hero_fi does not show cards
Hero_fi wins € 2.21 EURO from main pot



Everleaf Gaming Game #300000188
***** Hand history for game #300000188 *****
€0.10/€0.20 7 Card Stud - 2011/08/20 - 21:17:03
Table Kuopio
Total number of players: 2
Seat 2: Ansa (  € 3.93 EURO )
Seat 5: Hero_fi (  € 6.59 EURO )
Ansa: posts ante [€ 0.02 EURO]
Hero_fi: posts ante [€ 0.02 EURO]
** Dealing down cards **
Dealt to Ansa [ 2d ].
Dealt to Hero_fi [ Qs, Js, 8s ].
Ansa: bets [€ 0.10 EURO]
Hero_fi calls [€ 0.10 EURO]
** Dealing 4th Street **
Dealt to Ansa [ 5h ].
Dealt to Hero_fi [ Ts ].
Hero_fi: bets [€ 0.10 EURO]
Ansa calls [€ 0.10 EURO]
** Dealing 5th Street **
Dealt to Ansa [ 5c ].
Dealt to Hero_fi [ 3h ].
Ansa: bets [€ 0.20 EURO]
Hero_fi calls [€ 0.20 EURO]
** Dealing 6th Street **
Dealt to Ansa [ Kh ].
Dealt to Hero_fi [ 9d ].
Ansa checks
Hero_fi checks
** Dealing River **
Dealt to Hero_fi [ 4c ].
Ansa checks
Hero_fi checks
Ansa shows [ 6c, Ac, 2d, 5h, 5c, Kh, 8d ] a pair of fives
Hero_fi shows [ Qs, Js, 8s, Ts, 3h, 9d, 4c ] a straight, queen high
Hero_fi wins € 0.80 EURO from main pot with a straight, queen high [ Qs, Js, Ts, 9d, 8s ]
"""


@pytest.fixture
def eur_records(tmp_path: Path) -> list[HandRecord]:
    path = tmp_path / "everleaf-eur.txt"
    path.write_bytes(EUR_HANDS.replace("\n", "\r\n").encode("cp1252"))
    assert b"\x80" in path.read_bytes()
    parsed = list(parse_file(path))
    assert all(p.hand.room == "everleaf" for p in parsed)
    records = [p.record for p in parsed if p.record]
    assert len(records) == len(parsed) == 2
    return records


def test_eur_export_money_cards_and_raises(eur_records: list[HandRecord]) -> None:
    r = eur_records[0]
    assert (r.room_hand_id, r.currency, r.scale, r.table) == ("300000101", "EUR", 100, "Kuopio")
    assert (r.stakes.small_bet, r.stakes.big_bet, r.stakes.ante, r.stakes.bring_in) == (
        10,
        20,
        2,
        5,
    )
    assert [(s.player, s.stack) for s in r.seats] == [
        ("Ansa", 400),
        ("Hero_fi", 550),
        ("Pekka K", 320),
    ]
    assert r.hero == "Hero_fi"
    deals = [(e.player, e.street, e.cards, e.up) for e in of_kind(r, EventKind.DEAL)]
    assert deals[:3] == [
        ("Ansa", 0, (None, None, "3c"), (False, False, True)),
        ("Hero_fi", 0, ("9h", "9s", "6d"), (False, False, True)),
        ("Pekka K", 0, (None, None, "Kc"), (False, False, True)),
    ]
    assert deals[-1] == ("Hero_fi", 4, ("Ad",), (False,))  # the river is dealt down
    # Every amount is what the player adds: Hero_fi's "raises [€ 0.20]" over its own 0.10
    # completion makes 0.30, which Pekka K calls with 0.10.
    assert actions(r, 0)[3:] == [
        ("bring_in", "Ansa", 5, 5),
        ("complete", "Hero_fi", 10, 10),
        ("raise", "Pekka K", 20, 20),
        ("fold", "Ansa", 0, None),
        ("raise", "Hero_fi", 20, 30),
        ("call", "Pekka K", 10, 30),
    ]
    # Pekka K pairs his door card: the big bet on 4th street.
    assert actions(r, 1) == [("bet", "Pekka K", 20, 20), ("call", "Hero_fi", 20, 20)]
    [uncalled] = of_kind(r, EventKind.UNCALLED)
    assert (uncalled.player, uncalled.amount, uncalled.street) == ("Hero_fi", 20, 4)
    assert [(e.player, e.amount) for e in of_kind(r, EventKind.COLLECT)] == [("Hero_fi", 221)]
    assert net_results(r) == {"Ansa": -7, "Hero_fi": 109, "Pekka K": -112}


def test_eur_low_card_completing_without_a_bring_in(eur_records: list[HandRecord]) -> None:
    r = eur_records[1]
    assert [s.stack for s in r.seats] == [393, 659]  # what the first hand left them
    assert actions(r, 0)[2:] == [("complete", "Ansa", 10, 10), ("call", "Hero_fi", 10, 10)]
    assert actions(r, 1) == [("bet", "Hero_fi", 10, 10), ("call", "Ansa", 10, 10)]
    assert r.stakes.bring_in == 0
    shows = {e.player: e.cards for e in of_kind(r, EventKind.SHOW)}
    assert shows["Ansa"] == ("6c", "Ac", "2d", "5h", "5c", "Kh", "8d")
    assert of_kind(r, EventKind.UNCALLED) == []
    assert r.started_at == datetime(2011, 8, 20, 21, 17, 3, tzinfo=UTC)


# --- other games, broken hands, odd lines --------------------------------------------------

HEAD = "Everleaf Gaming Game #116214546\n***** Hand history for game #116214546 *****\n"


@pytest.mark.parametrize(
    ("game_line", "label"),
    [
        ("Blinds $0.25/$0.50 NL Hold'em - 2009/11/17 - 18:57:01", "NL Hold'em"),
        ("$0.50/$1 Omaha Hi/Lo - 2010/03/01 - 11:00:02", "Omaha Hi/Lo"),
        ("Blinds $0.50/$1 PL Omaha - 2008/12/07 - 21:59:48", "PL Omaha"),
    ],
)
def test_other_games_are_unsupported_with_their_label(game_line: str, label: str) -> None:
    parsed = parse_text(f"{HEAD}{game_line}\nTable Catacaos\nSeat 10 is the button", "everleaf")
    assert parsed.outcome is Outcome.UNSUPPORTED
    assert parsed.problem is not None
    assert (parsed.game_label, parsed.problem.line) == (label, 3)
    assert parsed.room_hand_id == "116214546"


USD_HAND = """\
Everleaf Gaming Game #285999989
***** Hand history for game #285999989 *****
$0.05/$0.10 7 Card Stud - 2011/07/08 - 00:21:58
Table Clarkdale 20
Total number of players: 3
Seat 2: Player2 (  $ 1.05 USD )
Seat 3: Player3 (  $ 2.84 USD )
Seat 4: Player4 ( new player )
Player2: posts ante [$ 0.01 USD]
Player3: posts ante [$ 0.01 USD]
** Dealing down cards **
Player3 posts bring-in $0.02.
Player2 calls [$ 0.02 USD]
**** dealing 4th street ****
Player3: bets [$ 0.10 USD]
Player2 folds
Player3 does not show cards
Player3 wins $ 0.06 USD from main pot
"""


def test_new_player_is_seated_but_sitting_out() -> None:
    r = parse_record(USD_HAND, "everleaf")
    assert [(s.player, s.stack, s.sitting_out) for s in r.seats] == [
        ("Player2", 105, False),
        ("Player3", 284, False),
        ("Player4", 0, True),
    ]
    assert "Player4 listed as 'new player'" in r.notes


def test_tournament_chips_without_currency() -> None:
    text = USD_HAND.replace("$0.05/$0.10", "10/20").replace("$ 1.05 USD", "1050")
    text = text.replace("$ 2.84 USD", "980").replace("$ 0.01 USD", "2").replace("$0.02", "5")
    text = text.replace("$ 0.02 USD", "5").replace("$ 0.10 USD", "20").replace("$ 0.06 USD", "14")
    r = parse_record(text, "everleaf")
    assert (r.currency, r.scale, r.tournament) == ("CHIPS", 1, None)
    assert (r.stakes.small_bet, r.stakes.big_bet, r.stakes.ante, r.stakes.bring_in) == (
        10,
        20,
        2,
        5,
    )
    assert [s.stack for s in r.seats[:2]] == [1050, 980]


@pytest.mark.parametrize(
    ("line", "kind", "text"),
    [
        ("Player2 has left the table", EventKind.LEAVE, None),
        ("Player2 sits out", EventKind.SIT_OUT, None),
        ("Player2: nh 2 u", EventKind.CHAT, "nh 2 u"),
        (
            "Player2 has disconnected and has been given a further 20 seconds to react",
            EventKind.NOTE,
            "Player2 has disconnected and has been given a further 20 seconds to react",
        ),
        (
            "Player2 has been reseated to this table",
            EventKind.NOTE,
            "Player2 has been reseated to this table",
        ),
    ],
)
def test_table_life_lines_are_events(line: str, kind: EventKind, text: str | None) -> None:
    record = parse_record(
        USD_HAND.replace("Player2 folds\n", f"Player2 folds\n{line}\n"), "everleaf"
    )
    event = next(e for e in record.events if e.kind is kind)
    assert (event.player, event.street, event.text) == ("Player2", 1, text)
    assert record.problems == []


def test_a_concord_skin_header_starts_a_hand(tmp_path: Path) -> None:
    concord = USD_HAND.replace(
        "Everleaf Gaming Game #", "Everleaf Gaming - Concord Gaming - Game #"
    )
    concord = concord.replace("285999989", "285999990")
    path = tmp_path / "two.txt"
    path.write_text(f"{USD_HAND}\n\n\n{concord}")
    hands = list(parse_file(path))
    assert [(h.room_hand_id, h.outcome) for h in hands] == [
        ("285999989", Outcome.PARSED),
        ("285999990", Outcome.PARSED),
    ]
    assert hands[1].record is not None and "skin Concord Gaming" in hands[1].record.notes


def test_a_wrapped_win_line_ends_the_win_above_it() -> None:
    wrapped = USD_HAND.replace(
        "from main pot\n", "from main pot with a pair of\nnines [ 9c, 9d, Ks, 7h, 2c ]\n"
    )
    record = parse_record(wrapped, "everleaf")
    assert played(record) == played(parse_record(USD_HAND, "everleaf"))
    assert record.problems == []
    alone = USD_HAND.replace("Player2 folds\n", "Player2 folds\nnines [ 9c, 9d, Ks, 7h, 2c ]\n")
    assert parse_text(alone, "everleaf").outcome is Outcome.ERROR  # only after a win line


def played(record: HandRecord) -> list[tuple[object, ...]]:
    return [(e.kind, e.player, e.street, e.amount, e.to, e.cards, e.pot) for e in record.events]


@pytest.mark.parametrize(
    ("bring_in", "complete"),
    [
        ("Player3 posts bring-in $0.02.", "Player2 completes to $0.05."),
        ("Player3 posts bring-in  $ 0.02.", "Player2 completes to  $ 0.05."),  # FPDB allows
    ],
)
def test_bring_in_and_completion_print_their_totals(bring_in: str, complete: str) -> None:
    text = USD_HAND.replace("Player3 posts bring-in $0.02.", bring_in).replace(
        "Player2 calls [$ 0.02 USD]", f"{complete}\nPlayer3 calls [$ 0.03 USD]"
    )
    record = parse_record(text, "everleaf")
    assert [a for a in actions(record, 0) if a[0] != "ante"] == [
        ("bring_in", "Player3", 2, 2),
        ("complete", "Player2", 5, 5),
        ("call", "Player3", 3, 5),
    ]


def test_mismatched_hand_ids_are_an_error() -> None:
    parsed = parse_text(USD_HAND.replace("for game #285999989", "for game #1"), "everleaf")
    assert parsed.outcome is Outcome.ERROR
    assert parsed.problem is not None and parsed.problem.line == 2
