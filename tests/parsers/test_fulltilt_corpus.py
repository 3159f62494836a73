"""Full Tilt Poker room: the real hands of ../shared/corpus/{cash,tour}/FTP, file by file and
hand by hand. The handwritten hands of what the corpus lacks are in
test_fulltilt_handwritten.py.
"""

from __future__ import annotations

import ast
from collections import Counter
from datetime import UTC, datetime

import pytest

from studdraw.parsers.files import discover_files
from studdraw.parsers.model import EventKind, Game, Outcome, Structure
from studdraw.parsers.reader import open_history, parse_file
from studdraw.pipeline.rules.validate import check_hand
from tests.conftest import CORPUS, corpus_file
from tests.parsers.records import actions, corpus_hand, net_results, of_kind

STUD_FILE = ("cash", "FTP", "Stud", "7-Stud-USD-3-6-20106.Steal.from.Button.Failure.txt")
RAZZ_FILE = ("cash", "FTP", "Stud", "Razz-USD-0.10-0.20-201012.Player6.listed.but.doesnt.act.txt")
STUD8_FILE = ("cash", "FTP", "Stud", "7-StudHL-USD-2-4-201103.Underscore.in.tablename.txt")
ARCHIVE_FILE = (
    "cash",
    "FTP",
    "Draw",
    "3-Draw-Limit-USD-1500-3000-201101.FTP.Archive.sample.txt",
)
DEAD_SB_FILE = ("cash", "FTP", "Draw", "3-Draw-Limit-USD-5-10-201211.txt")
BADUGI_FILE = ("cash", "FTP", "Draw", "Badugi-FL-USD-0.10-0.20-201305.New.to.the.Game.txt")
A5_FILE = ("cash", "FTP", "Draw", "A5-3-Draw-Limit-USD-0.05-0.10-201104.Sample.txt")
NOT_LISTED_FILE = (
    "cash",
    "FTP",
    "Draw",
    "3-Draw-Limit-USD-250-500-201011.Hero.sitting.out.but.not.listed.txt",
)
DEAD_FILE = ("cash", "FTP", "Draw", "3-Draw-Limit-USD-10-20-201101.Dead.hand.txt")
PARTIAL_FILE = ("cash", "FTP", "Draw", "3-Draw-Limit-USD-20-40-201101.Partial.txt")
STT_FILE = ("tour", "FTP", "Draw", "3-Draw-Limit-USD-STT-2max-10-201211.txt")
HUSNG_FILE = ("tour", "FTP", "Stud", "Razz-USD-HUSNG-200-201211.all.in.ante.txt")

# --- the whole corpus ---------------------------------------------------------------------


def test_every_in_scope_corpus_hand_parses_and_the_rest_is_named() -> None:
    corpus_file("cash", "FTP")
    outcomes: Counter[tuple[Outcome, str | None]] = Counter()
    problems: dict[str | None, tuple[Outcome, str]] = {}
    for path in discover_files([CORPUS / "cash" / "FTP", CORPUS / "tour" / "FTP"]):
        for parsed in parse_file(path):
            assert parsed.hand.room == "fulltilt", path
            if parsed.record:
                outcomes[(Outcome.PARSED, str(parsed.record.game))] += 1
                continue
            assert parsed.problem is not None
            outcomes[(parsed.outcome, parsed.game_label)] += 1
            if parsed.game_label in ("td27", None):
                problems[parsed.room_hand_id] = (parsed.outcome, parsed.problem.message)
    assert outcomes == {
        (Outcome.PARSED, "td27"): 59,
        (Outcome.PARSED, "stud"): 16,
        (Outcome.PARSED, "razz"): 2,
        (Outcome.PARSED, "badugi"): 2,
        (Outcome.PARSED, "stud8"): 1,
        (Outcome.PARSED, "tda5"): 1,
        (Outcome.PARSED, "draw5"): 3,  # limit, pot limit and no limit
        (Outcome.PARSED, "sd27"): 1,
        (Outcome.PARSED, "stud5"): 1,
        (Outcome.UNSUPPORTED, "td27"): 1,  # the dead hand
        (Outcome.ERROR, "td27"): 1,  # the partial hand, which the room exported broken
        (Outcome.ERROR, None): 1,  # a single-draw hand whose summary the room broke
    }
    assert problems == {
        "26884156000": (Outcome.UNSUPPORTED, "dead hand: no cards were dealt"),
        "27020940000": (
            Outcome.ERROR,
            "partial hand: the room exported it without its action",
        ),
        "31349486094": (Outcome.ERROR, "summary names seat 3, which is empty"),
    }


