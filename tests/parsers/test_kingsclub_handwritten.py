"""KingsClub room: handwritten hands for the line forms the corpus lacks (an all-in, a split
pot, side pots, an uncalled-bet line, table life, tournament tables, the older stud form whose
markers name their own street, a single draw and a pot run twice); see docs/rooms/kingsclub.md.

The real hands of ../shared/corpus/cash/KingsClub are in test_kingsclub_corpus.py.
"""

from __future__ import annotations

import pytest

from studdraw.parsers.model import EventKind, Game, Outcome, Structure
from studdraw.parsers.rooms.kingsclub import DRAW_AS_DEAL
from studdraw.pipeline.rules import replay
from tests.conftest import parse_record, parse_text
from tests.parsers.kingsclub_support import corpus_record, summary_nets
from tests.parsers.records import net_results, of_kind

# --- handwritten hands: the line forms the corpus lacks ------------------------------------

HI_LO_ALL_IN = """\
#40000001: Limit Seven Card Stud Hi-Lo - 40/80
2021-01-02 15:52:36
Table '8 Game Mix'
Seat 1: Player0 (1,725.59)
Seat 3: Villain (250)
Seat 6: Hero (1,384.19)
Player0: posts ante 10
Villain: posts ante 10
Hero: posts ante 10
Dealt to Player0: [X X Td]
Dealt to Villain: [X X 2c]
Dealt to Hero: [Qh 4s Qs]
Villain brings in for 10
Hero bets 40
Player0 folds
Villain calls 40
*** 3RD STREET ***
Dealt to Villain: [3d]
Dealt to Hero: [3h]
Hero bets 40
Villain raises to 80
Hero calls 80
*** 4TH STREET ***
Dealt to Villain: [5d]
Dealt to Hero: [6h]
Hero checks
Villain bets 80
Hero calls 80
*** 5TH STREET ***
Dealt to Villain: [6d]
Dealt to Hero: [As]
Hero checks
Villain bets 40, and is all in
Hero calls 40
*** 6TH STREET ***
Dealt to Villain: [X]
Dealt to Hero: [Kd]
Hero shows [4s Qh Qs 3h 6h As Kd]
Villain shows [7s 8c 2c 3d 5d 6d Kh]
*** SUMMARY ***
Seat 1: Player0 (1,715.59) -10
Seat 3: Villain (254) +4
Seat 6: Hero (1,388.19) +4
Rake 2
Hero wins (254) from pot
Villain wins (254) from pot
"""


def test_all_in_and_split_pot() -> None:
    r = parse_record(HI_LO_ALL_IN, "kingsclub")
    assert r.problems == []
    all_in = next(e for e in r.events if e.all_in)
    assert (all_in.kind, all_in.player, all_in.amount, all_in.street) == (
        EventKind.BET,
        "Villain",
        4000,
        3,
    )
    assert [(e.player, e.amount, e.pot) for e in of_kind(r, EventKind.COLLECT)] == [
        ("Hero", 25400, "main"),
        ("Villain", 25400, "main"),
    ]
    assert net_results(r) == summary_nets(HI_LO_ALL_IN)
    assert of_kind(r, EventKind.UNCALLED) == []
    assert [v for v in replay(r).problems if v.severity == "error"] == []


TRIPLE_DRAW = """\
#40000002: Limit 2-7 Triple Draw - 40/80
2021-01-02 15:42:06
Table 'T1234 [7]' Seat 6 is the button
Seat 1: x (y) z (478.50)
Seat 6: Hero (1,755.50)
*** 1ST BETTING ROUND ***
x (y) z: posts the small blind 20
Hero: posts the big blind 40
Dealt to x (y) z: [X X X X X]
Dealt to Hero: [Ts 8h Jh 4c 6h]
x (y) z raises to 80
Hero calls 80
*** 1ST DRAW ***
Hero discards [Ts Jh] draws [3c 6c]
x (y) z draws 2
*** 2ND BETTING ROUND ***
Hero bets 40
x (y) z folds
Uncalled bet (40) returned to Hero
Hero sits out
*** SUMMARY ***
Seat 1: x (y) z (398.50) -80
Seat 6: Hero (1,834.50) +79
Rake 1
Hero wins pot (159)
"""


def test_tournament_table_odd_name_and_printed_uncalled_bet() -> None:
    r = parse_record(TRIPLE_DRAW, "kingsclub")
    assert r.problems == []
    assert (r.table, r.currency, r.button) == ("7", "CHIPS", 6)
    assert r.tournament is not None and r.tournament.tournament_id == "1234"
    assert r.players == ["x (y) z", "Hero"]
    # chips keep two decimals, as the cash tables' money does (FPDB reads them the same way)
    assert r.scale == 100 and r.stakes.small_bet == 4000
    assert [(e.player, e.amount, e.text) for e in of_kind(r, EventKind.UNCALLED)] == [
        ("Hero", 4000, None)
    ]
    assert [e.player for e in of_kind(r, EventKind.SIT_OUT)] == ["Hero"]
    assert net_results(r) == summary_nets(TRIPLE_DRAW) == {"x (y) z": -8000, "Hero": 7900}


