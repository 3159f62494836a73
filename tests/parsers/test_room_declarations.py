"""A room is a declaration: its grammar says how its hands open (the hand start the splitters
cut at, the part holding the hand's id), and nothing about its text is kept outside it."""

from __future__ import annotations

import runpy
from datetime import UTC, datetime

import pytest
import setuptools
from lark import Lark

from studdraw.parsers.builder import HandParseError, to_utc, unsupported
from studdraw.parsers.files import discover_files
from studdraw.parsers.model import EventKind, Game, HandText, SourceRef, Structure
from studdraw.parsers.problems import Code
from studdraw.parsers.reader import open_history, parse_file
from studdraw.parsers.rooms import BY_NAME, ROOMS
from studdraw.parsers.rooms.pokerstars import PokerStarsReader
from studdraw.parsers.text.lines import STARTS, Opening, rule_terminals
from studdraw.parsers.text.room import TextRoom, TokenFeed
from studdraw.pipeline.phh import phh_fields
from tests import forms_manifest
from tests.conftest import CORPUS, REPO_ROOT, SAMPLES
from tests.parsers import test_contract, test_hand_counts

TEXT_ROOMS = [room for room in ROOMS if isinstance(room, TextRoom)]

GRAMMAR = r"""
start: HEADER LINE*
hand_start: HAND_NO
hand_id: HAND_NO | GAME_ID
HEADER: HAND_NO " " GAME_ID
LINE: /(?P<text>[a-z]+)/
HAND_NO: /Room (?P<room>[A-Z]) Hand #(?P<id>\d+)/
GAME_ID: /game (?P<id>\d+)/
"""


def opening_of(grammar: str) -> tuple[Opening, Lark]:
    lark = Lark(grammar, parser="lalr", lexer=TokenFeed, start=list(STARTS))
    return Opening.from_grammar(lark), lark


def test_a_grammar_says_how_its_hands_open() -> None:
    opening, lark = opening_of(GRAMMAR)
    # the hand start has no groups: the splitters join every room's into one pattern
    assert opening.hand_start == r"(?:Room (?:[A-Z]) Hand #(?:\d+))"
    assert opening.hand_ids == (r"Room (?:[A-Z]) Hand #(?P<id>\d+)", r"game (?P<id>\d+)")
    assert opening.hand_id_pattern(3) == (
        r"(?:Room (?:[A-Z]) Hand #(?P<id3>\d+))|(?:game (?P<id4>\d+))"
    )
    # the parts of the opening are no line kinds of their own
    assert [t.name for t in rule_terminals(lark, "start")] == ["HEADER", "LINE"]


def test_a_hand_id_terminal_without_the_part_id_is_refused() -> None:
    with pytest.raises(ValueError, match="no part 'id'"):
        opening_of(GRAMMAR.replace("(?P<id>\\d+)/\nGAME_ID", "(?P<number>\\d+)/\nGAME_ID"))


@pytest.mark.parametrize("room", TEXT_ROOMS, ids=lambda room: room.name)
def test_a_text_room_grammar_names_its_hand_start_and_hand_id(room: TextRoom) -> None:
    lark = room.grammar.lark
    for rule in ("hand_start", "hand_id"):
        assert rule_terminals(lark, rule), f"{room.name}'s grammar names no {rule}"
    # a hand start is the start of a hand's first line, never a line kind of its own
    starts = {t.name for t in rule_terminals(lark, "hand_start")}
    assert starts.isdisjoint(room.syntax.kinds)


def test_every_hand_starts_where_its_room_says_and_has_the_id_of_its_record() -> None:
    """Every hand of a text room in the corpus and the samples begins with its room's hand
    start, and the id read from its text without parsing is its record's."""
    checked = 0
    roots = [root for root in (CORPUS, SAMPLES) if root.is_dir()]
    for path in sorted(discover_files(roots)):
        for hand in open_history(path).hand_texts():
            room = BY_NAME.get(hand.room or "")
            if not isinstance(room, TextRoom) or hand.stray:
                continue
            assert room.hand_start.match(hand.text), (path, hand.source.line)
            parsed = room.parse(hand)
            if parsed.record is not None:
                assert room.hand_id(hand.text) == parsed.record.room_hand_id, (path, hand.text)
                checked += 1
    assert checked > 900 or not CORPUS.is_dir()


