"""Hostile files: long lines cost linear work, rooms are found anywhere in a file, several rooms
share a file, junk is said so and never counted as a hand, compressed exports are read through,
and every problem message is one bounded sentence."""

from __future__ import annotations

import codecs
import contextlib
import gzip
import io
import itertools
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest

from studdraw.parsers import chunked, files, reader, scan
from studdraw.parsers.files import MAX_LINE, Encoding, iter_lines
from studdraw.parsers.model import HandText, Outcome, SourceRef
from studdraw.parsers.problems import Code, Stage
from studdraw.parsers.reader import MAX_REASON, open_history, parse_file, parse_hand
from studdraw.parsers.room import Room
from studdraw.parsers.rooms import BY_NAME
from tests.conftest import CORPUS, SAMPLES
from tests.parsers.test_partypoker import HI_LO

STARS = (SAMPLES / "pokerstars" / "razz.txt").read_text(encoding="utf-8").strip("\n")
TILT = (SAMPLES / "fulltilt" / "razz.txt").read_text(encoding="utf-8").strip("\n")
FIRST_STARS = STARS.split("\n\n\n")[0]
FIRST_TILT = TILT.split("\n\n\n")[0]
PARTY = HI_LO.strip("\n")


class CountingPattern:
    """A compiled pattern that adds up the characters each search may scan: a work counter,
    so linearity is proven without timing anything."""

    def __init__(self, pattern: re.Pattern[Any]) -> None:
        self.pattern = pattern
        self.scanned = 0

    def search(self, data: Any, position: int = 0) -> re.Match[Any] | None:
        found = self.pattern.search(data, position)
        self.scanned += (found.end() if found else len(data)) - position
        return found


@pytest.mark.parametrize(
    ("codec", "newline"),
    [("utf-8", "\n"), ("utf-8", "\r\n"), ("cp1252", "\r"), ("utf-16-le", "\r\n")],
)
def test_a_10_mb_line_costs_linear_work_and_is_cut(
    monkeypatch: pytest.MonkeyPatch, codec: str, newline: str
) -> None:
    monkeypatch.setattr(files, "CHUNK_SIZE", 1 << 16)
    byte_pattern = CountingPattern(files.LINE_END)
    text_pattern = CountingPattern(files._TEXT_LINE_END)
    monkeypatch.setattr(files, "LINE_END", byte_pattern)
    monkeypatch.setattr(files, "_TEXT_LINE_END", text_pattern)
    size = 10 << 20
    data = f"first{newline}".encode(codec) + b"\x00" * size + f"{newline}last".encode(codec)
    encoding = Encoding(codec, 0) if codec.startswith("utf-16") else Encoding("utf-8", 0)
    lines = list(iter_lines(io.BytesIO(data), encoding))
    assert [line.number for line in lines] == [1, 2, 3]
    assert lines[0].text == "first" and lines[2].text == "last"
    assert lines[1].cut > MAX_LINE and len(lines[1].text) < 400
    assert lines[2].offset == len(data) - len("last".encode(codec))  # offsets stay exact
    scanned = byte_pattern.scanned + text_pattern.scanned
    assert scanned <= 2 * len(data), "the line search rescans the line: quadratic"


