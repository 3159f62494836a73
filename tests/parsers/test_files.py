"""File handling: encodings, line ends, exact byte offsets and line numbers, streaming splits."""

from __future__ import annotations

import codecs
import io
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from studdraw.parsers import chunked, files, scan
from studdraw.parsers.files import Encoding, detect_encoding, iter_lines
from studdraw.parsers.reader import open_history, parse_file
from studdraw.parsers.rooms import BY_NAME, sniff
from tests.conftest import CORPUS, corpus_file
from tests.parsers.test_pokerstars_handwritten import CURRENT_STUD

HAND = CURRENT_STUD.strip("\n")
TWO_HANDS = f"{HAND}\n\n\n{HAND.replace('230000000001', '230000000002')}\n"


def encode(text: str, codec: str, bom: bytes = b"", newline: str = "\n") -> bytes:
    return bom + text.replace("\n", newline).encode(codec)


ENCODINGS = [
    ("utf-8", b"", Encoding("utf-8", 0)),
    ("utf-8", codecs.BOM_UTF8, Encoding("utf-8", 3)),
    ("utf-16-le", b"", Encoding("utf-16-le", 0)),
    ("utf-16-le", codecs.BOM_UTF16_LE, Encoding("utf-16-le", 2)),
    ("utf-16-be", b"", Encoding("utf-16-be", 0)),
    ("utf-16-be", codecs.BOM_UTF16_BE, Encoding("utf-16-be", 2)),
    ("cp1252", b"", Encoding("utf-8", 0)),  # read as UTF-8 with a per-line cp1252 fallback
]


@pytest.mark.parametrize(("codec", "bom", "expected"), ENCODINGS)
@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_every_encoding_and_line_end_gives_the_same_hands(
    tmp_path: Path, codec: str, bom: bytes, expected: Encoding, newline: str
) -> None:
    text = TWO_HANDS.replace("Carol", "Carolé€")  # non-ASCII names, cp1252-representable
    data = encode(text, codec, bom, newline)
    assert detect_encoding(data[:4096]) == expected
    path = tmp_path / "hands.txt"
    path.write_bytes(data)
    parsed = list(parse_file(path))
    assert [p.room_hand_id for p in parsed] == ["230000000001", "230000000002"]
    assert all(p.record is not None for p in parsed), [p.problem for p in parsed]
    first = parsed[0].record
    assert first is not None and "Carolé€" in first.players
    # Offsets and line numbers point at each hand's first line in the raw bytes.
    second = parsed[1].hand.source
    assert second.line == HAND.count("\n") + 4
    header = encode("PokerStars Hand #230000000002", codec)
    assert data[second.offset : second.offset + len(header)] == header


def test_byte_offsets_are_exact_with_multibyte_utf8(tmp_path: Path) -> None:
    # 2+3+4-byte characters, an empty CRLF line, an LF line, a lone CR at the end
    data = b"ab\xc3\xa4\xe2\x82\xac\xf0\x9f\x98\x80\r\n\r\nplain\nx\r"
    found = list(iter_lines(io.BytesIO(data), Encoding("utf-8", 0)))
    assert [(line.text, line.offset, line.number) for line in found] == [
        ("abä€😀", 0, 1),
        ("", 13, 2),
        ("plain", 15, 3),
        ("x", 21, 4),
    ]


def test_utf16_offsets_count_surrogate_pairs() -> None:
    text = "a😀b\nnext\n"
    data = text.encode("utf-16-le")
    found = list(iter_lines(io.BytesIO(data), Encoding("utf-16-le", 0)))
    assert [(line.text, line.offset) for line in found] == [("a😀b", 0), ("next", 10)]


def test_cp1252_line_falls_back_and_utf8_lines_stay_utf8() -> None:
    data = "Café €5\n".encode("cp1252") + "Café €5\n".encode()
    found = list(iter_lines(io.BytesIO(data), Encoding("utf-8", 0)))
    assert [line.text for line in found] == ["Café €5", "Café €5"]


@pytest.mark.parametrize("chunk_size", [1, 2, 3, 7, 64])
@pytest.mark.parametrize("codec", ["utf-8", "utf-16-le"])
def test_chunk_boundaries_never_split_lines_or_crlf(
    monkeypatch: pytest.MonkeyPatch, chunk_size: int, codec: str
) -> None:
    monkeypatch.setattr(files, "CHUNK_SIZE", chunk_size)
    text = "one\r\ntwo\rthree\n\nfour é\r\n"
    data = text.encode(codec)
    found = list(iter_lines(io.BytesIO(data), Encoding(codec, 0)))
    assert [line.text for line in found] == ["one", "two", "three", "", "four é"]
    assert [line.number for line in found] == [1, 2, 3, 4, 5]


