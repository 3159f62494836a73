"""Reading hand-history files: encodings, line ends, and cutting a file into hand texts.

Rooms export UTF-8 (with or without BOM), UTF-16 LE/BE (with or without BOM) and cp1252, with
LF, CRLF or bare CR line ends. Everything here streams: a file is read in chunks and hands are
yielded one by one, so a 1 GB export never sits in memory whole. Every hand keeps the byte
offset and the 1-based number of its first line, so every later message can point back at it.
"""

from __future__ import annotations

import codecs
import dataclasses
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Final, NamedTuple

from studdraw.parsers.model import HandText, SourceRef
from studdraw.parsers.problems import Code, Problem, Stage

CHUNK_SIZE: Final = 1 << 20
SNIFF_SIZE: Final = 8192


IGNORED_SUFFIXES: Final = frozenset(
    {".hp", ".hands", ".gt", ".md", ".json", ".jsonl", ".csv", ".py", ".png", ".parquet", ".duckdb"}
)
"""File endings `discover_files` passes over in a folder: FPDB's expected-output files
(.hp, .hands, .gt), notes, data and code. Every other file is offered to the room sniffers, so a
history from a room studdraw does not read is counted as unsupported instead of being skipped."""


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
        # Pairs of zero bytes (a NUL tail or padding, in any encoding) tell nothing: only the
        # other pairs are weighed.
        pairs = zip(sample[0::2], sample[1::2], strict=False)  # an odd last byte pairs with none
        nul_pairs = sum(1 for low, high in pairs if not low | high)
        zeros_even = sample[0::2].count(0) - nul_pairs
        zeros_odd = sample[1::2].count(0) - nul_pairs
        half = len(sample) // 2 - nul_pairs
        # ASCII-range text in UTF-16 has a zero in every other byte.
        if half >= 2 and zeros_odd > half * 0.6 and zeros_even < half * 0.1:
            return Encoding("utf-16-le", 0)
        if half >= 2 and zeros_even > half * 0.6 and zeros_odd < half * 0.1:
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


LINE_END_BLANKS: Final = " \t"
"""White space dropped from the end of every line as it is read: forums, mail, editors and
converters add or strip it, and it never means anything in a hand history. Every splitter and
reader sees the line without it, so such a rewrite of a file yields the same hand texts (and
content hashes) as the file as the room wrote it."""
_BLANK_LINE_ENDS: Final = re.compile(r"[ \t]+$", re.MULTILINE)


def without_line_end_blanks(text: str) -> str:
    """`text` (lines ended by LF) without white space at the end of any line."""
    if " \n" in text or "\t\n" in text or text.endswith((" ", "\t")):
        return _BLANK_LINE_ENDS.sub("", text)
    return text


class Line(NamedTuple):
    """A line without its terminator nor the blanks before it (`LINE_END_BLANKS`), with the
    byte offset of its start and its 1-based number.

    cut: 0, or the line's whole length in bytes when it ran over `MAX_LINE` and `text` is only
    an excerpt of it (see `cut_line`).

    A named tuple, not a frozen dataclass: one is made per line read, and a tuple is made five
    times faster.
    """

    text: str
    offset: int
    number: int
    cut: int = 0


MAX_LINE: Final = 1 << 20
"""The longest line kept whole, in bytes (characters in UTF-16). Rooms print lines of a few
hundred characters; a longer one is damage (a NUL tail, a binary blob), kept as an excerpt so a
50 MB line costs neither memory nor time, and its hand becomes a reject saying so."""
MAX_HAND: Final = 4 << 20
"""The longest hand text kept whole, in characters; past it the text is an excerpt and the hand
a reject (a hand start followed by megabytes of lines is damage too)."""
MAX_STRAY: Final = 4096
"""Characters kept of text that starts no room's hand (a problem, FIL001, not a hand)."""
EXCERPT: Final = 200
"""Characters kept of a line over `MAX_LINE`."""
LINE_END: Final = re.compile(rb"\r\n|\r|\n")
_TEXT_LINE_END: Final = re.compile(r"\r\n|\r|\n")


