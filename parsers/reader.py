"""From paths to parsed hands: find each file's rooms, split it, parse each hand.

This is the parsers stage's whole public surface for the pipeline:
`open_history(path).hand_texts()` streams hand texts, `parse_hand` turns one into a
`ParsedHand`, and `parse_file` chains both.

Rooms are found in the whole stream, not in a file's first lines: a file whose first hand comes
after a preamble, a file holding the hands of several rooms (each hand gets its own room), and a
gzip or zip export are all read through. Text that starts no room's hand is a stray text (a
problem with its line, FIL001, never a hand); a file with no text at all (empty, a byte-order
mark only, binary data) is junk, said so, and yields nothing.
"""

from __future__ import annotations

import gzip
import re
import traceback
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO, Final

from studdraw.parsers.files import (
    CHUNK_SIZE,
    SNIFF_SIZE,
    Encoding,
    decode_head,
    display_path,
    iter_lines,
    split_lines,
)
from studdraw.parsers.mixed import line_start, split_rooms, strays_marked
from studdraw.parsers.model import HandText, ParsedHand, SourceRef
from studdraw.parsers.problems import Code, Problem, Stage
from studdraw.parsers.room import Room
from studdraw.parsers.rooms import BY_NAME, ROOMS, sniff
from studdraw.parsers.scan import scan_starts
from studdraw.parsers.xml.room import XmlRoom

GZIP_MAGIC: Final = b"\x1f\x8b"
ZIP_MAGICS: Final = (b"PK\x03\x04", b"PK\x05\x06")
MAX_REASON: Final = 300
"""Characters of a problem's message kept: a reason is a sentence, never a 16 MB line."""
_NO_START: Final = re.compile(r"(?!)")

DecompressionErrors: Final = (EOFError, zlib.error, zipfile.BadZipFile, gzip.BadGzipFile)


class DamagedArchiveError(OSError):
    """A gzip or zip export that cannot be read through (truncated, corrupted)."""


def _line_rooms() -> tuple[Room, ...]:
    """Rooms that cut their files line by line (the others read a whole file their own way)."""
    return tuple(room for room in ROOMS if not room.whole_files)


LINE_ROOMS: Final = _line_rooms()
XML_ROOMS: Final = tuple(room for room in ROOMS if isinstance(room, XmlRoom))
MIXED_ROOMS: Final = LINE_ROOMS + XML_ROOMS
"""The rooms a file of several rooms' hands is cut by: XML documents may sit among text hands."""
_MIXED_STARTS: Final = tuple(line_start(room) for room in MIXED_ROOMS)


@dataclass(slots=True, frozen=True)
class HistoryPart:
    """One stream of history text: the file itself, its gzip content, or a member of its zip.

    rooms: the rooms whose hands it holds, in order of first appearance (the first two found);
    junk: why it holds no text at all (empty, a byte-order mark only, binary), else None.
    """

    name: str
    member: str | None
    encoding: Encoding
    head: str
    rooms: tuple[Room, ...]
    junk: str | None = None
    unreadable: str | None = None
    """Why a zip member cannot be read (encrypted, corrupt): a finding, the rest is read."""
    preamble: bool = False
    """Text before its XML room's document (a line pasted above it): the part is cut as one of
    several rooms', so that text is a stray and the document is read from its declaration."""

    @property
    def whole_file(self) -> bool:
        """Whether its one room reads the whole stream its own way (not line by line)."""
        return len(self.rooms) == 1 and self.rooms[0].whole_files and not self.preamble


