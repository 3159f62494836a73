"""Hostile XML files (issue 41, issue 37): UTF-16 and mis-declared exports read like UTF-8 ones,
an unknown declared encoding a finding, broken text between hands a finding and not a hand,
and every hand of a cut or mixed file counted once."""

from __future__ import annotations

import codecs
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from studdraw.parsers.model import Outcome
from studdraw.parsers.problems import Code
from studdraw.parsers.reader import open_history, parse_hand
from studdraw.parsers.xml import encoding as encoding_module
from studdraw.parsers.xml import reader as xml_reader
from tests.conftest import corpus_file

XML_FILES = [
    ("cash", "iPoker", "Stud", "7-StudL-USD-0.05-0.10-201009.txt"),
    ("tour", "iPoker", "Stud", "7-StudHi-USD-STT-5-201103.txt"),
    ("cash", "Merge", "Stud", "NL7-StudHL-0.01-0.02-0.10-201204.xml"),
    ("cash", "Merge", "Draw", "3-Draw-Limit-USD-1-2-201104.Multi.hand.sample.txt"),
    ("cash", "Boss", "Draw", "5CD-FL-EUR-2-4.Opoker.sample.xml"),
]
_DECLARATION = re.compile(r"""(<\?xml[^>]*encoding=)["'][^"']*["']""")


def outcomes(path: Path) -> tuple[Counter[str], list[str | None]]:
    """What became of each text of a file (by outcome), and the hand ids in order."""
    counts: Counter[str] = Counter()
    ids: list[str | None] = []
    for hand in open_history(path).hand_texts():
        parsed = parse_hand(hand)
        counts[parsed.outcome.value] += 1
        if not hand.stray:
            ids.append(parsed.record.room_hand_id if parsed.record else parsed.room_hand_id)
    return counts, ids


def redeclared(text: str, encoding: str) -> str:
    return _DECLARATION.sub(rf'\1"{encoding}"', text)


@pytest.mark.parametrize("parts", XML_FILES, ids=lambda parts: parts[-1])
@pytest.mark.parametrize(
    ("codec", "bom"),
    [
        ("utf-16-le", codecs.BOM_UTF16_LE),
        ("utf-16-le", b""),
        ("utf-16-be", codecs.BOM_UTF16_BE),
        ("utf-16-be", b""),
    ],
)
def test_utf16_xml_is_read_like_utf8(
    tmp_path: Path, parts: tuple[str, ...], codec: str, bom: bytes
) -> None:
    source = corpus_file(*parts)
    expected = outcomes(source)
    assert expected[0][Outcome.PARSED.value] >= 1
    text = redeclared(source.read_bytes().decode("utf-8"), "UTF-16")
    path = tmp_path / "utf16.xml"
    path.write_bytes(bom + text.encode(codec))
    assert outcomes(path) == expected


@pytest.mark.parametrize("parts", XML_FILES, ids=lambda parts: parts[-1])
@pytest.mark.parametrize(
    ("codec", "bom", "declared"),
    [
        ("utf-16-le", codecs.BOM_UTF16_LE, "UTF-16"),
        ("utf-16-be", b"", "UTF-16"),
        ("cp1252", b"", "UTF-8"),  # the euro sign: one byte in the file, three in UTF-8
        ("utf-8", codecs.BOM_UTF8, "UTF-8"),
    ],
)
def test_every_xml_hand_keeps_its_file_line_and_byte_offset(
    tmp_path: Path, parts: tuple[str, ...], codec: str, bom: bytes, declared: str
) -> None:
    """A transcoded file's hands are where they are in the file, not in the UTF-8 text the
    XML parser is fed."""
    source = corpus_file(*parts)
    lines = [hand.source.line for hand in open_history(source).hand_texts()]
    text = redeclared(source.read_bytes().decode("utf-8"), declared).replace("$", "€")
    data = bom + text.encode(codec)
    path = tmp_path / "transcoded.xml"
    path.write_bytes(data)
    hands = list(open_history(path).hand_texts())
    assert [hand.source.line for hand in hands] == lines
    for hand in hands:
        at = data[hand.source.offset :].decode(codec, errors="ignore")
        assert at.startswith(hand.text[:24]), (hand.source, hand.text[:24], at[:24])


