"""The rules engine against the real PokerStars exports in ../shared/corpus.

Every in-scope hand must replay without an error-severity violation; the one genuine anomaly
found in the exports has its own test. Concrete hands pin pots, nets and first actors, and the
house-rules profile is shown to be the one the corpus supports: replaying the same hands with a
profile that says otherwise produces exactly the violations the evidence predicts.
"""

from __future__ import annotations

import ast
import dataclasses
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from studdraw.parsers.model import HandRecord
from studdraw.parsers.reader import parse_file
from studdraw.pipeline.rules import HouseRules, ReplayResult, house_rules_for, replay
from tests.conftest import CORPUS, corpus_file

STARS = house_rules_for("pokerstars")
SALM = ("cash", "Stars", "Stud", "HH20110417 Salm IX - $0.04-$0.08 Ante $0.01 - USD Limit Stud.txt")
STUD = ("cash", "Stars", "Stud", "7-Stud-USD-0.04-0.08-200911.txt")
RAZZ = ("cash", "Stars", "Stud", "Razz-USD-0.04-0.08-200911.txt")
STUD8 = ("cash", "Stars", "Stud", "7-StudHL-USD-0.04-0.08-200911.txt")
STUD8_CARDTEST = ("cash", "Stars", "Stud", "7-StudHL-USD-0.04-0.08-200911.Cardtest.txt")
TD27 = ("cash", "Stars", "Draw", "3-Draw-Limit-USD-0.10-0.20-200911.txt")
BADUGI_SNG = ("tour", "Stars", "Draw", "LBad-USD-SNG8-201011.txt")
BADUGI_MTT = ("tour", "Stars", "Draw", "LBad-USD-MTT8-201011.txt")

# (file, hand id): the exports' genuine anomalies, each with the codes it must raise.
ANOMALIES = {
    # A sitting-out player all-in for the small blind (25 of 25 chips) is shown folding, and the
    # raiser collects the whole pot without a showdown: an all-in player cannot fold.
    (BADUGI_SNG, "52589452703"): ["ORD007"],
}


def history_files(*folders: str) -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return [
        path
        for folder in folders
        for path in sorted((CORPUS / folder).rglob("*"))
        if path.is_file() and path.suffix not in (".hp", ".gt", ".hands")
    ]


def stars_files() -> list[Path]:
    return history_files("cash/Stars", "tour/Stars")


OTHER_ROOMS = ("FTP", "Bovada", "Everleaf", "PartyPoker", "Winamax", "Winning")
# Anomalies of the other rooms' exports (their readers are tested in tests/parsers).
OTHER_ANOMALIES: dict[str, list[str]] = {}
WINNING_SPLIT = ("cash", "Winning", "Stud", "7-Stud-HL-8max-USD-1.00-2.00-201608.HH00000000 G0.txt")


@cache
def records(parts: tuple[str, ...]) -> dict[str, HandRecord]:
    path = corpus_file(*parts)
    return {p.record.room_hand_id: p.record for p in parse_file(path) if p.record is not None}


def hand(parts: tuple[str, ...], hand_id: str, rules: HouseRules | None = None) -> ReplayResult:
    return replay(records(parts)[hand_id], rules)


def codes(result: ReplayResult) -> list[str]:
    return [v.code for v in result.problems]


@pytest.mark.parametrize("path", stars_files(), ids=lambda p: p.name)
def test_every_stars_hand_replays_without_errors(path: Path) -> None:
    anomalies = {hand_id for (parts, hand_id) in ANOMALIES if parts[-1] == path.name}
    replayed = 0
    for parsed in parse_file(path):
        record = parsed.record
        if record is None or record.room_hand_id in anomalies:
            continue
        result = replay(record)
        errors = [v for v in result.problems if v.severity == "error"]
        assert errors == [], (record.room_hand_id, errors)
        assert len(result.pot_before) == len(record.events)
        replayed += 1
    assert replayed or not any(p.record for p in parse_file(path))


def test_the_corpus_has_stars_hands() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"the shared corpus is not at {CORPUS}")
    assert len(stars_files()) >= 20


@pytest.mark.parametrize(
    "path",
    history_files(*(f"{kind}/{room}" for kind in ("cash", "tour") for room in OTHER_ROOMS)),
    ids=lambda p: f"{p.parent.parent.name}-{p.name}",
)
def test_other_rooms_replay_without_errors(path: Path) -> None:
    """Every hand the other rooms read replays without errors under their profiles
    (the default profile where the corpus teaches nothing), except the listed anomalies."""
    for parsed in parse_file(path):
        record = parsed.record
        if record is None:
            continue
        result = replay(record)
        errors = [v.code for v in result.problems if v.severity == "error"]
        assert errors == OTHER_ANOMALIES.get(record.room_hand_id, []), record.room_hand_id