@dataclass(slots=True, frozen=True)
class HistoryFile:
    """A hand-history file: its parts (one, or a zip's members) and the rooms found in them."""

    path: Path
    parts: tuple[HistoryPart, ...]
    compression: str | None = None  # "gzip", "zip" or None

    @property
    def room(self) -> Room | None:
        """The room of the file's first hand (None when no room's hand starts anywhere)."""
        return next((part.rooms[0] for part in self.parts if part.rooms), None)

    @property
    def encoding(self) -> Encoding:
        return self.parts[0].encoding if self.parts else Encoding("utf-8", 0)

    @property
    def head(self) -> str:
        return self.parts[0].head if self.parts else ""

    @property
    def junk(self) -> str | None:
        """Why the file holds nothing to read, when none of its parts does."""
        if not self.parts:
            return "an empty archive" if self.compression == "zip" else "an empty file"
        reasons = [part.junk for part in self.parts]
        return reasons[0] if all(reasons) else None

    @property
    def note(self) -> str | None:
        """What to say of the file beyond its counts: junk, no room's hand, or several rooms."""
        if self.junk is not None:
            return f"{self.junk}: no hands"
        if self.room is None:
            return "no room's hand starts in this file"
        if len({room.name for part in self.parts for room in part.rooms}) > 1:
            return "holds the hands of several rooms"
        return None

    @property
    def single_room(self) -> bool:
        """One plain part of one line room: what a byte range of the file can be split as."""
        return (
            self.compression is None
            and len(self.parts) == 1
            and len(self.parts[0].rooms) == 1
            and not self.parts[0].rooms[0].whole_files
        )

    def hand_texts(self, name: str | None = None) -> Iterator[HandText]:
        """Stream the file's hands (and stray texts) in order; `name` is what their source
        path says (default: the file's path). Raises OSError when the file cannot be read.
        A zip is opened once for all its members (its central directory read once); a member
        that cannot be read is a finding with its name, and the next member is read."""
        if self.compression == "zip":
            try:
                with self.path.open("rb") as raw, zipfile.ZipFile(raw) as archive:
                    for part in self.parts:
                        yield from _member_hand_texts(archive, part, name)
            except DecompressionErrors as error:
                raise DamagedArchiveError(f"damaged zip archive: {error}") from None
            return
        for part in self.parts:
            shown = part.name if name is None else _renamed(part, name)
            try:
                with _open_stream(self.path, self.compression) as stream:
                    yield from _part_hand_texts(part, stream, shown)
            except DecompressionErrors as error:
                raise DamagedArchiveError(f"damaged {self.compression} archive: {error}") from None


MemberErrors: Final = (RuntimeError, NotImplementedError, *DecompressionErrors)
"""What reading one zip member raises when it is encrypted, compressed in a way Python does
not read, or corrupt (a bad CRC, a broken deflate stream)."""


def _member_hand_texts(
    archive: zipfile.ZipFile, part: HistoryPart, name: str | None
) -> Iterator[HandText]:
    shown = part.name if name is None else _renamed(part, name)
    reason = part.unreadable
    if reason is None:
        try:
            with archive.open(part.member or "") as stream:
                yield from _part_hand_texts(part, stream, shown)  # type: ignore[arg-type]
            return
        except MemberErrors as error:
            reason = member_failure(error)
    yield unreadable_member(shown, reason)


def member_failure(error: BaseException) -> str:
    """Why a zip member cannot be read, in a few words (never the exception's own text)."""
    text = str(error)
    if "encrypted" in text or "password" in text:
        return "it is encrypted (a password is needed)"
    if isinstance(error, NotImplementedError):
        return "it is compressed in a way studdraw does not read"
    if "CRC" in text:
        return "it is damaged (its content fails its checksum)"
    if isinstance(error, EOFError):
        return "it is damaged (it ends early)"
    return "it is damaged (its compressed data is corrupt)"


def unreadable_member(shown: str, reason: str) -> HandText:
    """The finding of a zip member that cannot be read: a stray text (FIL001), no hand."""
    message = f"the archive member {shown.rsplit('!/', 1)[-1]!r} cannot be read: {reason}"
    problem = Problem(Code.FIL001, Stage.READ, shown, 1, _bounded(message))
    return HandText("", SourceRef(shown, 0, 1), None, problem, stray=True)


def shown_member(member: str) -> str:
    """A member name as text a terminal shows as it is: control characters (escape
    sequences) written as \\xNN."""
    if member.isprintable():
        return member
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in member)


def _renamed(part: HistoryPart, name: str) -> str:
    return name if part.member is None else f"{name}!/{shown_member(part.member)}"


