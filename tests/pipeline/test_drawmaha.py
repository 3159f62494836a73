"""Drawmaha (KingsClub's "Limit 2-7 Drawmaha") is one `GameSpec` entry with a board: five cards
each, a flop, one draw before the turn, then the river; half the pot to the best Omaha high hand
(two held cards and three of the board), half to the best 2-7 low of the five held. The corpus
hands replay as the room played and split them, broken hands are caught with their codes, and
synthesised hands go through KingsClub's text and PHH and back (the evaluator itself is held to
pokerkit's Omaha hand in tests/pipeline/test_evaluators_pokerkit.py)."""

from __future__ import annotations

import dataclasses
import random
import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest
from pokerkit import OmahaHoldemHand, StandardLowHand

from studdraw.dashboard import replay as dashboard_replay
from studdraw.dashboard.hand_text import hand_text
from studdraw.dashboard.store import StoreRef
from studdraw.parsers.model import EventKind, Game, HandRecord, Outcome, Structure
from studdraw.parsers.reader import parse_file
from studdraw.pipeline.analytics import Filters, open_store, player_stats
from studdraw.pipeline.evaluators import describe, high, omaha_high
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from studdraw.pipeline.phh import dumps, variant_code
from studdraw.pipeline.rules import GAME_SPECS, replay
from studdraw.pipeline.rules.generate import random_hand
from studdraw.pipeline.rules.house import house_rules_for
from tests.conftest import corpus_file, one_hand_rows, parse_record, parse_text

FOLDER = ("cash", "KingsClub", "Draw")
FOLDS = "2-7 Drawmaha-FL-USD-60-120-202108.txt"
SHOWDOWN = "2-7 Drawmaha-FL-USD-60-120-202108.showdown.txt"
KINGSCLUB = house_rules_for("kingsclub")


def corpus_record(name: str) -> HandRecord:
    [parsed] = parse_file(corpus_file(*FOLDER, name))
    assert parsed.record is not None, parsed.problem
    return parsed.record


def codes(record: HandRecord) -> set[str]:
    return {str(problem.code) for problem in replay(record).problems}


def with_events(record: HandRecord, events: list[object]) -> HandRecord:
    return dataclasses.replace(record, events=events)


def boards(record: HandRecord) -> list[int]:
    return [i for i, e in enumerate(record.events) if e.kind is EventKind.COMMUNITY]


# --- the spec and the evaluator ------------------------------------------------------------


def test_the_spec() -> None:
    spec = GAME_SPECS[Game.DRAWMAHA]
    assert (spec.best, spec.split_low, spec.hand_size, spec.draws) == ("omaha_high", "low27", 5, 1)
    assert [(s.name, s.community, s.draw, s.big_bet) for s in spec.streets] == [
        ("predraw", 0, False, False),
        ("flop", 3, False, False),
        ("turn", 1, True, True),
        ("river", 1, False, True),
    ]
    assert spec.community_cards == 5
    assert variant_code(Game.DRAWMAHA, Structure.FIXED) == "FO/2L1D"


def test_omaha_high_takes_exactly_two_held_cards() -> None:
    board = ["Ah", "Kh", "Qh", "Jh", "2c"]
    # the ten alone would make a straight with four of the board: three of them play
    assert describe("high", omaha_high(["Th", "3d", "4s", "5c", "6d"], board)) == "Ace high"
    # two hearts held make a straight flush with three of the board's four
    assert describe("high", omaha_high(["Th", "9h", "4s", "5c", "6d"], board)) == (
        "a straight flush, Nine to King"
    )
    # four of a kind held: only a pair of them plays, with three of the board
    assert omaha_high(["9s", "9h", "9d", "9c", "2d"], board) == high(["9s", "9h", "Ah", "Kh", "Qh"])
    with pytest.raises(ValueError, match="duplicate card 'Ah'"):
        omaha_high(["Ah", "3d"], board)
    with pytest.raises(ValueError, match="takes 3 to 5 cards"):
        omaha_high(["Th", "3d"], board[:2])


# --- the corpus -----------------------------------------------------------------------------