@pytest.mark.parametrize(("parts", "hand_id"), list(ANOMALIES))
def test_anomalies_raise_exactly_their_codes(parts: tuple[str, ...], hand_id: str) -> None:
    assert codes(hand(parts, hand_id)) == ANOMALIES[(parts, hand_id)]


def test_salm_side_pot_and_nets() -> None:
    """Spacemasa is all-in on 4th street for 11 cents: main pot 44 (42 after rake), side pot
    64 (61 after rake), both won by ranchim's straight; the room raked 5 of 108."""
    result = hand(SALM, "60974484959")
    assert result.valid and result.problems == []
    main, side = result.pots
    assert (main.name, main.amount, main.collected, main.winners) == ("main", 44, 42, ("ranchim",))
    assert set(main.eligible) == {"ranchim", "Tumim", "Spacemasa"}
    assert (side.name, side.amount, side.collected, side.winners) == ("side1", 64, 61, ("ranchim",))
    assert set(side.eligible) == {"ranchim", "Tumim"}
    assert (result.total_pot, result.rake) == (108, 5)
    players = {p.player: p for p in result.players}
    assert (players["ranchim"].invested, players["ranchim"].collected) == (43, 103)
    assert players["ranchim"].net == 60
    assert players["Tumim"].net == -43 and players["Spacemasa"].net == -11
    assert players["Tumim"].position == "BI" and players["Spacemasa"].position == "BI+1"
    fourth = result.streets[1]
    assert fourth.first_actor == "Spacemasa"  # the open pair of queens opens, for the big bet
    spacemasa = next(p for p in fourth.players if p.player == "Spacemasa")
    assert (spacemasa.put_in, spacemasa.all_in) == (8, True)
    assert [s.pot_end for s in result.streets] == [20, 44, 76, 92, 108]


def test_stud8_odd_chip_goes_high() -> None:
    """A 73-cent net pot split: 37 to the high hand, 36 to the 8-7-5-4-2 low."""
    result = hand(STUD8, "35874576282")
    hi, lo = result.pots
    assert (hi.half, hi.winners, hi.collected) == ("hi", ("u.pressure",), 37)
    assert (lo.half, lo.winners, lo.collected) == ("lo", ("gashpor",), 36)


def test_stud8_nets_match_fpdb() -> None:
    """FPDB's own per-player results for the Cardtest hand (another program's view)."""
    expected = fpdb_profits(corpus_file(*STUD8_CARDTEST[:-1], STUD8_CARDTEST[-1] + ".hp"))
    (record,) = records(STUD8_CARDTEST).values()
    result = replay(record)
    assert {p.player: p.net for p in result.players} == expected


def fpdb_profits(path: Path) -> dict[str, int]:
    """`totalProfit` per player from an FPDB `.hp` file (a Python dict literal)."""
    data = ast.literal_eval(path.read_text(encoding="utf-8"))
    return {name: stats["totalProfit"] for name, stats in data.items()}


def test_draw_streets_record_draw_counts() -> None:
    result = hand(TD27, "35839050562")
    first_draw = {p.player: p.drawn for p in result.streets[1].players}
    assert first_draw == {"Hero": 2, "rumble1111": 2, "bakter9": 2}
    assert result.streets[0].players[0].drawn is None
    assert {p.player: p.position for p in result.players}["TheLabman"] == "BTN"
    assert {p.player: p.position for p in result.players}["Hero"] == "SB"
    assert {p.player: p.position for p in result.players}["rumble1111"] == "BB"


# --- the house rules, learnt from the corpus ---------------------------------------------


def test_cap_is_a_bet_and_three_raises() -> None:
    """Every "Betting is capped" in the corpus follows the opening bet and three raises: stud
    5th street, triple draw's first round (the big blind counts as the bet) and badugi."""
    capped = [
        (hand(STUD, "35874289931"), 2),
        (hand(TD27, "35839001292"), 0),
        (hand(RAZZ, "35874780027"), 4),
    ]
    for result, street in capped:
        round_ = result.streets[street]
        assert (round_.bets, round_.raises) == (1, 3)
    four_raises = dataclasses.replace(STARS, max_raises=4)
    assert "CAP002" in codes(hand(STUD, "35874289931", four_raises))


