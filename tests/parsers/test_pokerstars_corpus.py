"""PokerStars room: the real hands of ../shared/corpus/{cash,tour}/Stars, file by file and hand
by hand. The handwritten hands of what the corpus lacks are in test_pokerstars_handwritten.py.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import pytest

from studdraw.parsers.files import discover_files
from studdraw.parsers.model import EventKind, Game, Outcome, Structure
from studdraw.parsers.reader import parse_file
from tests.conftest import CORPUS, corpus_file
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