def test_text_before_the_first_hand_is_kept_as_a_fragment(tmp_path: Path) -> None:
    path = tmp_path / "cut.txt"
    path.write_text("Carol: folds\n*** SUMMARY ***\n\n" + HAND, encoding="utf-8")
    parsed = list(parse_file(path))
    assert len(parsed) == 2
    fragment = parsed[0]
    assert fragment.problem is not None and fragment.record is None
    assert fragment.hand.source.line == 1
    assert parsed[1].record is not None and parsed[1].hand.source.line == 4


def test_unknown_files_are_one_stray_text(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("\nmy shopping list\n", encoding="utf-8")
    [parsed] = list(parse_file(path))
    assert parsed.hand.room is None and parsed.hand.stray and parsed.hand.source.line == 2
    assert parsed.problem is not None and parsed.outcome.value == "stray"


def test_splitting_streams_without_reading_the_whole_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files, "CHUNK_SIZE", 4096)
    path = tmp_path / "many.txt"
    path.write_text((HAND + "\n\n") * 200, encoding="utf-8")
    history = open_history(path)
    reads: list[int] = []
    real_open = Path.open

    def counting_open(self: Path, *args: object, **kwargs: object) -> object:
        stream = real_open(self, *args, **kwargs)  # type: ignore[call-overload]
        real_read = stream.read

        def read(size: int = -1) -> bytes:
            reads.append(size)
            data: bytes = real_read(size)
            return data

        stream.read = read
        return stream

    monkeypatch.setattr(Path, "open", counting_open)
    hands = history.hand_texts()
    next(hands)
    assert reads and all(0 < size <= 4096 for size in reads)
    assert len(reads) == 1  # the first hand came out of the first chunk alone
    assert sum(1 for _ in hands) == 199


@pytest.mark.parametrize(
    ("parts", "room"),
    [
        (("cash", "Stars", "Stud", "7-Stud-USD-0.04-0.08-200911.txt"), "pokerstars"),
        (
            ("cash", "Stars", "Draw", "Triple Draw 2-7 Lowball-FL-USD-0.10-0.20-201106.sample.txt"),
            "pokerstars",
        ),
        (("cash", "Merge", "Stud", "7-Stud-USD-0.50-1.00-201102.Sample.txt"), "merge"),
        (("cash", "iPoker", "Stud", "7-StudL-USD-0.05-0.10-201009.txt"), "ipoker"),
        (("cash", "OnGame", "Stud", "7-Stud-USD-0.10-0.20-201009.Sample.txt"), "ongame"),
        (("cash", "KingsClub", "Stud", "Razz-USD-40-80-202101.txt"), "kingsclub"),
        (
            ("cash", "Absolute", "Stud", "7-StudHL-USD-0.02-0.04-200903.River.with.mucked.txt"),
            "absolute",
        ),
        (("cash", "Boss", "Draw", "5CD-FL-EUR-2-4.Opoker.sample.xml"), "boss"),
    ],
)
def test_sniffing_real_files(parts: tuple[str, ...], room: str) -> None:
    history = open_history(corpus_file(*parts))
    assert history.room is not None and history.room.name == room
    assert sniff(history.head) is history.room


SPLIT_CASES = [
    "\n\n" + TWO_HANDS,
    TWO_HANDS.replace("\n", "\r\n"),
    TWO_HANDS.replace("\n", "\r"),
    "stray line\n  \n" + TWO_HANDS + "\n \n\n",
    "   \n\t\n" + HAND,
    TWO_HANDS + "trailing junk without a header\n",
    "",
    "\n\n\n",
    "no hands at all\nhere\n",
    # A CR that ends a line by itself in a file of LF line ends: before a hand start, and
    # inside a hand (the fast split's literal-LF search must not miss the first).
    TWO_HANDS.replace("\n\n\n", "\r\r\r"),
    TWO_HANDS.replace("\n", "\r", 2),
    TWO_HANDS.replace("\n\n\n", "\r\n\r\n\r\n"),
    # Blanks at line ends (the fast split hands the file to the line path, which drops them).
    TWO_HANDS.replace("\n", " \n"),
    TWO_HANDS.replace("\n", "\t \r\n"),
    TWO_HANDS.replace("\n", " \r"),
    TWO_HANDS.rstrip("\n") + "  ",
]


