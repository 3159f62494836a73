"""PartyPoker room: concrete fields of concrete hands, real and handwritten.

The real hands come from ../shared/corpus/{cash,tour}/PartyPoker (three hands; no FPDB .hp files
lie beside them, so net results are checked against figures worked out from the hand texts).
The handwritten ones cover what the corpus lacks (a split hi/lo pot, a side pot, all-ins, other
games, a cut-off hand, a multi-hand file) in the room's format.
"""

from __future__ import annotations

import codecs
import re
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest

from studdraw.parsers import files
from studdraw.parsers.files import discover_files, read_head
from studdraw.parsers.model import EventKind, Game, Outcome, Structure
from studdraw.parsers.reader import open_history, parse_file
from studdraw.parsers.rooms import BY_NAME
from tests.conftest import CORPUS, corpus_file, parse_record, parse_text
from tests.parsers.records import actions, corpus_hand, net_results, of_kind

STUD_FILE = ("cash", "PartyPoker", "Stud", "7-Stud-USD-1-2-201104.txt")
STUD8_FILE = ("cash", "PartyPoker", "Stud", "7-StudHL-USD-0.50-1.00-201008.txt")
TOUR_FILE = ("tour", "PartyPoker", "Stud", "7-Stud-USD-MTT-6.00-201205.txt")
ROOM = "partypoker"


# --- the whole corpus ---------------------------------------------------------------------


def test_every_corpus_hand_parses() -> None:
    corpus_file("cash", "PartyPoker")
    outcomes: Counter[tuple[Outcome, str]] = Counter()
    folders = [CORPUS / "cash" / "PartyPoker", CORPUS / "tour" / "PartyPoker"]
    for path in discover_files(folders):
        for parsed in parse_file(path):
            assert parsed.hand.room == ROOM, path
            assert parsed.record is not None, f"{path}: {parsed.problem}"
            outcomes[(parsed.outcome, str(parsed.record.game))] += 1
    assert outcomes == {(Outcome.PARSED, "stud"): 2, (Outcome.PARSED, "stud8"): 1}


@pytest.mark.parametrize(
    ("parts", "hand_id", "expected"),
    [
        # Worked out by hand from the texts; the odd cents are the rake Party does not print.
        (
            STUD_FILE,
            "10399817763",
            {
                "Player8": 615,
                "Player4": -605,
                "Hero": -55,
                "Player1": -5,
                "Player3": -5,
                "Player5": -5,
                "Player7": 0,
            },
        ),
        (
            STUD8_FILE,
            "9581478205",
            {
                "PPPPPositive": 440,
                "strandalleen": -405,
                "YMAN1": -55,
                "tubby09": -5,
                "Unladylike": -5,
                "Hero": -5,
                "ISqzUSqueal": -5,
            },
        ),
        (
            TOUR_FILE,
            "11792805420",
            {
                "Player6": 1450,
                "Player4": -1110,
                "Player5": -150,
                "Player1": -150,
                "Hero": -10,
                "Player2": -10,
                "Player0": -10,
                "Player3": -10,
            },
        ),
    ],
)
def test_net_results(parts: tuple[str, ...], hand_id: str, expected: dict[str, int]) -> None:
    assert net_results(corpus_hand(parts, hand_id)) == expected


def test_the_room_is_sniffed_from_its_first_bytes_only() -> None:
    party = BY_NAME[ROOM]
    for path in discover_files([CORPUS]):
        _, head = read_head(path)
        assert party.sniff(head) == ("PartyPoker" in path.parts), path


def test_nul_padding_does_not_reach_the_hand_text() -> None:
    # The cash file starts with a NUL byte and ends with a NUL line (`file` calls it "data").
    path = corpus_file(*STUD_FILE)
    raw = path.read_bytes()
    assert raw.startswith(b"\x00Game #") and raw.endswith(b"\x00\n")
    [hand] = list(open_history(path).hand_texts())
    assert "\x00" not in hand.text
    assert hand.text.startswith("Game #10399817763 starts.")
    assert hand.text.endswith("Player8 wins $13.20 USD")
    assert (hand.source.line, hand.source.offset) == (1, 0)


# --- concrete corpus hands ----------------------------------------------------------------


