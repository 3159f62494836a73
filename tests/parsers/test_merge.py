"""Merge room: concrete fields of concrete hands, real and handwritten.

The real hands come from ../shared/corpus/cash/Merge (stud, stud hi/lo limit and no limit, 2-7
and A-5 triple draw, badugi). Expected values were read off the XML by hand. Handwritten XML
covers what the corpus lacks (razz, tournaments, mixed games, all-ins, uncalled returns, split
pots and other games).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from studdraw.parsers.model import EventKind, Game, Outcome, Structure
from studdraw.pipeline.rules import replay
from tests.conftest import corpus_file, parse_record, parse_text
from tests.parsers.records import actions, corpus_hand, net_results, of_kind

STUD = ("cash", "Merge", "Stud", "7-Stud-USD-0.50-1.00-201102.Sample.txt")
NL_STUD8 = ("cash", "Merge", "Stud", "NL7-StudHL-0.01-0.02-0.10-201204.xml")
TD27 = ("cash", "Merge", "Draw", "3-Draw-Limit-USD-1-2-201104.Sample.with.showdown.txt")
BADUGI = ("cash", "Merge", "Draw", "Badugi-PL-USD-0.05-0.10-201101.Sample.txt")
HALF_POT_BADUGI = ("cash", "Merge", "Draw", "Badugi-HPL-USD-0.50-0.50-201104.Sample.txt")


@dataclass(frozen=True)
class Expected:
    file: tuple[str, ...]
    hand_id: str
    game: Game
    structure: Structure
    stakes: tuple[int, int, int, int, int, int]  # small/big bet, ante, bring-in, blinds
    seats: list[tuple[int, str, int, bool]]
    net: dict[str, int]
    rake: int


CASES = [
    Expected(
        STUD,
        "31423297-107",
        Game.STUD,
        Structure.FIXED,
        (50, 100, 5, 10, 0, 0),
        [
            (0, "Player1", 1580, False),
            (1, "Player2", 1161, False),
            (2, "Player3", 1307, False),
            (3, "Hero", 1151, False),
            (5, "Player5", 1880, False),
            (6, "Player6", 1864, False),
            (7, "Player7", 1835, False),
        ],
        {
            "Player1": -5,
            "Player2": -15,
            "Player3": -5,
            "Hero": -5,
            "Player5": 182,  # 1.65 in, 3.47 won
            "Player6": -165,
            "Player7": -5,
        },
        18,
    ),
    Expected(  # no limit: "($0.01/$0.02/$0.10)" is ante, bring-in and the smallest bet
        NL_STUD8,
        "53828643-2",
        Game.STUD8,
        Structure.NO,
        (10, 10, 1, 2, 0, 0),
        [(0, "Player0", 1000, False), (1, "Hero", 700, False)],
        {"Player0": -130, "Hero": 117},  # the raise to 1.30 folded to: 3.12 won of 3.25
        13,
    ),
    Expected(
        TD27,
        "33423082-14",
        Game.TD27,
        Structure.FIXED,
        (100, 200, 0, 0, 50, 100),
        [(1, "Villain", 3280, False), (3, "Hero", 4680, False)],
        {"Villain": 650, "Hero": -700},
        50,
    ),
    Expected(  # players not dealt in sit out; the raise to 0.60 is paid back in the win
        BADUGI,
        "31274465-32",
        Game.BADUGI,
        Structure.POT,
        (10, 10, 0, 0, 5, 10),
        [
            (0, "Player1", 743, True),
            (1, "Player2", 0, True),
            (3, "Player3", 532, False),
            (4, "Hero", 1000, False),
        ],
        {"Player1": 0, "Player2": 0, "Player3": -30, "Hero": 27},
        3,
    ),
    Expected(  # half-pot limit, antes and no blinds: "($0.50/$0.50)" is the ante, the bet
        HALF_POT_BADUGI,
        "33227759-34",
        Game.BADUGI,
        Structure.HALF_POT,
        (50, 50, 50, 0, 0, 0),
        [(0, "Hero", 3000, False), (2, "Player2", 8053, False), (3, "Player3", 3236, False)],
        {"Hero": -50, "Player2": -125, "Player3": 163},  # 0.75 into 1.50, 1.50 into 3.00
        12,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.hand_id)
def test_corpus_hands(case: Expected) -> None:
    record = corpus_hand(case.file, case.hand_id)
    assert (record.room, record.game, record.structure) == ("merge", case.game, case.structure)
    s = record.stakes
    assert (
        s.small_bet,
        s.big_bet,
        s.ante,
        s.bring_in,
        s.small_blind,
        s.big_blind,
    ) == case.stakes
    assert [(x.seat, x.player, x.stack, x.sitting_out) for x in record.seats] == case.seats
    assert net_results(record) == case.net
    assert record.rake == case.rake
    assert replay(record).problems == []


def test_header_time_and_table() -> None:
    record = corpus_hand(STUD, "31423297-107")
    assert record.room_time == "20110204202244"
    assert record.started_at == datetime(2011, 2, 5, 1, 22, 44, tzinfo=UTC)  # 20:22:44 EST
    assert (record.table, record.currency, record.hero) == ("Hudson (31423297)", "USD", "Hero")


def test_stud_deals_new_cards_from_the_cumulative_lists() -> None:
    record = corpus_hand(STUD, "31423297-107")
    player5 = [
        (e.street, e.cards, e.up) for e in of_kind(record, EventKind.DEAL) if e.player == "Player5"
    ]
    assert player5 == [
        (0, (None, None, "4s"), (False, False, True)),
        (1, ("7c",), (True,)),
        (2, ("Kh",), (True,)),
        (3, ("Kd",), (True,)),
        (4, (None,), (False,)),
    ]
    shows = [
        (e.kind, e.player, e.cards)
        for e in record.events
        if e.kind in (EventKind.SHOW, EventKind.MUCK)
    ]
    assert shows == [
        (EventKind.SHOW, "Player5", ("4c", "2c", "4s", "7c", "Kh", "Kd", "Th")),
        (EventKind.MUCK, "Player6", ("Js", "Jh", "Ts", "7h", "8d", "6s", "3s")),
    ]


def test_draws_compare_the_hero_hand_before_and_after() -> None:
    record = corpus_hand(TD27, "33423082-14")
    draws = [
        (str(e.kind), e.street, e.player, e.count, e.cards)
        for e in record.events
        if e.kind in (EventKind.DISCARD, EventKind.DRAW, EventKind.STAND_PAT)
    ]
    assert draws == [
        ("discard", 1, "Hero", 2, ("Qh", "Tc")),
        ("draw", 1, "Hero", None, ("9d", "9c")),
        ("discard", 1, "Villain", 1, ()),
        ("discard", 2, "Hero", 1, ("9d",)),
        ("draw", 2, "Hero", None, ("3c",)),
        ("stand_pat", 2, "Villain", 0, ()),
        ("stand_pat", 3, "Hero", 0, ()),
        ("stand_pat", 3, "Villain", 0, ()),
    ]
    assert record.button == 1
    assert actions(record, 0) == [
        ("small_blind", "Villain", 50, 50),
        ("big_blind", "Hero", 100, 100),
        ("raise", "Villain", 150, 200),  # RAISE amount="2.00" is the total
        ("call", "Hero", 100, 200),  # CALL amount="1.00" is what is put in
    ]


# --- handwritten hands -------------------------------------------------------------------

HAND = (
    '<game id="9-1" starttime="20120710120000" numholecards="7" gametype="{code}" {extra}'
    'realmoney="true" data="20120710|{table}|{tdata}|9-1|false">'
    """
	<players dealer="1">
		<player seat="1" nickname="Ann" balance="{ann}" dealtin="true" />
		<player seat="2" nickname="Bob" balance="{bob}" dealtin="true" />
	</players>
	<round id="BLINDS" sequence="1">
		<event sequence="1" type="ANTE" player="1" amount="{ante}"/>
		<event sequence="2" type="ANTE" player="2" amount="{ante}"/>
	</round>
	<round id="BRING_IN" sequence="2">
		<event sequence="3" type="BRING_IN" player="1" amount="{bring}"/>
		<cards type="HOLE" cards="Ah,2c,Kd" player="1" hand="x"/>
		<cards type="DRAW_DRAWN_CARDS" cards="null,null,3s" player="2"/>
	</round>
	<round id="THIRD_STREET" sequence="3">
		<event sequence="4" type="{bob_action}" player="2" amount="{bob_amount}"/>
		<event sequence="5" type="FOLD" player="1"/>
	</round>
	<round id="END_OF_FOLDED_GAME" sequence="4">
		{winners}
	</round>