def test_the_showdown_is_split_between_the_omaha_high_and_the_2_7_low() -> None:
    """#45381014: Hero's ace-high flush (Ac Qc with 3c 5c Kc) takes the board half, Player0's
    9-8-6-3-2 the low half, 484.50 each of 969 (970 less the rake of 1); Player0 opens the flop
    and draws first (left of the button), the draw opening the turn before its marker."""
    record = corpus_record(SHOWDOWN)
    assert record.game is Game.DRAWMAHA
    board = [record.events[i].cards for i in boards(record)]
    assert board == [("3c", "5c", "7s"), ("Kc",), ("Jd",)]
    result = replay(record)
    assert result.problems == []
    assert [(p.winners, p.half, p.amount) for p in result.pots] == [
        (("Hero",), "hi", 48500),
        (("Player0",), "lo", 48500),
    ]
    collected = [(e.player, e.amount) for e in record.events if e.kind is EventKind.COLLECT]
    assert collected == [("Player0", 48450), ("Hero", 48450)]
    assert [s.first_actor for s in result.streets] == ["Hero", "Player0", "Player0", "Player0"]
    draw = next(e for e in record.events if e.kind is EventKind.DRAW and e.player == "Hero")
    assert (draw.street, draw.cards) == (2, ("Ac", "Qc"))


def test_the_other_hand_splits_the_high_pair_and_the_low() -> None:
    """#45394277: Player1's pair of sixes with A-K-Q beats Player0's with A-Q-T on the board
    6h Qd 2h 3d Ah; Player0's T-9-7-6-4 is the better low: 412.50 each."""
    result = replay(corpus_record(FOLDS))
    assert result.problems == []
    halves = [(p.winners, p.half) for p in result.pots]
    assert halves == [(("Player1",), "hi"), (("Player0",), "lo")]


@pytest.mark.parametrize("name", [FOLDS, SHOWDOWN])
def test_broken_hands_are_caught_with_their_codes(name: str) -> None:
    record = corpus_record(name)
    events = list(record.events)
    flop, turn, river = boards(record)
    collects = [i for i, e in enumerate(events) if e.kind is EventKind.COLLECT]
    # the low's winner takes the board half too: the high belongs to the other player
    scoop = events.copy()
    scoop[collects[0]] = dataclasses.replace(scoop[collects[0]], player=events[collects[1]].player)
    assert "SHW002" in codes(with_events(record, scoop))
    # the river repeats a flop card
    repeated = events.copy()
    repeated[river] = dataclasses.replace(events[river], cards=(events[flop].cards[0],))
    assert {"CRD001", "SHW004"} <= codes(with_events(record, repeated))
    # a turn dealt as two cards, and a turn not dealt
    two = events.copy()
    two[turn] = dataclasses.replace(events[turn], cards=(*events[turn].cards, "2s"))
    assert "CRD002" in codes(with_events(record, two))
    assert "CRD002" in codes(with_events(record, events[:turn] + events[turn + 1 :]))
    # a held card dealt to the board as well
    held = next(e for e in events if e.kind is EventKind.SHOW)
    stolen = events.copy()
    stolen[river] = dataclasses.replace(events[river], cards=(held.cards[0],))
    assert "CRD001" in codes(with_events(record, stolen))


# --- synthesised hands ----------------------------------------------------------------------


def test_synthesised_hands_round_trip_through_phh() -> None:
    """PHH has no drawmaha: the variant is built as the split draw games' ("FO/2L1D") with the
    `_game` extension; the board is dealt with "d db", the turn's after the draw."""
    rng = random.Random("phh drawmaha")
    for _ in range(40):
        record = random_hand(Game.DRAWMAHA, Structure.FIXED, rng.randint(2, 6), rng)
        text = dumps(record)
        assert 'variant = "FO/2L1D"' in text
        assert '_game = "drawmaha"' in text
        again = parse_record(text, "phh")
        assert again.game is Game.DRAWMAHA
        assert replay(again).problems == [], text
        for kind in (EventKind.COMMUNITY, EventKind.SHOW):
            assert [(e.street, e.cards) for e in again.events if e.kind is kind] == [
                (e.street, e.cards) for e in record.events if e.kind is kind
            ]


def test_the_winners_of_each_half_are_pokerkit_s() -> None:
    """Hands that reach a showdown of one pot: pokerkit's Omaha hand and its 2-7 low hand pick
    the same winners of each half as the replay."""
    rng = random.Random("halves drawmaha")
    checked = 0
    while checked < 60:
        record = random_hand(Game.DRAWMAHA, Structure.FIXED, rng.randint(2, 6), rng)
        result = replay(record)
        shown = {
            e.player or "": "".join(c for c in e.cards if c is not None)
            for e in record.events
            if e.kind is EventKind.SHOW
        }
        if len(shown) < 2 or len({p.name for p in result.pots}) != 1:
            continue
        board = "".join(c for e in record.events if e.kind is EventKind.COMMUNITY for c in e.cards)
        for half, hand_of in (
            ("hi", lambda cards, board=board: OmahaHoldemHand.from_game(cards, board)),
            ("lo", StandardLowHand.from_game),
        ):
            hands = {name: hand_of(cards) for name, cards in shown.items()}
            top = max(hands.values())
            best = tuple(sorted(name for name, hand in hands.items() if hand == top))
            assert [tuple(sorted(p.winners)) for p in result.pots if p.half == half] == [best]
        checked += 1


