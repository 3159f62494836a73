"""Reading hand-history files: encodings, line ends, and cutting a file into hand texts.

Rooms export UTF-8 (with or without BOM), UTF-16 LE/BE (with or without BOM) and cp1252, with
LF, CRLF or bare CR line ends. Everything here streams: a file is read in chunks and hands are
yielded one by one, so a 1 GB export never sits in memory whole. Every hand keeps the byte
offset and the 1-based number of its first line, so every later message can point back at it.
"""

from __future__ import annotations

import codecs
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Final

from studdraw.parsers.model import HandText, SourceRef

CHUNK_SIZE: Final = 1 << 20
SNIFF_SIZE: Final = 8192

_BYTE_LINE: Final = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)")
_TEXT_LINE: Final = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)")

IGNORED_SUFFIXES: Final = frozenset(
    {".hp", ".hands", ".gt", ".md", ".json", ".jsonl", ".csv", ".py", ".png", ".parquet", ".duckdb"}
)
"""File endings `discover_files` passes over in a folder: FPDB's expected-output files
(.hp, .hands, .gt), notes, data and code. Every other file is offered to the site sniffers, so a
history from a room without a dialect is counted as unsupported instead of being skipped."""


@dataclass(slots=True, frozen=True)
class Encoding:
    """How a file's bytes become text.

    name: "utf-8", "utf-16-le" or "utf-16-be". UTF-8 files fall back to cp1252 line by line
        where a line is not valid UTF-8 (old exports, or concatenated files of both kinds).
    bom: length of the byte-order mark to skip.
    """

    name: str
    bom: int

    @property
    def is_utf16(self) -> bool:
        return self.name.startswith("utf-16")


def detect_encoding(head: bytes) -> Encoding:
    """Tell the encoding from the first bytes of a file (BOM first, then the zero-byte pattern)."""
    if head.startswith(codecs.BOM_UTF8):
        return Encoding("utf-8", 3)
    if head.startswith(codecs.BOM_UTF16_LE):
        return Encoding("utf-16-le", 2)
    if head.startswith(codecs.BOM_UTF16_BE):
        return Encoding("utf-16-be", 2)
    sample = head[:4096]
    if len(sample) >= 4:
        zeros_even = sample[0::2].count(0)
        zeros_odd = sample[1::2].count(0)
        half = len(sample) // 2
        # ASCII-range text in UTF-16 has a zero in every other byte.
        if zeros_odd > half * 0.6 and zeros_even < half * 0.1:
            return Encoding("utf-16-le", 0)
        if zeros_even > half * 0.6 and zeros_odd < half * 0.1:
            return Encoding("utf-16-be", 0)
    return Encoding("utf-8", 0)


def decode_line(raw: bytes) -> str:
    """UTF-8 where valid, else cp1252, else Latin-1 (which decodes any byte)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        try:
            return raw.decode("cp1252")
        except UnicodeDecodeError:
            return raw.decode("latin-1")


@dataclass(slots=True, frozen=True)
class Line:
    """A line without its terminator, with the byte offset of its start and its 1-based number."""

    text: str
    offset: int
    number: int


def iter_lines(stream: BinaryIO, encoding: Encoding) -> Iterator[Line]:
    """Yield the lines of a binary stream, positioned at its start, with exact byte offsets."""
    stream.seek(encoding.bom)
    if encoding.is_utf16:
        yield from _iter_utf16_lines(stream, encoding)
    else:
        yield from _iter_byte_lines(stream, encoding.bom, 1)


def _iter_byte_lines(stream: BinaryIO, start: int, first_number: int) -> Iterator[Line]:
    """Lines of a UTF-8/cp1252 stream positioned at byte `start`, numbered from `first_number`."""
    offset = start
    number = first_number
    carry = b""
    while True:
        chunk = stream.read(CHUNK_SIZE)
        data = carry + chunk
        end = 0
        for match in _BYTE_LINE.finditer(data):
            raw = match.group()
            # A CR at the very end of a chunk may be the first half of a CRLF.
            if chunk and match.end() == len(data) and raw.endswith(b"\r"):
                break
            end = match.end()
            yield Line(decode_line(raw.rstrip(b"\r\n")), offset, number)
            offset += len(raw)
            number += 1
        carry = data[end:]
        if not chunk:
            if carry:
                yield Line(decode_line(carry), offset, number)
            return


def _iter_utf16_lines(stream: BinaryIO, encoding: Encoding) -> Iterator[Line]:
    decoder = codecs.getincrementaldecoder(encoding.name)(errors="replace")
    offset = encoding.bom
    number = 1
    carry = ""
    while True:
        chunk = stream.read(CHUNK_SIZE)
        # Never `final=True`: a file that ends in a stray odd byte (some exports do) would get
        # a U+FFFD on its last line; the incomplete code unit is simply not text.
        data = carry + decoder.decode(chunk)
        end = 0
        for match in _TEXT_LINE.finditer(data):
            text = match.group()
            if chunk and match.end() == len(data) and text.endswith("\r"):
                break
            end = match.end()
            yield Line(text.rstrip("\r\n"), offset, number)
            offset += _utf16_length(text)
            number += 1
        carry = data[end:]
        if not chunk:
            if carry:
                yield Line(carry, offset, number)
            return


def _utf16_length(text: str) -> int:
    """Bytes a text takes in UTF-16: two per code unit, four for characters outside the BMP."""
    return 2 * len(text) + 2 * sum(1 for char in text if ord(char) > 0xFFFF)


def read_head(path: Path) -> tuple[Encoding, str]:
    """The file's encoding and its first few thousand characters, for site sniffing."""
    with path.open("rb") as stream:
        head = stream.read(SNIFF_SIZE)
    encoding = detect_encoding(head)
    body = head[encoding.bom :]
    if encoding.is_utf16:
        text = codecs.getincrementaldecoder(encoding.name)(errors="replace").decode(body)
    else:
        text = body.decode("utf-8", errors="ignore")
    return encoding, text