</game>
<description type="{game}" stakes="{stakes}"/>"""
)


def hand(**fields: str) -> str:
    values = {
        "code": "47",
        "extra": "",
        "table": "Oslo (9)",
        "tdata": "9",
        "ann": "$5.00",
        "bob": "$5.00",
        "ante": "0.05",
        "bring": "0.10",
        "bob_action": "COMPLETE",
        "bob_amount": "0.50",
        "winners": '<winner amount="0.70" uncalled="false" potnumber="1" player="2" pottype="n"/>',
        "game": "Razz",
        "stakes": "Limit $0.50/$1",
    }
    return HAND.format(**{**values, **fields})


def test_razz_with_the_completion_paid_back_in_the_win() -> None:
    record = parse_record(hand(), "merge")
    assert (record.game, record.structure) == (Game.RAZZ, Structure.FIXED)
    assert actions(record, 0)[2:] == [
        ("bring_in", "Ann", 10, 10),
        ("complete", "Bob", 50, 50),
        ("fold", "Ann", 0, None),
    ]
    assert net_results(record) == {"Ann": -15, "Bob": 15}
    assert (record.total_pot, record.rake) == (70, 0)


def test_an_uncalled_winner_line_is_a_return() -> None:
    winners = (
        '<winner amount="0.40" uncalled="true" potnumber="1" player="2" pottype="n"/>'
        '<winner amount="0.30" uncalled="false" potnumber="1" player="2" pottype="n"/>'
    )
    record = parse_record(hand(winners=winners), "merge")
    assert [(e.player, e.amount) for e in of_kind(record, EventKind.UNCALLED)] == [("Bob", 40)]
    assert [(e.player, e.amount, e.pot) for e in of_kind(record, EventKind.COLLECT)] == [
        ("Bob", 30, "main")
    ]
    assert net_results(record) == {"Ann": -15, "Bob": 15}


def test_split_and_side_pots_keep_their_labels() -> None:
    winners = (
        '<winner amount="0.20" uncalled="false" potnumber="1" player="1" pottype="h"/>'
        '<winner amount="0.20" uncalled="false" potnumber="1" player="2" pottype="l"/>'
        '<winner amount="0.30" uncalled="false" potnumber="2" player="2" pottype="n"/>'
    )
    record = parse_record(hand(winners=winners, game="7-Stud H/L8", code="43"), "merge")
    assert [(e.player, e.pot) for e in of_kind(record, EventKind.COLLECT)] == [
        ("Ann", "main:hi"),
        ("Bob", "main:lo"),
        ("Bob", "side1"),
    ]


def test_an_all_in_completion() -> None:
    record = parse_record(hand(bob="$0.30", bob_action="ALL_IN", bob_amount="0.25"), "merge")
    complete = of_kind(record, EventKind.COMPLETE)[0]
    assert (complete.player, complete.amount, complete.all_in) == ("Bob", 25, True)


def test_tournaments_play_for_chips() -> None:
    text = hand(
        game="7-Stud Tournament",
        code="39",
        stakes="Limit Level 3 Blinds (50/100)",
        tdata="46165833-1",
        ann="1500",
        bob="1500",
        ante="5",
        bring="10",
        bob_amount="50",
        winners='<winner amount="70" uncalled="false" potnumber="1" player="2" pottype="n"/>',
    )
    record = parse_record(text, "merge")
    assert (record.currency, record.scale, record.rake) == ("CHIPS", 1, None)
    assert record.tournament is not None and record.tournament.tournament_id == "46165833"
    assert (record.stakes.small_bet, record.stakes.big_bet) == (50, 100)


def test_mixed_games_take_the_game_from_the_hand() -> None:
    record = parse_record(hand(game="HORSE", extra='multigametype="43" '), "merge")
    assert (record.game, record.mixed) == (Game.STUD8, "HORSE")


@pytest.mark.parametrize(
    ("game", "stakes", "label"),
    [
        ("Holdem", "No Limit ($0.05/$0.10)", "Holdem No Limit ($0.05/$0.10)"),
        ("5-Stud", "Limit $0.50/$1", "5-Stud Limit $0.50/$1"),
        ("HORSE", "Limit $0.50/$1", "HORSE (gametype 77) Limit $0.50/$1"),
    ],
)
def test_other_games_are_unsupported_with_their_label(game: str, stakes: str, label: str) -> None:
    code = "77" if game == "HORSE" else "47"  # 77: the HORSE mix's own code names no game
    parsed = parse_text(hand(game=game, stakes=stakes, code=code), "merge")
    assert parsed.outcome is Outcome.UNSUPPORTED
    assert parsed.problem is not None and parsed.game_label == label


def test_an_unknown_event_type_is_an_error_with_its_line() -> None:
    parsed = parse_text(hand(bob_action="DANCE"), "merge")
    assert parsed.outcome is Outcome.ERROR
    assert parsed.problem is not None and parsed.problem.message == "unknown event type 'DANCE'"
    assert parsed.problem.line == 16


# --- mixed-game tournaments (FPDB-3's tour/Merge/Mixed HORSE freeroll, in handwritten hands) ---


def horse_tournament(code: str, **fields: str) -> str:
    """A HORSE tournament hand: the description names the mix and the structure only, the
    hand's `multigametype` names its game, and each balance is the stack after the antes."""
    values = {
        "game": "HORSE Tournament",
        "stakes": "Limit",
        "code": "77",
        "extra": f'multigametype="{code}" ',
        "tdata": "36447024-1",
        "ann": "$990.00",
        "bob": "$190.00",
        "ante": "10.00",
        "bring": "25.00",
        "bob_action": "ALL_IN",
        "bob_amount": "190.00",
        "winners": '<winner amount="235.00" uncalled="false" potnumber="1" player="2" '
        'pottype="n"/>',
    }
    return hand(**{**values, **fields})


