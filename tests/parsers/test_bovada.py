"""Bovada room (also Bodog and Ignition): concrete fields of concrete hands, real and
handwritten.

The real hands come from ../shared/corpus/{cash,tour}/Bovada: Bodog cash stud (2012-05, no
street markers), Bovada cash stud hi/lo (2012-09, street markers, no bring-in line) and a
Bovada stud MTT. No FPDB .hp files lie beside them; each winner's collects are checked against
the amount the room's own summary gives that seat, and every hand's net results against the
rake. The handwritten hands cover a bring-in printed as "Bets", a hi/lo scoop, other games and
broken hands.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime

import pytest

from studdraw.parsers.builder import parse_amount
from studdraw.parsers.files import discover_files, read_head
from studdraw.parsers.model import EventKind, Game, HandRecord, Outcome, Structure
from studdraw.parsers.reader import parse_file
from studdraw.parsers.rooms import BY_NAME
from tests.conftest import CORPUS, corpus_file, parse_record, parse_text
from tests.parsers.records import actions, corpus_hand, net_results, of_kind

CASH_FILE = ("cash", "Bovada", "Stud", "7-Stud-USD-2.00-4.00-201205.txt")
HI_LO_FILE = ("cash", "Bovada", "Stud", "7-StudHL-USD-0.25-0.50-201209.txt")
MTT_FILE = ("tour", "Bovada", "Stud", "7-Stud-USD-MTT - $10-$1 - 201206.txt")
ROOM = "bovada"


_SUMMARY_WIN = re.compile(r"Seat[+ ](\d+): +(?:(?:HI )?(\$?[\d,.]+) )?.*?(?: LO (\$?[\d,.]+) .*)?")


def summary_wins(text: str, scale: int) -> dict[str, int]:
    """What the summary says each seat won ("Seat 5:  97 [...]", "HI $2.33 ...", "LO $2.32")."""
    wins: dict[str, int] = {}
    summary = text.split("*** SUMMARY ***", 1)[1]
    for line in summary.splitlines():
        found = _SUMMARY_WIN.fullmatch(line)
        if found is None:
            continue
        amount = sum(parse_amount(part, scale) for part in found.groups()[1:] if part)
        if amount:
            wins[f"Seat+{found[1]}"] = amount
    return wins


# --- the whole corpus ---------------------------------------------------------------------


def corpus_hands() -> list[tuple[str, HandRecord]]:
    corpus_file("cash", "Bovada")
    hands = []
    for path in discover_files([CORPUS / "cash" / "Bovada", CORPUS / "tour" / "Bovada"]):
        for parsed in parse_file(path):
            assert parsed.hand.room == ROOM, path
            assert parsed.record is not None, f"{path}:{parsed.hand.source.line}: {parsed.problem}"
            hands.append((parsed.hand.text, parsed.record))
    return hands


def test_every_corpus_hand_parses() -> None:
    outcomes = Counter(str(record.game) for _, record in corpus_hands())
    assert outcomes == {"stud": 44, "stud8": 1}


def test_collects_agree_with_the_summary_and_nets_with_the_rake() -> None:
    for text, record in corpus_hands():
        collected: Counter[str] = Counter()
        for event in of_kind(record, EventKind.COLLECT):
            assert event.player is not None
            collected[event.player] += event.amount
        assert dict(collected) == summary_wins(text, record.scale), record.room_hand_id
        assert sum(net_results(record).values()) == -(record.rake or 0), record.room_hand_id
        if record.tournament:
            assert record.rake is None  # tournament summaries print no rake


@pytest.mark.parametrize(
    ("parts", "hand_id", "expected"),
    [
        (CASH_FILE, "2604291577", {"Seat+1": -13, "Seat+3": -23, "Seat+5": 34}),
        (
            MTT_FILE,
            "2633132391",
            {
                "Seat+1": -1467,
                "Seat+3": -40,
                "Seat+4": -140,
                "Seat+6": -40,
                "Seat+7": 3522,
                "Seat+8": -1835,
            },
        ),
    ],
)
def test_net_results(parts: tuple[str, ...], hand_id: str, expected: dict[str, int]) -> None:
    assert net_results(corpus_hand(parts, hand_id)) == expected


def test_the_room_is_sniffed_from_its_first_bytes_only() -> None:
    bovada = BY_NAME[ROOM]
    for path in discover_files([CORPUS]):
        _, head = read_head(path)
        assert bovada.sniff(head) == ("Bovada" in path.parts), path


@pytest.mark.parametrize(
    "header",
    [
        "Ignition Hand #3505402245 TBL#11620466 7CARD Fixed Limit - 2016-05-15 01:28:31",
        "Bodog UK Hand #2604291510 TBL#1178621 7CARD Fixed Limit - 2012-05-07 03:40:07",
    ],
)
def test_other_brand_headers_are_sniffed_and_read(header: str) -> None:
    assert BY_NAME[ROOM].sniff(f"{header}\nSeat+1: $0.57 in chips\n")
    assert not BY_NAME["pokerstars"].sniff(header)
    record = parse_record(HI_LO_BRING_IN.replace(HI_LO_BRING_IN.split("\n", 1)[0], header), ROOM)
    assert record.notes[0] == f"exported as {header.partition(' Hand #')[0]}"


# --- concrete corpus hands ----------------------------------------------------------------


def test_bodog_cash_hand_without_street_markers() -> None:
    r = corpus_hand(CASH_FILE, "2604291577")
    assert (r.room, r.game, r.structure, r.currency, r.scale) == (
        ROOM,
        Game.STUD,
        Structure.FIXED,
        "USD",
        100,
    )
    # No stakes in the header: read off the bets (bring-in 2, 4th street double bet 10,
    # 5th street bet 10).
    assert (r.stakes.ante, r.stakes.bring_in, r.stakes.small_bet, r.stakes.big_bet) == (1, 2, 5, 10)
    assert r.table == "1178621" and r.max_seats is None and r.button is None
    assert r.room_time == "2012-05-07 03:40:46"
    assert r.started_at == datetime(2012, 5, 7, 7, 40, 46, tzinfo=UTC)  # ET assumed
    assert r.notes == ["exported as Bodog", "no time zone printed; ET assumed"]
    assert [(s.seat, s.player, s.stack) for s in r.seats] == [
        (1, "Seat+1", 54),
        (3, "Seat+3", 56),
        (5, "Seat+5", 48),
    ]
    assert r.hero == "Seat+3"
    streets = [(e.street, e.line, e.text) for e in of_kind(r, EventKind.STREET)]
    assert streets == [
        (0, 44, "HOLE CARDS"),
        (1, 51, "4th street"),  # opened by the first 4th-street card
        (2, 58, "5th street"),
        (3, 66, "6th street"),
    ]
    door = of_kind(r, EventKind.DEAL)[0]
    assert (door.player, door.cards, door.up) == (
        "Seat+1",
        ("Qc", "7c", "3d"),
        (False, False, True),
    )
    assert actions(r, 1) == [
        ("check", "Seat+1", 0, None),
        ("bet", "Seat+3", 10, 10),  # "D bets $0.10": Seat+1 shows a pair of threes
        ("call", "Seat+5", 10, 10),
        ("call", "Seat+1", 10, 10),
    ]
    assert [e.text for e in of_kind(r, EventKind.BET)] == ["double bet", None, None]
    [uncalled] = of_kind(r, EventKind.UNCALLED)
    assert (uncalled.player, uncalled.amount, uncalled.line) == ("Seat+5", 10, 71)
    [collect] = of_kind(r, EventKind.COLLECT)
    assert (collect.player, collect.amount, collect.pot) == ("Seat+5", 57, "main")
    assert (r.total_pot, r.rake) == (59, 2)


def test_hero_sitting_out_before_the_deal() -> None:
    r = corpus_hand(CASH_FILE, "2604291787")
    assert [(s.player, s.sitting_out) for s in r.seats] == [
        ("Seat+1", False),
        ("Seat+3", True),
        ("Seat+5", False),
    ]
    assert r.hero == "Seat+3"
    assert [(e.kind, e.player) for e in r.events if e.player == "Seat+3"] == [
        (EventKind.SIT_OUT, "Seat+3"),
        (EventKind.LEAVE, "Seat+3"),
        (EventKind.NOTE, "Seat+3"),
    ]


def test_stud_hi_lo_completion_without_bring_in_and_split_pot() -> None:
    r = corpus_hand(HI_LO_FILE, "2633952287")
    assert r.game is Game.STUD8
    assert (r.stakes.ante, r.stakes.bring_in, r.stakes.small_bet, r.stakes.big_bet) == (
        5,
        0,
        25,
        50,
    )
    # "Seat+1 : Bets $0.25" opens 3rd street: Seat+1 has the low door card (2s) and bets the
    # small bet (the 4th-street bet): the bring-in player completing.
    assert actions(r, 0)[7:] == [
        ("complete", "Seat+1", 25, 25),
        ("fold", "Seat+2", 0, None),
        ("fold", "Seat+3", 0, None),
        ("call", "Seat+4", 25, 25),
        ("call", "Seat+5", 25, 25),
        ("fold", "Seat+6", 0, None),
        ("fold", "Seat+8", 0, None),
    ]
    assert [e.text for e in of_kind(r, EventKind.STREET)] == [
        "3RD STREET",
        "4TH STREET",
        "5TH STREET",
        "6TH STREET",
        "RIVER",
    ]
    river = [e for e in of_kind(r, EventKind.DEAL) if e.street == 4]
    assert [(e.player, e.cards, e.up) for e in river] == [
        ("Seat+1", ("Jh",), (False,)),
        ("Seat+4", ("Qs",), (False,)),
    ]
    # "Showdown [Ad Jh 7h 6d 4h Ad 2s 3s 4h 6d]": best high five, then best low five.
    shows = [(e.player, e.cards, e.text) for e in of_kind(r, EventKind.SHOW)]
    assert shows == [
        ("Seat+1", ("6d", "Ad", "2s", "3s", "7h", "4h", "Jh"), "High Card"),
        ("Seat+4", ("7s", "As", "4c", "5c", "Qh", "9h", "Qs"), "One pair"),
    ]
    assert [(e.player, e.amount, e.pot, e.line) for e in of_kind(r, EventKind.COLLECT)] == [
        ("Seat+1", 232, "main:lo", 62),
        ("Seat+4", 233, "main:hi", 63),
    ]
    assert (r.total_pot, r.rake) == (485, 20)


def test_tournament_hand_with_side_pot_and_all_ins() -> None:
    r = corpus_hand(MTT_FILE, "2633132391")
    assert (r.currency, r.scale) == ("CHIPS", 1)
    assert r.tournament is not None
    assert (r.tournament.tournament_id, r.tournament.level) == ("1378659", "Level 8")
    assert (r.tournament.buy_in, r.tournament.fee) == (None, None)  # only in the file name
    assert r.table == "1"
    assert (r.stakes.ante, r.stakes.bring_in, r.stakes.small_bet, r.stakes.big_bet) == (
        40,
        100,
        200,
        400,
    )
    # Raises give the new total, calls and plain all-ins the chips put in.
    assert actions(r, 0)[6:] == [
        ("bring_in", "Seat+4", 100, 100),
        ("fold", "Seat+6", 0, None),
        ("complete", "Seat+7", 200, 200),
        ("raise", "Seat+8", 400, 400),
        ("raise", "Seat+1", 600, 600),
        ("fold", "Seat+3", 0, None),
        ("fold", "Seat+4", 0, None),
        ("raise", "Seat+7", 600, 800),
        ("call", "Seat+8", 400, 800),
        ("call", "Seat+1", 200, 800),
    ]
    assert actions(r, 1)[-2:] == [("call", "Seat+1", 227, 627), ("call", "Seat+7", 200, 800)]
    assert actions(r, 2) == [("bet", "Seat+8", 195, 195), ("call", "Seat+7", 195, 195)]
    assert [e.player for e in r.events if e.all_in] == ["Seat+1", "Seat+8"]
    assert [(e.player, e.amount, e.pot) for e in of_kind(r, EventKind.COLLECT)] == [
        ("Seat+7", 736, "side1"),
        ("Seat+7", 4621, "main"),
    ]
    assert [(e.player, e.text) for e in of_kind(r, EventKind.NOTE)] == [
        ("Seat+1", "finished in place 12"),
        ("Seat+8", "finished in place 11"),
    ]
    assert [e.player for e in of_kind(r, EventKind.LEAVE)] == ["Seat+1", "Seat+8"]
    assert (r.total_pot, r.rake) == (5357, None)


def test_raising_all_in_gives_the_new_total() -> None:
    r = corpus_hand(MTT_FILE, "2633133863")
    # "Seat+4 [ME] : All-in(raise) 1054" over a raise to 900; "Seat+7 : Call 154".
    assert actions(r, 0)[-2:] == [("raise", "Seat+4", 454, 1054), ("call", "Seat+7", 154, 1054)]
    assert of_kind(r, EventKind.RAISE)[-1].all_in


def test_completion_by_the_bring_in_player_in_a_tournament() -> None:
    r = corpus_hand(MTT_FILE, "2633119675")
    assert actions(r, 0)[5] == ("complete", "Seat+2", 20, 20)
    assert (r.stakes.bring_in, r.stakes.small_bet, r.stakes.big_bet) == (0, 20, 40)


def test_timeouts_and_sitting_out_during_the_hand() -> None:
    r = corpus_hand(MTT_FILE, "2633122544")
    [fold] = [e for e in of_kind(r, EventKind.FOLD) if e.player == "Seat+3"]
    assert (fold.text, fold.street) == ("timeout", 1)
    assert [(e.kind, e.street) for e in r.events if e.player == "Seat+3" and e.street > 0] == [
        (EventKind.DEAL, 1),
        (EventKind.FOLD, 1),
        (EventKind.SIT_OUT, 1),
        (EventKind.SIT_IN, 4),
    ]
    assert not any(s.sitting_out for s in r.seats)  # dealt in: sitting out came later


def test_hand_without_full_size_bets_has_unknown_stakes() -> None:
    r = corpus_hand(MTT_FILE, "2633132989")
    assert (r.stakes.bring_in, r.stakes.small_bet, r.stakes.big_bet) == (100, 0, 0)
    assert "stakes unknown: no full-size bet in the hand" in r.notes
    [muck] = of_kind(r, EventKind.MUCK)
    assert (muck.player, muck.cards) == ("Seat+7", ("Tc", "Jd", "2d", "3c", "As", "5c", "2c"))


# --- handwritten hands in formats the corpus lacks -----------------------------------------

HI_LO_BRING_IN = """\
Bovada Hand #3000000001 TBL#2027664 7CARD HiLo Fixed Limit - 2012-09-19 13:20:00
Seat+1: $5 in chips
Seat+2 [ME]: $5 in chips
Seat+3: $5 in chips
Seat+1 : Ante chip $0.05
Seat+2 [ME] : Ante chip $0.05
Seat+3 : Ante chip $0.05
*** 3RD STREET ***
Seat+1 : Card dealt to a spot [6d Ad 2s]
Seat+2 [ME] : Card dealt to a spot [4d 5d 3c]
Seat+3 : Card dealt to a spot [Kd Kc Ts]
Seat+1 : Bets $0.10
Seat+2 [ME] : Raises $0.25
Seat+3 : Calls $0.25
Seat+1 : Calls $0.15
*** 4TH STREET ***
Seat+1 : Card dealt to a spot [3s]
Seat+2 [ME] : Card dealt to a spot [2c]
Seat+3 : Card dealt to a spot [9h]
Seat+3 : Bets $0.25
Seat+1 : Folds
Seat+2 [ME] : Calls $0.25
*** 5TH STREET ***
Seat+2 [ME] : Card dealt to a spot [7h]
Seat+3 : Card dealt to a spot [Qh]
Seat+3 : Bets $0.50
Seat+2 [ME] : Calls $0.50
*** 6TH STREET ***
Seat+2 [ME] : Card dealt to a spot [8s]
Seat+3 : Card dealt to a spot [Jd]
Seat+3 : Checks
Seat+2 [ME] : Checks
*** RIVER ***
Seat+2 [ME] : Card dealt to a spot [6c]
Seat+3 : Card dealt to a spot [2h]
Seat+3 : Checks
Seat+2 [ME] : Checks
Seat+2 [ME] : Showdown [8s 7h 6c 5d 4d 6c 5d 4d 3c 2c] (Straight)
Seat+3 : Showdown [Kd Kc Qh Jd Ts] (One pair)
Seat+2 [ME] : Hand result $2.30
*** SUMMARY ***
Total Pot($2.40) | Rake ($0.10)
Seat+1:  Folded on the 4TH STREET
Seat+2:  HI $1.15  with Straight [4d 5d 3c 2c 7h 8s 6c-8s 7h 6c 5d 4d] LO $1.15 [4d 5d 3c 2c 7h 8s 6c-6c 5d 4d 3c 2c]
Seat+3:   lose with One pair [Kd Kc Ts 9h Qh Jd 2h-Kd Kc Qh Jd Ts]
"""  # noqa: E501


def test_opening_bet_below_the_small_bet_is_the_bring_in_and_a_scoop_splits() -> None:
    r = parse_record(HI_LO_BRING_IN, ROOM)
    assert (r.stakes.bring_in, r.stakes.small_bet, r.stakes.big_bet) == (10, 25, 50)
    assert actions(r, 0)[3:] == [
        ("bring_in", "Seat+1", 10, 10),
        ("complete", "Seat+2", 25, 25),
        ("call", "Seat+3", 25, 25),
        ("call", "Seat+1", 15, 25),
    ]
    assert [(e.player, e.amount, e.pot) for e in of_kind(r, EventKind.COLLECT)] == [
        ("Seat+2", 115, "main:hi"),
        ("Seat+2", 115, "main:lo"),
    ]
    assert net_results(r) == {"Seat+1": -30, "Seat+2": 125, "Seat+3": -105}


def test_opening_bet_that_nobody_calls_is_taken_as_a_completion() -> None:
    lines = HI_LO_BRING_IN.splitlines()
    text = "\n".join(
        [
            *lines[:12],
            "Seat+2 [ME] : Folds",
            "Seat+3 : Folds",
            "Seat+1 : Return uncalled portion of bet $0.10",
            "Seat+1 : Does not show [6d Ad 2s] (High Card)",
            "Seat+1 : Hand result $0.15",
            "*** SUMMARY ***",
            "Total Pot($0.15) | Rake ($0)",
        ]
    )
    r = parse_record(text, ROOM)
    assert actions(r, 0)[3] == ("complete", "Seat+1", 10, 10)
    assert (r.stakes.small_bet, r.stakes.big_bet) == (10, 20)


def test_hi_lo_summary_that_contradicts_the_results_is_noted() -> None:
    text = HI_LO_BRING_IN.replace("LO $1.15 [", "LO $1.25 [")
    r = parse_record(text, ROOM)
    assert [e.pot for e in of_kind(r, EventKind.COLLECT)] == ["main"]
    assert "hi/lo summary of Seat+2 does not match its results" in r.notes


@pytest.mark.parametrize(
    ("header", "label"),
    [
        ("Bovada Hand #1 TBL#2 HOLDEM No Limit - 2012-09-19 13:11:08", "HOLDEM No Limit"),
        (
            "Ignition Hand #1 TBL#2 OMAHA HiLo Pot Limit - 2016-05-15 01:28:31",
            "OMAHA HiLo Pot Limit",
        ),
        (
            "Bovada Hand #1 Zone Poker ID#7 HOLDEMZonePoker No Limit - 2014-01-01 10:00:00",
            "HOLDEMZonePoker No Limit",
        ),
    ],
)
def test_other_games_are_unsupported_with_the_rooms_label(header: str, label: str) -> None:
    parsed = parse_text(f"{header}\nSeat+1: $1 in chips\nDealer : Set dealer [1]", ROOM)
    assert parsed.outcome is Outcome.UNSUPPORTED
    assert parsed.problem is not None and parsed.game_label == label
    assert parsed.room_hand_id == "1"


def test_card_dealt_for_an_earlier_street_is_an_error() -> None:
    text = HI_LO_BRING_IN.replace(
        "*** 4TH STREET ***\nSeat+1 : Card dealt to a spot [3s]",
        "*** 5TH STREET ***\nSeat+1 : Card dealt to a spot [3s]",
    )
    parsed = parse_text(text, ROOM)
    assert parsed.outcome is Outcome.ERROR
    assert parsed.problem is not None and parsed.problem.line == 17


# --- timed-out and automatic actions ---------------------------------------------------------

TIMEOUT_HAND = """\
Bovada Hand #4000200051 TBL#2027664 7CARD Fixed Limit - 2012-09-19 14:00:00
Seat+1: $5 in chips
Seat+2 [ME]: $6 in chips
Seat+4: $8 in chips
Seat+1 : Ante chip $0.05
Seat+2 [ME] : Ante chip $0.05
Seat+4 : Ante chip $0.05
*** 3RD STREET ***
Seat+1 : Card dealt to a spot [Tc 2s 6h]
Seat+2 [ME] : Card dealt to a spot [Ks Kh 9c]
Seat+4 : Card dealt to a spot [8s 8d 3c]
Seat+4 : {BRING_IN}
Seat+1 : {FOLD}
Seat+2 [ME] : Bets $0.25
Seat+4 : {CALL}
*** 4TH STREET ***
Seat+2 [ME] : Card dealt to a spot [Jd]
Seat+4 : Card dealt to a spot [4h]
Seat+2 [ME] : {BET}
Seat+4 : {RAISE}
Seat+2 [ME] : Calls $0.25
*** 5TH STREET ***
Seat+2 [ME] : Card dealt to a spot [2d]
Seat+4 : Card dealt to a spot [5s]
Seat+4 : {CHECK}
Seat+2 [ME] : Bets $0.50
Seat+4 : Folds
Seat+2 [ME] : Return uncalled portion of bet $0.50
Seat+2 [ME] : Does not show [Ks Kh 9c Jd 2d] (One pair)
Seat+2 [ME] : Hand result $1.28
*** SUMMARY ***
Total Pot($1.30) | Rake ($0.02)
Seat 1:  Folded on the 3rd STREET
Seat 2:  $1.28 [Does not show]
Seat 4:  Folded on the 5TH STREET
"""
PLAIN_ACTIONS = {
    "BRING_IN": "Bring_in chip $0.10",
    "FOLD": "Folds",
    "CALL": "Calls $0.15",
    "BET": "Bets $0.25",
    "RAISE": "Raises $0.50",
    "CHECK": "Checks",
}


@pytest.mark.parametrize(
    ("slot", "line", "note"),
    [
        ("FOLD", "Folds(timeout)", "timeout"),
        ("FOLD", "Folds (timeout)", "timeout"),
        ("FOLD", "Folds (disconnect)", "disconnect"),
        ("FOLD", "Folds (auth)", "auth"),
        ("FOLD", "Folds(auth-disconnect)", "auth-disconnect"),
        ("FOLD", "Fold(Blind Disconnected)", "Blind Disconnected"),
        ("CHECK", "Checks(timeout)", "timeout"),
        ("CHECK", "Checks (timeout)", "timeout"),
        ("BRING_IN", "Big blind/Bring in(timeout) $0.10", None),
        ("BRING_IN", "Bring in (timeout) $0.10", None),
        ("CALL", "Call(timeout) $0.15", None),
        ("BET", "Bets chip info(timeout) $0.25", None),
        ("BET", "Bets(timeout) $0.25", None),
        ("RAISE", "Raises(timeout) $0.50 to $0.50", None),
    ],
)
def test_timed_out_and_automatic_actions_read_as_the_action(
    slot: str, line: str, note: str | None
) -> None:
    """Each form reads as the plain action it stands for, with a fold's or check's remark kept
    as its text; nothing else in the hand changes."""
    plain = parse_record(TIMEOUT_HAND.format(**PLAIN_ACTIONS), ROOM)
    record = parse_record(TIMEOUT_HAND.format(**{**PLAIN_ACTIONS, slot: line}), ROOM)
    assert record.problems == plain.problems == []

    def played(r: HandRecord) -> list[tuple[object, ...]]:
        return [(e.kind, e.player, e.street, e.amount, e.to, e.line) for e in r.events]

    assert played(record) == played(plain)
    number = next(
        i for i, text in enumerate(TIMEOUT_HAND.split("\n"), 1) if "{" + slot + "}" in text
    )
    [changed] = [e for e in record.events if e.line == number]
    assert changed.text == note


@pytest.mark.parametrize(
    ("line", "kind", "to"),
    [
        ("All-in(timeout) $0.75", EventKind.RAISE, 75),
        ("All-in(raise-timeout) $0.75 to $0.75", EventKind.RAISE, 75),
        ("All-in(raise) $0.75", EventKind.RAISE, 75),
    ],
)
def test_all_in_forms_with_a_remark(line: str, kind: EventKind, to: int) -> None:
    record = parse_record(TIMEOUT_HAND.format(**{**PLAIN_ACTIONS, "RAISE": line}), ROOM)
    [event] = [e for e in record.events if e.player == "Seat+4" and e.street == 1 and e.to]
    assert (event.kind, event.to, event.all_in) == (kind, to, True)
