"""OnGame room: concrete fields of concrete hands, real and handwritten.

The real hands come from ../shared/corpus/cash/OnGame (2010-2012: five stud hands, fifteen
five-card draw hands). The handwritten
hands cover what the corpus lacks: an all-in, a "big bring in" met by a raise in a three-way
pot, an unprinted uncalled bet, a winner's name with spaces and parentheses, table life.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from datetime import UTC, datetime

import pytest

from studdraw.parsers.files import discover_files, read_head
from studdraw.parsers.model import EventKind, Game, HandRecord, Outcome, Structure
from studdraw.parsers.reader import parse_file
from studdraw.parsers.rooms import sniff
from studdraw.pipeline.rules import replay
from tests.conftest import CORPUS, corpus_file, parse_record, parse_text
from tests.parsers.records import actions, net_results, of_kind

STUD_FILE = ("cash", "OnGame", "Stud", "7-Stud-USD-0.10-0.20-201009.Sample.txt")
BIG_BRING_FILE = ("cash", "OnGame", "Stud", "7-Stud-USD-1.00-2.00-201212.big.bring.txt")
DRAW_FILE = ("cash", "OnGame", "Draw", "5-Carddraw-USD-0.05-0.10-201009.Sample.txt")
_SUMMARY_NET = re.compile(r"^Seat \d+: (?P<player>.+?) \(\S+\), net: (?P<net>[+-]\$[\d.,]+)", re.M)


def summary_nets(text: str) -> dict[str, int]:
    """Each player's net as the summary prints it ("net: -$0.77"), in cents, read here
    independently of the room's reader; a player without a net line is left out."""
    return {
        found["player"]: round(float(found["net"].replace("$", "").replace(",", "")) * 100)
        for found in _SUMMARY_NET.finditer(text)
    }


def corpus_hands() -> list[tuple[str, HandRecord]]:
    """Every OnGame corpus hand (stud and five-card draw) with its text, each parsed."""
    corpus_file(*STUD_FILE)
    hands = []
    for path in discover_files([CORPUS / "cash" / "OnGame"]):
        for parsed in parse_file(path):
            assert parsed.record is not None, parsed.problem
            hands.append((parsed.hand.text, parsed.record))
    return hands


# --- the whole corpus ---------------------------------------------------------------------


def test_every_corpus_hand_is_read() -> None:
    outcomes: Counter[tuple[Outcome, str]] = Counter()
    for _, record in corpus_hands():
        outcomes[(Outcome.PARSED, str(record.game))] += 1
    assert outcomes == {(Outcome.PARSED, "stud"): 5, (Outcome.PARSED, "draw5"): 15}


def test_sniff_claims_ongame_files_only() -> None:
    corpus_file(*STUD_FILE)
    for path in discover_files([CORPUS]):
        room = sniff(read_head(path)[1])
        assert (room is not None and room.name == "ongame") == ("OnGame" in path.parts), path


def test_each_players_net_is_the_summarys() -> None:
    """Proves the amounts, the calls' "chips put in", the raises' "to", the big bring-in, the
    blinds (a dead one, equal ones), the unprinted uncalled bets and the pot line's shares
    after rake, in every corpus hand."""
    for text, record in corpus_hands():
        printed = summary_nets(text)
        nets = net_results(record)
        assert {p: nets[p] for p in printed} == printed, record.room_hand_id
        assert sum(nets.values()) == -(record.rake or 0)


@pytest.mark.parametrize("parts", [STUD_FILE, DRAW_FILE], ids=["stud", "draw"])
def test_stacks_carry_over_from_hand_to_hand(parts: tuple[str, ...]) -> None:
    """Each stack of the next hand is this one's plus the net (a player who came or went
    between the hands is left out)."""
    records = [p.record for p in parse_file(corpus_file(*parts)) if p.record]
    for before, after in itertools.pairwise(records):
        stacks = {s.player: s.stack for s in before.seats}
        net = net_results(before)
        following = {s.player: s.stack for s in after.seats if s.player in stacks}
        assert len(following) >= 2, after.room_hand_id
        assert following == {player: stacks[player] + net[player] for player in following}


def test_rules_engine_finds_no_error() -> None:
    for _, record in corpus_hands():
        errors = [v for v in replay(record).problems if v.severity == "error"]
        assert errors == [], record.room_hand_id


GOALWIN_FILE = ("cash", "OnGame", "Draw", "5-Carddraw-USD-1-2-201109.Goalwin.Sample.txt")
POT_LIMIT_FILE = (
    "cash",
    "OnGame",
    "Draw",
    "5-Carddraw-PL-USD-1.00-1.00-201111.No.Street.Delimiter.txt",
)


