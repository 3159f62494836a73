"""Winning Poker Network room: handwritten hands in the room's formats, for what the corpus
lacks (a disconnected all-in without an amount, a player sitting out, a tournament file, a deal
of the wrong size, awkward names) and the 2019 export the corpus has no file of.

The real hands of ../shared/corpus/cash/Winning are in test_winning_corpus.py.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from studdraw.parsers.model import EventKind, Game, HandRecord, Outcome, Structure
from studdraw.parsers.reader import parse_file
from studdraw.parsers.rooms import sniff
from studdraw.parsers.rooms.winning2019 import Winning2019
from studdraw.pipeline.rules import replay
from tests.conftest import REPO_ROOT, parse_record, parse_text
from tests.parsers.names import (
    NAMES,
    PLAIN,
    assert_name_reads_everywhere,
    fill,
    kinds_with_a_player,
    line_kinds,
)
from tests.parsers.records import actions, of_kind

FORMS = REPO_ROOT / "tests" / "parsers" / "forms" / "winning"


# --- handwritten hands --------------------------------------------------------------------

ALL_IN_HAND = """\
Game started at: 2016/8/3 9:5:7

Game ID: 694000001 1/2 (PRR) Leyak (Seven Cards Stud)

Seat 1: ChazDazzle (20).

Seat 3: Zed (1).

Seat 5: Nee (30).

Seat 6: Away (12).

Player Away sitting out

Player ChazDazzle ante (0.15)

Player Zed ante (0.15)

Player Nee ante (0.15)

Player ChazDazzle received card: [9h]

Player ChazDazzle received card: [2c]

Player Zed received a card.

Player Zed received a card.

Player Nee received a card.

Player Nee received a card.

Player ChazDazzle received card: [9d]

Player Zed received card: [7s]

Player Nee received card: [Ks]

Player Zed bring in (0.40)

Player Nee folds

Player ChazDazzle raises (1)

Player Zed is disconnected and ALL IN.

Player Zed allin

Uncalled bet (0.15) returned to ChazDazzle

*** Third street ***

Player ChazDazzle received card: [Kc]

Player Zed received card: [Qh]

*** Fourth street ***

Player ChazDazzle received card: [5s]

Player Zed received card: [4h]

*** Fifth street ***

Player ChazDazzle received card: [4d]

Player Zed received card: [Jc]

*** Sixth street ***

Player ChazDazzle received card: [3h]

Player Zed received a card.

------ Summary ------

Pot: 2.03. Rake 0.10. JP fee 0.02

Player ChazDazzle shows: One pair. 9s [9h 2c 9d Kc 5s 4d 3h]. Bets: 1. Collects: 0. Loses: 1.

*Player Zed shows: Two pairs. Qs and 4s [Qd 4c 7s Qh 4h Jc 8d]. Bets: 1. Collects: 2.03. Wins: 1.03.

Player Nee does not show cards.Bets: 0.15. Collects: 0. Loses: 0.15.

Player Away does not show cards.Bets: 0. Collects: 0. Wins: 0.