def test_sniffing_claims_exactly_the_full_tilt_files() -> None:
    corpus_file("cash", "FTP")
    for path in discover_files([CORPUS]):
        room = open_history(path).room
        is_fulltilt = "FTP" in path.parts
        assert (room is not None and room.name == "fulltilt") == is_fulltilt, path


def test_dead_hand_is_unsupported_at_its_summary() -> None:
    [parsed] = list(parse_file(corpus_file(*DEAD_FILE)))
    assert parsed.outcome is Outcome.UNSUPPORTED
    assert parsed.problem is not None and parsed.problem.line == 13


def test_partial_hand_is_an_error_at_its_header() -> None:
    [parsed] = list(parse_file(corpus_file(*PARTIAL_FILE)))
    assert parsed.outcome is Outcome.ERROR
    assert parsed.problem is not None and parsed.problem.line == 1
    assert [(v.code, v.line) for v in check_hand(parsed)] == [("PRS001", 1)]


@pytest.mark.parametrize(
    "hp_file",
    [
        ("cash", "FTP", "Draw", "3-Draw-Limit-USD-0.10-0.20-201011.txt.hp"),
        (*ARCHIVE_FILE[:3], ARCHIVE_FILE[3] + ".hp"),
        (*NOT_LISTED_FILE[:3], NOT_LISTED_FILE[3] + ".hp"),
        ("cash", "FTP", "Draw", "Badugi-USD-0.05-0.10-201011.Sample.Not.UTF16.txt.hp"),
        (*STUD_FILE[:3], STUD_FILE[3] + ".hp"),
        (*RAZZ_FILE[:3], RAZZ_FILE[3] + ".hp"),
    ],
    ids=lambda parts: parts[-1][:30],
)
def test_net_results_and_stacks_agree_with_fpdb(hp_file: tuple[str, ...]) -> None:
    """FPDB's expected output (.hp) holds each player's net and starting stack in cents. FPDB
    leaves out some players the summary shows sitting out: they must be sitting out here, with
    nothing won or lost."""
    hp_path = corpus_file(*hp_file)
    expected = ast.literal_eval(hp_path.read_text(encoding="utf-8"))
    [record] = [p.record for p in parse_file(hp_path.with_suffix("")) if p.record]
    net = net_results(record)
    assert {name: net[name] for name in expected} == {
        name: stats["totalProfit"] for name, stats in expected.items()
    }
    stacks = {seat.player: (seat.seat, seat.stack) for seat in record.seats}
    assert {name: stacks[name] for name in expected} == {
        name: (stats["seatNo"], stats["startCash"]) for name, stats in expected.items()
    }
    for seat in record.seats:
        if seat.player not in expected:
            assert seat.sitting_out and net[seat.player] == 0, seat


def test_lines_point_into_a_utf16_file_with_doubled_line_ends() -> None:
    path = corpus_file(*RAZZ_FILE)
    lines = path.read_bytes()[2:].decode("utf-16-le", errors="replace").split("\n")
    [parsed] = list(parse_file(path))
    assert parsed.record is not None
    for event in parsed.record.events:
        if event.player and event.kind is not EventKind.MUCK:
            assert event.player in lines[event.line - 1], (event, lines[event.line - 1])


# --- concrete corpus hands ----------------------------------------------------------------


def test_stud_cash_hand() -> None:
    r = corpus_hand(STUD_FILE, "21536466676")
    assert (r.room, r.game, r.structure, r.currency, r.scale) == (
        "fulltilt",
        Game.STUD,
        Structure.FIXED,
        "USD",
        100,
    )
    assert (r.stakes.small_bet, r.stakes.big_bet, r.stakes.ante, r.stakes.bring_in) == (
        300,
        600,
        50,
        100,
    )
    assert (r.table, r.max_seats, r.button, r.hero) == ("Hagan", None, None, "Hero")
    assert r.room_time == "12:18:37 ET - 2010/06/11"
    assert r.started_at == datetime(2010, 6, 11, 16, 18, 37, tzinfo=UTC)  # EDT
    assert [(s.seat, s.player, s.stack, s.sitting_out) for s in r.seats][:3] == [
        (1, "bllodshot", 3100, True),
        (2, "kwuiyhw", 6250, False),
        (3, "chasrigg", 29750, False),
    ]
    assert [e.player for e in of_kind(r, EventKind.ANTE)] == [
        "chasrigg",
        "Hero",
        "kwuiyhw",
        "arjun1111",
        "FILL A RACK",
        "thebear666",
        "goulartarm",
    ]
    [hero_deal] = [e for e in of_kind(r, EventKind.DEAL) if e.player == "Hero"]
    assert hero_deal.cards == ("5s", "2h", "Th") and hero_deal.up == (False, False, True)
    door = next(e for e in of_kind(r, EventKind.DEAL) if e.player == "kwuiyhw")
    assert door.cards == (None, None, "9c")
    assert actions(r, 0)[7:] == [
        ("bring_in", "thebear666", 100, 100),
        ("fold", "FILL A RACK", 0, None),
        ("fold", "kwuiyhw", 0, None),
        ("fold", "chasrigg", 0, None),
        ("fold", "goulartarm", 0, None),
        ("fold", "Hero", 0, None),
        ("complete", "arjun1111", 300, 300),
        ("call", "thebear666", 200, 300),
    ]
    assert actions(r, 1) == [("bet", "arjun1111", 300, 300), ("fold", "thebear666", 0, None)]
    [uncalled] = of_kind(r, EventKind.UNCALLED)
    assert (uncalled.player, uncalled.amount, uncalled.line) == ("arjun1111", 300, 42)
    [collect] = of_kind(r, EventKind.COLLECT)
    assert (collect.player, collect.amount, collect.pot, collect.line) == (
        "arjun1111",
        950,
        "main",
        44,
    )
    assert (r.total_pot, r.rake) == (950, 0)
    assert [e.player for e in of_kind(r, EventKind.LEAVE)] == ["FILL A RACK"]
    assert [e.text for e in of_kind(r, EventKind.NOTE)] == [
        "thebear666 is low with [7s]",
        "chasrigg has 15 seconds left to act",
        "shasatipu adds $316",
    ]