def test_cap_holds_heads_up() -> None:
    """Razz hand 35874780027 is capped on the river with only two players in the round."""
    result = hand(RAZZ, "35874780027")
    assert result.streets[4].players_in == 2
    assert codes(result) == []
    for lift in ("two_left", "last_round"):  # the Italian rulebook's and Casinos Austria's
        lifted = dataclasses.replace(STARS, heads_up_cap=lift)
        assert codes(hand(RAZZ, "35874780027", lifted)) == ["CAP002"]


def test_winning_gives_the_odd_chip_of_a_split_to_either_half() -> None:
    """Winning stud hi/lo #693975843: of $7.05, $3.53 goes to the low hand and $3.52 to the high
    hand (the room's summary and the next hand's stack agree): the room's profile allows it, the
    rulebooks' rule (the odd chip to the high hand) does not."""
    result = hand(WINNING_SPLIT, "693975843")
    assert codes(result) == []
    assert [(pot.half, pot.collected) for pot in result.pots] == [("hi", 352), ("lo", 353)]
    assert codes(hand(WINNING_SPLIT, "693975843", house_rules_for("default"))) == ["SHW003"]


def test_razz_bring_in_ties_go_to_the_highest_suit() -> None:
    """Queens of spades and clubs show; the Qs (HIWAII2) brings in."""
    result = hand(RAZZ, "35874780027")
    assert result.streets[0].first_actor == "HIWAII2"
    assert {p.player: p.position for p in result.players}["HIWAII2"] == "BI"


def test_tied_boards_open_in_seat_order() -> None:
    """kobreli (seat 1) and manga130 (seat 3) show A-6 then A-6-5: kobreli opens both
    streets. (The suit of the top card and the order from the bring-in agree here too.)"""
    result = hand(RAZZ, "35874817957")
    assert [result.streets[k].first_actor for k in (1, 2)] == ["kobreli", "kobreli"]
    assert codes(result) == []


@pytest.mark.parametrize(("parts", "hand_id"), [(TD27, "35839176665"), (TD27, "35839412131")])
def test_draws_burn_no_cards(parts: tuple[str, ...], hand_id: str) -> None:
    """The deck is reshuffled exactly when the stub is empty if no card is burnt: with a burn
    before each draw the stub would have run out a player earlier."""
    assert codes(hand(parts, hand_id)) == []
    burning = dataclasses.replace(STARS, burn_cards=True)
    assert "CRD009" in codes(hand(parts, hand_id, burning))


@pytest.mark.parametrize(
    ("parts", "hand_id"), [(BADUGI_MTT, "52476877655"), (BADUGI_MTT, "52478520236")]
)
def test_half_a_bet_all_in_reopens_the_betting(parts: tuple[str, ...], hand_id: str) -> None:
    """An all-in raise of 30 (of 60) and of 70 (of 100) lets the first raiser raise again."""
    assert codes(hand(parts, hand_id)) == []
    strict = dataclasses.replace(STARS, half_bet_reopens=False)
    assert codes(hand(parts, hand_id, strict)) == ["ORD009"]


def test_rake_stays_within_five_percent() -> None:
    over = 0
    for parts in (SALM, STUD, RAZZ, STUD8, TD27):
        for record in records(parts).values():
            result = replay(record)
            assert result.rake * 100 <= result.total_pot * 5
            over += result.rake * 100 > result.total_pot * 4
    assert over  # the model is tight: some pots are raked more than 4%
    stingy = dataclasses.replace(STARS, rake_percent=Fraction(5, 2))
    assert "MNY006" in codes(hand(SALM, "60974484959", stingy))


def test_winamax_pays_uncalled_bets_inside_the_collect() -> None:
    """Razz #9250793-444-1478990340: Player0's 50 EUR bet is folded to and never returned on a
    line of its own; the collect and the rake account for it."""
    razz = ("cash", "Winamax", "Stud", "Razz-6max-EUR-25-50-201611._8games_.txt")
    assert codes(hand(razz, "9250793-444-1478990340")) == []
    returning = dataclasses.replace(house_rules_for("winamax"), uncalled_returned=True)
    assert codes(hand(razz, "9250793-444-1478990340", returning)) == ["MNY004"]


def test_full_ante_returned_against_an_all_in_short_ante() -> None:
    """Full Tilt razz #31349767778: Player0 antes 6 of 7 all-in and the extra chip of Hero's ante
    comes back as an uncalled bet; no betting follows."""
    razz = ("tour", "FTP", "Stud", "Razz-USD-HUSNG-200-201211.all.in.ante.txt")
    result = hand(razz, "31349767778")
    assert codes(result) == []
    assert result.total_pot == 12