def euro_session(tmp_path: Path, encoding: str, declared: str) -> Path:
    """The iPoker cash session in euros, in `encoding`, declaring `declared`."""
    text = corpus_file(*XML_FILES[0]).read_text(encoding="utf-8")
    text = redeclared(text.replace("$", "€").replace("USD", "EUR"), declared)
    path = tmp_path / f"euro-{encoding}-{declared}.xml"
    path.write_bytes(text.encode(encoding))
    return path


@pytest.mark.parametrize("declared", ["utf-8", "UTF-8", "ISO-8859-1", "windows-1252"])
def test_cp1252_bytes_in_an_xml_file_are_read_as_fpdb_reads_them(
    tmp_path: Path, declared: str
) -> None:
    """A file declaring UTF-8 (or Latin-1) that holds cp1252 bytes (the euro sign) reads as the
    same file in UTF-8: every hand a record, none counted twice, no preamble as a hand."""
    expected = outcomes(euro_session(tmp_path, "utf-8", "utf-8"))
    assert expected[0] == Counter({Outcome.PARSED.value: 2})
    assert outcomes(euro_session(tmp_path, "cp1252", declared)) == expected
    euro = next(open_history(euro_session(tmp_path, "cp1252", declared)).hand_texts())
    assert "€" in euro.text


def test_an_unknown_declared_encoding_is_a_finding_and_the_hands_are_read(tmp_path: Path) -> None:
    path = euro_session(tmp_path, "utf-8", "x-no-such-codec")
    texts = [parse_hand(hand) for hand in open_history(path).hand_texts()]
    strays = [parsed for parsed in texts if parsed.hand.stray]
    assert [parsed.outcome for parsed in texts if not parsed.hand.stray] == [Outcome.PARSED] * 2
    assert len(strays) == 1 and strays[0].problem is not None
    assert strays[0].problem.code is Code.FIL001
    assert "x-no-such-codec" in strays[0].problem.message


def ipoker_session(tmp_path: Path, edit: Callable[[bytes], bytes]) -> Path:
    """The iPoker cash session (2 hands), edited."""
    data = edit(corpus_file(*XML_FILES[0]).read_bytes())
    path = tmp_path / "edited.xml"
    path.write_bytes(data)
    return path


def second_game(data: bytes) -> int:
    return data.index(b"<game gamecode", data.index(b"<game gamecode") + 1)


def second_game_tag_damaged(data: bytes) -> bytes:
    """The second hand's start tag with its attribute's closing quote flipped (a fuzz input)."""
    quote = data.index(b'">', second_game(data))
    return data[:quote] + b"\x01" + data[quote + 1 :]


def first_game_cut_before_the_second(data: bytes) -> bytes:
    """The first hand cut inside an attribute value, the second hand right after (a fuzz
    input: the cut hand's XML error falls on the second hand's `<`)."""
    cut = data.index(b'name="', data.index(b"<game gamecode")) + 7
    return data[:cut] + b"\n\n\n" + data[second_game(data) :]


EDITS: list[tuple[str, Callable[[bytes], bytes], Counter[str]]] = [
    (
        "junk between two hands is a finding, not a hand",
        lambda data: data[: second_game(data)] + b"junk <<< & >" + data[second_game(data) :],
        Counter({"parsed": 2, "stray": 1}),
    ),
    (
        "a missing </game> does not swallow the next hand",
        lambda data: data.replace(b"</game>", b"", 1),
        Counter({"parsed": 1, "error": 1}),
    ),
    (
        "a file cut inside a <game start tag counts that hand",
        lambda data: data[: second_game(data) + 12],
        Counter({"parsed": 1, "error": 1}),
    ),
    (
        "a damaged attribute in a hand's start tag rejects that hand, not a stray text",
        second_game_tag_damaged,
        Counter({"parsed": 1, "error": 1}),
    ),
    (
        "a hand cut inside an attribute does not swallow the next hand",
        first_game_cut_before_the_second,
        Counter({"parsed": 1, "error": 1}),
    ),
    (
        "a hand opened inside a cut one, the file ending in both, is two rejected hands",
        lambda data: (
            data[: data.index(b"<round", data.index(b"<game gamecode"))]
            + data[second_game(data) :][:300]
        ),
        Counter({"error": 2}),
    ),
    (
        "hands after a session header cut inside a field are read, not lost inside it (fuzz)",
        lambda data: (
            data[: data.index(b"<tablename>") + 15] + data[data.index(b"<game gamecode") :]
        ),
        Counter({"error": 2}),
    ),
    (
        "hands inside a declaration left open (its ?> flipped) are each a hand (fuzz)",
        lambda data: (
            data.replace(b"?>", b"??", 1)[: second_game(data) + 40]
            + b"\x01"
            + data[second_game(data) + 40 :]
        ),
        Counter({"error": 2}),
    ),
    (
        "a broken preamble is a finding, not a hand",
        lambda data: data.replace(b"<mode>real</mode>", b"<mode>real</mod>", 1),
        Counter({"error": 2, "stray": 1}),
    ),
]


