"""Full Tilt Poker room: handwritten hands in the room's format, for what the corpus lacks
(play money, itemised tournament buy-ins, hi/lo pots, the 2010 long date, awkward chat).

The real hands of ../shared/corpus/{cash,tour}/FTP are in test_fulltilt_corpus.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from studdraw.parsers import files
from studdraw.parsers.model import EventKind, Game, Outcome
from studdraw.parsers.reader import open_history, parse_file, parse_hand
from studdraw.parsers.rooms import BY_NAME
from tests.conftest import parse_record, parse_text
from tests.parsers.records import actions, of_kind

# --- handwritten hands in formats the corpus lacks -----------------------------------------

RAZZ_BODY = """\
Seat 1: Alice ($10)
Seat 2: Bob ($10)
Alice antes $0.10
Bob antes $0.10
*** 3RD STREET ***
Dealt to Alice [Kd]
Dealt to Bob [2c 3d] [4h]
Alice is high with [Kd]
Alice brings in for $0.10
Bob folds
Uncalled bet of $0.10 returned to Alice
Alice mucks
Alice wins the pot ($0.20)
*** SUMMARY ***
Total pot $0.20 | Rake $0
Seat 1: Alice collected ($0.20), mucked
Seat 2: Bob folded on 3rd St.
"""


@dataclass(frozen=True)
class Expected:
    game: Game
    currency: str
    small_bet: int
    big_bet: int
    table: str
    started_at: datetime
    max_seats: int | None = None
    mixed: str | None = None
    buy_in: int | None = None
    fee: int | None = None


HEADERS: list[tuple[str, Expected]] = [
    (
        "Full Tilt Poker Game #1: Table Zig (shallow) - 10/20 - Limit Razz - 21:36:37 ET - "
        "2011/09/18",
        Expected(
            Game.RAZZ, "PLAY", 1000, 2000, "Zig", datetime(2011, 9, 19, 1, 36, 37, tzinfo=UTC)
        ),
    ),
    (
        "Full Tilt Poker Game #2: Table Zag (6 max) - $1/$2 - HORSE - Limit Razz - "
        "9:05 ET - Tuesday, June 1, 2010",
        Expected(
            Game.RAZZ,
            "USD",
            100,
            200,
            "Zag",
            datetime(2010, 6, 1, 13, 5, tzinfo=UTC),
            max_seats=6,
            mixed="HORSE",
        ),
    ),
    (
        "Full Tilt Poker Game #6: Table Zeg - $1/$2 Ante $0.20 - Limit Razz - "
        "15:13 ET - Wed, July 21, 2010",
        Expected(Game.RAZZ, "USD", 100, 200, "Zeg", datetime(2010, 7, 21, 19, 13, tzinfo=UTC)),
    ),
    (
        "Full Tilt Poker Game #3: $3 + $0.30 Sit & Go (2135), Table 1 - 15/30 - Limit Stud H/L - "
        "01:00:00 ET - 2011/01/01",
        Expected(
            Game.STUD8,
            "CHIPS",
            15,
            30,
            "1",
            datetime(2011, 1, 1, 6, tzinfo=UTC),
            buy_in=300,
            fee=30,
        ),
    ),
    (
        "Full Tilt Poker Game #4: Table Zog (heads up) - €0.50/€1 - Limit 7 Card Stud Hi/Lo - "
        "01:00:00 ET - 2011/07/01",
        Expected(Game.STUD8, "EUR", 50, 100, "Zog", datetime(2011, 7, 1, 5, tzinfo=UTC), 2),
    ),
    # the game named before the stakes, at a table and in a tournament
    (
        "Full Tilt Poker Game #8: Table Zap (New to the Game) - FL Razz - $1/$2 - "
        "01:00:00 ET - 2011/07/01",
        Expected(Game.RAZZ, "USD", 100, 200, "Zap", datetime(2011, 7, 1, 5, tzinfo=UTC)),
    ),
    (
        "Full Tilt Poker Game #9: $2 + $0.20 Heads-Up Sit & Go (77), Table 3 - Limit Razz - "
        "15/30 - 01:00:00 ET - 2011/07/01",
        Expected(
            Game.RAZZ,
            "CHIPS",
            15,
            30,
            "3",
            datetime(2011, 7, 1, 5, tzinfo=UTC),
            max_seats=2,
            buy_in=200,
            fee=20,
        ),
    ),
]


@pytest.mark.parametrize(("header", "expected"), HEADERS, ids=lambda v: str(v)[:40])
def test_header_formats(header: str, expected: Expected) -> None:
    body = RAZZ_BODY
    if expected.currency in ("CHIPS", "PLAY"):
        body = body.replace("$0.10", "10").replace("$0.20", "20").replace("$", "")
    elif expected.currency == "EUR":
        body = body.replace("$", "€")
    record = parse_record(f"{header}\n{body}", "fulltilt")
    assert record.game is expected.game
    assert record.currency == expected.currency
    assert (record.stakes.small_bet, record.stakes.big_bet) == (
        expected.small_bet,
        expected.big_bet,
    )
    assert (record.table, record.max_seats, record.mixed) == (
        expected.table,
        expected.max_seats,
        expected.mixed,
    )
    assert record.started_at == expected.started_at
    tournament = record.tournament
    price = (tournament.buy_in, tournament.fee) if tournament else (None, None)
    assert price == (expected.buy_in, expected.fee)


RAZZ_HEADER = (
    "Full Tilt Poker Game #7: Table Zag - $0.10/$0.20 - Limit Razz - 01:00:00 ET - 2011/01/01"
)


def test_a_cancelled_hand_is_unsupported_at_its_line() -> None:
    body = RAZZ_BODY.replace("Alice brings in for $0.10\n", "Hand #7 has been canceled\n")
    parsed = parse_text(f"{RAZZ_HEADER}\n{body}", "fulltilt")
    assert parsed.outcome is Outcome.UNSUPPORTED
    assert parsed.problem is not None and parsed.problem.message == "hand cancelled by the room"
    assert parsed.problem.line == 10


def test_an_all_in_bring_in_does_not_set_the_tables_bring_in() -> None:
    """One player brings in: a short all-in post says nothing of the table's bring-in."""
    body = RAZZ_BODY.replace(
        "Alice brings in for $0.10", "Alice brings in for $0.05, and is all in"
    )
    body = body.replace("Seat 1: Alice ($10)", "Seat 1: Alice ($0.15)")
    body = body.replace("bet of $0.10", "bet of $0.05").replace("$0.20", "$0.15")
    record = parse_record(f"{RAZZ_HEADER}\n{body}", "fulltilt")
    assert [e.all_in for e in of_kind(record, EventKind.BRING_IN)] == [True]
    assert record.stakes.bring_in == 0
    full = parse_record(f"{RAZZ_HEADER}\n{RAZZ_BODY}", "fulltilt")
    assert full.stakes.bring_in == 10