class LineStarts:
    """Where a pattern matches at the start of a line, in decoded text (the line ends the
    splitters know: CR, LF, CRLF), found by one search for a line end followed by the pattern.

    Text without a CR of its own (LF or CRLF line ends, what every room but the oldest writes)
    is searched for a literal LF, which the regex engine skips to at memchr speed: a line-end
    character class is tried at every position instead (a third of a scan's time). A match
    ends where the line begins, whichever search found it."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._after_lf = re.compile(f"\n(?={pattern})", flags)
        self._after_any = re.compile(f"[\r\n](?={pattern})", flags)

    def finder(self, text: str) -> re.Pattern[str]:
        """The search to run over `text`: the literal-LF one unless a CR ends a line by itself
        in it."""
        if "\r" in text and text.count("\r") != text.count("\r\n"):
            return self._after_any
        return self._after_lf


def cut_line(excerpt: str, length: int) -> str:
    """The text kept of a line of `length` bytes that ran over `MAX_LINE`."""
    return f"{excerpt}… [a line of {length:,} bytes, cut]"


def iter_lines(stream: BinaryIO, encoding: Encoding) -> Iterator[Line]:
    """Yield the lines of a binary stream, positioned at its start, with exact byte offsets.

    Linear in the input whatever its shape: line ends are found with one search each, and a line
    longer than `MAX_LINE` is skipped through chunk by chunk, only its excerpt kept."""
    stream.seek(encoding.bom)
    if encoding.is_utf16:
        yield from _iter_utf16_lines(stream, encoding)
    else:
        yield from iter_byte_lines(stream, encoding.bom, 1)


def iter_byte_lines(stream: BinaryIO, start: int, first_number: int) -> Iterator[Line]:
    """Lines of a UTF-8/cp1252 stream positioned at byte `start`, numbered from `first_number`.

    Each chunk is cut at its line ends by `bytes.splitlines` (CR, LF and CRLF, as the rooms
    write them); its last piece, a line that runs on or a CR that may pair with the next
    chunk's LF, waits for the next chunk."""
    offset = start
    number = first_number
    carry = b""  # the start of the current line (only its excerpt once it runs over MAX_LINE)
    dropped = 0  # bytes of the current line skipped after its excerpt
    while True:
        chunk = stream.read(CHUNK_SIZE)
        pieces = (carry + chunk if carry else chunk).splitlines(keepends=True)
        # The line running on into the next chunk (no line end yet, or a CR that may pair with
        # an LF), or the file's unended last line: kept apart from the whole lines.
        last = pieces[-1] if pieces else b"\n"
        ended = last.endswith(b"\n") or (not chunk and last.endswith(b"\r"))
        rest = b"" if ended else pieces.pop()
        for piece in pieces:
            ending = 2 if piece.endswith(b"\r\n") else 1
            length = len(piece) - ending + dropped
            yield _byte_line(piece[:-ending], offset, number, length)
            offset += length + ending
            number += 1
            dropped = 0
        if not chunk:
            if rest or dropped:
                yield _byte_line(rest, offset, number, len(rest) + dropped)
            return
        if len(rest) + dropped > MAX_LINE:
            pending_cr = rest.endswith(b"\r")  # stays last: it may pair with an LF
            keep = rest[:EXCERPT]
            dropped += len(rest) - len(keep) - pending_cr
            carry = keep + (b"\r" if pending_cr else b"")
        else:
            carry = rest


def _byte_line(raw: bytes, offset: int, number: int, length: int) -> Line:
    """A line of `length` bytes (its terminator left out) of which `raw` was kept."""
    if length <= MAX_LINE:
        return Line(decode_line(raw).rstrip(LINE_END_BLANKS), offset, number)
    return Line(cut_line(decode_line(raw[:EXCERPT]), length), offset, number, length)


def _iter_utf16_lines(stream: BinaryIO, encoding: Encoding) -> Iterator[Line]:
    decoder = codecs.getincrementaldecoder(encoding.name)(errors="replace")
    offset = encoding.bom
    number = 1
    carry = ""
    dropped = 0  # bytes of the current line skipped after its excerpt
    while True:
        chunk = stream.read(CHUNK_SIZE)
        # Never `final=True`: a file that ends in a stray odd byte (some exports do) would get
        # a U+FFFD on its last line; the incomplete code unit is simply not text.
        data = carry + decoder.decode(chunk)
        position = 0
        start = max(len(carry) - 1, 0)
        while (found := _TEXT_LINE_END.search(data, max(position, start))) is not None:
            if chunk and found.end() == len(data) and found.group() == "\r":
                break
            text = data[position : found.start()]
            length = _utf16_length(text) + dropped
            yield _text_line(text, offset, number, length)
            offset += length + 2 * len(found.group())
            number += 1
            position, dropped = found.end(), 0
        rest = data[position:]
        if not chunk:
            if rest or dropped:
                yield _text_line(rest, offset, number, _utf16_length(rest) + dropped)
            return
        if 2 * len(rest) + dropped > MAX_LINE:
            pending_cr = rest.endswith("\r")
            keep = rest[:EXCERPT]
            dropped += _utf16_length(rest[len(keep) : len(rest) - pending_cr])
            carry = keep + ("\r" if pending_cr else "")
        else:
            carry = rest