OLDER_STUD = """\
#40000003: Limit Razz - 40/80
2021-01-02 15:48:40
Table '8 Game Mix'
Seat 1: Player0 (1,060.38)
Seat 6: Hero (2,058.40)
Player0: posts ante 10
Hero: posts ante 10
*** 3RD STREET ***
Dealt to Player0: [X X Tc]
Dealt to Hero: [9d 3h 6d]
Player0 brings in for 10
Hero bets 40
Player0 calls 40
*** 4TH STREET ***
Dealt to Player0: [Qs]
Dealt to Hero: [2c]
Hero bets 40
Player0 folds
*** SUMMARY ***
Seat 1: Player0 (1,010.38) -50
Seat 6: Hero (2,107.40) +49
Rake 1
Hero wins pot (99)
"""


def test_older_markers_name_their_own_street() -> None:
    """FPDB knows a form whose "*** 3RD STREET ***" comes before the deal: markers then name
    their own street, and read the same hand as the current form."""
    older = parse_record(OLDER_STUD, "kingsclub")
    current = corpus_record("Stud", "Razz-USD-40-80-202101.txt")
    assert [e.text for e in of_kind(older, EventKind.STREET)] == ["3rd street", "4th street"]
    assert [
        (e.kind, e.player, e.street, e.amount, e.to, e.cards)
        for e in older.events
        if e.kind is not EventKind.STREET
    ] == [
        (e.kind, e.player, e.street, e.amount, e.to, e.cards)
        for e in current.events
        if e.kind is not EventKind.STREET
    ]


@pytest.mark.parametrize(
    ("header", "label", "reason"),
    [
        ("Limit 5 Card Draw - 1/2", "5 Card Draw", "five-card draw as KingsClub prints it"),
        ("No Limit Holdem - 1/2", "Holdem", "Holdem is not a stud or draw game studdraw reads"),
    ],
)
def test_other_games_are_unsupported_with_label_and_reason(
    header: str, label: str, reason: str
) -> None:
    parsed = parse_text(f"#41388325: {header}\n2021-02-13 17:40:45\nTable 'x'", "kingsclub")
    assert parsed.outcome is Outcome.UNSUPPORTED
    assert parsed.problem is not None
    assert (parsed.game_label, parsed.problem.line) == (label, 1)
    assert parsed.problem.message.startswith(reason)
    assert parsed.room_hand_id == "41388325"


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("Hero mucks hand", EventKind.MUCK),
        ("Hero mucks [9d 3h 6d 2c]", EventKind.MUCK),
        ("Player0 is disconnected", EventKind.NOTE),
        ("Player0 has timed out", EventKind.NOTE),
    ],
)
def test_each_line_form_is_read(line: str, kind: EventKind) -> None:
    text = OLDER_STUD.replace("Player0 folds\n", f"Player0 folds\n{line}\n")
    r = parse_record(text, "kingsclub")
    assert r.problems == []
    event = next(e for e in r.events if e.line == 19)
    assert event.kind is kind


def test_a_summary_seat_without_a_net_repeats_the_roster() -> None:
    """A player who sat the hand out has no net: the summary lists the seat as the roster
    does, and the seat list is not read twice."""
    text = OLDER_STUD.replace(
        "Seat 6: Hero (2,107.40)", "Seat 3: Idle (500)\nSeat 6: Hero (2,107.40)"
    )
    r = parse_record(text, "kingsclub")
    assert r.problems == [] and r.players == ["Player0", "Hero"]


def test_a_posted_blind_adds_a_dead_small_blind() -> None:
    """ "posts blind 44": a live big blind and, unprinted, a dead small blind; FPDB's
    regression hand #39879543 nets it (Player1 -77 = ante 11 + 44 + 22)."""
    text = TRIPLE_DRAW.replace(
        "Seat 6: Hero (1,755.50)\n", "Seat 6: Hero (1,755.50)\nSeat 7: Back (500)\n"
    ).replace(
        "Hero: posts the big blind 40\n", "Hero: posts the big blind 40\nBack: posts blind 40\n"
    )
    text = text.replace("x (y) z raises to 80\n", "x (y) z raises to 80\nBack folds\n")
    r = parse_record(text, "kingsclub")
    assert [(str(e.kind), e.amount) for e in r.events if e.player == "Back"][:2] == [
        ("post", 4000),
        ("dead", 2000),
    ]


