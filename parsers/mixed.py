"""Files that hold the hands of several rooms: each run of one room's lines goes to that room.

Concatenated exports mix rooms, and sometimes formats: an iPoker XML document with PokerStars
hands after it, or XML pasted into a text file. A run of text hands goes to its room's own
splitter; a run of XML (from a document's `<?xml` declaration or a hand element's start tag at
the start of a line, up to the next text room's hand start) is read by its XML room as a
document of its own. Every hand keeps its file's line and byte offset, so no hand of either kind
is lost into the other's text.
"""

from __future__ import annotations

import re
from array import array
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from functools import partial
from typing import Final

from studdraw.parsers.files import (
    CHUNK_SIZE,
    MAX_LINE,
    MAX_STRAY,
    Line,
    split_lines,
    with_cut_lines,
)
from studdraw.parsers.model import HandText, SourceRef
from studdraw.parsers.problems import Code, Problem, Stage
from studdraw.parsers.room import Room
from studdraw.parsers.xml.room import XmlRoom

XML_DECLARATION: Final = re.compile(r"\ufeff?[ \t]*<\?xml\b")
DECLARATION_LOOKAHEAD: Final = 8
"""Lines after an XML declaration searched for the start tag that names the document's room."""
_NO_START: Final = re.compile(r"(?!)")


def line_start(room: Room) -> re.Pattern[str]:
    """Where a room's run begins, matched at a line's start: an XML room's start tags may be
    indented, or follow the document's declaration and root tag on their line."""
    if isinstance(room, XmlRoom):  # a concatenated export's byte-order mark may lead
        return re.compile(rf"\ufeff?[ \t]*(?:<[^<>]*>[ \t]*)*?(?:{room.hand_start.pattern})")
    return room.hand_start


class _Lookahead:
    """Lines with a look ahead (an XML declaration's room is named by the lines after it)."""

    def __init__(self, lines: Iterator[Line]) -> None:
        self.lines = lines
        self.ahead: deque[Line] = deque()

    def next(self) -> Line | None:
        return self.ahead.popleft() if self.ahead else next(self.lines, None)

    def peek(self, count: int) -> list[Line]:
        while len(self.ahead) < count:
            line = next(self.lines, None)
            if line is None:
                break
            self.ahead.append(line)
        return list(self.ahead)[:count]


def split_rooms(
    lines: Iterator[Line], rooms: Sequence[Room], name: str, wide: bool = False
) -> Iterator[HandText]:
    """Cut a stream holding the hands of several rooms (text and XML): each run of one room's
    hands goes to that room, and text before the first hand is a stray text. `wide`: the
    stream is UTF-16 (two bytes a code unit), for the XML hands' file offsets."""
    starts = [(room, line_start(room)) for room in rooms]
    xml_starts = [(room, start) for room, start in starts if isinstance(room, XmlRoom)]
    any_start = re.compile("|".join(f"(?:{start.pattern})" for _, start in starts))
    xml_inside = re.compile(
        "|".join([XML_DECLARATION.pattern, *(room.hand_start.pattern for room, _ in xml_starts)])
    )
    source = _Lookahead(lines)

    def cut_before_xml(line: Line) -> Line | None:
        """Text pasted before an XML document on its first line ("my hand: <HISTORY ..."):
        the line from the document's start, the text before it left to the stray line."""
        found = xml_inside.search(line.text, 1) if xml_starts and not line.cut else None
        if found is None:
            return None
        lead = len(line.text[: found.start()].encode("utf-8", "replace"))
        at = line.offset + _file_column(line.text, lead, wide)
        return Line(line.text[found.start() :], at, line.number)

    def declared_room(line: Line) -> Room | None:
        """The XML room of the document a declaration line begins (its start tag on the
        same line, or on one of the next few), None when none follows."""
        rest = line.text[line.text.find("?>") + 2 :] if "?>" in line.text else ""
        for text in [rest, *(ahead.text for ahead in source.peek(DECLARATION_LOOKAHEAD))]:
            room = next((room for room, start in xml_starts if start.match(text)), None)
            if room is not None:
                return room
        return None

    def owner(line: Line | None) -> Room | None:
        if line is None:
            return None
        if xml_starts and XML_DECLARATION.match(line.text):
            return declared_room(line)
        if not any_start.match(line.text):
            return None
        return next((room for room, start in starts if start.match(line.text)), None)

    current = source.next()
    current_owner = owner(current)

    def run(room: Room | None) -> Iterator[Line]:
        """The current line and those after it, up to a hand start of another room."""
        nonlocal current, current_owner
        while current is not None:
            rest = cut_before_xml(current) if room is None else None
            rest_owner = owner(rest)
            if rest is not None and rest_owner is not None:
                yield current._replace(text=current.text[: len(current.text) - len(rest.text)])
                current, current_owner = rest, rest_owner
                return
            yield current
            current = source.next()
            current_owner = owner(current)
            if current_owner is not None and current_owner is not room:
                return

    if current is not None and current_owner is None:
        yield from split_lines(run(None), _NO_START, name, None)
    while current is not None and current_owner is not None:
        room, before = current_owner, current
        if isinstance(room, XmlRoom):
            yield from _xml_run(room, run(room), name, wide)
        else:
            hands = with_cut_lines(run(room), partial(_split_with, room, name), room.hand_start)
            yield from strays_marked(room, hands)
        if current is before:  # a splitter that read nothing: never loop on the same line
            current = source.next()
            current_owner = owner(current)