def test_stud_cash_hand_with_uncalled_bet_inside_the_win() -> None:
    r = corpus_hand(STUD_FILE, "10399817763")
    assert (r.room, r.game, r.structure, r.currency, r.scale) == (
        ROOM,
        Game.STUD,
        Structure.FIXED,
        "USD",
        100,
    )
    assert (r.stakes.small_bet, r.stakes.big_bet, r.stakes.ante, r.stakes.bring_in) == (
        50,
        100,
        5,
        25,
    )
    assert r.table == "Table 136419" and r.max_seats == 8 and r.button is None
    assert r.room_time == "Monday, April 25, 14:20:12 EDT 2011"
    assert r.started_at == datetime(2011, 4, 25, 18, 20, 12, tzinfo=UTC)
    assert [(s.seat, s.player, s.stack, s.sitting_out) for s in r.seats] == [
        (7, "Player7", 3115, True),  # listed, no ante, no cards, no action
        (3, "Player3", 3484, False),
        (4, "Player4", 3559, False),
        (2, "Hero", 1080, False),
        (5, "Player5", 2755, False),
        (1, "Player1", 2325, False),
        (8, "Player8", 2085, False),
    ]
    assert r.hero == "Hero"
    [hero_deal, fourth] = of_kind(r, EventKind.DEAL)
    assert (hero_deal.cards, hero_deal.up) == (("3h", "8c", "7c"), (False, False, True))
    assert (fourth.cards, fourth.up, fourth.street) == (("2c",), (True,), 1)
    assert actions(r, 0)[6:] == [
        ("bring_in", "Hero", 25, 25),
        ("fold", "Player3", 0, None),
        ("complete", "Player4", 50, 50),
        ("fold", "Player5", 0, None),
        ("call", "Player8", 50, 50),
        ("fold", "Player1", 0, None),
        ("call", "Hero", 25, 50),
    ]
    # "Player8 raises [$2 USD]" after a raise to $2: the bracket holds the chips put in.
    assert actions(r, 3) == [
        ("bet", "Player8", 100, 100),
        ("raise", "Player4", 200, 200),
        ("raise", "Player8", 200, 300),
        ("call", "Player4", 100, 300),
    ]
    assert [(e.player, e.street) for e in of_kind(r, EventKind.NOTE) if e.text == "opens"] == [
        ("Hero", 0),
        ("Player4", 1),
        ("Player8", 2),
        ("Player8", 3),
        ("Player8", 4),
    ]
    # "Player8 wins $13.20 USD" includes his uncalled $1 river bet.
    [uncalled] = of_kind(r, EventKind.UNCALLED)
    [collect] = of_kind(r, EventKind.COLLECT)
    assert (uncalled.player, uncalled.amount, uncalled.line) == ("Player8", 100, 54)
    assert (collect.player, collect.amount, collect.pot, collect.line) == (
        "Player8",
        1220,
        "main",
        54,
    )
    assert (r.total_pot, r.rake) == (None, None)


def test_stud_hi_lo_hand_with_show_and_muck_and_no_low() -> None:
    r = corpus_hand(STUD8_FILE, "9581478205")
    assert r.game is Game.STUD8
    assert r.room_time == "Monday, August 30, 20:20:17 EEST 2010"
    assert r.started_at == datetime(2010, 8, 30, 17, 20, 17, tzinfo=UTC)
    assert actions(r, 0)[7:9] == [
        ("bring_in", "YMAN1", 25, 25),
        ("complete", "PPPPPositive", 50, 50),
    ]
    [show] = of_kind(r, EventKind.SHOW)
    assert (show.player, show.cards, show.text) == (
        "PPPPPositive",
        ("Ad", "Qd", "Ah", "2d", "7d", "Th", "6d"),
        "a flush, Ace high",
    )
    [muck] = of_kind(r, EventKind.MUCK)  # "doesn't show [...]": a loser's mucked hand
    assert (muck.player, muck.cards, muck.text) == (
        "strandalleen",
        ("5h", "9d", "9c", "Qc", "2h", "Kc", "Js"),
        "a pair of Nines",
    )
    assert [(e.player, e.amount, e.pot) for e in of_kind(r, EventKind.COLLECT)] == [
        ("PPPPPositive", 845, "main")
    ]
    assert r.events[-1].text == "no qualifying low hand"
    assert not of_kind(r, EventKind.UNCALLED)