def test_the_winning_room_opens_the_hands_of_both_its_exports() -> None:
    room = BY_NAME["winning"]
    older = (
        "\ufeffGame started at: 2016/8/5 10:00:00\nGame ID: 400004011 1/2 Table (Seven Cards Stud)"
    )
    newer = "Hand #400005001 - 7Stud(Fixed Limit) - $0.10/$0.20 - 2019/07/28 17:00:00 UTC"
    assert room.hand_start.match(older) and room.hand_start.match(newer)
    assert room.hand_id(older) == "400004011"
    assert room.hand_id(newer) == "400005001"
    assert room.hand_start.match("Game ID: 400004011") is None


# --- the tables and helpers every room's header is read through ---------------------------


def test_a_game_studdraw_does_not_read_is_said_one_way() -> None:
    failure = unsupported("Hold'em No Limit", 7)
    assert (failure.message, failure.line, failure.code, failure.game_label) == (
        "Hold'em No Limit is not a stud or draw game studdraw reads",
        7,
        Code.UNS001,
        "Hold'em No Limit",
    )
    assert unsupported("Badacey", 1, "badacey has no game definition").message == (
        "badacey has no game definition"
    )


def test_a_zone_printed_as_an_offset_reads() -> None:
    local = datetime(2010, 9, 13, 22, 31, 30)
    assert to_utc(local, "GMT+0100") == datetime(2010, 9, 13, 21, 31, 30, tzinfo=UTC)
    assert to_utc(local, "GMT-0530") == datetime(2010, 9, 14, 4, 1, 30, tzinfo=UTC)
    assert to_utc(local, "CET") == datetime(2010, 9, 13, 20, 31, 30, tzinfo=UTC)


def table_reader() -> PokerStarsReader:
    """A room's reader, to try the base's table reading through: PokerStars' (its labels in any
    case, its times in ET where none is printed). A real room's, not a subclass made here: the
    compiled build's readers take no interpreted subclass."""
    reader = PokerStarsReader("pokerstars")
    reader.begin(HandText("", SourceRef("<test>", 0, 1), "pokerstars"))
    return reader


def test_the_base_reads_a_room_s_tables() -> None:
    reader = table_reader()
    assert reader.read_game("Razz", 1) is Game.RAZZ  # the room reads labels in any case
    assert reader.read_structure("Pot Limit", 1, "Razz Pot Limit") is Structure.POT
    with pytest.raises(HandParseError) as game:
        reader.read_game("Hold'em", 3, "Hold'em Limit")
    with pytest.raises(HandParseError) as structure:
        reader.read_structure("Cap Limit", 4, "Razz Cap Limit")
    assert (game.value.game_label, game.value.code) == ("Hold'em Limit", Code.UNS001)
    assert (structure.value.game_label, structure.value.line) == ("Razz Cap Limit", 4)
    assert reader.currency_in("$0.50/$1 USD") == "USD"
    assert reader.currency_in("€2/€4") == "EUR"
    assert reader.currency_in("20/40") is None


def test_a_time_without_its_zone_is_in_the_room_s_zone_and_says_so() -> None:
    reader = table_reader()
    reader.read_time("2010/06/11 12:06", None, 1)
    assert reader.b.started_at == datetime(2010, 6, 11, 16, 6, tzinfo=UTC)
    assert reader.b.notes == ["no time zone printed; ET assumed"]
    printed = table_reader()
    printed.read_time("2010/06/11 12:06:20", "CET", 1)
    assert printed.b.started_at == datetime(2010, 6, 11, 10, 6, 20, tzinfo=UTC)
    assert printed.b.notes == []
    with pytest.raises(HandParseError, match="unreadable date/time"):
        printed.read_time("2010-06-11", "CET", 5)


@pytest.mark.parametrize(
    ("game", "structure", "limit_blind", "stakes"),
    [
        (Game.RAZZ, Structure.FIXED, True, (2, 4, 0, 0)),
        (Game.TD27, Structure.FIXED, True, (2, 4, 0, 2)),  # the big blind: the small bet
        (Game.TD27, Structure.FIXED, False, (2, 4, 0, 0)),  # the room's posts tell the blinds
        (
            Game.BADUGI,
            Structure.POT,
            False,
            (4, 4, 2, 4),
        ),  # the blinds; the smallest bet is the big
        (Game.STUD, Structure.SPREAD, False, (2, 4, 0, 0)),
    ],
)
def test_a_header_s_two_stakes(
    game: Game, structure: Structure, limit_blind: bool, stakes: tuple[int, int, int, int]
) -> None:
    b = table_reader().b
    b.game, b.structure = game, structure
    b.header_stakes(2, 4, limit_blind)
    assert (b.small_bet, b.big_bet, b.small_blind, b.big_blind) == stakes