def both_splits(data: bytes, chunk_size: int, monkeypatch: pytest.MonkeyPatch) -> tuple[list, list]:
    monkeypatch.setattr(files, "CHUNK_SIZE", chunk_size)
    room = BY_NAME["pokerstars"]
    encoding = detect_encoding(data[:4096])
    fast = list(
        chunked.split_stream(io.BytesIO(data), encoding, room.hand_start, "p", "pokerstars")
    )
    slow = list(
        files.split_lines(
            iter_lines(io.BytesIO(data), encoding), room.hand_start, "p", "pokerstars"
        )
    )
    return fast, slow


@pytest.mark.parametrize("case", range(len(SPLIT_CASES)))
@pytest.mark.parametrize("chunk_size", [1, 5, 64, 1 << 20])
def test_fast_split_equals_line_split(
    case: int, chunk_size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = SPLIT_CASES[case].replace("Carol", "Carolé").encode("utf-8")
    fast, slow = both_splits(data, chunk_size, monkeypatch)
    assert fast == slow


def test_fast_split_hands_over_to_the_line_path_at_cp1252_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = TWO_HANDS.encode("utf-8") + TWO_HANDS.replace("Carol", "Carol\u20ac").encode("cp1252")
    fast, slow = both_splits(data, 300, monkeypatch)
    assert fast == slow
    assert len(fast) == 4 and "Carol€" in fast[-1].text


def test_fast_split_equals_line_split_on_the_whole_corpus(monkeypatch: pytest.MonkeyPatch) -> None:
    corpus_file("cash")
    monkeypatch.setattr(files, "CHUNK_SIZE", 777)
    checked = 0
    for path in files.discover_files([CORPUS]):
        history = open_history(path)
        if history.room is None:
            continue
        with path.open("rb") as stream:
            fast = list(
                chunked.split_stream(
                    stream, history.encoding, history.room.hand_start, str(path), history.room.name
                )
            )
        with path.open("rb") as stream:
            slow = list(
                files.split_lines(
                    iter_lines(stream, history.encoding),
                    history.room.hand_start,
                    str(path),
                    history.room.name,
                )
            )
        assert fast == slow, path
        checked += 1
    assert checked > 50


def test_a_stray_odd_byte_at_the_end_of_a_utf16_file_is_not_text() -> None:
    data = codecs.BOM_UTF16_LE + "last line\r\n".encode("utf-16-le") + b"\x00"
    found = list(iter_lines(io.BytesIO(data), Encoding("utf-16-le", 2)))
    assert [line.text for line in found] == ["last line"]


@given(st.text(alphabet=["a", " ", "\t", "\n", "\x0c", "\x85", "\u2028"], max_size=30))
def test_without_blank_tail_drops_the_blank_lines_at_the_end(text: str) -> None:
    lines = text.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    assert files.without_blank_tail(text) == "\n".join(lines)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("blanks", [" ", "\t", " \t  "])
def test_blanks_at_line_ends_are_not_read(newline: str, blanks: str) -> None:
    """Every line is read without the blanks before its end, whichever path reads it: the
    texts are those of the file without them, and the room is still found."""
    data = TWO_HANDS.replace("\n", blanks + "\n").replace("\n", newline).encode("utf-8")
    clean = TWO_HANDS.replace("\n", newline).encode("utf-8")
    encoding = Encoding("utf-8", 0)
    room = BY_NAME["pokerstars"]
    lines = [line.text for line in iter_lines(io.BytesIO(data), encoding)]
    assert lines == [line.text for line in iter_lines(io.BytesIO(clean), encoding)]
    assert not any(line.endswith((" ", "\t")) for line in lines)
    texts = [
        h.text for h in chunked.split_stream(io.BytesIO(data), encoding, room.hand_start, "p", None)
    ]
    assert texts == [
        h.text
        for h in chunked.split_stream(io.BytesIO(clean), encoding, room.hand_start, "p", None)
    ]
    # A hand start that ends its line (Party's) is found, and the room sniffed, with blanks.
    party = BY_NAME["partypoker"]
    opening = f"***** Hand History for Game 1 *****{blanks}{newline}".encode()
    assert scan.scan_starts(io.BytesIO(opening), encoding, [party.hand_start]) == [0]
    assert party.sniff(opening.decode())
