"""Absolute room: concrete fields of concrete hands, real and handwritten.

The corpus holds one Absolute stud hand (../shared/corpus/cash/Absolute/Stud, stud hi/lo,
2009). The handwritten hands cover the line forms it lacks, as FPDB's Absolute regression files
print them (a table line, a completion, a raise, an all-in, a returned bet, a fold that shows,
a player who does not show; see docs/rooms/absolute.md).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from studdraw.parsers.files import discover_files, read_head
from studdraw.parsers.model import EventKind, Game, Outcome, Structure
from studdraw.parsers.reader import parse_file
from studdraw.parsers.rooms import sniff
from studdraw.pipeline.rules import replay
from tests.conftest import CORPUS, corpus_file, parse_record, parse_text
from tests.parsers.records import actions, net_results, of_kind

HI_LO_FILE = ("cash", "Absolute", "Stud", "7-StudHL-USD-0.02-0.04-200903.River.with.mucked.txt")


def test_the_corpus_hand() -> None:
    [parsed] = parse_file(corpus_file(*HI_LO_FILE))
    r = parsed.record
    assert r is not None, parsed.problem
    assert (r.room, r.room_hand_id, r.game, r.structure, r.currency, r.scale) == (
        "absolute",
        "1300000000",
        Game.STUD8,
        Structure.FIXED,
        "USD",
        100,
    )
    assert (r.stakes.small_bet, r.stakes.big_bet, r.stakes.ante, r.stakes.bring_in) == (2, 4, 1, 1)
    assert r.started_at == datetime(2009, 3, 18, 23, 10, tzinfo=UTC)  # 19:10 EDT
    assert (r.room_time, r.hero, r.total_pot, r.rake) == ("2009-03-18 19:10:00 (ET)", "Hero", 43, 4)
    assert [s.player for s in r.seats] == [
        "PLAYER1",
        "PLAYER2",
        "PLAYER3",
        "Hero",
        "PLAYER5",
        "PLAYER6",
        "PLAYER7",
    ]
    # each street reprints the cards so far: only the new ones are dealt, hidden ones as H;
    # the hero's line after folding adds nothing
    deals = [(e.street, e.cards, e.up) for e in of_kind(r, EventKind.DEAL) if e.player == "PLAYER1"]
    assert deals == [
        (0, (None, None, "Js"), (False, False, True)),
        (1, ("Td",), (True,)),
        (2, ("Kh",), (True,)),
        (3, ("2c",), (True,)),
        (4, (None,), (False,)),
    ]
    assert [e.street for e in of_kind(r, EventKind.DEAL) if e.player == "Hero"] == [0]
    assert actions(r, 0)[7:9] == [("bring_in", "PLAYER7", 1, 1), ("call", "PLAYER1", 1, 1)]
    assert [(e.player, e.amount, e.pot) for e in of_kind(r, EventKind.COLLECT)] == [
        ("PLAYER3", 19, "main"),
        ("PLAYER6", 20, "main"),
    ]
    shows = [(e.player, e.cards[-1], e.text) for e in of_kind(r, EventKind.SHOW)]
    assert shows[0] == ("PLAYER7", "9s", "One pair, queens")
    assert sum(net_results(r).values()) == -4
    assert [v for v in replay(r).problems if v.severity == "error"] == []


def test_sniff_claims_absolute_files_only() -> None:
    corpus_file(*HI_LO_FILE)
    for path in discover_files([CORPUS]):
        room = sniff(read_head(path)[1])
        assert (room is not None and room.name == "absolute") == ("Absolute" in path.parts), path


HI_LO_SHOWDOWN = """\
Stage #1300000001: Seven Card Hi/Lo  Normal $0.02/$0.04 - 2009-03-18 19:12:00 (ET)
Table: FIJI HWY (Real Money)
Seat 1 - PLAYER1 ($0.09 in chips)
Seat 3 - PLAYER3 ($3.46 in chips)
Seat 5 - Hero ($1 in chips)
PLAYER1 - Ante $0.01
PLAYER3 - Ante $0.01
Hero - Ante $0.01
*** 3rd STREET ***
PLAYER1 - Pocket [H H Js]
PLAYER3 - Pocket [H H 6s]
Hero - Pocket [10c 5c 2s]
Hero - Bring-In $0.01
PLAYER1 - Completes to $0.02
PLAYER3 - Raises $0.04 to $0.04
Hero - Folds (Fold & Show [10c 5c 2s])
PLAYER1 - Calls $0.02
*** 4TH STREET ***
PLAYER1 - Pocket [H H Js Kh]
PLAYER3 - Pocket [H H 6s Ah]
Hero - Pocket [10c 5c 2s]
PLAYER3 - Bets $0.02
PLAYER1 - Calls $0.02
*** 5TH STREET ***
PLAYER1 - Pocket [H H Js Kh 2c]
PLAYER3 - Pocket [H H 6s Ah 8c]
PLAYER3 - Bets $0.04
PLAYER1 - All-In $0.02
PLAYER3 - returned ($0.02) : not called
*** 6TH STREET ***
PLAYER1 - Pocket [H H Js Kh 2c 3d]
PLAYER3 - Pocket [H H 6s Ah 8c Jc]
*** RIVER ***
PLAYER1 - Pocket [H H Js Kh 2c 3d H]
PLAYER3 - Pocket [H H 6s Ah 8c Jc H]
*** SHOW DOWN ***
PLAYER1 - Shows [3h 2h Js Kh 2c 3d 9d] (Two Pair, threes and twos)
PLAYER3 - Shows [3s 5d 6s Ah 8c Jc As] (One pair, aces)
PLAYER1 Collects $0.10 from main pot
PLAYER3 Collects $0.09 from main pot
*** SUMMARY ***
Total Pot($0.20) | Rake ($0.01)
Seat 1: PLAYER1 won Total ($0.10) All-In HI:($0.10) with Two Pair, threes and twos
Seat 3: PLAYER3 won Total ($0.09) HI:lost LO:($0.09) [B:Ah,P:3s,P:5d,B:6s,B:8c]
Seat 5: Hero Folded on the 3rd STREET
"""


def test_completion_raise_all_in_and_returned_bet() -> None:
    r = parse_record(HI_LO_SHOWDOWN, "absolute")
    assert r.problems == []
    assert (r.table, r.button) == ("FIJI HWY", None)
    assert actions(r, 0)[3:] == [
        ("bring_in", "Hero", 1, 1),
        ("complete", "PLAYER1", 2, 2),
        ("raise", "PLAYER3", 4, 4),
        ("fold", "Hero", 0, None),
        ("call", "PLAYER1", 2, 4),
    ]
    [all_in] = [e for e in r.events if e.all_in]
    assert (all_in.kind, all_in.player, all_in.amount, all_in.to) == (
        EventKind.CALL,
        "PLAYER1",
        2,
        2,
    )
    assert [(e.player, e.amount) for e in of_kind(r, EventKind.UNCALLED)] == [("PLAYER3", 2)]
    assert next((e.player, e.street, e.cards) for e in of_kind(r, EventKind.SHOW)) == (
        "Hero",
        0,
        ("Tc", "5c", "2s"),
    )
    assert net_results(r) == {"PLAYER1": 1, "PLAYER3": 0, "Hero": -2}
    assert [v for v in replay(r).problems if v.severity == "error"] == []


@pytest.mark.parametrize(
    ("old", "new", "kind", "amount", "to"),
    [
        ("PLAYER3 - Bets $0.02", "PLAYER3 - All-In $0.02", EventKind.BET, 2, 2),
        ("PLAYER1 - Calls $0.02", "PLAYER1 - All-In $0.02", EventKind.CALL, 2, 2),
        ("PLAYER1 - Calls $0.02", "PLAYER1 - All-In(Raise) $0.04 to $0.04", EventKind.RAISE, 4, 4),
        ("PLAYER3 - Bets $0.02", "PLAYER3 - Checks (Timeout)", EventKind.CHECK, 0, None),
    ],
)
def test_all_in_and_timeout_forms(
    old: str, new: str, kind: EventKind, amount: int, to: int | None
) -> None:
    """4th street (lines 22-23): "All-In $X" is a bet, a call or a raise by what it puts in."""
    head, marker, tail = HI_LO_SHOWDOWN.partition("*** 4TH STREET ***\n")
    r = parse_record(head + marker + tail.replace(old + "\n", new + "\n", 1), "absolute")
    event = next(e for e in r.events if e.line == (22 if "PLAYER3" in old else 23))
    assert r.problems == []
    assert (event.kind, event.amount, event.to, event.all_in) == (kind, amount, to, "All-In" in new)


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("PLAYER3 - Does not show", EventKind.NOTE),
        ("PLAYER3 - Mucks", EventKind.MUCK),
    ],
)
def test_showdown_forms(line: str, kind: EventKind) -> None:
    text = HI_LO_SHOWDOWN.replace(
        "PLAYER3 - Shows [3s 5d 6s Ah 8c Jc As] (One pair, aces)\n", f"{line}\n"
    )
    r = parse_record(text, "absolute")
    assert r.problems == []
    assert next(e for e in r.events if e.line == 38).kind is kind


def test_a_sitting_out_player() -> None:
    text = HI_LO_SHOWDOWN.replace(
        "Seat 5 - Hero ($1 in chips)\n",
        "Seat 5 - Hero ($1 in chips)\nSeat 6 - Idle ($2 in chips)\n",
    ).replace("Hero - Ante $0.01\n", "Hero - Ante $0.01\nIdle - sitout (wait for BB)\n")
    r = parse_record(text, "absolute")
    assert r.problems == []
    assert [e.player for e in of_kind(r, EventKind.SIT_OUT)] == ["Idle"]


@pytest.mark.parametrize(
    ("header", "label"),
    [
        ("Stage #1571362962: Holdem  No Limit $0.02 - 2009-08-05 15:24:06 (ET)", "Holdem"),
        ("Stage #736583015: HOLDEM NORMAL $25/$50 - 2007-08-17 03:11:57 (ET)", "HOLDEM"),
        (
            "Stage #1000: Tourney ID 12 Holdem Multi Normal Tournament No Limit 40 - "
            "2010-01-01 10:00:00 (ET)",
            "Holdem",
        ),
        (
            "Stage #C1: Omaha Hi/Lo (1 on 1) Normal $1/$2 - 2010-01-01 10:00:00.5 (ET) "
            "[ 2010-01-01 10:00:00 ]",
            "Omaha Hi/Lo",
        ),
    ],
)
def test_other_games_are_unsupported_with_their_label(header: str, label: str) -> None:
    parsed = parse_text(header + "\nSeat 1 - X ($1 in chips)", "absolute")
    assert parsed.outcome is Outcome.UNSUPPORTED
    assert parsed.problem is not None
    assert (parsed.game_label, parsed.problem.line) == (label, 1)


def test_a_stud_tournament_plays_for_chips() -> None:
    text = (
        HI_LO_SHOWDOWN.replace(
            "Stage #1300000001: Seven Card Hi/Lo  Normal $0.02/$0.04",
            "Stage #1300000001: Tourney ID 77 Seven Card Hi/Lo Multi Normal Tournament "
            "Normal 20/40",
        )
        .replace("$0.0", "")
        .replace("$0.", "")
        .replace("$1 ", "100 ")
        .replace("$3.46", "346")
    )
    r = parse_record(text, "absolute")
    assert (r.currency, r.scale, r.stakes.small_bet, r.stakes.big_bet) == ("CHIPS", 1, 20, 40)
    assert r.tournament is not None and r.tournament.tournament_id == "77"