def _text_line(text: str, offset: int, number: int, length: int) -> Line:
    if length <= MAX_LINE:
        return Line(text.rstrip(LINE_END_BLANKS), offset, number)
    return Line(cut_line(text[:EXCERPT], length), offset, number, length)


def _utf16_length(text: str) -> int:
    """Bytes a text takes in UTF-16: two per code unit, four for characters outside the BMP."""
    return len(text.encode("utf-16-le", "surrogatepass"))


def read_head(path: Path) -> tuple[Encoding, str]:
    """The file's encoding and its first few thousand characters, for room sniffing."""
    with path.open("rb") as stream:
        head = stream.read(SNIFF_SIZE)
    return decode_head(head)


def decode_head(head: bytes) -> tuple[Encoding, str]:
    """The encoding of a stream whose first bytes are `head`, and `head` decoded."""
    encoding = detect_encoding(head)
    body = head[encoding.bom :]
    if encoding.is_utf16:
        text = codecs.getincrementaldecoder(encoding.name)(errors="replace").decode(body)
    else:
        text = body.decode("utf-8", errors="ignore")
    return encoding, text


def split_lines(
    lines: Iterable[Line], hand_start: re.Pattern[str], path: str, room: str | None
) -> Iterator[HandText]:
    """Cut a stream of lines into hand texts, each starting at a line `hand_start` matches.

    Blank lines around hands are dropped. Non-blank text before the first hand start is yielded
    too, as a stray text (`HandText.stray`): a problem with its line (FIL001), never a hand. A
    line over `MAX_LINE`, or a hand over `MAX_HAND`, is kept as an excerpt and the hand gets its
    problem (FIL002).
    `chunked.split_stream` is the fast path with the same results.
    """
    buffer: list[str] = []
    first: Line | None = None
    stray = False
    size = 0  # characters in `buffer`, line ends included
    over = False  # a non-blank line came after the bound was reached
    cut: list[Line] = []  # the hand's lines over MAX_LINE
    for line in lines:
        if hand_start.match(line.text):
            if first is not None:
                text = "\n".join(buffer)
                yield hand_text(
                    text, first.offset, first.number, path, room, stray=stray, over=over, cut=cut
                )
            buffer, first, stray, size, over, cut = (
                [line.text],
                line,
                False,
                len(line.text),
                False,
                [],
            )
        elif first is None:
            if line.text.strip():
                buffer, first, stray, size, over, cut = (
                    [line.text],
                    line,
                    True,
                    len(line.text),
                    False,
                    [],
                )
        elif size <= (MAX_STRAY if stray else MAX_HAND):
            buffer.append(line.text)
            size += len(line.text) + 1
        elif line.text.strip():
            over = True
        if line.cut and first is not None and not stray and not over:
            cut.append(line)
    if first is not None:
        text = "\n".join(buffer)
        yield hand_text(
            text, first.offset, first.number, path, room, stray=stray, over=over, cut=cut
        )


def hand_text(
    text: str,
    offset: int,
    number: int,
    path: str,
    room: str | None,
    *,
    stray: bool = False,
    over: bool = False,
    cut: Sequence[Line] = (),
) -> HandText:
    """A cut text as a hand (or a stray text): its blank tail dropped (not that of a text cut
    for length), held to the bounds of its kind."""
    if not over:
        text = without_blank_tail(text)
    bound = MAX_STRAY if stray else MAX_HAND
    problem = line_too_long(path, cut[0]) if cut else None
    if over or len(text) > bound:
        text = text[:bound] + "\n… [cut: the text runs on]"
        if not stray and problem is None:
            problem = hand_too_long(path, number)
    source = SourceRef(path, offset, number)
    if stray:
        return HandText(text, source, room, stray=True)
    return HandText(text, source, room, problem)


def without_blank_tail(text: str) -> str:
    """A hand text without its trailing blank lines (lines of white space only), as the
    splitters cut it, and for a room's `tidy` that blanks lines of its own: found from the end,
    without splitting the text into lines."""
    end = len(text)
    while True:
        start = text.rfind("\n", 0, end) + 1  # where the last line left begins
        if text[start:end].strip():
            return text[:end]
        if not start:
            return ""
        end = start - 1


def hand_too_long(path: str, number: int) -> Problem:
    """The problem of a hand whose text runs over `MAX_HAND`."""
    message = (
        f"the hand starting on line {number} runs over {MAX_HAND:,} characters (no next hand "
        "start); it is kept as an excerpt"
    )
    return Problem(Code.FIL002, Stage.READ, path, number, message)