def test_an_unprinted_uncalled_bet_is_returned_once_however_often_it_is_asked() -> None:
    """Everleaf asks at every line that awards the pot, KingsClub and OnGame where each round
    ends: the return of a round whose betting stopped before the streets dealt out after it
    is made once, on the line of the first ask."""
    reader = table_reader()
    b = reader.b
    b.game = Game.STUD
    b.new_street(1, 2, "4th street")
    b.wager(EventKind.BET, 3, "Al", amount=10)
    b.wager(EventKind.CALL, 4, "Bo", amount=6, all_in=True)
    b.new_street(2, 5, "5th street")  # the rest is dealt out: no more betting
    b.new_street(3, 6, "6th street")
    for line in (7, 8, 9):
        reader.infer_uncalled(line)
    returns = [(e.player, e.amount, e.line) for e in b.events if e.kind is EventKind.UNCALLED]
    assert returns == [("Al", 4, 7)]


# --- the lists that name every room: derived from the registry, or checked against it ------


def text_room_classes() -> set[type[TextRoom]]:
    """Every text room class of the rooms' package, those the registry's rooms hand hands to
    included (Winning's 2019 export)."""
    found: set[type[TextRoom]] = set()
    pending = list(TextRoom.__subclasses__())
    while pending:
        room = pending.pop()
        if room.__module__.startswith("studdraw.parsers.rooms."):
            found.add(room)
        pending.extend(room.__subclasses__())
    return found


def test_the_compiled_build_holds_every_text_room_s_module(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """setup.py derives the rooms' modules it compiles from the rooms' sources: none is left
    out, none is named twice."""
    monkeypatch.setenv("STUDDRAW_PURE", "1")
    monkeypatch.setattr(setuptools, "setup", lambda **_: None)
    built = runpy.run_path(str(REPO_ROOT / "setup.py"), run_name="setup_under_test")
    rooms = {
        f"parsers/rooms/{room.__module__.rsplit('.', 1)[1]}.py" for room in text_room_classes()
    }
    assert {type(room) for room in TEXT_ROOMS} <= text_room_classes()
    assert set(built["text_room_modules"]()) == rooms
    compiled = [path for path in built["COMPILED"] if path.startswith("parsers/rooms/")]
    assert sorted(compiled) == sorted(rooms)


def test_the_tables_of_text_rooms_name_every_text_room() -> None:
    names = {room.name for room in TEXT_ROOMS}
    assert set(test_contract.HANDS) == names
    assert set(test_hand_counts.HEADERS) == names == set(test_hand_counts.FOLDERS)
    assert set(forms_manifest.rooms()) <= names  # a room's line-form hands, where it has them


def test_every_room_has_its_page_and_its_title() -> None:
    """One page per room in docs/rooms (PHH's is docs/phh.md), and the name its players know it
    by, which a PHH export writes as the hand's venue."""
    pages = {page.stem for page in (REPO_ROOT / "docs" / "rooms").glob("*.md")}
    assert pages == {room.name for room in ROOMS} - {"phh"}
    assert (REPO_ROOT / "docs" / "phh.md").is_file()
    assert all(room.title for room in ROOMS if room.name != "phh")
    assert len({room.title for room in ROOMS}) == len(ROOMS)


@pytest.mark.parametrize("room", ["pokerstars", "kingsclub", "ongame", "absolute"])
def test_a_phh_export_names_every_room_s_hands_venue(room: str) -> None:
    """The venue is the room's title, for every room (it was written for seven of them)."""
    if not CORPUS.is_dir():
        pytest.skip(f"the shared corpus is not at {CORPUS}")
    hand = next(
        parsed.record
        for path in sorted(discover_files([CORPUS]))
        for parsed in parse_file(path)
        if parsed.record is not None and parsed.record.room == room
    )
    assert dict(phh_fields(hand))["venue"] == f'"{BY_NAME[room].title}"'