@pytest.mark.parametrize(
    ("line", "kind"),
    [("Bob sits out", EventKind.SIT_OUT), ("Bob is sitting out", EventKind.SIT_OUT)],
)
def test_table_life_lines_are_events(line: str, kind: EventKind) -> None:
    body = RAZZ_BODY.replace("Bob folds\n", f"Bob folds\n{line}\n")
    record = parse_record(f"{RAZZ_HEADER}\n{body}", "fulltilt")
    assert [e.player for e in of_kind(record, kind)] == ["Bob"]
    assert record.problems == []


@pytest.mark.parametrize(
    "label",
    ["No Limit Hold'em", "Pot Limit Omaha Hi", "Limit Omaha H/L"],
)
def test_other_games_are_unsupported_not_errors(label: str) -> None:
    header = f"Full Tilt Poker Game #5: Table Zug - $1/$2 - {label} - 01:00:00 ET - 2011/01/01"
    parsed = parse_text(f"{header}\n*** HOLE CARDS ***", "fulltilt")
    assert parsed.outcome is Outcome.UNSUPPORTED
    assert parsed.problem is not None and parsed.game_label == label


@pytest.mark.parametrize(
    ("table_and_game", "outcome", "label"),
    [
        # a header of no form the grammar knows: unsupported, unless it names a game read here
        ("Table Zug - Hold'em", Outcome.UNSUPPORTED, "Table Zug - Hold'em"),
        ("Table Zug - Limit Razz", Outcome.ERROR, None),
    ],
)
def test_a_header_of_another_form(table_and_game: str, outcome: Outcome, label: str | None) -> None:
    header = f"Full Tilt Poker Game #5: {table_and_game} - 01:00:00 ET - 2011/01/01"
    parsed = parse_text(f"{header}\n*** HOLE CARDS ***", "fulltilt")
    assert parsed.outcome is outcome
    assert parsed.problem is not None and parsed.game_label == label
    assert parsed.problem.line == 1