def line_too_long(path: str, line: Line) -> Problem:
    """The problem of a hand that holds a line over `MAX_LINE`."""
    message = (
        f"line {line.number} is {line.cut:,} bytes long, over the {MAX_LINE:,}-byte bound of a "
        "hand-history line; the hand is kept with an excerpt of it"
    )
    return Problem(Code.FIL002, Stage.READ, path, line.number, message)


def with_cut_lines(
    lines: Iterable[Line],
    split: Callable[[Iterator[Line]], Iterable[HandText]],
    hand_start: re.Pattern[str] | None = None,
) -> Iterator[HandText]:
    """Run a room's own splitter over `lines` with the shared splitter's bounds: a hand that
    holds a line cut to an excerpt (over `MAX_LINE`) gets its problem, and with `hand_start`,
    the lines of a hand past `MAX_HAND` characters are not passed on (the hand gets its problem),
    so a hand start followed by a gigabyte of lines costs no memory in the room's splitter."""
    cut: list[Line] = []
    over: set[int] = set()  # first lines of the hands cut for length

    def watched() -> Iterator[Line]:
        size, first, dropping = 0, 0, False
        for line in lines:
            if line.cut:
                cut.append(line)
            if hand_start is not None:
                if hand_start.match(line.text):
                    size, first, dropping = 0, line.number, False
                else:
                    size += len(line.text) + 1
                    if size > MAX_HAND and first and (dropping or line.text.strip()):
                        over.add(first)
                        dropping = True
                        continue
            yield line

    for hand in split(watched()):
        problem = hand.problem
        if (cut or over) and not hand.stray:
            first, last = hand.source.line, hand.source.line + hand.text.count("\n")
            inside = [line for line in cut if first <= line.number <= last]
            cut[:] = [line for line in cut if line.number > last]
            if inside and problem is None:
                problem = line_too_long(hand.source.path, inside[0])
            # The bound counts from the last hand start, which a room's hand may open with.
            started = min((number for number in over if first <= number <= last), default=None)
            if started is not None and problem is None:
                problem = hand_too_long(hand.source.path, started)
        yield hand if problem is hand.problem else dataclasses.replace(hand, problem=problem)


def display_path(path: Path | str) -> str:
    """A path as text that any store or terminal takes: bytes of the name that are not UTF-8
    (a name from another system) are shown as \\xNN escapes instead of failing later."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


PathProblem = Callable[[Path, str], None]
"""Told of each path that cannot be read while discovering files: the path and why."""


def discover_files(paths: Iterable[Path], on_problem: PathProblem | None = None) -> Iterator[Path]:
    """Files named on the command line, and hand-history files found recursively in folders,
    in a stable (sorted) order so every run sees the same sequence.

    Symlinked folders are followed, each folder read once (a symlink loop is told, not walked
    forever); a folder that cannot be read, or vanishes mid-walk, is told to `on_problem` with
    the reason and the walk goes on. Files are yielded as found: one that cannot be opened is
    the reader's to report."""
    tell = on_problem or (lambda _path, _reason: None)
    for path in paths:
        if _is_folder(path):
            yield from (found for found in sorted(_walk(path, tell)) if _regular(found, tell))
        else:  # named on the command line: read as asked (a pipe the user feeds included)
            yield path


_SPECIAL: Final = (
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


def _regular(path: Path, tell: PathProblem) -> bool:
    """Whether a path found in a folder is a regular file (a link to one included). A named
    pipe, a device (a link to /dev/zero), a socket would block or never end: told and
    skipped. A path that cannot be looked at is the reader's to report."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return True
    if stat.S_ISREG(mode):
        return True
    kind = next((name for test, name in _SPECIAL if test(mode)), "not a regular file")
    tell(path, f"{kind}, not a file: skipped (reading it could block or never end)")
    return False


def _is_folder(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # a symlink loop on Python < 3.12
        return False


def _walk(root: Path, tell: PathProblem) -> list[Path]:
    found: list[Path] = []
    seen: set[tuple[int, int]] = set()

    def failed(error: OSError) -> None:
        tell(Path(error.filename or root), error.strerror or str(error))

    for folder, dirs, names in os.walk(root, onerror=failed, followlinks=True):
        try:
            info = Path(folder).stat()
        except OSError as error:
            failed(error)
            dirs[:] = []
            continue
        if (info.st_dev, info.st_ino) in seen:
            tell(Path(folder), "a symlink loop: this folder is already being read")
            dirs[:] = []
            continue
        seen.add((info.st_dev, info.st_ino))
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(
            Path(folder, name)
            for name in names
            if not name.startswith(".") and Path(name).suffix.lower() not in IGNORED_SUFFIXES
        )
    return found