def draw_record(parts: tuple[str, ...], hand_id: str) -> HandRecord:
    [record] = [
        p.record
        for p in parse_file(corpus_file(*parts))
        if p.record is not None and p.record.room_hand_id == hand_id
    ]
    return record


def test_draw_blinds_are_live_until_the_first_round_ends() -> None:
    """ "Dealing pocket cards" after the blinds returns nothing: the big blind's 3 cents over
    the small blind are a live bet (the old reader paid them back to Hero, MNY004)."""
    r = draw_record(DRAW_FILE, "R5-81962116-232")
    assert (r.game, r.structure) == (Game.DRAW5, Structure.FIXED)
    assert (r.stakes.small_bet, r.stakes.big_bet) == (5, 10)
    assert of_kind(r, EventKind.UNCALLED) == []
    assert actions(r, 0)[:3] == [
        ("small_blind", "DamonV2", 2, 2),
        ("big_blind", "Hero", 5, 5),
        ("raise", "x Diabolo666", 10, 10),
    ]


def test_draw_bet_folded_to_is_returned_unprinted() -> None:
    """R5-81962116-233: velabianca's $0.10 after the draw is folded to; her net +$0.21 proves
    it came back. grommek's dead blind is in the main pot ($0.27) though DamonV2 is all-in for
    $0.05."""
    r = draw_record(DRAW_FILE, "R5-81962116-233")
    [returned] = of_kind(r, EventKind.UNCALLED)
    assert (returned.player, returned.amount, returned.street) == ("velabianca", 10, 1)
    assert [(p.name, p.amount) for p in replay(r).pots] == [("main", 27)]


def test_equal_blinds_printed_as_big_blinds_are_small_then_big() -> None:
    """PL $1/$1 prints both $1 blinds as "big blind"; the first, left of the button, is the
    small blind, so Player1 (under the gun) acts first (the old reader's ORD001)."""
    r = draw_record(POT_LIMIT_FILE, "R5-192626403-203")
    assert (r.structure, r.stakes.small_blind, r.stakes.big_blind) == (Structure.POT, 100, 100)
    assert actions(r, 0)[:3] == [
        ("small_blind", "Player0", 100, 100),
        ("big_blind", "Player3", 100, 100),
        ("raise", "Player1", 300, 300),
    ]
    assert [v for v in replay(r).problems if v.severity == "error"] == []


def test_a_draw_printed_without_its_discard_is_inferred_from_the_new_hand() -> None:
    """R5-174428515-250 prints "New hand for Hero" with no "Hero changed 1 cards": the card
    that left the hand (5h) is the discard, marked as inferred."""
    r = draw_record(GOALWIN_FILE, "R5-174428515-250")
    [discard] = [e for e in of_kind(r, EventKind.DISCARD) if e.player == "Hero"]
    assert (discard.count, discard.street) == (1, 1)
    assert [str(card) for card in discard.cards] == ["5h"]
    assert discard.text is not None and discard.text.startswith("inferred")
    [drawn] = of_kind(r, EventKind.DRAW)
    assert [str(card) for card in drawn.cards] == ["7c"]


def test_header_table_and_pot_line() -> None:
    [first, *_] = [p.record for p in parse_file(corpus_file(*STUD_FILE)) if p.record]
    assert (first.room_hand_id, first.game, first.structure, first.currency) == (
        "R5-82086688-607",
        Game.STUD,
        Structure.FIXED,
        "USD",
    )
    assert (first.stakes.small_bet, first.stakes.big_bet, first.stakes.ante) == (10, 20, 2)
    assert first.started_at == datetime(2010, 9, 13, 21, 31, 30, tzinfo=UTC)  # GMT+0100
    assert first.room_time == "Mon Sep 13 22:31:30 GMT+0100 2010"
    assert (first.table, first.hero, first.total_pot, first.rake) == ("Milwaukee", "Hero", 235, 11)
    assert [(e.player, e.amount, e.pot) for e in of_kind(first, EventKind.COLLECT)] == [
        ("Hero", 224, "main")
    ]
    [shown] = of_kind(first, EventKind.SHOW)
    assert (shown.player, shown.cards, shown.text) == (
        "Hero",
        ("Jh", "9d", "Ac", "7h", "Js", "5c", "9h"),
        "TWO_PAIR JACK, NINE",
    )
    door = next(e for e in of_kind(first, EventKind.DEAL) if e.player == "the bAAr")
    assert (door.cards, door.up) == ((None, None, "Kh"), (False, False, True))