def test_a_line_without_end_of_any_length_is_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shape that stalled ingest: a hand followed by megabytes of NUL bytes, no line end."""
    monkeypatch.setattr(files, "CHUNK_SIZE", 1 << 16)
    counter = CountingPattern(files.LINE_END)
    monkeypatch.setattr(files, "LINE_END", counter)
    data = (FIRST_STARS + "\n").encode() + b"\x00" * (4 << 20)
    room = BY_NAME["pokerstars"]
    encoding = Encoding("utf-8", 0)
    [hand] = list(room.hand_texts(io.BytesIO(data), encoding, "nul.txt"))
    assert counter.scanned <= 3 * len(data)
    last_line = FIRST_STARS.count("\n") + 2
    assert hand.problem is not None and hand.problem.code is Code.FIL002
    assert (hand.problem.line, hand.problem.stage) == (last_line, Stage.READ)
    assert f"line {last_line} is 4,194,304 bytes" in hand.problem.message
    parsed = parse_hand(hand)
    assert parsed.outcome is Outcome.ERROR and parsed.problem is not None
    assert len(parsed.problem.message) <= MAX_REASON
    assert len(hand.text) < len(FIRST_STARS) + 400  # the hand is kept, with an excerpt


def test_fast_and_line_splits_agree_on_long_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files, "CHUNK_SIZE", 1 << 14)
    monkeypatch.setattr(files, "MAX_LINE", 1 << 12)
    room = BY_NAME["pokerstars"]
    data = "\n\n".join([FIRST_STARS, FIRST_STARS + "\n" + "x" * 10_000, FIRST_STARS]).encode()
    encoding = Encoding("utf-8", 0)
    fast = list(chunked.split_stream(io.BytesIO(data), encoding, room.hand_start, "p", "s"))
    slow = list(
        files.split_lines(iter_lines(io.BytesIO(data), encoding), room.hand_start, "p", "s")
    )
    assert fast == slow
    assert [hand.problem is not None for hand in fast] == [False, True, False]


def test_hands_after_a_long_preamble_are_found(tmp_path: Path) -> None:
    """Beyond the first 50 lines and 8 KiB: a tracker's header, blank lines, a cut hand."""
    preamble = "\n".join(f"exported by a tracker, line {i}" for i in range(400))
    path = tmp_path / "late.txt"
    path.write_text(preamble + "\n\n" + STARS + "\n", encoding="utf-8")
    parsed = list(parse_file(path))
    assert parsed[0].outcome is Outcome.STRAY and parsed[0].hand.source.line == 1
    hands = parsed[1:]
    assert len(hands) == STARS.count("PokerStars Hand #")
    assert all(p.record is not None for p in hands), [p.problem for p in hands]
    assert hands[0].hand.source.line == 402


@pytest.mark.parametrize("between", ["\n\n", "\r\n\r\n", "\r\r"])
def test_a_file_of_several_rooms_gives_each_hand_its_room(tmp_path: Path, between: str) -> None:
    """Also where a CR alone ends the line before the second room's hand, in a file of LF
    line ends: the scan for rooms searches LFs only where no CR ends a line by itself."""
    path = tmp_path / "mixed.txt"
    hands = [FIRST_STARS, FIRST_TILT, FIRST_STARS.replace("Hand #", "Hand #9")]
    path.write_bytes((between.join(hands) + "\n").encode("utf-8"))
    history = open_history(path)
    assert [room.name for room in history.parts[0].rooms] == ["pokerstars", "fulltilt"]
    parsed = list(parse_file(path))
    assert [p.hand.room for p in parsed] == ["pokerstars", "fulltilt", "pokerstars"]
    assert all(p.record is not None for p in parsed), [p.problem for p in parsed]
    tilt = parsed[1].hand
    assert tilt.source.line == FIRST_STARS.count("\n") + 3
    assert path.read_bytes()[tilt.source.offset :].startswith(b"Full Tilt Poker Game #")


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "an empty file"),
        (codecs.BOM_UTF8, "only a byte-order mark, no text"),
        (codecs.BOM_UTF16_LE, "only a byte-order mark, no text"),
        (b"\n\r\n  \t\n", "only blank space, no text"),
        (bytes(range(256)) * 40, "binary data, not text"),
        (b"\x00" * 5000, "only blank space, no text"),
    ],
)
def test_junk_files_are_said_so_and_hold_no_hand(tmp_path: Path, data: bytes, reason: str) -> None:
    path = tmp_path / "junk.txt"
    path.write_bytes(data)
    history = open_history(path)
    assert history.junk == reason
    assert list(history.hand_texts()) == []


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_a_utf16_file_with_a_nul_tail_is_read_as_utf16(tmp_path: Path, codec: str) -> None:
    """A short UTF-16 export padded with zero bytes (a fuzz input): the padding weighed as
    much as the text in the zero-byte count, the file was read as 8-bit junk, its hand lost."""
    hands = (SAMPLES / "pokerstars" / "razz.txt").read_text(encoding="utf-8").split("\n\n\n")
    hand = min((hand for hand in hands if hand.strip()), key=len)
    assert len(hand) < 1000  # its UTF-16 text is under half of the 4 KB sniffed
    path = tmp_path / "padded.txt"
    path.write_bytes(hand.encode(codec) + b"\x00" * 4096)
    assert files.detect_encoding(path.read_bytes()).name == codec
    texts = list(open_history(path).hand_texts())
    assert [(text.room, text.stray) for text in texts] == [("pokerstars", False)]
    assert parse_hand(texts[0]).record is not None


