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
        yield from _iter_byte_lines(stream, encoding.bom)


def _iter_byte_lines(stream: BinaryIO, start: int) -> Iterator[Line]:
    offset = start
    number = 1
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
        data = carry + decoder.decode(chunk, final=not chunk)
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
    than silently skipped.
    """
    buffer: list[str] = []
    first: Line | None = None
    for line in lines:
        if hand_start.match(line.text):
            if first is not None:
                yield _hand_text(buffer, first, path, site)
            buffer = [line.text]
            first = line
        elif first is None:
            if line.text.strip():
                buffer = [line.text]
                first = line
        else:
            buffer.append(line.text)
    if first is not None:
        yield _hand_text(buffer, first, path, site)


def _hand_text(buffer: list[str], first: Line, path: str, site: str | None) -> HandText:
    while buffer and not buffer[-1].strip():
        buffer.pop()
    return HandText("\n".join(buffer), SourceRef(path, first.offset, first.number), site)


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
