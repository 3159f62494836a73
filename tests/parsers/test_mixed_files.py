"""Files that mix XML documents and text hands (concatenated exports, XML pasted among text
hands): every hand of each part is read as it is read alone, at its own line and offset, and
none is lost into the other's text (issue 41's drill: 26 hands read as 15)."""

from __future__ import annotations

import codecs
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studdraw.parsers.files import MAX_LINE
from studdraw.parsers.model import ParsedHand
from studdraw.parsers.reader import open_history, parse_hand
from tests.fuzz.inputs import real_hands, xml_files

pytestmark = pytest.mark.skipif(not xml_files(), reason="no XML export in the corpus or samples")


def _read(path: Path) -> list[ParsedHand]:
    return [parse_hand(text) for text in open_history(path).hand_texts()]


def _fates(parsed: list[ParsedHand]) -> list[tuple[object, ...]]:
    return [
        (
            p.hand.room,
            p.hand.stray,
            p.room_hand_id,
            p.problem.code if p.problem else None,
            p.record is not None,
        )
        for p in parsed
    ]


def _text_hands() -> list[str]:
    return [text for _, text in real_hands() if not text.lstrip().startswith("<")]


def _documents() -> list[bytes]:
    return [data for _, data in xml_files()]


@pytest.mark.parametrize("index", range(len(xml_files())))
def test_an_xml_document_between_text_hands_is_read_as_alone(tmp_path: Path, index: int) -> None:
    document = _documents()[index]
    text = _text_hands()[index * 7 % len(_text_hands())].encode()
    parts = {"before.txt": text, "doc.xml": document}
    alone = {}
    for name, data in parts.items():
        (tmp_path / name).write_bytes(data)
        alone[name] = _fates(_read(tmp_path / name))
    mixed = text + b"\n\n\n" + document + b"\n\n" + text
    path = tmp_path / "mixed.txt"
    path.write_bytes(mixed)
    read = _read(path)
    assert _fates(read) == alone["before.txt"] + alone["doc.xml"] + alone["before.txt"]
    lines = mixed.split(b"\n")
    for parsed in read:
        source, first = parsed.hand.source, parsed.hand.text.lstrip()[:16].encode()
        assert mixed[source.offset :].lstrip().startswith(first), (source, first)
        assert first in lines[source.line - 1], (source, first)


def test_text_hands_after_an_xml_document_are_hands(tmp_path: Path) -> None:
    document = _documents()[0]
    text = _text_hands()[0]
    path = tmp_path / "export.xml"
    path.write_bytes(document + b"\n" + text.encode())
    history = open_history(path)
    assert history.note == "holds the hands of several rooms"
    read = _read(path)
    assert not any(p.hand.stray for p in read)
    assert read[-1].hand.text == text


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.lists(st.sampled_from([text for _, text in real_hands()]), min_size=1, max_size=5),
    st.sampled_from(["\n", "\r\n"]),
)
def test_every_hand_start_of_any_rooms_mixed_is_one_hand(
    tmp_path: Path, hands: list[str], newline: str
) -> None:
    """Independent of the splitters: a file of intact hands of any rooms, text or XML, holds as
    many hands as were put in."""
    text = "\n\n\n".join(hands).replace("\n", newline)
    path = tmp_path / "mixed.txt"  # one file, written again for each example
    path.write_bytes(text.encode("utf-8"))
    texts = [hand for hand in open_history(path).hand_texts() if not hand.stray]
    assert len(texts) == len(hands)


def test_an_xml_line_too_long_to_read_among_text_hands_is_said_so(tmp_path: Path) -> None:
    document = _documents()[0].replace(b"\r", b"").replace(b"\n", b"")
    root = document.index(b">", document.index(b"?>") + 2) + 1
    root_end = document.index(b">", root) + 1  # after the tag after the root: a hand's start
    padding = b"<!-- " + b"x" * (MAX_LINE + 10) + b" -->"
    one_line = document[:root_end] + padding + document[root_end:]
    text = _text_hands()[0]
    path = tmp_path / "mixed.txt"
    path.write_bytes(text.encode() + b"\n\n\n" + one_line + b"\n\n" + text.encode())
    read = _read(path)
    findings = [p.problem.message for p in read if p.hand.stray and p.problem]
    assert any("longer than studdraw reads" in message for message in findings), findings
    assert [p.hand.text for p in read if p.hand.room == read[0].hand.room] == [text, text]


def _document(room: str) -> bytes:
    return next(data for name, data in xml_files() if name == room)


def _hands(path: Path) -> list[tuple[str | None, bool]]:
    return [(hand.room, hand.stray) for hand in open_history(path).hand_texts()]