@pytest.mark.parametrize(
    ("edit", "expected"), [case[1:] for case in EDITS], ids=[case[0] for case in EDITS]
)
def test_damaged_xml_counts_every_hand_once(
    tmp_path: Path, edit: Callable[[bytes], bytes], expected: Counter[str]
) -> None:
    counts, ids = outcomes(ipoker_session(tmp_path, edit))
    assert counts == expected
    assert len(ids) == 2 and ids[0], ids


def test_a_long_token_is_fed_to_expat_in_linear_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A work counter, not a timing: expat (before 2.6) scans a token again from its start at
    every feed, so the bytes it scans while inside one 8 MB attribute must stay a small
    multiple of it (fed in 16 KB pieces, it scanned the token 512 times)."""
    fed: list[int] = []

    class Counting(xml_reader.DefusedXMLParser):  # type: ignore[misc, name-defined]
        def feed(self, data: bytes) -> None:
            fed.append(len(data))
            super().feed(data)

    monkeypatch.setattr(xml_reader, "DefusedXMLParser", Counting)
    size = 8 << 20
    data = (
        b'<?xml version="1.0" encoding="utf-8"?><session sessioncode="1"><general>'
        b"<gametype>7 Card Stud L $0.05/$0.10</gametype></general>"
        b'<game gamecode="2" note="' + b"x" * size + b'"><general/></game></session>'
    )
    path = tmp_path / "long.xml"
    path.write_bytes(data)
    texts = list(open_history(path).hand_texts())
    assert len(texts) == 1 and not texts[0].stray
    # expat's work: at each feed it scans the open token from its start, all fed so far
    work = sum(sum(fed[: i + 1]) for i in range(len(fed)))
    assert work <= 4 * len(data), (work, len(fed))


def test_file_offsets_cost_linear_work_in_a_mis_encoded_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The 117-hand iPoker session with one byte that is not UTF-8 near its start (a fuzz
    input: 4.7 s of CPU, each hand's offset walked again from the chunk's start): the
    characters walked to map the hands' offsets back to the file are fewer than the file's."""
    data = corpus_file(*XML_FILES[1]).read_bytes()
    at = data.index(b"<game")
    path = tmp_path / "one-cp1252-byte.xml"
    path.write_bytes(data[:at] + b"<!-- \xe9 -->" + data[at:])
    walked: list[int] = []
    real = encoding_module._utf8_span

    def counted(text: str, raw: bytes, start: int) -> int:
        walked.append(len(text))
        return real(text, raw, start)

    monkeypatch.setattr(encoding_module, "_utf8_span", counted)
    hands = [hand for hand in open_history(path).hand_texts() if not hand.stray]
    assert len(hands) == 117
    assert sum(walked) <= len(data)
    written = path.read_bytes()
    assert all(written[hand.source.offset :].startswith(b"<game") for hand in hands)


def test_a_declaration_left_open_to_the_end_swallows_no_hand(tmp_path: Path) -> None:
    """A fuzz input of 2026-12-04: the `?>` of a 292 KB iPoker export's declaration damaged,
    with no `?>` after it, so expat reads the whole file as one processing instruction. Its 117
    hands were cut from the first 64 KB only (22 read, 95 lost) and numbered from line 1: each
    is a hand now, at its own line."""
    data = corpus_file(*XML_FILES[1]).read_bytes().replace(b"?>", b"?\xef\xbf\xbd", 1)
    path = tmp_path / "open-declaration.xml"
    path.write_bytes(data)
    tags = [m.start() for m in re.finditer(rb"<game gamecode=", data)]
    assert len(tags) == 117 and b"?>" not in data
    hands = [hand for hand in open_history(path).hand_texts() if not hand.stray]
    assert [hand.source.offset for hand in hands] == tags
    assert [hand.source.line for hand in hands] == [data.count(b"\n", 0, at) + 1 for at in tags]