def test_the_replayer_shows_the_board_as_it_is_dealt(tmp_path: Path) -> None:
    """The dashboard's replayer reads the board from the stored events: none before the flop,
    none yet at the flop's first event, then three, four and five cards."""
    db = tmp_path / "store.duckdb"
    ingest([corpus_file(*FOLDER, SHOWDOWN)], IngestOptions(db=db, workers=1))
    with duckdb.connect(str(db), read_only=True) as con:
        found = con.execute("SELECT hand_id FROM hands WHERE game = 'drawmaha'").fetchone()
    assert found is not None
    hand = dashboard_replay.load_hand(StoreRef(str(db), 0), found[0])
    assert hand is not None
    assert hand.steps[:4] == ["predraw", "flop", "turn", "river"]
    boards = [dashboard_replay.board_at(hand, step) for step in range(len(hand.steps))]
    flop, turn, river = ["3c", "5c", "7s"], ["3c", "5c", "7s", "Kc"], ["3c", "5c", "7s", "Kc", "Jd"]
    assert boards == [[], flop, turn, river, river]
    assert dashboard_replay.board_at(hand, 1, 0) == []
    community = hand.actions.filter(pl.col("kind") == "community").row(0, named=True)
    assert dashboard_replay.describe(hand, community) == ("the board", True)


def test_the_draw_before_the_turn_counts_as_draw_1(tmp_path: Path) -> None:
    """The statistics count draws by round: drawmaha's one draw (on its street 2, the turn) is
    draw 1, never draw 2. Player0 draws one in both corpus hands, Hero two at the showdown."""
    db = tmp_path / "store.duckdb"
    files = [corpus_file(*FOLDER, name) for name in (FOLDS, SHOWDOWN)]
    summary = ingest(files, IngestOptions(db=db, workers=1))
    assert (summary.stored, summary.with_errors) == (2, 0)
    con = open_store(db)
    for player, expected in (
        ("Player0", {"draw1_1": (1.0, 2), "draw2_1": (0.0, 2), "pat_2": (None, 0)}),
        ("Hero", {"draw2_1": (1.0, 1), "draw1_2": (None, 0)}),
    ):
        [row] = player_stats(con, Filters(player=player, game="drawmaha")).iter_rows(named=True)
        assert {name: (row[name], row[f"{name}_n"]) for name in expected} == expected


def test_a_stored_hand_whose_file_is_gone_is_written_back_in_kingsclubs_format(
    tmp_path: Path,
) -> None:
    """The replayer's text of a drawmaha hand: the room's own while the file holds it, else
    KingsClub's format from the store's rows (PokerStars' has no drawmaha), read back the same."""
    source = tmp_path / SHOWDOWN
    shutil.copy(corpus_file(*FOLDER, SHOWDOWN), source)
    header, seats, actions = one_hand_rows(source, tmp_path / "store.duckdb")
    assert hand_text(header, seats, actions).origin.startswith("As the room wrote it")
    source.unlink()
    moved = hand_text(header, seats, actions)
    assert "in KingsClub's format" in moved.origin
    assert "*** TURN *** [3c 5c 7s] [Kc]" in moved.text
    again = parse_record(moved.text, "kingsclub")
    assert replay(again).problems == []
    assert again.events == parse_record(source_text_of(SHOWDOWN), "kingsclub").events


def source_text_of(name: str) -> str:
    return corpus_file(*FOLDER, name).read_text(encoding="utf-8")


def test_the_reader_takes_captain_and_holds_the_board_to_its_cards() -> None:
    """ "Captain" is read as drawmaha (FPDB's converter's name for the game, no corpus hand);
    a turn that repeats another flop than the one dealt is a parse error, as is a board line in
    a game dealt without a board."""
    text = source_text_of(SHOWDOWN)
    captain = parse_record(text.replace("Limit 2-7 Drawmaha", "Limit Captain"), "kingsclub")
    assert captain.game is Game.DRAWMAHA
    assert replay(captain).problems == []
    wrong = parse_text(
        text.replace("*** TURN *** [3c 5c 7s]", "*** TURN *** [3c 5c 8s]"), "kingsclub"
    )
    assert wrong.outcome is Outcome.ERROR and wrong.problem is not None
    assert "repeats the board as 3c 5c 8s, not 3c 5c 7s" in wrong.problem.message
    badugi = parse_text(text.replace("Limit 2-7 Drawmaha", "Limit Badacey"), "kingsclub")
    assert badugi.problem is not None and "a board (flop) in badacey" in badugi.problem.message