Game ended at: 2016/8/3 9:6:40
"""


def test_all_in_without_amount_is_the_rest_of_the_stack() -> None:
    r = parse_record(ALL_IN_HAND, "winning")
    assert r.room_time == "2016/8/3 9:5:7"
    assert [(s.player, s.sitting_out) for s in r.seats] == [
        ("ChazDazzle", False),
        ("Zed", False),
        ("Nee", False),
        ("Away", True),
    ]
    [sit_out] = of_kind(r, EventKind.SIT_OUT)
    assert (sit_out.player, sit_out.line) == ("Away", 13)
    assert actions(r, 0)[3:] == [
        ("bring_in", "Zed", 40, 40),
        ("fold", "Nee", 0, None),
        ("complete", "ChazDazzle", 100, 100),
        ("call", "Zed", 45, 85),
    ]
    all_in = next(e for e in r.events if e.all_in)
    assert (all_in.kind, all_in.player, all_in.line) == (EventKind.CALL, "Zed", 47)
    [note] = of_kind(r, EventKind.NOTE)
    assert note.text == "Player Zed is disconnected and ALL IN."
    assert [(e.street, e.cards) for e in of_kind(r, EventKind.DEAL) if e.player == "Zed"] == [
        (0, (None, None, "7s")),
        (1, ("Qh",)),
        (2, ("4h",)),
        (3, ("Jc",)),
        (4, (None,)),
    ]
    assert (r.total_pot, r.rake) == (215, 12)
    assert [(e.player, e.amount) for e in of_kind(r, EventKind.COLLECT)] == [("Zed", 203)]
    assert not [n for n in r.notes if n.startswith("the room says")]


def test_bet_total_disagreeing_with_the_events_is_noted() -> None:
    text = ALL_IN_HAND.replace("Bets: 1. Collects: 2.03.", "Bets: 1.20. Collects: 2.03.")
    r = parse_record(text, "winning")
    assert r.notes[-1] == "the room says Zed bet 120, the events put in 100"


TOURNAMENT_HAND = """\
Game started at: 2016/8/5 20:0:0
Game ID: 694100000 20/40 $5 Regular 8-Max, Table 1 (Seven Cards Stud)
Seat 1: Alpha (1500).
Seat 2: Beta (1500).
Player Alpha ante (5)
Player Beta ante (5)
Player Alpha received a card.
Player Alpha received a card.
Player Beta received card: [Ah]
Player Beta received card: [Kd]
Player Alpha received card: [3d]
Player Beta received card: [Qs]
Player Alpha bring in (10)
Player Beta folds
Uncalled bet (10) returned to Alpha
Player Alpha mucks cards
------ Summary ------
Pot: 10. Rake 0
*Player Alpha mucks (does not show cards). Bets: 5. Collects: 10. Wins: 5.
Player Beta does not show cards.Bets: 5. Collects: 0. Loses: 5.
Game ended at: 2016/8/5 20:0:20
"""


def test_tournament_is_known_from_the_file_name_only() -> None:
    parsed = parse_text(TOURNAMENT_HAND, "winning", path="HH20160805 T1234567-G31000000.txt")
    r = parsed.record
    assert r is not None, parsed.problem
    assert (r.currency, r.scale) == ("CHIPS", 1)
    assert r.tournament is not None and r.tournament.tournament_id == "1234567"
    assert (r.stakes.small_bet, r.stakes.big_bet, r.stakes.ante, r.stakes.bring_in) == (
        20,
        40,
        5,
        10,
    )
    assert (r.table, r.hero) == ("$5 Regular 8-Max, Table 1", "Beta")


def test_deal_of_the_wrong_size_is_an_error() -> None:
    one_card = ALL_IN_HAND.replace("Player Nee received a card.\n\n", "", 1)
    parsed = parse_text(one_card, "winning")
    assert parsed.outcome is Outcome.ERROR
    assert parsed.problem is not None
    assert parsed.problem.message == "Nee gets 2 cards on 3rd street, not 3"
    assert parsed.problem.line == 29


@pytest.mark.parametrize("label", ["Hold'em", "Omaha HiLow", "Six Plus Hold'em"])
def test_other_games_are_unsupported_with_their_label(label: str) -> None:
    text = (
        "Game started at: 2016/10/2 21:0:42\n\n"
        f"Game ID: 741631166 40/80 (PRR) Xana ({label})\n\nSeat 4 is the button"
    )
    parsed = parse_text(text, "winning")
    assert parsed.outcome is Outcome.UNSUPPORTED
    assert parsed.problem is not None
    assert (parsed.game_label, parsed.problem.line) == (label, 3)
    assert parsed.room_hand_id == "741631166"


def test_trailing_odd_byte_of_a_utf16_file_is_not_part_of_the_hand(tmp_path: Path) -> None:
    path = tmp_path / "HH00000000 G0.txt"
    body = TOURNAMENT_HAND.replace("\n", "\n\n").encode("utf-16-le")
    path.write_bytes(b"\xff\xfe" + body + b"\n")  # like the corpus files: one byte too many
    [parsed] = list(parse_file(path))
    assert parsed.outcome is Outcome.PARSED, parsed.problem


# --- one Collects figure over a main and a side pot --------------------------------------------


def test_one_collects_figure_is_shared_over_the_main_and_the_side_pot() -> None:
    """Hero's "Collects: 17.35." wins the main pot of 3 x 3.20 and the side pot of 2 x 3.95
    less the 0.15 taken: the main pot whole, the side pot what is left."""
    [parsed] = parse_file(FORMS / "stud-actions-2016.txt")
    assert parsed.record is not None, parsed.problem
    collects = [(e.player, e.pot, e.amount) for e in of_kind(parsed.record, EventKind.COLLECT)]
    assert collects == [("Hero", "main", 960), ("Hero", "side1", 775)]
    assert replay(parsed.record).problems == []


# --- awkward names on every kind of line -------------------------------------------------------

NAMED_2016 = """\
Game started at: 2016/8/2 12:50:0
Game ID: 400004061 1/2 (PRR) Leyak (Seven Cards Stud)
Seat 1: {A} (15).
Seat 3: {B} (2.15).
Seat 5: Lea (9).
Seat 7: Moe (6).
Player Moe sitting out
Player {A} ante (0.15)
Player {B} posts ante (0.15)
Player Lea ante (0.15)
Player {A} received card: [Ac]
Player {A} received card: [Kc]
Player {B} received a card.
Player {B} received a card.
Player Lea received a card.
Player Lea received a card.
Player {A} received card: [Qc]
Player {B} received card: [3d]
Player Lea received card: [8h]
Player {B} bring in (0.40)
Player Lea folds
Player {A} raises (1)
Player {B} calls (0.60)
*** Third street ***
Player {A} received card: [Jc]
Player {B} received card: [5s]
Player {B} checks
Player {A} bets (1)
Player {B} is disconnected.
Player {B} is connected.
Player {B} is timed out.
Player {B} allin (0.85)
Uncalled bet (0.15) returned to {A}
Player {A} mucks cards
------ Summary ------
Pot: 4.33. Rake 0.09. JP fee 0.03
*Player {A} mucks (does not show cards). Bets: 2. Collects: 4.33. Wins: 2.33.
Player {B} does not show cards.Bets: 2. Collects: 0. Loses: 2.
Player Lea does not show cards.Bets: 0.15. Collects: 0. Loses: 0.15.
Game ended at: 2016/8/2 12:51:0
"""


def test_the_name_table_covers_every_line_kind_that_names_a_player() -> None:
    covered = line_kinds("winning", fill(NAMED_2016, *PLAIN))
    assert kinds_with_a_player("winning") <= covered


@pytest.mark.parametrize("name", NAMES)
def test_awkward_names_read_on_every_kind_of_line(name: str) -> None:
    assert_name_reads_everywhere("winning", NAMED_2016, name)


# --- the 2019 export -------------------------------------------------------------------------


def forms_hand(name: str) -> HandRecord:
    [parsed] = parse_file(FORMS / name)
    assert parsed.record is not None, parsed.problem
    return parsed.record


def test_the_2019_export_is_read_by_its_own_grammar() -> None:
    r = forms_hand("headers-2019.txt")
    assert (r.room, r.room_hand_id, r.game, r.structure, r.currency, r.scale) == (
        "winning",
        "400005001",
        Game.STUD,
        Structure.FIXED,
        "USD",
        100,
    )
    assert (r.stakes.ante, r.stakes.bring_in, r.stakes.small_bet, r.stakes.big_bet) == (
        2,
        5,
        10,
        20,
    )
    assert (r.table, r.max_seats, r.button, r.hero) == ("Gorham", 8, None, "Hero")
    assert r.started_at == datetime(2019, 7, 28, 17, 0, tzinfo=UTC)
    assert actions(r, 0)[4:] == [
        ("bring_in", "Pat", 5, 5),
        ("call", "Quinn", 5, 5),
        ("fold", "Rae", 0, None),
        ("complete", "Hero", 10, 10),  # "raises $0.10 to $0.10"
        ("fold", "Pat", 0, None),
        ("call", "Quinn", 5, 10),
    ]
    # Won without a showdown: no "collected" line, only the summary's "did not show and won".
    [collect] = of_kind(r, EventKind.COLLECT)
    assert (collect.player, collect.amount, collect.pot) == ("Hero", 131, "main")
    assert (r.total_pot, r.rake) == (133, 2)
    assert replay(r).problems == []


def test_the_2019_pot_is_printed_after_the_rake_and_the_jackpot_fee() -> None:
    r = forms_hand("hilo-collects-2019.txt")
    assert r.game is Game.STUD8
    assert [(e.player, e.amount) for e in of_kind(r, EventKind.COLLECT)] == [
        ("Sal", 800),
        ("Hero", 800),
    ]
    assert (r.total_pot, r.rake) == (1630, 30)


def test_a_2019_side_pot_on_a_line_of_its_own_is_read() -> None:
    """ACR prints each side pot on its own line after the main pot's, in the streets and after
    the summary's total: known lines, no event; the collects name the pots."""
    r = forms_hand("side-pot-2019.txt")
    assert [(e.player, e.amount, e.pot) for e in of_kind(r, EventKind.COLLECT)] == [
        ("Tam", 111, "main"),
        ("Hero", 50, "side1"),
    ]
    assert (r.total_pot, r.rake) == (161, 0)
    assert replay(r).problems == []


