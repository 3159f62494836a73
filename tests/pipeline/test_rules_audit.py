"""Audit hands written from the rulebooks in ../shared/rules: each illegal hand gets exactly the
code it should, and its legal twin (one line changed, or another house-rules profile) replays
clean. Hands are PokerStars text, parsed by the room's reader, so the whole path is tested.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from studdraw.pipeline.rules import house_rules_for, replay
from tests.conftest import parse_record

HEADER = "PokerStars Game #{id}:  {game} ({stakes} USD) - 2009/11/26 10:00:00 ET"


def stud(
    *,
    players: int = 3,
    antes: tuple[str, ...] | None = None,
    body: str,
    game: str = "7 Card Stud Limit",
    stakes: str = "$0.04/$0.08",
    hand_id: int = 2000000001,
) -> str:
    """A stud hand: `players` seated with $5 (P1..Pn), their antes (default 1 cent each), then
    `body` from the 3rd street marker on."""
    names = [f"P{k}" for k in range(1, players + 1)]
    posted = antes or ("$0.01",) * players
    lines = [
        HEADER.format(id=hand_id, game=game, stakes=stakes),
        "Table 'Audit' 8-max",
        *(f"Seat {k}: {name} ($5 in chips)" for k, name in enumerate(names, 1)),
        *(f"{name}: posts the ante {amount}" for name, amount in zip(names, posted, strict=True)),
        body.strip("\n"),
    ]
    return "\n".join(lines)


def draw(
    *,
    players: int = 3,
    button: int = 1,
    body: str,
    stakes: str = "$0.10/$0.20",
    game: str = "Triple Draw 2-7 Lowball Limit",
) -> str:
    """A draw hand (2-7 triple draw unless told): `players` seated with $5 (P1..Pn), the
    button, then `body` from the blinds on."""
    lines = [
        HEADER.format(id=2000000101, game=game, stakes=stakes),
        f"Table 'Audit' 6-max Seat #{button} is the button",
        *(f"Seat {k}: P{k} ($5 in chips)" for k in range(1, players + 1)),
        body.strip("\n"),
    ]
    return "\n".join(lines)


THIRD_STREET = """
*** 3rd STREET ***
Dealt to P1 [Kc]
Dealt to P2 [2d]
Dealt to P3 [9s]
"""


def folded_to(bring_in: str, pot: str, *, bringer: str = "P2") -> str:
    """3rd street: P2 (the 2d) brings in for `bring_in`, everyone folds, P2 takes back the
    bring-in and takes the antes, `pot`."""
    others = [name for name in ("P3", "P1") if name != bringer]
    return (
        THIRD_STREET
        + f"{bringer}: brings in for {bring_in}\n"
        + "".join(f"{name}: folds\n" for name in others)
        + f"Uncalled bet ({bring_in}) returned to {bringer}\n"
        + f"{bringer} collected {pot} from pot\n*** SUMMARY ***\nTotal pot {pot} | Rake $0\n"
    )


@dataclass(frozen=True)
class Audit:
    """An illegal hand, the codes it must raise, and its legal twin, under one profile."""

    illegal: str
    codes: list[str]
    legal: str
    rules: str | None = None


def codes_of(text: str, rules: str | None = None) -> list[str]:
    record = parse_record(text)
    profile = house_rules_for(rules) if rules else None
    return [v.code for v in replay(record, profile).problems]


BLINDS = """
P2: posts small blind $0.0{small}
P3: posts big blind $0.10
*** DEALING HANDS ***
P1: folds
P2: folds
Uncalled bet ($0.0{uncalled}) returned to P3
P3 collected $0.{pot:02d} from pot
*** SUMMARY ***
Total pot $0.{pot:02d} | Rake $0
"""


def blinds(small: int) -> str:
    """P2 posts a small blind of `small` cents, P3 the big blind of 10; both fold to P3."""
    return BLINDS.format(small=small, uncalled=10 - small, pot=2 * small)


STRADDLE = """
P2: posts small blind $0.05
P3: posts big blind $0.10
P4: posts straddle $0.20
*** DEALING HANDS ***
{first}
P2: folds
P3: folds
Uncalled bet ($0.10) returned to P4
P4 collected $0.25 from pot
*** SUMMARY ***
Total pot $0.25 | Rake $0
"""


def straddle(*, straddler_acts_first: bool) -> str:
    """P4, left of the big blind, straddles for two big blinds: the first round opens left of
    the straddle (P1), and the straddler acts last."""
    first = "P4: checks\nP1: folds" if straddler_acts_first else "P1: folds"
    return STRADDLE.format(first=first)


HEADS_UP = """
{small}: posts small blind $0.05
{big}: posts big blind $0.10
*** DEALING HANDS ***
{small}: folds
Uncalled bet ($0.05) returned to {big}
{big} collected $0.10 from pot
*** SUMMARY ***
Total pot $0.10 | Rake $0
"""

# 7th street heads-up: P1 and P2 raise past the cap (bet and four raises).
SEVENTH = """
*** 3rd STREET ***
Dealt to P1 [Kc]
Dealt to P2 [2d]
Dealt to P3 [9s]
P2: brings in for $0.02
P3: folds
P1: calls $0.02
*** 4th STREET ***
Dealt to P1 [Kc] [Kd]
Dealt to P2 [2d] [5h]
P1: checks
P2: checks
*** 5th STREET ***
Dealt to P1 [Kc Kd] [8c]
Dealt to P2 [2d 5h] [6h]
P1: checks
P2: checks
*** 6th STREET ***
Dealt to P1 [Kc Kd 8c] [3s]
Dealt to P2 [2d 5h 6h] [7s]
P1: checks
P2: checks
*** RIVER ***
P1: bets $0.08
P2: raises $0.08 to $0.16
P1: raises $0.08 to $0.24
P2: raises $0.08 to $0.32
P1: raises $0.08 to $0.40
P2: calls $0.08
*** SHOW DOWN ***
P1: shows [Ah Ad Kc Kd 8c 3s Qd]
P2: shows [Jc Jd 2d 5h 6h 7s Js]
P2 collected $0.87 from pot
*** SUMMARY ***
Total pot $0.87 | Rake $0
"""
SEVENTH_CAPPED = (
    SEVENTH.replace("P1: raises $0.08 to $0.40\nP2: calls $0.08\n", "P1: calls $0.08\n")
    .replace("$0.87", "$0.71")
    # the last raiser, P2, shows first (SHW006)
    .replace(
        "P1: shows [Ah Ad Kc Kd 8c 3s Qd]\nP2: shows [Jc Jd 2d 5h 6h 7s Js]",
        "P2: shows [Jc Jd 2d 5h 6h 7s Js]\nP1: shows [Ah Ad Kc Kd 8c 3s Qd]",
    )
)

# 5th street turns heads-up midway: after the cap's third raise P2 folds and P3 raises again.
MIDWAY = """
*** 3rd STREET ***
Dealt to P1 [Kc]
Dealt to P2 [2d]
Dealt to P3 [9s]
P2: brings in for $0.02
P3: calls $0.02
P1: calls $0.02
*** 4th STREET ***
Dealt to P1 [Kc] [Kd]
Dealt to P2 [2d] [5h]
Dealt to P3 [9s] [Ts]
P1: checks
P2: checks
P3: checks
*** 5th STREET ***
Dealt to P1 [Kc Kd] [8c]
Dealt to P2 [2d 5h] [6h]
Dealt to P3 [9s Ts] [4c]
P1: bets $0.08
P2: raises $0.08 to $0.16
P3: raises $0.08 to $0.24
P1: raises $0.08 to $0.32
P2: folds
P3: raises $0.08 to $0.40
P1: calls $0.08
*** 6th STREET ***
Dealt to P1 [Kc Kd 8c] [3s]
Dealt to P3 [9s Ts 4c] [7s]
P1: checks
P3: checks
*** RIVER ***
P1: checks
P3: checks
*** SHOW DOWN ***
P1: shows [Ah Ad Kc Kd 8c 3s Qd]
P3: shows [Jc Jd 9s Ts 4c 7s 2s]
P1 collected $1.05 from pot
*** SUMMARY ***
Total pot $1.05 | Rake $0
"""
# The same, but the fifth bet comes while all three are still in; P2 then plays on for P3.
_HEAD, _TAIL = MIDWAY.split("*** 6th STREET ***")
MIDWAY_THREE = (
    _HEAD.replace(
        "P2: folds\nP3: raises $0.08 to $0.40\nP1: calls $0.08\n",
        "P2: raises $0.08 to $0.40\nP3: folds\nP1: calls $0.08\n",
    )
    + "*** 6th STREET ***"
    + _TAIL.replace("P3", "P2").replace("9s Ts 4c", "2d 5h 6h").replace("$1.05", "$1.13")
)


def ante_bring_in(body: str) -> str:
    """A 3rd street brought in for the ante (1 cent), as the Italian rulebook has it."""
    text = body.replace("brings in for $0.02", "brings in for $0.01")
    text = text.replace("calls $0.02", "calls $0.01")
    return text.replace("$1.05", "$1.02").replace("$1.13", "$1.10")


def nine_players(count: int) -> str:
    """`count` players in a stud hand; the lowest door card brings in and all fold to it."""
    doors = ["Kc", "2d", "9s", "Qh", "Jd", "Ts", "8c", "7h", "6d", "5s", "4h"][:count]
    deal = "".join(f"Dealt to P{k} [{card}]\n" for k, card in enumerate(doors, 1))
    folds = "".join(f"P{k}: folds\n" for k in [*range(3, count + 1), 1])
    pot = f"${count / 100:.2f}"
    return stud(
        players=count,
        body=f"*** 3rd STREET ***\n{deal}P2: brings in for $0.02\n{folds}"
        f"Uncalled bet ($0.02) returned to P2\nP2 collected {pot} from pot\n"
        f"*** SUMMARY ***\nTotal pot {pot} | Rake $0\n",
    )


# it.txt (spread limit): "A player who wishes to complete the bring-in may bet any amount
# within the spread" ($0.04 to $0.20 here).
def spread_completion(to: str, uncalled: str) -> str:
    return stud(
        game="7 Card Stud Spread Limit",
        stakes="$0.04/$0.20",
        body=THIRD_STREET
        + f"P2: brings in for $0.02\nP3: completes it to {to}\nP1: folds\nP2: folds\n"
        f"Uncalled bet ({uncalled}) returned to P3\nP3 collected $0.07 from pot\n"
        "*** SUMMARY ***\nTotal pot $0.07 | Rake $0\n",
    )


# it.txt (pot limit): the bring-in player "may bet as much as the ante or as the pot"; the
# header's pair is the bring-in and the smallest bet. Antes make a pot of 3 cents.
def pot_limit_bring_in(amount: str, header: str = "$0.01/$0.02") -> str:
    return stud(
        game="7 Card Stud Pot Limit",
        stakes=header,
        body=folded_to(amount, "$0.03"),
    )


def pot_limit_bet(amount: str) -> str:
    """Pot limit with a header that prints no stakes: P2 brings in for the ante (a pot of 4),
    P3 calls (5), P1 folds; on 4th street P3 bets `amount` into 5 cents."""
    return stud(
        game="7 Card Stud Pot Limit",
        stakes="$0/$0",
        body=THIRD_STREET + "P2: brings in for $0.01\nP3: calls $0.01\nP1: folds\n"
        "*** 4th STREET ***\nDealt to P2 [2d] [5h]\nDealt to P3 [9s] [Ts]\n"
        f"P3: bets {amount}\nP2: folds\nUncalled bet ({amount}) returned to P3\n"
        "P3 collected $0.05 from pot\n*** SUMMARY ***\nTotal pot $0.05 | Rake $0\n",
    )


# pl.txt: of equal lowest door cards, "the one closest to the dealer (on his left)" brings in;
# the other rulebooks go by suit (clubs lowest).
TIED_DOORS = """
*** 3rd STREET ***
Dealt to P1 [2d]
Dealt to P2 [2c]
Dealt to P3 [9s]
{bringer}: brings in for $0.02
"""


def tied_doors(bringer: str) -> str:
    others = {"P1": ("P2", "P3"), "P2": ("P3", "P1")}[bringer]
    return stud(
        body=TIED_DOORS.format(bringer=bringer)
        + "".join(f"{name}: folds\n" for name in others)
        + f"Uncalled bet ($0.02) returned to {bringer}\n{bringer} collected $0.03 from pot\n"
        "*** SUMMARY ***\nTotal pot $0.03 | Rake $0\n"
    )


# de.txt: with a community card "the player who now has the best hand with the new card starts
# the last round". Eight players reach 7th street; the deck holds four cards for eight players,
# so the river is one community card, the Ac: it pairs P1's ace, whose board then beats P2's
# deuces (the best board on 4th to 6th street).
BOARDS = (
    ("Ah", "Kd", "Qc", "Js"),
    ("2c", "2d", "9h", "8s"),
    ("3c", "4d", "6h", "Ts"),
    ("3d", "5c", "7h", "Jh"),
    ("4c", "6d", "8h", "Qs"),
    ("5d", "7c", "9c", "Kc"),
    ("6c", "8c", "Td", "Ks"),
    ("7d", "9d", "Jc", "Qh"),
)


def community_river(river_opener: str) -> str:
    players = [f"P{k}" for k in range(1, 9)]
    from_bring_in = players[1:] + players[:1]
    lines = ["*** 3rd STREET ***"]
    lines += [f"Dealt to {name} [{board[0]}]" for name, board in zip(players, BOARDS, strict=True)]
    lines += ["P2: brings in for $0.02", *(f"{name}: calls $0.02" for name in from_bring_in[1:])]
    for street, name in ((1, "4th"), (2, "5th"), (3, "6th")):
        lines.append(f"*** {name} STREET ***")
        lines += [
            f"Dealt to {player} [{' '.join(board[:street])}] [{board[street]}]"
            for player, board in zip(players, BOARDS, strict=True)
        ]
        lines += [f"{player}: checks" for player in from_bring_in]
    lines.append("*** RIVER *** [Ac]")
    start = players.index(river_opener)
    lines += [f"{player}: checks" for player in players[start:] + players[:start]]
    lines.append("*** SHOW DOWN ***")
    lines += [f"{player}: mucks hand" for player in players[1:]]
    lines += ["P1 collected $0.24 from pot", "*** SUMMARY ***", "Total pot $0.24 | Rake $0"]
    return stud(players=8, body="\n".join(lines))


AUDITS = {
    # de.txt, it.txt: every player antes the same; the ante is the most common post (no header
    # ante at PokerStars), so only the odd poster is blamed.
    "odd ante is the odd poster's": Audit(
        stud(antes=("$0.02", "$0.01", "$0.01"), body=folded_to("$0.02", "$0.04")),
        ["SIZ012"],
        stud(body=folded_to("$0.02", "$0.03")),
    ),
    # A level the stake table does not list: the ante is the size most players posted, so
    # the one larger ante is blamed, not the two that are right.
    "odd ante off the stake table": Audit(
        stud(
            stakes="$0.10/$0.20",
            antes=("$0.03", "$0.02", "$0.02"),
            body=folded_to("$0.05", "$0.07"),
        ),
        ["SIZ012"],
        stud(stakes="$0.10/$0.20", antes=("$0.02",) * 3, body=folded_to("$0.05", "$0.06")),
    ),
    # The room's stake table: at $0.04/$0.08 PokerStars brings in for 2 cents.
    "bring-in off the room's stake table": Audit(
        stud(body=folded_to("$0.01", "$0.03")), ["SIZ002"], stud(body=folded_to("$0.02", "$0.03"))
    ),
    # it.txt: "A minimum bring-in equals the ante"; casinos-austria: "at least ... the ante".
    "bring-in below the ante": Audit(
        stud(
            stakes="$0.10/$0.20",
            antes=("$0.02",) * 3,
            body=folded_to("$0.01", "$0.06"),
        ),
        ["SIZ002"],
        stud(stakes="$0.10/$0.20", antes=("$0.02",) * 3, body=folded_to("$0.05", "$0.06")),
    ),
    # de.txt, pl.txt: the bring-in is half the small bet.
    "german bring-in is half the small bet": Audit(
        stud(body=folded_to("$0.01", "$0.03")),
        ["SIZ002"],
        stud(body=folded_to("$0.02", "$0.03")),
        rules="german",
    ),
    # casinos-austria: from the ante up to the lower limit.
    "casinos-austria bring-in below the small bet": Audit(
        stud(body=folded_to("$0.04", "$0.03")),
        ["SIZ002"],
        stud(body=folded_to("$0.03", "$0.03")),
        rules="casinos-austria",
    ),
    # The room's stake table: a 0.10/0.20 triple-draw small blind is 5 cents.
    "odd small blind": Audit(draw(body=blinds(3)), ["SIZ013"], draw(body=blinds(5))),
    # deuce-to-seven-triple-draw.de.txt: the small blind sits left of the button.
    "blinds right of the button": Audit(
        draw(button=2, body=blinds(5)),
        ["ORD010"],
        draw(button=1, body=blinds(5)),
    ),
    # A straddle (two big blinds, left of the big blind) is a blind raise: the round opens
    # left of it, not with the straddler (the rules of PHH and of the rooms that print it).
    "straddler acts first": Audit(
        draw(players=4, body=straddle(straddler_acts_first=True)),
        ["ORD001"],
        draw(players=4, body=straddle(straddler_acts_first=False)),
    ),
    # Heads-up the button posts the small blind.
    "heads-up small blind off the button": Audit(
        draw(players=2, button=1, body=HEADS_UP.format(small="P2", big="P1")),
        ["ORD010"],
        draw(players=2, button=1, body=HEADS_UP.format(small="P1", big="P2")),
    ),
    # de.txt, it.txt, pl.txt: stud seats eight; casinos-austria: nine.
    "nine players at stud": Audit(nine_players(9), ["STR009"], nine_players(8)),
    "nine players under casinos-austria": Audit(
        nine_players(10), ["STR009"], nine_players(9), rules="casinos-austria"
    ),
    # it.txt and pl.txt: a bet and three raises, also heads-up.
    "heads-up river past the cap": Audit(stud(body=SEVENTH), ["CAP001"], stud(body=SEVENTH_CAPPED)),
    # casinos-austria: the cap is lifted on the last round once two players are left.
    "casinos-austria lifts the river cap heads-up": Audit(
        stud(body=MIDWAY), ["CAP001"], stud(body=SEVENTH), rules="casinos-austria"
    ),
    # it.txt: the cap holds "while three or more players are still in the hand".
    "spread-limit completion within the spread": Audit(
        spread_completion("$0.25", "$0.23"), ["SIZ003"], spread_completion("$0.10", "$0.08")
    ),
    "pot-limit bring-in up to the pot": Audit(
        pot_limit_bring_in("$0.04"), ["SIZ002"], pot_limit_bring_in("$0.03")
    ),
    "pot-limit overbet with no stakes printed": Audit(
        pot_limit_bet("$0.06"), ["SIZ007"], pot_limit_bet("$0.05")
    ),
    "bring-in tie by suit": Audit(tied_doors("P1"), ["ORD003"], tied_doors("P2")),
    "polish bring-in tie by seat": Audit(
        tied_doors("P2"), ["ORD003"], tied_doors("P1"), rules="polish"
    ),
    "community card counts for the river opener": Audit(
        community_river("P2"), ["ORD004"], community_river("P1")
    ),
    "eleven players (issue 14: no crash)": Audit(nine_players(11), ["STR009"], nine_players(8)),
    "italian lifts the cap as soon as two are left": Audit(
        stud(body=ante_bring_in(MIDWAY_THREE)),
        ["CAP001"],
        stud(body=ante_bring_in(MIDWAY)),
        rules="italian",
    ),
}


@pytest.mark.parametrize("name", list(AUDITS))
def test_illegal_hand_gets_its_code(name: str) -> None:
    audit = AUDITS[name]
    assert codes_of(audit.illegal, audit.rules) == audit.codes


def test_an_odd_ante_is_blamed_on_its_poster() -> None:
    for stakes in ("$0.04/$0.08", "$0.10/$0.20"):  # on the stake table, and off it
        antes = (
            ("$0.01", "$0.03", "$0.01") if stakes == "$0.04/$0.08" else ("$0.02", "$0.03", "$0.02")
        )
        text = stud(stakes=stakes, antes=antes, body=folded_to("$0.05", "$0.07"))
        flagged = [v.message for v in replay(parse_record(text)).problems if v.code == "SIZ012"]
        assert flagged == [f"P2 antes $0.03, the ante is {antes[0]}"]  # in the room's money


@pytest.mark.parametrize("name", list(AUDITS))
def test_legal_twin_is_clean(name: str) -> None:
    audit = AUDITS[name]
    assert codes_of(audit.legal, audit.rules) == []


def many_draw_players(count: int) -> str:
    """A badugi hand (four cards each: the deck serves twelve) with `count` players; all fold
    to the big blind."""
    folds = "".join(f"P{k}: folds\n" for k in [*range(4, count + 1), 1, 2])
    return draw(
        players=count,
        game="Badugi Limit",
        body="P2: posts small blind $0.05\nP3: posts big blind $0.10\n*** DEALING HANDS ***\n"
        f"{folds}Uncalled bet ($0.05) returned to P3\nP3 collected $0.10 from pot\n"
        "*** SUMMARY ***\nTotal pot $0.10 | Rake $0\n",
    )


@pytest.mark.parametrize(
    ("text", "first", "last"),
    [(nine_players(11), "BI+10", "BI+9"), (many_draw_players(12), "BTN", "BTN+11")],
)
def test_any_seat_count_replays_with_positions(text: str, first: str, last: str) -> None:
    """Issue 14: a hand of 11 or more seats crashed the replay (IndexError in the positions);
    it now replays, names every position and reports the seat count (STR009)."""
    result = replay(parse_record(text))
    positions = [player.position for player in result.players]
    assert (positions[0], positions[-1]) == (first, last)
    assert len(set(positions)) == len(positions)
    assert [v.code for v in result.problems] == ["STR009"]