SINGLE_DRAW = """\
#45383142: No Limit 2-7 Single Draw - 25/50
2021-08-04 06:54:20
Table 'The Zoo' Seat 1 is the button
Seat 1: Player0 (1,200)
Seat 2: Hero (1,200)
Seat 3: Player1 (1,200)
*** 1ST BETTING ROUND ***
Player0: posts ante 20
Hero: posts ante 20
Player1: posts ante 20
Hero: posts the small blind 25
Player1: posts the big blind 50
Dealt to Player0: [X X X X X]
Dealt to Hero: [5d 7h Th Td 2h]
Dealt to Player1: [X X X X X]
Player0 folds
Hero raises to 150
Player1 raises to 1,180, and is all in
Hero calls 1,180, and is all in
*** 1ST DRAW ***
Hero discards [Th] draws [8c]
Player1 stands pat
Hero shows [5d 7h 8c Td 2h]
Player1 shows [6c 8s 7s 2c 5c]
*** 2ND BETTING ROUND ***
*** SUMMARY ***
Seat 1: Player0 (1,180) -20
Seat 2: Hero (0) -1,200
Seat 3: Player1 (2,413) +1,213
Rake 7
Player1 wins pot (2,413)
"""
"""Corpus hand #45383142 (NL-2-7-SD-USD-25-50-202108.2.RIT.txt) as it would print without
running it twice, three-handed: one draw, one showdown."""


def test_single_draw_reads_the_draw_and_replays_clean() -> None:
    r = parse_record(SINGLE_DRAW, "kingsclub")
    assert r.problems == []
    assert (r.game, r.structure, r.hero) == (Game.SD27, Structure.NO, "Hero")
    draws = [(str(e.kind), e.player, e.street, e.cards) for e in r.events if e.street == 1]
    assert draws[1:4] == [
        ("discard", "Hero", 1, ("Th",)),
        ("draw", "Hero", 1, ("8c",)),
        ("stand_pat", "Player1", 1, ()),
    ]
    assert net_results(r) == summary_nets(SINGLE_DRAW)
    assert [v.code for v in replay(r).problems if v.severity == "error"] == []


@pytest.mark.parametrize(
    ("net", "dead"),
    [
        ("-20", []),  # the ante only: nothing unprinted
        ("-45", [("Player0", 2500, 8)]),  # short by the small blind: paid dead
        ("-30", []),  # short by anything else: left for the replay to report
    ],
)
def test_only_a_net_short_by_the_small_blind_adds_a_dead_post(
    net: str, dead: list[tuple[str, int, int]]
) -> None:
    text = SINGLE_DRAW.replace("Seat 1: Player0 (1,180) -20", f"Seat 1: Player0 (1,180) {net}")
    r = parse_record(text, "kingsclub")
    assert [(e.player, e.amount, e.line) for e in of_kind(r, EventKind.DEAD)] == dead


def test_a_draw_printed_as_a_deal_is_unsupported() -> None:
    """The older run-twice form deals the draw unlabelled (#3857875): not read."""
    text = SINGLE_DRAW.replace("Hero discards [Th] draws [8c]", "Dealt to Hero: [8c Th Qs]")
    parsed = parse_text(text, "kingsclub")
    assert parsed.outcome is Outcome.UNSUPPORTED
    assert parsed.problem is not None
    assert (parsed.problem.message, parsed.problem.line) == (DRAW_AS_DEAL, 21)
    assert parsed.game_label == "2-7 Single Draw"


RUN_COLLECTS = "Hero wins (1,206.50) from pot\nPlayer1 wins (1,206.50) from pot"
RUN_TWICE = (
    SINGLE_DRAW.replace(
        "Hero discards [Th] draws [8c]", "Hero discards [Th Td] draws [8c 3s] [Kc 4d]"
    )
    .replace(
        "Hero shows [5d 7h 8c Td 2h]",
        "Run 1: Hero shows [5d 7h 8c 3s 2h]\nRun 2: Hero shows [5d 7h Kc 4d 2h]",
    )
    .replace("Seat 2: Hero (0) -1,200", "Seat 2: Hero (1,206.50) +6.50")
    .replace("Seat 3: Player1 (2,413) +1,213", "Seat 3: Player1 (1,206.50) +6.50")
    .replace("Player1 wins pot (2,413)", RUN_COLLECTS)
)
"""`SINGLE_DRAW` run twice, each run to another player: Hero's 8-7-5-3-2 wins run 1 from
Player1's pat 8-7-6-5-2, Hero's king loses run 2; the pot after rake, 2,413, is 1,206.50 a run."""


def test_a_pot_run_twice_is_shared_by_each_runs_winner() -> None:
    r = parse_record(RUN_TWICE, "kingsclub")
    assert r.runs == 2 and r.problems == []
    result = replay(r)
    assert [v.code for v in result.problems] == []
    assert [(p.run, p.winners, p.amount, p.collected) for p in result.pots] == [
        (1, ("Hero",), 121000, 120650),
        (2, ("Player1",), 121000, 120650),
    ]


@pytest.mark.parametrize(
    ("hero", "player1", "code"),
    [
        ("1,413", "1,000", "SHW007"),  # each run's winner paid, not half each
        ("2,413", None, "SHW001"),  # run 2's winner paid nothing
    ],
)
def test_a_wrong_split_between_the_runs_is_caught(
    hero: str, player1: str | None, code: str
) -> None:
    collects = f"Hero wins ({hero}) from pot" + (
        f"\nPlayer1 wins ({player1}) from pot" if player1 else ""
    )
    text = RUN_TWICE.replace(RUN_COLLECTS, collects)
    codes = {str(v.code) for v in replay(parse_record(text, "kingsclub")).problems}
    assert code in codes