def test_a_2019_hand_in_a_file_of_2016_hands_is_split_and_read() -> None:
    old = ALL_IN_HAND.replace("\n\n", "\n")
    new = (FORMS / "headers-2019.txt").read_text()
    parsed = [parse_text(text, "winning") for text in (old, new)]
    assert [p.outcome for p in parsed] == [Outcome.PARSED, Outcome.PARSED]
    assert sniff(new) is not None and sniff(new).name == "winning"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "label", ["Holdem(No Limit)", "Omaha H/L(Fixed Limit)", "5Card Omaha(Pot Limit)"]
)
def test_other_2019_games_are_unsupported_with_their_label(label: str) -> None:
    header = f"Hand #1 - {label} - $0.05/$0.10 - 2019/06/28 02:38:17 UTC"
    parsed = parse_text(f"{header}\nGorham 6-max Seat #1 is the button", "winning")
    assert parsed.outcome is Outcome.UNSUPPORTED
    assert parsed.problem is not None and parsed.game_label == label


def test_a_2019_tournament_hand_is_in_chips() -> None:
    """The cash hand again as a tournament's: the header names it, amounts are whole chips."""
    text = (FORMS / "headers-2019.txt").read_text()
    text = re.sub(r"\$(\d+)\.(\d\d)", lambda m: str(int(m[1] + m[2])), text).replace(
        "Hand #400005001 - 7Stud(Fixed Limit) - 10/20 -",
        "Game Hand #400005002 - Tournament #11182752 - 7Stud(Fixed Limit) - Level 3 (10/20)-",
    )
    r = parse_record(text, "winning")
    assert (r.room_hand_id, r.currency, r.scale) == ("400005002", "CHIPS", 1)
    assert (r.stakes.small_bet, r.stakes.big_bet) == (10, 20)
    assert r.tournament is not None
    assert (r.tournament.tournament_id, r.tournament.level) == ("11182752", "3")