def test_tournament_hand_with_double_bet_and_reraises() -> None:
    r = corpus_hand(TOUR_FILE, "11792805420")
    assert (r.currency, r.scale, r.game) == ("CHIPS", 1, Game.STUD)
    assert r.tournament is not None
    assert (
        r.tournament.tournament_id,
        r.tournament.buy_in,
        r.tournament.fee,
        r.tournament.currency,
        r.tournament.level,
    ) == ("69784932", 600, None, "USD", "Level 2")
    assert (r.stakes.small_bet, r.stakes.big_bet, r.stakes.ante, r.stakes.bring_in) == (
        60,
        120,
        10,
        20,
    )
    assert r.table == "Regular (2629813) Table #2" and r.max_seats == 8
    assert r.started_at == datetime(2012, 5, 30, 18, 41, 43, tzinfo=UTC)
    assert r.source.line == 1  # the hand opens with "#Game No :", no "starts." line
    [open_pair] = of_kind(r, EventKind.OPEN_PAIR)
    assert (open_pair.line, open_pair.street) == (38, 1)
    [double] = [e for e in r.events if e.text == "double bet"]
    assert (double.kind, double.player, double.amount, double.street) == (
        EventKind.BET,
        "Player4",
        120,
        1,
    )
    assert actions(r, 1)[1:] == [
        ("call", "Player5", 120, 120),
        ("call", "Player1", 120, 120),
        ("raise", "Player6", 240, 240),
        ("raise", "Player4", 240, 360),
        ("fold", "Player5", 0, None),
        ("fold", "Player1", 0, None),
        ("call", "Player6", 120, 360),
    ]
    assert [(e.player, e.amount) for e in of_kind(r, EventKind.COLLECT)] == [("Player6", 2560)]
    assert [e.player for e in of_kind(r, EventKind.SHOW)] == ["Player6"]


def test_event_lines_point_into_the_file() -> None:
    path = corpus_file(*TOUR_FILE)
    lines = path.read_text(encoding="utf-8").splitlines()
    [parsed] = list(parse_file(path))
    assert parsed.record is not None
    for event in parsed.record.events:
        text = lines[event.line - 1]
        if event.player:
            assert event.player in text, (event, text)
        if event.kind is EventKind.STREET:
            assert text.startswith("** Dealing"), (event, text)


# --- handwritten hands in formats the corpus lacks -----------------------------------------

HI_LO = """\
Game #9581478300 starts.

#Game No : 9581478300
***** Hand History for Game 9581478300 *****
$0.50/$1 USD 7 Card Stud Hi-Lo - Monday, August 30, 20:25:00 EEST 2010
Table Table  136403 (Real Money)
Seat 0 is the button
Total number of players : 3/8
Seat 1: Ann ( $5 USD )
Seat 2: Bob ( $0.80 USD )
Seat 3: Cy ( $10 USD )
Ann posts ante [$0.05 USD]
Bob posts ante [$0.05 USD]
Cy posts ante [$0.05 USD]
** Dealing **
Dealt to Ann [  Ad 2d 3c ]
Cy opens
Cy bring-ins [$0.25 USD]
Ann completes [$0.50 USD]
Bob is all-In  [$0.75 USD]
Cy calls [$0.50 USD]
Ann calls [$0.25 USD]
** Dealing Fourth street **
Dealt to Ann [  4h ]
Ann opens
Ann bets [$0.50 USD]
Cy calls [$0.50 USD]
** Dealing Fifth street **
Dealt to Ann [  Kd ]
Ann opens
Ann bets [$1 USD]
Cy folds
** Dealing Sixth street **
Dealt to Ann [  Kc ]
** Dealing River **
Dealt to Ann [  Jh ]
Ann shows [ Ad, 2d, 3c, 4h, Kd, Kc, Jh ]a pair of Kings.
Bob shows [ 7s, 6h, 5c, 8d, 2s, Qs, Qh ]a pair of Queens.
Ann wins $2 USD from the side pot #1 with a pair of Kings.
Ann wins $1.20 USD from the main pot with a pair of Kings.
Bob wins Lo ($1.20 USD) from the main pot with 8,7,6,5,2.
"""


def test_hi_lo_low_pot_side_pot_all_in_and_uncalled_bet() -> None:
    r = parse_record(HI_LO, ROOM)
    assert r.game is Game.STUD8 and r.table == "Table 136403"
    assert actions(r, 0)[3:] == [
        ("bring_in", "Cy", 25, 25),
        ("complete", "Ann", 50, 50),
        ("raise", "Bob", 75, 75),
        ("call", "Cy", 50, 75),
        ("call", "Ann", 25, 75),
    ]
    assert of_kind(r, EventKind.RAISE)[0].all_in
    # Ann's $1 bet on 5th street went uncalled; her side-pot win ($2) includes it.
    [uncalled] = of_kind(r, EventKind.UNCALLED)
    assert (uncalled.player, uncalled.amount) == ("Ann", 100)
    assert [(e.player, e.amount, e.pot) for e in of_kind(r, EventKind.COLLECT)] == [
        ("Ann", 100, "side1"),
        ("Ann", 120, "main:hi"),
        ("Bob", 120, "main:lo"),
    ]
    assert net_results(r) == {"Ann": 90, "Bob": 40, "Cy": -130}
    assert [e.street for e in of_kind(r, EventKind.DEAL)] == [0, 1, 2, 3, 4]