def test_razz_hand_with_two_clocks_and_an_unflagged_sitter() -> None:
    r = corpus_hand(RAZZ_FILE, "26190500040")
    # "17:19:00 CCT - 2010/12/07 [04:19:00 ET - 2010/12/07]": the bracketed ET time is used.
    assert r.room_time == "04:19:00 ET - 2010/12/07"
    assert r.started_at == datetime(2010, 12, 7, 9, 19, tzinfo=UTC)
    # Listed without a flag, but "is sitting out" before the deal and in the summary.
    assert [s.player for s in r.seats if s.sitting_out] == ["Player6"]
    assert actions(r, 0)[7:10] == [
        ("bring_in", "Player8", 3, 3),
        ("call", "Hero", 3, 3),
        ("fold", "Player2", 0, None),
    ]
    assert actions(r, 2) == [("bet", "Player8", 20, 20), ("fold", "Hero", 0, None)]
    assert (r.total_pot, r.rake) == (43, 2)
    assert [(e.player, e.amount) for e in of_kind(r, EventKind.COLLECT)] == [("Player8", 41)]


def test_stud_hi_lo_table_name_with_underscores() -> None:
    r = corpus_hand(STUD8_FILE, "29408130000")
    assert (r.game, r.table) == (Game.STUD8, "XGod_Of_WarX")
    assert r.stakes.bring_in == 50 and r.stakes.ante == 40
    assert [e.player for e in of_kind(r, EventKind.SIT_OUT)] == ["Player7"]


def test_archived_triple_draw_hand_skips_the_separator_and_reads_draws() -> None:
    r = corpus_hand(ARCHIVE_FILE, "27088270000")
    assert r.source.line == 3 and r.source.offset == 55  # BOM, separator, blank line
    assert (r.game, r.button, r.max_seats, r.table) == (Game.TD27, 6, 6, "harrington25")
    assert (r.stakes.small_blind, r.stakes.big_blind) == (75000, 150000)
    assert actions(r, 0)[2:] == [
        ("raise", "Hero", 300000, 300000),
        ("raise", "Player6", 450000, 450000),
        ("fold", "Player1", 0, None),
        ("raise", "Player2", 450000, 600000),
        ("call", "Hero", 300000, 600000),
        ("call", "Player6", 150000, 600000),
    ]
    first_draw = [
        (str(e.kind), e.player, e.count, e.cards)
        for e in r.events
        if e.street == 1 and e.kind in (EventKind.DISCARD, EventKind.DRAW)
    ]
    assert first_draw == [
        ("discard", "Player2", 1, ()),
        ("discard", "Hero", 1, ("Qs",)),
        ("discard", "Player6", 2, ()),
        ("draw", "Player2", 1, (None,)),
        ("draw", "Hero", 1, ("2h",)),
        ("draw", "Player6", 2, (None, None)),
    ]
    pats = [(e.player, e.street, e.cards) for e in of_kind(r, EventKind.STAND_PAT)]
    assert pats[:2] == [("Hero", 2, ("5s", "3h", "4c", "8d", "2h")), ("Player6", 2, ())]
    assert [(e.player, e.amount) for e in of_kind(r, EventKind.COLLECT)] == [("Hero", 4274800)]
    assert (r.total_pot, r.rake) == (4275000, 200)