def _split_with(room: Room, name: str, lines: Iterator[Line]) -> Iterator[HandText]:
    return room.split(lines, name)


def strays_marked(room: Room, hands: Iterable[HandText]) -> Iterator[HandText]:
    """A room's hand texts, those that do not begin with its hand start marked stray (the
    text some rooms' splitters yield before a file's first hand)."""
    for hand in hands:
        if hand.stray or room.hand_start.match(hand.text):
            yield hand
        else:
            yield replace(hand, text=hand.text[:MAX_STRAY], stray=True, problem=None)


def _xml_run(room: XmlRoom, lines: Iterator[Line], name: str, wide: bool) -> Iterator[HandText]:
    """An XML document's lines read by its room, each hand moved to its place in the file: the
    room counts lines and offsets from the run's first line, in the UTF-8 text it is fed; a
    hand's offset is then mapped back to the file's bytes (UTF-16, cp1252, a byte-order mark
    left at a line's start by a concatenated export)."""
    file_offsets = array("q")  # each line's byte offset in the file
    fed_offsets = array("q")  # and in the UTF-8 text fed to the room
    starts: dict[int, str] = {}  # the text of lines a hand may start on, by index
    tag = f"<{room.hand_tag}".encode()
    first: list[Line] = []
    cut: list[Line] = []

    def chunks() -> Iterator[bytes]:
        pieces: list[bytes] = []
        size = fed = 0
        for line in lines:
            if not first:
                first.append(line)
            if line.cut:
                cut.append(line)
            text = line.text
            lead = 0
            if text.startswith("\ufeff"):  # not XML: the mark of the export it began
                text = text.lstrip("\ufeff")
                lead = (len(line.text) - len(text)) * (2 if wide else 3)
            data = text.encode("utf-8", "replace") + b"\n"
            file_offsets.append(line.offset + lead)
            fed_offsets.append(fed)
            if tag in data:
                starts[len(fed_offsets) - 1] = text
            fed += len(data)
            pieces.append(data)
            size += len(data)
            if size >= CHUNK_SIZE:
                yield b"".join(pieces)
                pieces, size = [], 0
        if pieces:
            yield b"".join(pieces)

    for hand in room.utf8_hand_texts(chunks(), name):
        index = min(max(hand.source.line, 1), len(file_offsets)) - 1
        column = max(0, hand.source.offset - fed_offsets[index])
        column = _file_column(starts.get(index, ""), column, wide)
        for done in [key for key in starts if key < index]:
            del starts[done]
        number = first[0].number + index
        problem = hand.problem
        if problem is not None:
            problem = replace(problem, line=first[0].number + problem.line - 1)
        source = SourceRef(hand.source.path, file_offsets[index] + column, number)
        yield replace(hand, source=source, problem=problem)
    for long_line in cut:
        message = (
            f"a line of {long_line.cut:,} bytes in an XML document among text hands is longer than "
            f"studdraw reads ({MAX_LINE:,} bytes): the hands on it are not read"
        )
        problem = Problem(Code.FIL001, Stage.READ, name, long_line.number, message)
        where = SourceRef(name, long_line.offset, long_line.number)
        yield HandText(long_line.text[:MAX_STRAY], where, None, problem, stray=True)


def _file_column(text: str, column: int, wide: bool) -> int:
    """The bytes in the file before the `column`-th UTF-8 byte of a line's `text`: as many
    for an ASCII start of a line; else its characters' size in the file's encoding."""
    prefix = text.encode("utf-8", "replace")[:column]
    if prefix.isascii():
        return column * (2 if wide else 1)
    chars = prefix.decode("utf-8", "ignore")
    if wide:
        return len(chars.encode("utf-16-le", "surrogatepass"))
    return len(chars) if _read_as_8bit(text) else column


def _read_as_8bit(text: str) -> bool:
    """Whether `decode_line` read a line as cp1252 or Latin-1 (a byte a character): it does
    when the line's bytes are not UTF-8."""
    for codec in ("cp1252", "latin-1"):
        try:
            raw = text.encode(codec)
        except UnicodeEncodeError:
            continue
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            return True
        return False
    return False