def test_the_2005_padded_side_pot_is_collected() -> None:
    padded = HI_LO.replace("from the side pot #1 with", "from  side pot #1  with")
    assert padded != HI_LO
    collects = [
        (e.player, e.amount, e.pot) for e in of_kind(parse_record(padded, ROOM), EventKind.COLLECT)
    ]
    assert collects[0] == ("Ann", 100, "side1")


@pytest.mark.parametrize(
    ("line", "kind", "player"),
    [
        ("Bob: gl", EventKind.CHAT, "Bob"),
        ("Bob is sitting out", EventKind.SIT_OUT, "Bob"),
        ("Bob will be using his time bank for this hand.", EventKind.NOTE, "Bob"),
        ("Bob did not respond in time", EventKind.NOTE, "Bob"),
        ("Bob could not respond in time.(disconnected)", EventKind.NOTE, "Bob"),
        (
            "Your time bank will be activated in 10 secs. If you do not want it to be used, "
            "please act now.",
            EventKind.NOTE,
            None,
        ),
        ("Player Zed finished in 12.", EventKind.NOTE, None),
        ("Player Zed finished in 4 place and received $5 USD", EventKind.NOTE, None),
        ("Congratulations to player Zed for winning tournament 123.", EventKind.NOTE, None),
    ],
)
def test_informational_lines_are_known(line: str, kind: EventKind, player: str | None) -> None:
    text = HI_LO.replace("Cy folds\n", f"Cy folds\n{line}\n")
    record = parse_record(text, ROOM)
    number = text.split("\n").index(line) + 1
    [event] = [e for e in record.events if e.line == number]
    assert event.kind is kind
    assert event.player == player
    assert record.problems == []


def test_an_action_may_end_with_a_full_stop() -> None:
    stopped = HI_LO.replace("Cy folds\n", "Cy folds.\n").replace(
        "Cy calls [$0.50 USD]\n", "Cy calls [$0.50 USD].\n"
    )
    assert actions(parse_record(stopped, ROOM), 0) == actions(parse_record(HI_LO, ROOM), 0)


@pytest.mark.parametrize(
    ("game_line", "label"),
    [
        ("$0.10/$0.25 USD NL Texas Hold'em", "NL Texas Hold'em"),
        ("$1/$2 USD Omaha Hi-Lo", "Omaha Hi-Lo"),
        ("NL Texas Hold'em $6 USD Buy-in Trny:1 Level:2  Blinds(20/40)", "NL Texas Hold'em"),
        ("$10 USD NL Texas Hold'em", "$10 USD NL Texas Hold'em"),
    ],
)
def test_other_games_are_unsupported_with_the_rooms_label(game_line: str, label: str) -> None:
    text = (
        "***** Hand History for Game 1 *****\n"
        f"{game_line} - Monday, April 25, 14:20:12 EDT 2011\n"
        "Table Table  1 (Real Money)\n"
        "** Dealing down cards **\n"
    )
    parsed = parse_text(text, ROOM)
    assert parsed.outcome is Outcome.UNSUPPORTED
    assert parsed.problem is not None and parsed.game_label == label
    assert parsed.room_hand_id == "1"


def test_unknown_time_zone_is_an_error() -> None:
    parsed = parse_text(HI_LO.replace("EEST", "XYZT"), ROOM)
    assert parsed.outcome is Outcome.ERROR
    assert parsed.problem is not None and "XYZT" in parsed.problem.message


