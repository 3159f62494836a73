"""PokerStars line forms (docs/rooms/pokerstars.md, "Line forms"): one handwritten line or hand
per form the room has printed, beyond the header forms of test_pokerstars_handwritten.HEADERS.

The lines are read inside a small razz hand (Alice brings in, Bob folds) at the place the room
prints them; each row names the event the line must give, or none for a line the record keeps
only as a note.
"""

from __future__ import annotations

import pytest

from studdraw.parsers.model import EventKind, Outcome
from tests.conftest import parse_record, parse_text
from tests.parsers.records import actions, of_kind

HEADER = "PokerStars Hand #240000000001:  Razz Limit ($0.10/$0.20 USD) - 2021/10/02 20:15:04 ET"
TABLE = "Table 'Forms' 8-max Seat #1 is the button"
SEATS = ["Seat 1: Alice ($10 in chips)", "Seat 2: Bob ($10 in chips)"]
ANTES = ["Alice: posts the ante $0.10", "Bob: posts the ante $0.10"]
THIRD = ["*** 3rd STREET ***", "Dealt to Alice [Kd]", "Dealt to Bob [2c 3d 4h]"]
PLAY = ["Alice: brings in for $0.10", "Bob: folds"]
END = [
    "Uncalled bet ($0.10) returned to Alice",
    "Alice collected $0.20 from pot",
    "*** SUMMARY ***",
    "Total pot $0.20 | Rake $0",
    "Seat 1: Alice (button) collected ($0.20)",
    "Seat 2: Bob folded on the 3rd Street (didn't bet)",
]


def hand(*extra: str, seats: tuple[str, ...] = ()) -> str:
    """The razz hand with extra lines after Bob's fold, and extra seat lines."""
    return "\n".join([HEADER, TABLE, *SEATS, *seats, *ANTES, *THIRD, *PLAY, *extra, *END])


# (form, line, the event it gives: kind and player, or None when only a note)
TABLE_LINES: list[tuple[str, str, tuple[EventKind, str | None]]] = [
    ("chat", 'Bob said, "nh: folds"', (EventKind.CHAT, "Bob")),
    ("join", "Carl joins the table at seat #3", (EventKind.JOIN, "Carl")),
    ("leave", "Bob leaves the table", (EventKind.LEAVE, "Bob")),
    ("removed", "Bob was removed from the table for failing to post", (EventKind.LEAVE, "Bob")),
    ("sits out", "Bob: sits out", (EventKind.SIT_OUT, "Bob")),
    ("sitting out", "Bob is sitting out", (EventKind.SIT_OUT, "Bob")),
    ("returned", "Bob has returned", (EventKind.SIT_IN, "Bob")),
    ("connected", "Bob is connected", (EventKind.NOTE, "Bob")),
    ("disconnected", "Bob is disconnected", (EventKind.NOTE, "Bob")),
    ("timed out", "Bob has timed out", (EventKind.NOTE, "Bob")),
    ("timed out away", "Bob has timed out while disconnected", (EventKind.NOTE, "Bob")),
    ("timed out away 2", "Bob has timed out while being disconnected", (EventKind.NOTE, "Bob")),
    ("after the button", "Carl will be allowed to play after the button", (EventKind.NOTE, "Carl")),
    ("finished", "Bob finished the tournament in 2nd place", (EventKind.NOTE, "Bob")),
    (
        "finished in the money",
        "Bob finished the tournament in 2nd place and received $5.40.",
        (EventKind.NOTE, "Bob"),
    ),
    (
        "tournament won",
        "Alice wins the tournament and receives $10.80 - congratulations!",
        (EventKind.NOTE, "Alice"),
    ),
    ("bounty", "Alice wins the $0.27 bounty for eliminating Bob", (EventKind.NOTE, "Alice")),
    (
        "split bounty",
        "Alice, Carl split the $50 bounty for eliminating Bob",
        (EventKind.NOTE, "Alice, Carl"),
    ),
    (
        "progressive bounty",
        "Alice wins $19.90 for eliminating Bob and their own bounty increases by $19.89 to $155.32",
        (EventKind.NOTE, "Alice"),
    ),
    (
        "progressive bounty split",
        "Alice wins $4.60 for splitting the elimination of Bob and their own bounty increases "
        "by $4.59 to $41.32",
        (EventKind.NOTE, "Alice"),
    ),
    ("re-buy", "Alice re-buys and receives 1500 chips for $1.00", (EventKind.NOTE, "Alice")),
    (
        "add-on",
        "Alice takes the add-on and receives 1500 chips for $1.00",
        (EventKind.NOTE, "Alice"),
    ),
    (
        "cash-out (hold'em and omaha tables)",
        "Alice cashed out the hand for $2.19 | Cash Out Fee $0.02",
        (EventKind.NOTE, "Alice"),
    ),
]


@pytest.mark.parametrize(("form", "line", "event"), TABLE_LINES, ids=[r[0] for r in TABLE_LINES])
def test_table_life_and_announcement_lines(
    form: str, line: str, event: tuple[EventKind, str | None]
) -> None:
    record = parse_record(hand(line))
    [found] = [e for e in record.events if e.line == len(SEATS) + 10]
    assert (found.kind, found.player) == event
    assert record.problems == []