NAMED_2019 = """\
Hand #400005031 - 7Stud(Fixed Limit) - $0.10/$0.20 - 2019/07/28 17:30:00 UTC
Gorham 8-max
Seat 1: {A} ($4.00)
Seat 2: {B} ($0.37)
Seat 4: Moe ($3.00) is sitting out
Seat 5: Lea ($5.00)
{A} posts ante $0.02
{B} posts ante $0.02
Lea posts ante $0.02
*** 3rd STREET ***
Main pot $0.06 | Rake $0.00
Dealt to {A} [Jc Jd 5c]
Dealt to {B} [2h]
Dealt to Lea [Kc]
{B} brings in $0.05
Lea folds
{A} raises $0.10 to $0.10
{B} calls $0.05
*** 4th STREET ***
Main pot $0.26 | Rake $0.00
Dealt to {A} [Jc Jd 5c] [9c]
Dealt to {B} [2h] [6s]
{A} checks
{B} checks
*** 5th STREET ***
Main pot $0.26 | Rake $0.00
Dealt to {A} [Jc Jd 5c 9c] [9h]
Dealt to {B} [2h 6s] [Ks]
{A} bets $0.20
{B} calls $0.15 and is all-in
Uncalled bet ($0.05) returned to {A}
*** 6th STREET ***
Main pot $0.56 | Rake $0.02
Dealt to {A} [Jc Jd 5c 9c 9h] [4d]
Dealt to {B} [2h 6s Ks] [8s]
*** 7th STREET ***
Main pot $0.56 | Rake $0.02
Dealt to {A} [Jc Jd 5c 9c 9h 4d] [Qc]
*** SHOW DOWN ***
Main pot $0.56 | Rake $0.02
{B} shows [Th Tc 2h 6s Ks 8s 3d] (a pair of Tens [Th Tc Ks 8s 6s])
{A} mucks hand
{B} does not show
{B} collected $0.56 from main pot
*** SUMMARY ***
Total pot $0.56 | Rake $0.02
Seat 1: {A} mucked [Jc Jd 5c 9c 9h 4d Qc]
Seat 2: {B} showed [Th Tc 2h 6s Ks 8s 3d] and won $0.56 with a pair of Tens [Th Tc Ks 8s 6s]
Seat 5: Lea folded on the 3rd Street and did not bet
"""