def _part_hand_texts(part: HistoryPart, stream: BinaryIO, name: str) -> Iterator[HandText]:
    if part.junk is not None:
        return
    if not part.rooms:  # text, but no room's hand anywhere: one stray text, never a hand
        yield from split_lines(iter_lines(stream, part.encoding), _NO_START, name, None)
        return
    if part.whole_file:  # a room that reads whole files its own way says what a hand is
        yield from part.rooms[0].hand_texts(stream, part.encoding, name)
        return
    if len(part.rooms) == 1 and not part.rooms[0].whole_files:
        room = part.rooms[0]
        yield from strays_marked(room, room.hand_texts(stream, part.encoding, name))
        return
    lines = iter_lines(stream, part.encoding)
    yield from split_rooms(lines, MIXED_ROOMS, name, part.encoding.is_utf16)


@contextmanager
def _open_stream(path: Path, compression: str | None) -> Iterator[BinaryIO]:
    with path.open("rb") as raw:
        if compression == "gzip":
            with gzip.GzipFile(fileobj=raw, mode="rb") as unpacked:
                yield unpacked  # type: ignore[misc]
        else:
            yield raw


def open_history(path: Path) -> HistoryFile:
    """Find a file's encoding and rooms (reading the whole stream); raises OSError when it
    cannot be read (a damaged archive included)."""
    with path.open("rb") as stream:
        magic = stream.read(4)
    try:
        if magic.startswith(GZIP_MAGIC):
            with _open_stream(path, "gzip") as stream:
                part = _analyse(stream, None, display_path(path))
            return HistoryFile(path, (part,), "gzip")
        if magic in ZIP_MAGICS:
            return HistoryFile(path, _zip_parts(path), "zip")
    except DecompressionErrors as error:
        raise DamagedArchiveError(f"damaged archive: {error}") from None
    with path.open("rb") as stream:
        return HistoryFile(path, (_analyse(stream, None, display_path(path)),))


def _zip_parts(path: Path) -> tuple[HistoryPart, ...]:
    """The members of a zip, each analysed through one open archive; a member that cannot be
    read is a part that says why."""
    name = display_path(path)
    parts: list[HistoryPart] = []
    with path.open("rb") as raw, zipfile.ZipFile(raw) as archive:
        members = sorted(info.filename for info in archive.infolist() if not info.is_dir())
        for member in members:
            shown = f"{name}!/{shown_member(member)}"
            try:
                with archive.open(member) as stream:
                    parts.append(_analyse(stream, member, shown))  # type: ignore[arg-type]
            except MemberErrors as error:
                failure = member_failure(error)
                parts.append(
                    HistoryPart(shown, member, Encoding("utf-8", 0), "", (), None, failure)
                )
    return tuple(parts)


def _analyse(stream: BinaryIO, member: str | None, name: str) -> HistoryPart:
    head_bytes = stream.read(SNIFF_SIZE)
    encoding, head = decode_head(head_bytes)
    room = sniff(head)
    if room is not None and room.whole_files:
        if not isinstance(room, XmlRoom):
            return HistoryPart(name, member, encoding, head, (room,))
        # Text hands after the XML document, or another XML room's hands in it, make the file
        # one of several rooms.
        others = _OTHER_ROOMS[room.name]
        after = []
        if encoding.is_utf16 or _holds_other_hands(stream, _OTHER_TAGS[room.name]):
            after = scan_starts(stream, encoding, _OTHER_STARTS[room.name], 1)
        rooms = (room, *(others[i] for i in after))
        preamble = not head.lstrip("\ufeff \t\r\n").startswith("<")
        return HistoryPart(name, member, encoding, head, rooms, preamble=preamble)
    found = scan_starts(stream, encoding, _MIXED_STARTS)
    rooms = tuple(MIXED_ROOMS[i] for i in found)
    junk = None if rooms else junk_reason(head_bytes, encoding, head)
    return HistoryPart(name, member, encoding, head, rooms, junk)


_TEXT_LINE: Final = re.compile(rb"[\r\n][ \t]*[^<\s]")
"""A line that starts with neither a tag nor a blank: what XML exports never hold, and every
text room's hand start is."""