@pytest.mark.parametrize(
    ("time", "utc"),
    [
        ("Friday, July 27, 23:00:33 MSKS 2012", "2012-07-27 19:00:33+00:00"),  # Moscow, UTC+4
        ("Sunday,December 9, 14:29:49 ICT 2012", "2012-12-09 07:29:49+00:00"),
        ("Sunday, July 28, 21:01:39  2013", "2013-07-29 01:01:39+00:00"),  # no zone: ET
        ("Mon Jul 12 13:38:32 EDT 2010", "2010-07-12 17:38:32+00:00"),
    ],
)
def test_time_forms(time: str, utc: str) -> None:
    text = re.sub(r"(7 Card Stud Hi-Lo - ).*", lambda m: m[1] + time, HI_LO, count=1)
    record = parse_record(text, ROOM)
    assert str(record.started_at) == utc
    assert record.room_time == time
    assert ("no time zone printed; ET assumed" in record.notes) is (time.endswith(" 2013"))


def three_openings() -> tuple[list[str], str]:
    """Three hands: with all three opening lines, padded with NULs; with two of them and a
    blank line between; with the last one only, after a blank and a whitespace-only line."""
    first = HI_LO.strip("\n").replace("Cy", "Cé")
    second = first.replace("9581478300", "9581478301").replace(
        "starts.\n\n#Game", "starts.\n\x00\x00\n\n#Game"
    )
    third = first.split("\n", 3)[3].replace("9581478300", "9581478302")
    data = "\x00" + first + "\x00\n\x00" + second + "\n\n\t\n" + third + "\x00\n\x00\x00\n"
    return [first, second.replace("\x00", ""), third], data


@pytest.mark.parametrize("codec", ["utf-8", "cp1252", "utf-16-le"])
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("chunk_size", [1, 7, 64, 1 << 20])
def test_a_hands_opening_lines_stay_one_hand_whatever_the_encoding_and_chunks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, codec: str, newline: str, chunk_size: int
) -> None:
    """UTF-8 goes the chunked way (its opening lines may lie in different chunks), cp1252 and
    UTF-16 line by line: the room's hands are the same."""
    monkeypatch.setattr(files, "CHUNK_SIZE", chunk_size)
    hands, data = three_openings()
    path = tmp_path / "party.txt"
    bom = codecs.BOM_UTF16_LE if codec == "utf-16-le" else b""
    raw = bom + data.replace("\n", newline).encode(codec)
    path.write_bytes(raw)
    texts = list(open_history(path).hand_texts())
    assert [text.text for text in texts] == hands
    openings = [data.index(hand.split("\n", 1)[0]) for hand in hands]
    assert [text.source.line for text in texts] == [data.count("\n", 0, at) + 1 for at in openings]
    for text in texts:
        start = raw[text.source.offset :].decode(codec, "replace").lstrip("\x00")
        assert start.startswith(text.text.split("\n", 1)[0])
    assert [p.outcome for p in parse_file(path)] == [Outcome.PARSED] * 3


def test_split_keeps_each_hands_opening_lines_and_offsets(tmp_path: Path) -> None:
    second = HI_LO.replace("9581478300", "9581478301")
    third = second.split("\n", 3)[3].replace("9581478301", "9581478302")  # "***** ..." first
    data = "\x00" + HI_LO + "\x00\n\x00" + second + "\n\n" + third + "\x00\n"
    path = tmp_path / "party.txt"
    path.write_bytes(data.encode("utf-8"))
    texts = list(open_history(path).hand_texts())
    assert [t.text.split("\n", 1)[0] for t in texts] == [
        "Game #9581478300 starts.",
        "Game #9581478301 starts.",
        "***** Hand History for Game 9581478302 *****",
    ]
    raw = path.read_bytes()
    for text in texts:
        start = raw[text.source.offset :].lstrip(b"\x00")
        assert start.startswith(text.text.split("\n", 1)[0].encode())
        assert raw[: text.source.offset].count(b"\n") + 1 == text.source.line
    assert [p.outcome for p in parse_file(path)] == [Outcome.PARSED] * 3


@pytest.mark.parametrize("codec", ["utf-8", "utf-16-le"])
def test_nul_padding_inside_an_opening_line_keeps_the_hand_whole(
    tmp_path: Path, codec: str
) -> None:
    """A fuzz input: NULs inside "#Game No : N" keep it from starting a text of its own, so the
    first text holds two opening lines; the third still continues it (one hand, not a
    truncated one and a second)."""
    data = HI_LO.replace("#Game No : ", "#Game No : " + "\x00" * 40, 1)
    path = tmp_path / "party.txt"
    path.write_bytes(data.encode(codec))
    texts = list(open_history(path).hand_texts())
    assert [text.text for text in texts] == [HI_LO.strip("\n")]
    assert [p.outcome for p in parse_file(path)] == [Outcome.PARSED]