def test_the_2019_name_table_covers_every_line_kind_that_names_a_player() -> None:
    covered = line_kinds(Winning2019(), fill(NAMED_2019, *PLAIN))
    assert kinds_with_a_player(Winning2019()) <= covered


@pytest.mark.parametrize("name", NAMES)
def test_awkward_names_read_on_every_kind_of_2019_line(name: str) -> None:
    assert_name_reads_everywhere("winning", NAMED_2019, name)


def run_twice_2019(first: str, second: str) -> HandRecord:
    """`side-pot-2019.txt` with its main pot of $1.11 run twice, as the 2019 export names the
    runs ("from main pot 1"; FPDB's converter knows the wording, the corpus has no such hand):
    Tam takes `first` from run 1, Hero `second` from run 2."""
    text = (FORMS / "side-pot-2019.txt").read_text(encoding="utf-8")
    runs = f"Tam collected ${first} from main pot 1\nHero collected ${second} from main pot 2"
    return parse_record(text.replace("Tam collected $1.11 from main pot", runs), "winning")


def test_a_2019_collect_from_a_run_names_the_run() -> None:
    r = run_twice_2019("0.56", "0.55")
    collects = [(e.player, e.amount, e.pot, e.run) for e in of_kind(r, EventKind.COLLECT)]
    assert collects == [("Tam", 56, "main", 1), ("Hero", 55, "main", 2), ("Hero", 50, "side1", 0)]
    assert r.runs == 2
    result = replay(r)
    # the export deals no run's own cards: the winners are not checked, each run's take is
    assert {str(v.code) for v in result.problems if not v.code.startswith("SUM")} == {"SHW004"}
    assert [(p.name, p.run, p.winners, p.collected) for p in result.pots] == [
        ("main", 1, ("Tam",), 56),
        ("main", 2, ("Hero",), 55),
        ("side1", 0, ("Hero",), 50),
    ]
    uneven = replay(run_twice_2019("0.81", "0.30")).problems
    assert "SHW007" in {str(v.code) for v in uneven}