def test_big_bring_in_is_the_completion() -> None:
    [r] = [p.record for p in parse_file(corpus_file(*BIG_BRING_FILE)) if p.record]
    assert r.started_at == datetime(2012, 12, 4, 18, 48, 34, tzinfo=UTC)  # CET
    assert r.button is None  # "Button: seat 1" at a stud table: no bearing on the play
    assert actions(r, 0) == [
        ("ante", "Hero", 10, None),
        ("ante", "Player0", 10, None),
        ("complete", "Hero", 100, 100),
        ("raise", "Player0", 200, 200),
        ("call", "Hero", 100, 200),
    ]


# --- handwritten hands ----------------------------------------------------------------------

BIG_BRING_IN_SHOWDOWN = """\
***** History for hand R5-292493407-80 *****
Start hand: Tue Dec 04 19:58:34 CET 2012
Table: Winnipeg [292493407] (LIMIT SEVEN_CARD_STUD $1/$2, ante: $0.10, Real money)
User: Hero
Button: seat 1
Players in round: 3 (5)
Seat 3: Hero ($27.20)
Seat 6: Player0 ($74.40)
Seat 8: Shorty ($3.10)
Hero posts ante $0.10
Player0 posts ante $0.10
Shorty posts ante $0.10
---
Dealing pocket cards
Dealing to Hero: [5c, 2h, 2s]
Dealing to Player0: [-, -, 7d]
Dealing to Shorty: [-, -, Kd]
Hero big bring in $1
Player0 calls $1
Shorty raises $2 to $2
Hero calls $1
Player0 calls $1
---
Dealing 4th street
Dealing to Hero: [Jc]
Dealing to Player0: [6s]
Dealing to Shorty: [8c]
Shorty bets $1 [all in]
Hero folds
Player0 calls $1
---
Dealing 5th street
Dealing to Player0: [8d]
Dealing to Shorty: [Ah]
---
Dealing 6th street
Dealing to Player0: [As]
Dealing to Shorty: [Qd]
---
Dealing river
---
Summary:
Main pot: $8.30 won by Player0 ($7.90)
Rake taken: $0.40
Seat 3: Hero ($25.10), net: -$2.10
Seat 6: Player0 ($79.20), net: +$4.80, [7c, 5d, 7d, 6s, 8d, As, 9h] (STRAIGHT NINE)
Seat 8: Shorty ($0), net: -$3.10, [Kh, Ks, Kd, 8c, Ah, Qd, 3c] (THREE_OF_A_KIND KING)
***** End of hand R5-292493407-80 *****
"""


def test_all_in_showdown_from_the_summary() -> None:
    r = parse_record(BIG_BRING_IN_SHOWDOWN, "ongame")
    assert r.problems == []
    [all_in] = [e for e in r.events if e.all_in]
    assert (all_in.kind, all_in.player, all_in.amount, all_in.street) == (
        EventKind.BET,
        "Shorty",
        100,
        1,
    )
    assert [(e.player, e.line) for e in of_kind(r, EventKind.SHOW)] == [
        ("Player0", 46),
        ("Shorty", 47),
    ]
    assert net_results(r) == summary_nets(BIG_BRING_IN_SHOWDOWN)
    assert of_kind(r, EventKind.UNCALLED) == []
    assert [v for v in replay(r).problems if v.severity == "error"] == []


FOLDED_TO = """\
***** History for hand R5-292493407-81 *****
Start hand: Mon Sep 13 22:33:42 GMT+0100 2010
Table: Winnipeg [292493407] (LIMIT SEVEN_CARD_STUD $1/$2, ante: $0.10, Real money)
User: Hero
Players in round: 2
Seat 3: Hero ($25.10)
Seat 6: Mr (x) y ($79.20)
Hero posts ante $0.10
Mr (x) y posts ante $0.10
---
Dealing pocket cards
Dealing to Hero: [Ac, Kd, 2c]
Dealing to Mr (x) y: [-, -, 9h]
Hero small bring in $0.50
Mr (x) y bets $1
Hero folds
Hero sits out
Mr (x) y is disconnected
---
Summary:
Main pot: $1.20 won by Mr (x) y ($1.20)
Seat 3: Hero ($24.50), net: -$0.60
Seat 6: Mr (x) y ($79.80), net: +$0.60
***** End of hand R5-292493407-81 *****
"""


def test_an_unprinted_uncalled_bet_is_inferred() -> None:
    r = parse_record(FOLDED_TO, "ongame")
    assert r.problems == []
    assert actions(r, 0)[2:] == [
        ("bring_in", "Hero", 50, 50),
        ("complete", "Mr (x) y", 100, 100),
        ("fold", "Hero", 0, None),
    ]
    [uncalled] = of_kind(r, EventKind.UNCALLED)
    assert (uncalled.player, uncalled.amount, uncalled.line) == ("Mr (x) y", 50, 20)
    assert [(e.player, e.amount) for e in of_kind(r, EventKind.COLLECT)] == [("Mr (x) y", 120)]
    assert net_results(r) == summary_nets(FOLDED_TO)
    assert [e.kind for e in r.events if e.line in (17, 18)] == [EventKind.SIT_OUT, EventKind.NOTE]
    assert [v for v in replay(r).problems if v.severity == "error"] == []