def test_text_of_no_room_is_one_stray_text_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("\n\nmy notes\n" + "more notes\n" * 10_000, encoding="utf-8")
    [hand] = list(open_history(path).hand_texts())
    assert hand.stray and hand.room is None and hand.source.line == 3
    assert len(hand.text) <= files.MAX_STRAY + 100  # a finding keeps an excerpt


def test_gzip_and_zip_exports_are_read_through(tmp_path: Path) -> None:
    plain = tmp_path / "plain.txt"
    plain.write_text(STARS + "\n", encoding="utf-8")
    expected = [(p.hand.room, p.room_hand_id) for p in parse_file(plain)]
    packed = tmp_path / "export.txt.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    assert [(p.hand.room, p.room_hand_id) for p in parse_file(packed)] == expected
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("a/stars.txt", STARS + "\n")
        zipped.writestr("b/tilt.txt", TILT + "\n")
        zipped.writestr("empty.txt", "")
    parsed = list(parse_file(archive))
    assert [p.hand.room for p in parsed] == ["pokerstars"] * len(expected) + ["fulltilt"] * (
        TILT.count("Full Tilt Poker Game #")
    )
    assert parsed[0].hand.source.path == f"{archive}!/a/stars.txt"
    assert all(p.record is not None for p in parsed)


def test_a_damaged_archive_is_an_os_error(tmp_path: Path) -> None:
    path = tmp_path / "cut.gz"
    path.write_bytes(gzip.compress((STARS * 20).encode())[:300])
    with pytest.raises(OSError, match="damaged"):
        list(open_history(path).hand_texts())


def test_problem_messages_are_bounded_sentences(monkeypatch: pytest.MonkeyPatch) -> None:
    # Lines under MAX_LINE are read, and unknown: with a digit, the hand's error (TXT002) ...
    long_line = FIRST_STARS + "\n" + "7" * 200_000
    parsed = parse_hand(HandText(long_line, SourceRef("p", 0, 1), "pokerstars"))
    assert parsed.problem is not None and len(parsed.problem.message) <= MAX_REASON
    # ... without one, a warning on the record (TXT001), its message as bounded
    long_line = FIRST_STARS + "\n" + "?" * 200_000
    parsed = parse_hand(HandText(long_line, SourceRef("p", 0, 1), "pokerstars"))
    assert parsed.record is not None
    assert [finding.code for finding in parsed.record.problems] == ["TXT001"]
    assert len(parsed.record.problems[0].message) <= MAX_REASON
    room = BY_NAME["pokerstars"]

    def broken(_hand: HandText) -> None:
        raise AssertionError

    monkeypatch.setattr(room, "parse", broken)
    failed = parse_hand(HandText(FIRST_STARS, SourceRef("p", 0, 7), "pokerstars"))
    assert failed.problem is not None and failed.problem.line == 7
    message = failed.problem.message
    assert message.startswith("the pokerstars reader failed on this hand (AssertionError at ")
    assert "test_hostile_files.py:" in message