def test_dead_small_blind_and_live_post() -> None:
    r = corpus_hand(DEAD_SB_FILE, "31497971185")
    assert actions(r, 0)[:5] == [
        ("small_blind", "Hero", 250, 250),
        ("big_blind", "Player0", 500, 500),
        ("dead", "Player2", 250, None),
        ("post", "Player2", 500, 500),
        ("fold", "Player1", 0, None),
    ]
    assert ("raise", "Player2", 500, 1000) in actions(r, 0)
    assert [(e.player, e.amount) for e in of_kind(r, EventKind.UNCALLED)] == [("Player2", 500)]
    assert (r.total_pot, r.button) == (1500, 6)


def test_badugi_with_the_game_before_the_stakes() -> None:
    r = corpus_hand(BADUGI_FILE, "32617272179")
    assert (r.game, r.structure, r.table, r.max_seats) == (
        Game.BADUGI,
        Structure.FIXED,
        "Clackers",
        None,
    )
    assert r.notes == ["table attributes: New to the Game"]
    assert (r.stakes.small_bet, r.stakes.big_bet) == (10, 20)
    draws = [(e.street, e.cards) for e in of_kind(r, EventKind.DRAW) if e.player == "Hero"]
    assert draws == [(1, ("2h",)), (2, ("Qs",)), (3, ("Js",))]
    [show] = [e for e in of_kind(r, EventKind.SHOW) if e.player == "Player2"]
    assert show.text == "a 3-Card: 7, 2, A"  # not mistaken for chat
    assert [s.player for s in r.seats if s.sitting_out] == ["Player5"]


def test_a5_triple_draw() -> None:
    r = corpus_hand(A5_FILE, "29885220000")
    assert r.game is Game.TDA5
    assert actions(r, 0) == [
        ("small_blind", "Hero", 2, 2),
        ("big_blind", "Villain", 5, 5),
        ("raise", "Hero", 8, 10),
        ("fold", "Villain", 0, None),
    ]


def test_hero_sitting_out_but_not_flagged_on_the_seat_line() -> None:
    r = corpus_hand(NOT_LISTED_FILE, "25585334444")
    assert [(s.player, s.sitting_out) for s in r.seats if s.player == "Hero"] == [("Hero", True)]
    assert r.hero is None


def test_heads_up_sit_and_go_with_an_all_in_call() -> None:
    r = corpus_hand(STT_FILE, "31331205512")
    assert (r.currency, r.scale, r.max_seats, r.table) == ("CHIPS", 1, 2, "1")
    assert r.tournament is not None
    assert (r.tournament.tournament_id, r.tournament.buy_in, r.tournament.fee) == (
        "243560420",
        None,
        None,
    )
    assert (r.tournament.currency, r.tournament.level) == ("USD", None)
    assert r.notes == ["tournament '$10 Heads-Up Sit & Go'"]
    assert (r.stakes.small_bet, r.stakes.big_bet) == (80, 160)
    call = of_kind(r, EventKind.CALL)[0]
    assert (call.player, call.amount, call.to, call.all_in) == ("Hero", 25, 65, True)
    [uncalled] = of_kind(r, EventKind.UNCALLED)
    assert (uncalled.player, uncalled.amount, uncalled.street) == ("Player0", 15, 0)
    mucked = [e.cards for e in of_kind(r, EventKind.MUCK) if e.cards]
    assert mucked == [("Kd", "8s", "7s", "4d", "3c")]


def test_every_sit_and_go_hand_is_a_tournament_hand_in_chips() -> None:
    records = [p.record for p in parse_file(corpus_file(*STT_FILE))]
    assert len(records) == 54
    assert all(r is not None and r.currency == "CHIPS" for r in records)


def test_all_in_ante_returns_the_excess_before_the_deal() -> None:
    r = corpus_hand(HUSNG_FILE, "31349767778")
    assert r.game is Game.RAZZ and r.stakes.ante == 7
    assert [(str(e.kind), e.player, e.amount, e.all_in) for e in r.events[:3]] == [
        ("ante", "Hero", 7, False),
        ("ante", "Player0", 6, True),
        ("uncalled", "Hero", 1, False),
    ]
    assert not of_kind(r, EventKind.BRING_IN)
    shows = [(e.player, e.street, e.cards) for e in of_kind(r, EventKind.SHOW)]
    assert shows[:2] == [("Hero", 0, ("6c", "7c", "7d")), ("Player0", 0, ("9d", "9s", "2c"))]
    river = [e for e in of_kind(r, EventKind.DEAL) if e.street == 4]
    assert [(e.cards, e.up) for e in river] == [(("Jc",), (False,)), (("2s",), (False,))]