@pytest.mark.parametrize(
    ("code", "game"), [("41", Game.STUD), ("45", Game.STUD8), ("49", Game.RAZZ)]
)
def test_a_horse_tournament_hand_takes_its_game_from_multigametype(code: str, game: Game) -> None:
    record = parse_record(horse_tournament(code), "merge")
    assert (record.game, record.mixed, record.currency) == (game, "HORSE", "CHIPS")
    # "Limit" prints no amounts: the stakes are left to the posts, not refused
    assert (record.stakes.small_bet, record.stakes.big_bet) == (0, 0)
    assert [(seat.player, seat.stack) for seat in record.seats] == [("Ann", 1025), ("Bob", 200)]


def test_a_horse_tournament_stud_hand_replays_clean_with_the_antes_added_back() -> None:
    """Bob's balance (190) is what the ante left him: his all-in for 190 is his whole stack
    (razz: Ann's king brings in)."""
    result = replay(parse_record(horse_tournament("49"), "merge"))
    assert [problem.code for problem in result.problems] == []


@pytest.mark.parametrize(
    ("code", "label"),
    [("23", "HORSE Tournament: Holdem Limit"), ("37", "HORSE Tournament: Omaha H/L8 Limit")],
)
def test_the_horse_flop_games_are_unsupported_under_their_own_name(code: str, label: str) -> None:
    parsed = parse_text(horse_tournament(code), "merge")
    assert parsed.outcome is Outcome.UNSUPPORTED
    assert parsed.game_label == label