SEAT_FORMS = [
    ("sitting out", "Seat 3: Carl ($10 in chips) is sitting out", ("Carl", True)),
    ("bounty", "Seat 3: Carl ($10 in chips, $5 bounty)", ("Carl", False)),
]


@pytest.mark.parametrize(("form", "line", "seat"), SEAT_FORMS, ids=[r[0] for r in SEAT_FORMS])
def test_seat_forms(form: str, line: str, seat: tuple[str, bool]) -> None:
    record = parse_record(hand(seats=(line,)))
    assert [(s.player, s.sitting_out) for s in record.seats][-1] == seat


def test_a_player_moved_in_after_the_deal_is_listed_out_of_hand() -> None:
    line = "Seat 3: Carl ($10 in chips) out of hand (moved from another table into small blind)"
    record = parse_record(hand(seats=(line,)))
    assert record.players == ["Alice", "Bob"]
    assert record.notes == ["Carl listed but out of hand"]


def test_a_raise_over_the_bring_in_is_the_completion() -> None:
    """The 2017 form: "raises $0.05 to $0.10" where older hands say "completes it to $0.10"."""
    text = (
        hand()
        .replace("Alice: brings in for $0.10", "Alice: brings in for $0.05")
        .replace(
            "Bob: folds", "Bob: raises $0.05 to $0.10\nAlice: raises $0.10 to $0.20\nBob: folds"
        )
        .replace("$0.20 from pot", "$0.40 from pot")
    )
    record = parse_record(text)
    assert actions(record, 0)[2:] == [
        ("bring_in", "Alice", 5, 5),
        ("complete", "Bob", 10, 10),
        ("raise", "Alice", 15, 20),
        ("fold", "Bob", 0, None),
    ]


BRING_INS = ["brings in for", "brings-in for", "brings in low for", "brings-in low for"]


@pytest.mark.parametrize("verb", BRING_INS)
def test_bring_in_wordings(verb: str) -> None:
    record = parse_record(hand().replace("brings in for", verb))
    assert actions(record, 0)[2] == ("bring_in", "Alice", 10, 10)


ACTION_TAILS = [
    ("all-in", "Bob: calls $0.10 and is all-in", True),
    ("cap", "Bob: calls $0.10 and has reached the $0.10 cap", False),
    ("disconnect", "Bob: calls $0.10 (disconnect)", False),
]


@pytest.mark.parametrize(("form", "line", "all_in"), ACTION_TAILS, ids=[r[0] for r in ACTION_TAILS])
def test_action_line_tails(form: str, line: str, all_in: bool) -> None:
    text = (
        hand().replace("Bob: folds", line).replace("Uncalled bet ($0.10) returned to Alice\n", "")
    )
    record = parse_record(text.replace("$0.20 from pot", "$0.40 from pot"))
    [call] = of_kind(record, EventKind.CALL)
    assert (call.player, call.amount, call.all_in) == ("Bob", 10, all_in)


def test_a_fold_that_shows_its_cards() -> None:
    record = parse_record(hand().replace("Bob: folds", "Bob: folds [2c 3d 4h]"))
    assert [e.player for e in of_kind(record, EventKind.FOLD)] == ["Bob"]


DRAW_HAND = """\
PokerStars Hand #240000000002:  Triple Draw 2-7 Lowball Limit ($0.10/$0.20 USD) - \
2021/10/02 20:15:04 ET
Table 'Draws' 6-max Seat #1 is the button
Seat 1: Hero ($10 in chips)
Seat 2: Villain ($10 in chips)
Hero: posts small blind $0.05
Villain: posts big blind $0.10
*** DEALING HANDS ***
Dealt to Hero [7c 5d 4h 2s Kd]
Hero: calls $0.05
Villain: checks
*** FIRST DRAW ***
Hero: discards 1 card [Kd]
Villain: discards 2 cards
Dealt to Hero [7c 5d 4h 2s] [8h]
Villain: bets $0.10
Betting is capped
Hero: calls $0.10
*** SECOND DRAW ***
The deck is reshuffled
Hero: stands pat on [7c 5d 4h 2s 8h]
Villain: stands pat
Villain: checks
Hero: checks
*** THIRD DRAW ***
Hero: stands pat
Villain: discards 1 card
Villain: bets $0.20
Hero: calls $0.20
*** SHOW DOWN ***
Villain: shows [9c 6d 5h 3s 2c] (Lo: 9,6,5,3,2)
Hero: shows [8h 7c 5d 4h 2s] (Lo: 8,7,5,4,2)
Hero collected $0.80 from pot
*** SUMMARY ***
Total pot $0.80 | Rake $0
Seat 1: Hero (button) (small blind) showed [8h 7c 5d 4h 2s] and won ($0.80) with Lo: 8,7,5,4,2
Seat 2: Villain (big blind) showed [9c 6d 5h 3s 2c] and lost with Lo: 9,6,5,3,2
"""