def test_a_room_reading_whole_files_keeps_its_own_splitting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A room that reads whole files (an XML room) is handed the file whole, and what it
    yields is taken as it is: no line scan, no stray marking of its own hand texts."""

    class WholeFile(Room):
        name = "whole"
        hand_start = re.compile(r"<hands>")
        hand_id_pattern = re.compile(r"id=(?P<hand_id>\d+)")
        whole_files = True

        def hand_texts(self, stream: Any, encoding: Any, path: str) -> Any:
            stream.seek(0)
            yield HandText(stream.read().decode(), SourceRef(path, 0, 1), self.name)

    room = WholeFile()
    monkeypatch.setattr(reader, "sniff", lambda head: room if "<hands>" in head else None)
    path = tmp_path / "hands.xml"
    path.write_text('<?xml version="1.0"?>\n<hands>\n<hand id=1/>\n</hands>\n', "utf-8")
    history = open_history(path)
    assert history.room is room and history.parts[0].whole_file
    [hand] = list(history.hand_texts())
    assert hand.room == "whole" and not hand.stray and hand.text.startswith("<?xml")


def test_a_room_that_tidies_its_hands_is_held_to_the_hand_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Full Tilt blanks lines of the shared splitter's texts; a hand start followed by
    megabytes of lines still becomes one bounded hand with its problem, and the next hand is
    read as it is."""
    monkeypatch.setattr(files, "MAX_HAND", 1 << 16)
    junk = "\n".join(f"line {i} of a log pasted into the export" for i in range(20_000))
    second = FIRST_TILT.replace("Game #", "Game #9")
    data = "\n\n".join([FIRST_TILT + "\n" + junk, second]).encode()
    room = BY_NAME["fulltilt"]
    first, last = list(room.hand_texts(io.BytesIO(data), Encoding("utf-8", 0), "t.txt"))
    assert first.problem is not None and "runs over 65,536 characters" in first.problem.message
    assert len(first.text) <= (1 << 16) + 1000
    assert last.problem is None and last.text == second
    assert last.source.line == FIRST_TILT.count("\n") + 20_000 + 3
    assert parse_hand(last).record is not None


def test_a_hand_opening_with_several_hand_starts_is_held_to_the_hand_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a file of several rooms each run of hands goes line by line to its room: a Party hand
    whose opening lines are each a hand start, then megabytes of lines, is one hand with its
    problem (counted from its last opening line), and the next hand is read as it is."""
    monkeypatch.setattr(files, "MAX_HAND", 1 << 16)
    opening = "Game #1 starts.\n\n#Game No : 1\n***** Hand History for Game 1 *****"
    junk = "\n".join(f"line {i} of a log pasted into the export" for i in range(20_000))
    path = tmp_path / "mixed.txt"
    path.write_text("\n\n".join([FIRST_STARS, opening, junk, PARTY]) + "\n", encoding="utf-8")
    assert [room.name for room in open_history(path).parts[0].rooms] == ["pokerstars", "partypoker"]
    stars, long, party = list(parse_file(path))
    assert long.hand.source.line == FIRST_STARS.count("\n") + 3
    assert long.hand.problem == files.hand_too_long(
        long.hand.source.path, long.hand.source.line + 3
    )
    assert long.outcome is Outcome.ERROR and len(long.hand.text) <= (1 << 16) + 1000
    assert stars.record is not None and party.record is not None
    assert party.hand.source.line == long.hand.source.line + 4 + 1 + 20_000 + 1


def first_lines() -> list[str]:
    """The first line of the first hands of every corpus file, of every room."""
    lines: list[str] = []
    for path in files.discover_files([CORPUS]):
        with contextlib.suppress(OSError):
            for hand in itertools.islice(open_history(path).hand_texts(), 5):
                lines.append(hand.text.lstrip("\n").split("\n", 1)[0].rstrip("\r"))
    return lines


def test_the_scan_for_rooms_starts_where_the_rooms_do() -> None:
    """The scan for rooms searches one alternation of every room's hand start, those with an
    optional byte-order mark sharing it (`scan.any_of`): on every room's first lines, with a
    mark, NULs or a character before them or their first character cut, it matches exactly
    where one of the rooms' own patterns does."""
    patterns = [room.hand_start for room in reader.LINE_ROOMS]
    union = re.compile(scan.any_of([pattern.pattern for pattern in patterns]))
    lines = first_lines()
    rooms = {
        room.name
        for room in reader.LINE_ROOMS
        if any(room.hand_start.match(line) for line in lines)
    }
    assert len(rooms) >= 10, rooms
    variants = [
        variant
        for line in lines
        for variant in (
            line,
            "\ufeff" + line,
            "\x00\x00" + line,
            "x" + line,
            line[1:],
            line + "\x00",
        )
    ]
    for line in variants:
        assert bool(union.match(line)) == any(p.match(line) for p in patterns), repr(line)
    assert any(union.match(line) for line in variants if line.startswith("\ufeff"))