SHOWN_ALL_IN = """<game id="9-2" starttime="20111115223628" numholecards="7" gametype="47" \
realmoney="true" data="20111115|Oslo (9)|9|9-2|false">
	<players dealer="2">
		<player seat="1" nickname="Ann" balance="$1.00" dealtin="true" />
		<player seat="2" nickname="Bob" balance="$5.00" dealtin="true" />
	</players>
	<round id="BLINDS" sequence="1">
		<event sequence="1" type="ANTE" player="1" amount="0.05"/>
		<event sequence="2" type="ANTE" player="2" amount="0.05"/>
	</round>
	<round id="BRING_IN" sequence="2">
		<event sequence="3" type="BRING_IN" player="1" amount="0.10"/>
		<cards type="HOLE" cards="Ah,2c,8d" player="1" hand="x"/>
		<cards type="DRAW_DRAWN_CARDS" cards="null,null,4s" player="2"/>
	</round>
	<round id="THIRD_STREET" sequence="3">
		<event sequence="4" type="COMPLETE" player="2" amount="0.50"/>
		<event sequence="5" type="ALL_IN" player="1" amount="0.85"/>
		<event sequence="6" type="CALL" player="2" amount="0.45"/>
		<event sequence="7" type="SHOW" player="1"/>
		<event sequence="8" type="SHOW" player="2"/>
		<cards type="SHOWN" cards="Ah,2c,8d" player="1"/>
		<cards type="SHOWN" cards="Kh,Qd,4s" player="2"/>
	</round>
	<round id="FOURTH_STREET" sequence="4">
		<cards type="HOLE" cards="Ah,2c,8d,5h" player="1" hand="x"/>
		<cards type="DRAW_DRAWN_CARDS" cards="Kh,Qd,4s,Kc" player="2"/>
	</round>
	<round id="FIFTH_STREET" sequence="5">
		<cards type="HOLE" cards="Ah,2c,8d,5h,6h" player="1" hand="x"/>
		<cards type="DRAW_DRAWN_CARDS" cards="Kh,Qd,4s,Kc,Ks" player="2"/>
	</round>
	<round id="SIXTH_STREET" sequence="6">
		<cards type="HOLE" cards="Ah,2c,8d,5h,6h,9c" player="1" hand="x"/>
		<cards type="DRAW_DRAWN_CARDS" cards="Kh,Qd,4s,Kc,Ks,Jd" player="2"/>
	</round>
	<round id="SEVENTH_STREET" sequence="7">
		<cards type="HOLE" cards="Ah,2c,8d,5h,6h,9c,Td" player="1" hand="x"/>
		<cards type="DRAW_DRAWN_CARDS" cards="Kh,Qd,4s,Kc,Ks,Jd,Qs" player="2"/>
	</round>
	<round id="END_OF_GAME" sequence="8">
		<winner amount="2.00" uncalled="false" potnumber="1" player="1" pottype="n"/>
	</round>
</game>
<description type="Razz" stakes="Limit $0.50/$1"/>"""