def test_another_xml_rooms_hands_inside_an_xml_export_are_read(tmp_path: Path) -> None:
    """Boss hands pasted into an iPoker export (a fuzz input): they were read as part of
    the iPoker document, whose reader knows no <HISTORY>, and lost without a word."""
    ipoker, boss = _document("ipoker"), _document("boss")
    alone = {}
    for name, data in (("ipoker.xml", ipoker), ("boss.xml", boss)):
        (tmp_path / name).write_bytes(data)
        alone[name] = _hands(tmp_path / name)
    path = tmp_path / "both.xml"
    path.write_bytes(ipoker + b"\n" + boss + b"\n" + ipoker)
    assert _hands(path) == alone["ipoker.xml"] + alone["boss.xml"] + alone["ipoker.xml"]


def test_a_byte_order_mark_before_an_xml_document_among_text_hands(tmp_path: Path) -> None:
    """Exports concatenated with their byte-order marks: the mark left at a line's start does
    not hide the XML document after it (it was read into the text hand before it)."""
    text = _text_hands()[0].encode()
    document = _documents()[0]
    (tmp_path / "doc.xml").write_bytes(document)
    (tmp_path / "text.txt").write_bytes(text)
    expected = _fates(_read(tmp_path / "text.txt")) + _fates(_read(tmp_path / "doc.xml"))
    path = tmp_path / "concatenated.txt"
    path.write_bytes(text + b"\n\n\n" + codecs.BOM_UTF8 + document)
    read = _read(path)
    assert _fates(read) == expected
    xml = [parsed.hand for parsed in read if parsed.hand.room == read[-1].hand.room]
    data = path.read_bytes()
    assert all(data[hand.source.offset :].startswith(hand.text[:16].encode()) for hand in xml)


def test_xml_hands_among_utf16_text_hands_keep_their_file_offsets(tmp_path: Path) -> None:
    """The XML among text hands is fed to its room as UTF-8: a UTF-16 file's hands are at
    their own byte offsets (two bytes a character), not at the UTF-8 text's."""
    text = _text_hands()[0]
    document = _documents()[0].decode("utf-8")
    document = re.sub(r"<(game|HISTORY)\b", r"\t<\1", document)  # not at a line's start
    whole = text + "\n\n\n" + document + "\n\n" + text
    data = codecs.BOM_UTF16_LE + whole.encode("utf-16-le")
    path = tmp_path / "mixed-utf16.txt"
    path.write_bytes(data)
    hands = [hand for hand in open_history(path).hand_texts() if not hand.stray]
    assert len(hands) >= 3
    lines = whole.split("\n")
    for hand in hands:
        at = data[hand.source.offset :].decode("utf-16-le", errors="ignore")
        assert at.lstrip().startswith(hand.text[:16]), (hand.source, hand.text[:16])
        assert hand.text[:16] in lines[hand.source.line - 1]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16-le"])
@pytest.mark.parametrize("index", range(len(xml_files())))
def test_text_above_an_xml_document_is_a_stray_and_the_document_whole(
    tmp_path: Path, index: int, encoding: str
) -> None:
    """A line pasted above an export's XML declaration (a forum post, a note): that text is one
    stray text, and every hand is read with its document's context (the preamble broke the
    document: every hand was rejected for a missing session header), each on its own line."""
    name, data = xml_files()[index]
    alone_path = tmp_path / f"{name}.xml"
    alone_path.write_bytes(data)
    alone = _read(alone_path)
    document = data.decode("utf-8", errors="replace")
    preamble = "Here is the session I asked about:\n\n"
    path = tmp_path / "pasted.xml"
    bom = codecs.BOM_UTF16_LE if encoding == "utf-16-le" else b""
    path.write_bytes(bom + (preamble + document).encode(encoding))
    read = _read(path)
    assert [p.hand.stray for p in read[:1]] == [True]
    assert _fates(read[1:]) == _fates(alone)
    shift = preamble.count("\n")
    assert [p.hand.source.line for p in read[1:]] == [p.hand.source.line + shift for p in alone]


@pytest.mark.parametrize("index", range(len(xml_files())))
def test_text_before_an_xml_document_on_its_line_is_a_stray_and_the_document_whole(
    tmp_path: Path, index: int
) -> None:
    """Two fuzz inputs of 2026-12-04: text on the first line of a Boss export, before its
    first `<HISTORY` ("my hand: <HISTORY ..."), made the whole file one stray text (its hand
    never counted). The text is a stray, and every hand is read as in the file alone, at its
    offset past the text."""
    name, data = xml_files()[index]
    alone_path = tmp_path / f"{name}.xml"
    alone_path.write_bytes(data)
    alone = _read(alone_path)
    preamble = "My hand ♠ from last night: ".encode()
    path = tmp_path / "pasted-on-the-line.xml"
    path.write_bytes(preamble + data)
    read = _read(path)
    assert [p.hand.stray for p in read[:1]] == [True]
    assert _fates(read[1:]) == _fates(alone)
    assert [p.hand.source.line for p in read[1:]] == [p.hand.source.line for p in alone]
    assert [p.hand.source.offset for p in read[1:]] == [
        p.hand.source.offset + len(preamble) for p in alone
    ]