def test_end_line_of_another_hand_is_an_error() -> None:
    parsed = parse_text(
        FOLDED_TO.replace("End of hand R5-292493407-81", "End of hand R5-1-2"), "ongame"
    )
    assert parsed.outcome is Outcome.ERROR
    assert parsed.problem is not None and parsed.problem.line == 24


@pytest.mark.parametrize(
    ("table", "label"),
    [
        ("(POT_LIMIT OMAHA_HI $0.05/$0.10, Real money)", "OMAHA_HI"),
        ("(NO_LIMIT TEXAS_HOLDEM $1/$2, Real money)", "TEXAS_HOLDEM"),
    ],
)
def test_other_games_are_unsupported_with_their_label(table: str, label: str) -> None:
    text = FOLDED_TO.replace("(LIMIT SEVEN_CARD_STUD $1/$2, ante: $0.10, Real money)", table)
    parsed = parse_text(text, "ongame")
    assert parsed.outcome is Outcome.UNSUPPORTED
    assert parsed.problem is not None
    assert (parsed.game_label, parsed.problem.line) == (label, 3)
    assert parsed.problem.message == f"{label} is not a stud or draw game studdraw reads"
    assert parsed.room_hand_id == "R5-292493407-81"


def test_split_and_side_pot_winners() -> None:
    """FPDB's converter lists "Side pot 1: $3.26 won by maac_5 ($3.10)" and "won by A ($1.37
    High), B ($1.36 Low)"; a winner's name is read against the seat list."""
    text = FOLDED_TO.replace(
        "Main pot: $1.20 won by Mr (x) y ($1.20)",
        "Main pot: $1.20 won by Mr (x) y ($0.60 High), Hero ($0.60 Low)\n"
        "Side pot 1: $0.40 won by Mr (x) y ($0.38)",
    )
    r = parse_record(text, "ongame")
    assert [(e.player, e.amount, e.pot) for e in of_kind(r, EventKind.COLLECT)] == [
        ("Mr (x) y", 60, "main:hi"),
        ("Hero", 60, "main:lo"),
        ("Mr (x) y", 38, "side1"),
    ]
    assert r.total_pot == 160


def test_unreadable_winners_are_an_error() -> None:
    parsed = parse_text(
        FOLDED_TO.replace("won by Mr (x) y ($1.20)", "won by Nobody ($1.20)"), "ongame"
    )
    assert parsed.outcome is Outcome.ERROR
    assert parsed.problem is not None and "unreadable winners" in parsed.problem.message


def test_an_unknown_zone_fails_only_an_in_scope_hand() -> None:
    """ "Start hand: ... GST 2010" (FPDB's tournament files): a zone studdraw does not place."""
    text = FOLDED_TO.replace("GMT+0100", "GST")
    parsed = parse_text(text, "ongame")
    assert parsed.outcome is Outcome.ERROR
    assert parsed.problem is not None and "GST" in parsed.problem.message
    holdem = text.replace("LIMIT SEVEN_CARD_STUD", "NO_LIMIT TEXAS_HOLDEM")
    assert parse_text(holdem, "ongame").outcome is Outcome.UNSUPPORTED


def test_a_tournament_hand() -> None:
    text = FOLDED_TO.replace(
        "R5-292493407-81 *****",
        'T5-17631959-1 (TOURNAMENT: "Freeroll", R-274-69, buy-in: €1.50) *****',
        1,
    ).replace("End of hand R5-292493407-81", "End of hand T5-17631959-1")
    text = text.replace("$1/$2, ante: $0.10, Real money", "100/200, ante: 10, TC")
    for amount in (
        "$25.10",
        "$79.20",
        "$0.10",
        "$0.50",
        "$1.20",
        "$24.50",
        "$79.80",
        "$0.60",
        "$1",
    ):
        text = text.replace(amount, str(round(float(amount[1:]) * 100)))
    r = parse_record(text, "ongame")
    assert (r.currency, r.scale, r.stakes.small_bet, r.stakes.ante) == ("CHIPS", 1, 100, 10)
    assert r.tournament is not None
    assert (r.tournament.tournament_id, r.tournament.buy_in, r.tournament.currency) == (
        "R-274-69",
        150,
        "EUR",
    )