HI_LO_SHOWDOWN = """\
Full Tilt Poker Game #6: Table Zeb - $1/$2 Ante $0.10 - Limit Stud H/L - 01:00:00 ET - 2011/01/01
Seat 1: Alice ($10)
Seat 2: Bob (the builder) ($10)
Alice antes $0.10
Bob (the builder) antes $0.10
*** 3RD STREET ***
Dealt to Alice [Ah 2h] [3h]
Dealt to Bob (the builder) [Kd]
Alice is low with [3h]
Alice brings in for $0.25
Bob (the builder): Alice folds, surely
Bob (the builder) completes it to $1
Alice calls $0.75
*** 4TH STREET ***
Dealt to Alice [Ah 2h 3h] [4h]
Dealt to Bob (the builder) [Kd] [Ks]
Bob (the builder) bets $1
Alice calls $1
*** 5TH STREET ***
Dealt to Alice [Ah 2h 3h 4h] [5c]
Dealt to Bob (the builder) [Kd Ks] [Qs]
Bob (the builder) checks
Alice checks
*** 6TH STREET ***
Dealt to Alice [Ah 2h 3h 4h 5c] [9d]
Dealt to Bob (the builder) [Kd Ks Qs] [Jc]
Bob (the builder) checks
Alice checks
*** 7TH STREET ***
Dealt to Alice [Ah 2h 3h 4h 5c 9d] [Th]
Bob (the builder) checks
Alice checks
*** SHOW DOWN ***
Alice shows [Ah 2h 3h 4h 5c 9d Th] a flush, Ace high
Bob (the builder) mucks
Alice wins the high pot ($2.10) with a flush, Ace high
Alice wins the low pot ($2.10) with 5,4,3,2,A
*** SUMMARY ***
Total pot $4.20 | Rake $0
Seat 1: Alice showed [Ah 2h 3h 4h 5c 9d Th] and won ($4.20) with a flush, Ace high
Seat 2: Bob (the builder) mucked [Kd Ks Qs Jc 7c 7d 2c] - two pair, Kings and Sevens
"""


def test_hi_lo_pots_and_chat_that_looks_like_a_fold() -> None:
    r = parse_record(HI_LO_SHOWDOWN, "fulltilt")
    assert r.players == ["Alice", "Bob (the builder)"]
    assert [(e.player, e.amount, e.pot) for e in of_kind(r, EventKind.COLLECT)] == [
        ("Alice", 210, "main:hi"),
        ("Alice", 210, "main:lo"),
    ]
    assert not of_kind(r, EventKind.FOLD)
    [chat] = of_kind(r, EventKind.CHAT)
    assert (chat.player, chat.text) == ("Bob (the builder)", "Alice folds, surely")
    [mucked] = [e for e in of_kind(r, EventKind.MUCK) if e.cards]
    assert mucked.player == "Bob (the builder)"
    assert actions(r, 0)[2:] == [
        ("bring_in", "Alice", 25, 25),
        ("complete", "Bob (the builder)", 100, 100),
        ("call", "Alice", 75, 100),
    ]


def test_archive_separators_and_a_stray_utf16_byte_become_blank(tmp_path: Path) -> None:
    text = "\n".join(
        [
            "******************** # 1 *************************",
            "",
            HI_LO_SHOWDOWN,
            "******************** # 2 *************************",
            "",
            HI_LO_SHOWDOWN.replace("Game #6:", "Game #7:"),
        ]
    )
    path = tmp_path / "archive.txt"
    path.write_bytes("\ufeff".encode("utf-16-le") + text.encode("utf-16-le") + b"\n")
    parsed = list(parse_file(path))
    assert [p.room_hand_id for p in parsed] == ["6", "7"]
    assert [p.outcome for p in parsed] == [Outcome.PARSED, Outcome.PARSED]
    headers = [number for number, line in enumerate(text.split("\n"), 1) if "Game #" in line]
    assert [p.hand.source.line for p in parsed] == headers == [3, 47]
    assert BY_NAME["fulltilt"].hand_id(parsed[1].hand.text.split("\n")[0]) == "7"


@pytest.mark.parametrize(
    ("codec", "bom"), [("utf-8", b""), ("cp1252", b""), ("utf-16-le", b"\xff\xfe")]
)
@pytest.mark.parametrize("chunk_size", [1, 7, 1 << 20])
def test_archive_separators_are_blank_in_every_encoding_and_chunking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, codec: str, bom: bytes, chunk_size: int
) -> None:
    """UTF-8 goes the chunked way, cp1252 and UTF-16 line by line: a separator before, between
    or after hands, or inside one, is blank in all, and the lines keep their numbers."""
    monkeypatch.setattr(files, "CHUNK_SIZE", chunk_size)
    first = HI_LO_SHOWDOWN.strip("\n").replace("Alice", "Aliçe")
    second = first.replace("Game #6:", "Game #7:").replace(
        "\n*** 3RD STREET ***", "\n** # 9 **\n*** 3RD STREET ***", 1
    )
    separator = "******************** # {} *************************"
    text = "\n".join(
        [separator.format(1), "", first, separator.format(2), "", second, "", separator.format(3)]
    )
    path = tmp_path / "archive.txt"
    path.write_bytes(bom + text.replace("\n", "\r\n").encode(codec))
    hands = list(open_history(path).hand_texts())
    assert [hand.text for hand in hands] == [first, second.replace("** # 9 **", "")]
    assert [hand.source.line for hand in hands] == [3, first.count("\n") + 6]
    assert [parse_hand(hand).outcome for hand in hands] == [Outcome.PARSED] * 2