def split_lines(
    lines: Iterable[Line], hand_start: re.Pattern[str], path: str, site: str | None
) -> Iterator[HandText]:
    """Cut a stream of lines into hand texts, each starting at a line `hand_start` matches.

    Blank lines around hands are dropped. Non-blank text before the first hand start is yielded
    too, as a hand text of its own, so a truncated hand at the top of a file is reported rather
    than silently skipped. `split_stream` is the fast path with the same results.
    """
    buffer: list[str] = []
    first: Line | None = None
    for line in lines:
        if hand_start.match(line.text):
            if first is not None:
                yield _hand_text(buffer, first.offset, first.number, path, site)
            buffer = [line.text]
            first = line
        elif first is None:
            if line.text.strip():
                buffer = [line.text]
                first = line
        else:
            buffer.append(line.text)
    if first is not None:
        yield _hand_text(buffer, first.offset, first.number, path, site)


def _hand_text(
    buffer: list[str], offset: int, number: int, path: str, site: str | None
) -> HandText:
    while buffer and not buffer[-1].strip():
        buffer.pop()
    return HandText("\n".join(buffer), SourceRef(path, offset, number), site)


_LEADING_BLANK_LINES: Final = re.compile(r"(?:[^\S\r\n]*(?:\r\n|\r|\n))*")


def split_stream(
    stream: BinaryIO, encoding: Encoding, hand_start: re.Pattern[str], path: str, site: str | None
) -> Iterator[HandText]:
    """`split_lines(iter_lines(...))` for UTF-8 files, chunk by chunk instead of line by line.

    A chunk is decoded at once, hand starts are found with one multiline search, and byte
    offsets and line numbers come from counting. The results are identical to the line path,
    which still serves UTF-16 files and takes over for the rest of a file at the first chunk
    that is not valid UTF-8 (cp1252 exports decode line by line).
    """
    if encoding.is_utf16:
        yield from split_lines(iter_lines(stream, encoding), hand_start, path, site)
        return
    # A line end followed by a hand start: the leading character class lets the regex engine
    # skip ahead quickly, where a look-behind would be tried at every position.
    starts = re.compile(r"[\r\n](?=" + hand_start.pattern + ")", hand_start.flags)
    stream.seek(encoding.bom)
    offset, number = encoding.bom, 1  # byte offset and line number where `pending` begins
    pending = ""  # decoded text not yet cut into hands
    carry = b""  # bytes after the last line end of the data read so far
    at_hand = False  # whether `pending` begins with a hand start
    while True:
        chunk = stream.read(CHUNK_SIZE)
        data = carry + chunk
        cut = data.rfind(b"\n") + 1 if chunk else len(data)
        if chunk and not cut:
            cut = data.rfind(b"\r", 0, len(data) - 1) + 1  # bare-CR files have no LF at all
        body, carry = data[:cut], data[cut:]
        try:
            pending += body.decode("utf-8")
        except UnicodeDecodeError:
            stream.seek(offset)
            lines = _iter_byte_lines(stream, offset, number)
            yield from split_lines(lines, hand_start, path, site)
            return
        found = [match.end() for match in starts.finditer(pending)]
        if hand_start.match(pending):
            found.insert(0, 0)
        if not chunk:
            found.append(len(pending))
        elif not found:
            continue
        begin = 0
        for end in found:
            if end == 0:
                at_hand = True
                continue
            segment = pending[begin:end]
            if at_hand:
                yield _segment_hand(segment, offset, number, path, site)
            else:
                blank = _LEADING_BLANK_LINES.match(segment)
                skip = blank.end() if blank else 0
                if segment[skip:].strip():
                    head = segment[:skip]
                    yield _segment_hand(
                        segment[skip:],
                        offset + _utf8_length(head),
                        number + _line_ends(head),
                        path,
                        site,
                    )
            offset += _utf8_length(segment)
            number += _line_ends(segment)
            begin, at_hand = end, True
        pending = pending[begin:]
        if not chunk:
            return


def _segment_hand(segment: str, offset: int, number: int, path: str, site: str | None) -> HandText:
    lines = segment.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return _hand_text(lines, offset, number, path, site)


def _utf8_length(text: str) -> int:
    return len(text.encode("utf-8"))


def _line_ends(text: str) -> int:
    return text.count("\n") + text.count("\r") - text.count("\r\n")


def discover_files(paths: Iterable[Path]) -> Iterator[Path]:
    """Files named on the command line, and hand-history files found recursively in folders,
    in a stable (sorted) order so every run sees the same sequence."""
    for path in paths:
        if path.is_dir():
            found: list[Path] = []
            for folder, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                found.extend(
                    Path(folder, name)
                    for name in files
                    if not name.startswith(".")
                    and Path(name).suffix.lower() not in IGNORED_SUFFIXES
                )
            yield from sorted(found)
        else:
            yield path