def test_draw_lines_with_and_without_cards() -> None:
    record = parse_record(DRAW_HAND)
    discards = [(e.player, e.count, e.cards) for e in of_kind(record, EventKind.DISCARD)]
    assert discards == [("Hero", 1, ("Kd",)), ("Villain", 2, ()), ("Villain", 1, ())]
    [draw] = of_kind(record, EventKind.DRAW)
    assert (draw.player, draw.cards, draw.street) == ("Hero", ("8h",), 1)
    pats = [(e.player, e.cards, e.street) for e in of_kind(record, EventKind.STAND_PAT)]
    assert pats == [
        ("Hero", ("7c", "5d", "4h", "2s", "8h"), 2),
        ("Villain", (), 2),
        ("Hero", (), 3),
    ]
    assert [e.street for e in of_kind(record, EventKind.RESHUFFLE)] == [2]
    assert [e.street for e in of_kind(record, EventKind.CAPPED)] == [1]
    assert record.problems == []


STUD8_HAND = """\
PokerStars Hand #240000000003:  7 Card Stud Hi/Lo Limit ($0.10/$0.20 USD) - \
2021/10/02 20:15:04 ET
Table 'Split' 8-max
Seat 1: Alice ($10 in chips)
Seat 2: Bob ($10 in chips)
Alice: posts the ante $0.05
Bob: posts the ante $0.05
*** 3rd STREET ***
Dealt to Alice [Ah 2h 3d]
Dealt to Bob [Kc]
Bob: brings in for $0.05
Alice: calls $0.05
*** 4th STREET ***
Dealt to Alice [Ah 2h 3d] [4d]
Dealt to Bob [Kc] [Ks]
Pair on board - a double bet is allowed
Bob: checks
Alice: checks
*** 5th STREET ***
Dealt to Alice [Ah 2h 3d 4d] [5s]
Dealt to Bob [Kc Ks] [Qd]
Bob: checks
Alice: checks
*** 6th STREET ***
Dealt to Alice [Ah 2h 3d 4d 5s] [9c]
Dealt to Bob [Kc Ks Qd] [Jd]
Bob: checks
Alice: checks
*** RIVER ***
Dealt to Alice [Ah 2h 3d 4d 5s 9c] [Tc]
Bob: checks
Alice: checks
*** SHOW DOWN ***
Alice: shows [Ah 2h 3d 4d 5s 9c Tc] (HI: a straight, Ace to Five; LO: 5,4,3,2,A)
Bob: shows [7c 8c Kc Ks Qd Jd 2s] (HI: a pair of Kings)
Alice collected $0.10 from pot
Alice collected $0.10 from pot
*** SUMMARY ***
Total pot $0.20 | Rake $0
Seat 1: Alice showed [Ah 2h 3d 4d 5s 9c Tc] and won ($0.10) with HI: a straight, Ace to Five, \
and won ($0.10) with LO: 5,4,3,2,A
Seat 2: Bob showed [7c 8c Kc Ks Qd Jd 2s] and lost with HI: a pair of Kings
"""


def test_a_scooped_hi_lo_pot_is_collected_twice() -> None:
    record = parse_record(STUD8_HAND)
    collects = [(e.player, e.amount, e.pot) for e in of_kind(record, EventKind.COLLECT)]
    assert collects == [("Alice", 10, "main"), ("Alice", 10, "main")]
    shows = [e.text for e in of_kind(record, EventKind.SHOW)]
    assert shows[0] == "HI: a straight, Ace to Five; LO: 5,4,3,2,A"


def test_no_low_and_side_pots() -> None:
    text = STUD8_HAND.replace(
        "Alice collected $0.10 from pot\nAlice collected $0.10 from pot",
        "No low hand qualified\nAlice collected $0.15 from main pot\n"
        "Alice collected $0.05 from side pot-2",
    )
    record = parse_record(text)
    collects = [(e.amount, e.pot) for e in of_kind(record, EventKind.COLLECT)]
    assert collects == [(15, "main"), (5, "side2")]
    assert [e.text for e in of_kind(record, EventKind.NOTE)] == ["no low hand qualified"]


def test_rupee_amounts_with_the_rs_prefix() -> None:
    text = (
        hand()
        .replace("($0.10/$0.20 USD)", "(Rs. 10/Rs. 20 INR)")
        .replace("$0.10", "Rs. 10")
        .replace("$0.20", "Rs. 20")
        .replace("($10 in chips)", "(Rs. 1000 in chips)")
        .replace("$0", "Rs. 0")
    )
    record = parse_record(text)
    assert record.currency == "INR"
    assert (record.stakes.small_bet, record.stakes.big_bet) == (1000, 2000)
    assert actions(record, 0)[2] == ("bring_in", "Alice", 1000, 1000)


def test_a_splash_the_pot_line_holds_money_and_rejects_the_hand() -> None:
    """Money the room adds to the pot cannot be placed in the record: not read past."""
    parsed = parse_text(hand("STP added: $0.10"))
    assert parsed.outcome is Outcome.ERROR
    assert parsed.problem is not None and parsed.problem.code == "TXT002"