_OTHER_ROOMS: Final = {
    room.name: LINE_ROOMS + tuple(other for other in XML_ROOMS if other is not room)
    for room in XML_ROOMS
}
"""The rooms whose hands may follow or sit among an XML room's document."""
_OTHER_STARTS: Final = {
    name: [line_start(room) for room in rooms] for name, rooms in _OTHER_ROOMS.items()
}
_OTHER_TAGS: Final = {
    room.name: re.compile(
        "|".join(other.hand_start.pattern for other in XML_ROOMS if other is not room).encode()
    )
    for room in XML_ROOMS
}
"""Another XML room's hand start, as bytes (an iPoker session pasted into a Boss export)."""
_TAIL: Final = 64
"""Bytes of a chunk searched again with the next one: a hand start tag cut between them."""


def _holds_other_hands(stream: BinaryIO, tags: re.Pattern[bytes]) -> bool:
    """Whether an 8-bit stream has a line outside markup or another XML room's hand start
    (bytes searches, ten times the speed of the full search for the other rooms' hand starts
    it spares XML files)."""
    stream.seek(0)
    carry = b"\n"
    while chunk := stream.read(CHUNK_SIZE):
        data = carry + chunk
        if _TEXT_LINE.search(data) or tags.search(data):
            return True
        carry = data[-_TAIL:]
    return False


_CONTROL: Final = frozenset(range(32)) - {9, 10, 12, 13}


def junk_reason(head: bytes, encoding: Encoding, text: str) -> str | None:
    """Why a stream without any hand holds nothing to read, judged from its first bytes; None
    for text (which is kept as a stray text)."""
    if not head:
        return "an empty file"
    if len(head) == encoding.bom:
        return "only a byte-order mark, no text"
    if not text.strip(" \t\r\n\f\x00\ufeff"):
        return "only blank space, no text"
    body = head[encoding.bom :] if not encoding.is_utf16 else text.encode("utf-8", "replace")
    controls = sum(1 for byte in body if byte in _CONTROL)
    if controls * 20 > len(body):  # over 5% of control bytes: not a text export
        return "binary data, not text"
    return None


def _bounded(message: str) -> str:
    """A problem's message as one short line: never empty, never megabytes."""
    text = " ".join(message.split()) or "no reason given"
    return text if len(text) <= MAX_REASON else text[: MAX_REASON - 1] + "…"


def stray_message(hand: HandText) -> str:
    excerpt = hand.text.split("\n", 1)[0].strip()[:80]
    return f"text that starts no room's hand: {excerpt!r}"


def parse_hand(hand: HandText) -> ParsedHand:
    """Parse one hand text with its room's reader; never raises. Every problem's message is
    one bounded sentence; a room's own failure is reported with where it happened."""
    path, line = hand.source.path, hand.source.line
    if hand.stray:  # its own finding (an XML room's), or the excerpt of text no room starts
        message = hand.problem.message if hand.problem is not None else stray_message(hand)
        problem = Problem(Code.FIL001, Stage.READ, path, line, _bounded(message))
        return ParsedHand(hand, None, problem=problem)
    room = BY_NAME.get(hand.room) if hand.room else None
    if room is None:
        problem = Problem(Code.UNS001, Stage.READ, path, line, "no room recognises this file")
        return ParsedHand(hand, None, problem=problem)
    if hand.problem is not None:
        problem = replace(hand.problem, message=_bounded(hand.problem.message))
        return ParsedHand(hand, room.hand_id(hand.text), problem=problem)
    try:
        parsed = room.parse(hand)
    except Exception as error:  # a room's bug must not stop anything: report it as data
        message = f"the {room.name} reader failed on this hand ({describe_failure(error)})"
        problem = Problem(Code.INT001, Stage.PARSE, path, line, _bounded(message))
        return ParsedHand(hand, None, problem=problem)
    found = parsed.problem
    if found is not None and _bounded(found.message) != found.message:
        parsed = replace(parsed, problem=replace(found, message=_bounded(found.message)))
    return parsed


def describe_failure(error: BaseException) -> str:
    """An internal failure in a few words: its kind, its message (or none) and where it was
    raised (file:line of the innermost frame), never an empty "AssertionError"."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    detail = str(error).strip()
    detail = f": {detail}" if detail else ""
    return _bounded(f"{type(error).__name__}{detail}{where}")


def parse_file(path: Path) -> Iterator[ParsedHand]:
    for hand in open_history(path).hand_texts():
        yield parse_hand(hand)