def test_the_cards_an_all_in_turns_up_mid_hand_are_the_shows_of_that_round() -> None:
    """An all-in on 3rd street: Merge prints each player's `SHOWN` cards in the betting round,
    beside its SHOW events, and deals the rest of the streets face up."""
    record = parse_record(SHOWN_ALL_IN.replace("\\\n", ""), "merge")
    shows = [(e.street, e.player, e.cards) for e in of_kind(record, EventKind.SHOW)]
    assert [(street, player, tuple(map(str, cards))) for street, player, cards in shows] == [
        (0, "Ann", ("Ah", "2c", "8d")),
        (0, "Bob", ("Kh", "Qd", "4s")),
    ]
    assert [problem.code for problem in replay(record).problems] == []


def test_an_uncalled_return_printed_after_the_pot_is_read_before_it() -> None:
    """The 2014 exports print the return after the winner's pot (potnumber 2, uncalled)."""
    winners = (
        '<winner amount="0.30" uncalled="false" potnumber="1" player="2" pottype="n"/>'
        '<winner amount="0.40" uncalled="true" potnumber="2" player="2" pottype="n"/>'
    )
    record = parse_record(hand(winners=winners), "merge")
    kinds = [e.kind for e in record.events if e.kind in (EventKind.UNCALLED, EventKind.COLLECT)]
    assert kinds == [EventKind.UNCALLED, EventKind.COLLECT]


# --- half-pot limit -------------------------------------------------------------------------


def half_pot_hand(first_bet: str, structure: str = "Half Pot Limit") -> str:
    """The corpus's half-pot badugi hand as a hand text (the description after the game), its
    first bet (0.75 into the antes' 1.50) changed to `first_bet`."""
    description, game = corpus_file(*HALF_POT_BADUGI).read_text().split("\n", 1)
    game = game.replace(
        'type="BET" timestamp="1302638491796" player="3" amount="0.75"',
        f'type="BET" timestamp="1302638491796" player="3" amount="{first_bet}"',
    )
    game = game.replace('player="2" amount="0.75"', f'player="2" amount="{first_bet}"')
    return game + description.replace("Half Pot Limit", structure)


def test_half_the_pot_is_the_most_a_bet_may_be() -> None:
    assert replay(parse_record(half_pot_hand("0.75"), "merge")).problems == []
    codes = [p.code.value for p in replay(parse_record(half_pot_hand("0.80"), "merge")).problems]
    assert "SIZ007" in codes


def test_the_same_bet_is_legal_in_pot_limit() -> None:
    record = parse_record(half_pot_hand("0.80", "Pot Limit"), "merge")
    assert record.structure is Structure.POT
    assert "SIZ007" not in [p.code.value for p in replay(record).problems]
