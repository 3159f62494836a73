"""What the XML rooms (iPoker, Merge, Boss Media) share: hand texts cut from a file, read back
into element trees with file lines, and the `XmlRoom` base (the byte reader is xml/reader.py).

A hand text is the raw hand element as cut from the file (byte offset and line of its start tag)
followed by the context elements its room needs to read it alone (iPoker's session `<general>`,
Merge's `<description>`), rewritten with only the fields the room reads, so a worker parses any
hand text without the file and a re-exported session gives its hands the same texts. A hand
broken by an XML error, or cut from a refused file, is a text the room rejects with the reason.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import BinaryIO, ClassVar, Final

from defusedxml import DefusedXmlException

from studdraw.parsers.builder import HandBuilder, HandParseError
from studdraw.parsers.files import MAX_STRAY, Encoding
from studdraw.parsers.model import HandText, ParsedHand, SourceRef
from studdraw.parsers.problems import Code, Problem, Stage
from studdraw.parsers.room import HAND_ID_SPAN, Room
from studdraw.parsers.xml.encoding import (
    FileOffsets,
    declared_encoding,
    reading_codec,
    utf8_chunks,
)
from studdraw.parsers.xml.reader import (
    PROLOG_SIZE,
    XmlReader,
    XmlSink,
    read_xml,
)

_WRAP_START: Final = b"<studdraw-hand>"
_WRAP_END: Final = b"</studdraw-hand>"
_END_TAGS: Final = re.compile(rb"(?:\s*</[^<>]+>)*\s*")
"""What may follow the last hand after reading resumed: the end tags of its containers."""
REFUSED: Final = "refused XML: DTDs, entity declarations and external entities are not read"


# --- splitting a file into hand texts -------------------------------------------------------


def unknown_encoding(path: str, name: str) -> HandText:
    """The finding of a declaration naming an encoding no codec knows: no hand, a stray text
    (FIL001) that says how the file was read."""
    message = (
        f"the XML declaration names an encoding no reader knows ({name[:40]!r}); the file is "
        "read as UTF-8, with bytes that are not UTF-8 read as cp1252"
    )
    problem = Problem(Code.FIL001, Stage.READ, path, 1, message)
    return HandText(f'<?xml encoding="{name[:40]}"?>', SourceRef(path, 0, 1), None, problem, True)


@dataclass(slots=True)
class _Open:
    tag: str
    offset: int
    line: int
    depth: int


class HandCutter(XmlSink):
    """Cuts hand elements, with the context elements their room needs, out of a file."""

    def __init__(self, room: XmlRoom, path: str) -> None:
        self.room = room
        self.path = path
        self.depth = 0
        self.last = 0
        self.hand: _Open | None = None
        self.context_open: _Open | None = None
        self.context: dict[str, str] = {}
        self.context_attributes: list[str] = []
        self.field: str | None = None  # the context field whose text is being read
        self.broken_hand = False
        self.reason = ""  # the XML error of the broken text being cut
        self.fields: list[tuple[str, str]] = []
        self.ready: list[HandText] = []

    def start(self, tag: str, attributes: list[str], offset: int, line: int) -> bool:
        self.depth += 1
        self.last = offset
        context = self.context_open
        if context is not None and tag != self.room.hand_tag:
            if self.depth == context.depth + 1 and tag in self.room.context_fields:
                self.field = tag
            return False
        # A hand start tag inside a context element: the context was cut (no export nests a
        # hand in one), and the hand is read, not lost inside it.
        self.context_open = None
        if tag == self.room.hand_tag:
            self.hand = _Open(tag, offset, line, self.depth)
            return True  # read whole later: only its end is needed now
        if tag in self.room.context_tags:
            self.context_open = _Open(tag, offset, line, self.depth)
            self.context_attributes = attributes
            self.fields = []
        return False

    def data(self, text: str) -> None:
        if self.field is not None:
            self.fields.append((self.field, text))

    def end(self, tag: str, offset: int, line: int) -> None:
        assert self.reader is not None
        self.last = offset
        hand, context = self.hand, self.context_open
        if hand is not None and hand.depth == self.depth:
            raw = self.reader.raw(hand.offset, self.reader.element_end(offset))
            self._emit_hands(hand, raw)
            self.hand = None
        elif context is not None and context.depth == self.depth:
            self.context[tag] = self._canonical(tag)
            self.context_open = None
        self.field = None
        self.depth -= 1

    def _canonical(self, tag: str) -> str:
        """A context element rewritten with its attributes and the fields the room reads only:
        a session file exported again as it grows (duration, counts and totals change) gives
        its hands the same texts, so the store recognises them."""
        # Imported here: xml.sax.saxutils loads urllib.request (ssl, email, http), which would
        # slow every command's start for XML rooms' hands only (issue 15).
        from xml.sax.saxutils import escape, quoteattr  # noqa: PLC0415

        pairs = self.context_attributes
        attributes = "".join(
            f" {name}={quoteattr(value)}"
            for name, value in zip(pairs[::2], pairs[1::2], strict=True)
        )
        texts: dict[str, str] = {}
        for name, text in self.fields:
            texts[name] = texts.get(name, "") + text
        body = "".join(f"<{name}>{escape(text.strip())}</{name}>" for name, text in texts.items())
        return f"<{tag}{attributes}>{body}</{tag}>"

    def error(self, message: str, offset: int, line: int) -> tuple[int, int]:
        """The hand the error falls in runs, raw, to the next hand start tag, for the room to
        reject; an error outside hands makes a text of its own (nothing is skipped unseen).
        An error inside a hand's start tag (a damaged attribute: expat never reported the
        hand) breaks that hand, from its tag."""
        hand, self.hand, self.context_open, self.depth = self.hand, None, None, 0
        if hand is None:
            hand = self._hand_tag_before(offset, line)
        self.broken_hand = hand is not None
        self.reason = message
        self.last = offset
        return (hand.offset, hand.line) if hand is not None else (offset, line)

    def _hand_tag_before(self, offset: int, line: int) -> _Open | None:
        """The hand start tag between the last element event and the error, if any. Hand
        start tags before it there were never reported (markup the damage swallowed: a
        declaration whose `?>` was flipped runs as one processing instruction to the error):
        each is a hand of its own, to its successor, for the room to reject or read."""
        assert self.reader is not None
        raw = self.reader.raw(self.last, offset)
        starts = [found.start() for found in self.room.resync.finditer(raw)]
        if not starts:
            return None
        for begin, end in itertools.pairwise(starts):
            swallowed = _Open("", self.last + begin, line - raw.count(b"\n", begin), 0)
            self._emit(swallowed, self._decode(raw[begin:end]), with_context=False)
        return _Open("", self.last + starts[-1], line - raw.count(b"\n", starts[-1]), 0)

    def broken(self, raw: bytes, offset: int, line: int) -> None:
        """A broken hand (its start tag opens the text) is a hand the room rejects; other
        broken text (a preamble, junk between hands) is a finding, never a hand; only end tags,
        whose start tags came before reading resumed, are nothing. A broken hand holding
        another hand's start tag (it was cut, the next hand opened inside it) is two hands."""
        if self.broken_hand or self.room.resync.match(raw):
            self._emit_pieces(_Open("", offset, line, 0), raw, with_context=False)
        elif not _END_TAGS.fullmatch(raw):
            message = f"text that is no {self.room.title} hand, broken XML: {self.reason}"
            problem = Problem(Code.FIL001, Stage.READ, self.path, line, message)
            text = self._decode(raw[:MAX_STRAY])
            source = SourceRef(self.path, offset, line)
            self.ready.append(HandText(text, source, self.room.name, problem, stray=True))

    def refused(self, error: DefusedXmlException, offset: int, line: int) -> None:
        """A hand open when the refusal came is cut again, raw, with the rest of the file."""
        self.hand = self.context_open = None

    def refused_hand(self, prolog: bytes, raw: bytes, offset: int, line: int) -> None:
        """The refused document's start first (parsing it again gives the reason), then the
        hand: a hand text whose id `XmlRoom.hand_id` still finds."""
        text = self._decode(prolog) + ("\n" + self._decode(raw) if raw else "")
        self._emit(_Open("", offset, line, 0), text, with_context=False)

    def keep_from(self) -> int:
        opened = [e.offset for e in (self.hand, self.context_open) if e is not None]
        return min((*opened, self.last))

    def open_hand(self) -> bool:
        return self.hand is not None

    def _emit_hands(self, hand: _Open, raw: bytes) -> None:
        """A hand element as cut; one holding another hand's start tag lost its end tag (the
        inner hand's end closed it): each hand is a text of its own, the first rejected."""
        self._emit_pieces(hand, raw, with_context=True)

    def _emit_pieces(self, hand: _Open, raw: bytes, *, with_context: bool) -> None:
        starts = [found.start() for found in self.room.resync.finditer(raw, 1)]
        if not starts:
            self._emit(hand, self._decode(raw), with_context=with_context)
            return
        line = hand.line
        for begin, end in zip([0, *starts], [*starts, len(raw)], strict=True):
            piece = raw[begin:end]
            start = _Open("", hand.offset + begin, line, 0)
            self._emit(start, self._decode(piece), with_context=with_context)
            line += piece.count(b"\n")

    def _emit(self, start: _Open, text: str, *, with_context: bool) -> None:
        if with_context and self.context:
            text = "\n".join((text, *self.context.values()))
        source = SourceRef(self.path, start.offset, start.line)
        self.ready.append(HandText(text, source, self.room.name))

    def _decode(self, raw: bytes) -> str:
        """Raw bytes of the UTF-8 stream the reader is fed (a cut may end inside a character)."""
        return raw.decode("utf-8", errors="replace")


# --- reading one hand text ------------------------------------------------------------------


@dataclass(slots=True)
class Node:
    """An element of a hand text, with the file line of its start tag."""

    tag: str
    attrib: dict[str, str]
    line: int
    text: str = ""
    children: list[Node] = field(default_factory=list)

    def get(self, name: str, default: str = "") -> str:
        return self.attrib.get(name, default)

    def number(self, name: str, default: str = "") -> int:
        """An attribute that holds a count or an index; anything else is a finding at the
        element's line, never an internal error."""
        text = self.get(name) or default
        if not text.isdigit() or not text.isascii() or len(text) > 18:
            raise HandParseError(f'<{self.tag} {name}="{text[:20]}"> is not a number', self.line)
        return int(text)

    def find(self, tag: str) -> Node | None:
        return next((child for child in self.children if child.tag == tag), None)

    def findall(self, tag: str) -> list[Node]:
        return [child for child in self.children if child.tag == tag]

    def child_text(self, tag: str) -> str | None:
        child = self.find(tag)
        return None if child is None else child.text.strip()


class _TreeBuilder(XmlSink):
    """Builds `Node` trees of a hand text's top-level elements; XML problems raise."""

    def __init__(self) -> None:
        self.stack: list[Node] = []
        self.roots: list[Node] = []

    def start(self, tag: str, attributes: list[str], offset: int, line: int) -> bool:
        node = Node(tag, dict(zip(attributes[::2], attributes[1::2], strict=True)), line)
        if self.stack:
            self.stack[-1].children.append(node)
        else:
            self.roots.append(node)
        self.stack.append(node)
        return False

    def end(self, tag: str, offset: int, line: int) -> None:
        self.stack.pop()

    def data(self, text: str) -> None:
        if self.stack:
            self.stack[-1].text += text

    def error(self, message: str, offset: int, line: int) -> tuple[int, int]:
        raise HandParseError(f"malformed XML: {message}", line)

    def refused(self, error: DefusedXmlException, offset: int, line: int) -> None:
        raise HandParseError(f"{REFUSED} ({error!r})", line)

    def keep_from(self) -> int:
        return 0


def read_tree(hand: HandText, resync: re.Pattern[bytes]) -> list[Node]:
    """The top-level elements of a hand text (the hand, then its context), with file lines."""
    text = hand.text
    # A hand text the cutter made holds no declaration, DTD or processing instruction: one
    # parser reads it under a synthetic root. Any other text (a refused file, a hand cut by an
    # XML error) goes through the document-by-document reader, which tells what is wrong.
    wrapped = "<?" not in text and "<!" not in text
    builder = _TreeBuilder()
    reader = XmlReader(builder, resync, "utf-8", hand.source.line)
    builder.attach(reader)
    data = text.encode("utf-8")
    reader.feed(_WRAP_START + data + _WRAP_END if wrapped else data)
    reader.close()
    if builder.stack:
        raise HandParseError("the hand's XML ends inside an element", hand.source.line)
    return builder.roots[0].children if wrapped else builder.roots


# --- the room ----------------------------------------------------------------------------


class XmlRoom(Room):
    """A room whose exports are XML: subclasses name the hand element, the context elements,
    and turn a hand's element tree into a record with `build`."""

    hand_tag: ClassVar[str]
    hand_id_pattern: ClassVar[re.Pattern[str]]
    """Finds the hand element's id (the group `hand_id`) in a hand's text."""
    context_tags: ClassVar[frozenset[str]] = frozenset()
    context_fields: ClassVar[frozenset[str]] = frozenset()
    """The children of a context element that the room reads (the rest is left out)."""
    resync: ClassVar[re.Pattern[bytes]]
    """Matches a hand's start tag in raw bytes, where reading resumes after an XML error."""
    whole_files = True

    def sniff(self, head: str) -> bool:
        """XML rooms may put a whole session on one line: search the head, not its lines."""
        return self.hand_start.search(head) is not None

    def hand_id(self, head: str) -> str | None:
        """The id of the hand element, which a refused file's hands carry after its DTD."""
        found = self.hand_id_pattern.search(head, 0, PROLOG_SIZE + HAND_ID_SPAN)
        return found.group("hand_id") if found else None

    def hand_texts(self, stream: BinaryIO, encoding: Encoding, path: str) -> Iterator[HandText]:
        """The file's hands, read from its bytes as UTF-8 (`parsers.xml.encoding`): UTF-16 and
        mis-declared files read like any other, each hand at its own line and byte offset in
        the file."""
        stream.seek(encoding.bom)
        declared = None if encoding.is_utf16 else declared_encoding(stream.read(512))
        codec, unknown = reading_codec(encoding, declared)
        if unknown is not None:
            yield unknown_encoding(path, unknown)
        offsets = FileOffsets(codec)
        for hand in self.utf8_hand_texts(utf8_chunks(stream, encoding, codec, offsets), path):
            where = hand.source
            yield replace(hand, source=replace(where, offset=offsets.file_offset(where.offset)))

    def utf8_hand_texts(self, chunks: Iterable[bytes], path: str) -> Iterator[HandText]:
        """The hands of XML text given as UTF-8 chunks (a file's, or a document's lines inside
        a file of text hands, `parsers.mixed`), each as soon as the chunk that ends it is read.
        Offsets and lines count in those chunks."""
        cutter = HandCutter(self, path)
        for _ in read_xml(chunks, cutter, self.resync, "utf-8"):
            yield from cutter.ready
            cutter.ready.clear()

    def parse(self, hand: HandText) -> ParsedHand:
        """Parse one hand text; never raises."""
        room_hand_id = self.hand_id(hand.text)
        try:
            roots = read_tree(hand, self.resync)
            if not roots or roots[0].tag != self.hand_tag:
                raise HandParseError(f"not a <{self.hand_tag}> element", hand.source.line)
            builder = HandBuilder(hand, self.name)
            self.build(roots[0], {node.tag: node for node in roots[1:]}, builder)
            record = builder.finish()
        except HandParseError as failure:
            problem = failure.problem(hand.source.path)
            return ParsedHand(hand, room_hand_id, None, problem, failure.game_label)
        except Exception as error:  # a room bug must not stop an import: report it as data
            message = f"internal parser error: {type(error).__name__}: {error}"
            problem = Problem(Code.INT001, Stage.PARSE, hand.source.path, hand.source.line, message)
            return ParsedHand(hand, room_hand_id, problem=problem)
        return ParsedHand(hand, record.room_hand_id, record=record)

    def build(self, element: Node, context: dict[str, Node], b: HandBuilder) -> None:
        """Fill the builder from the hand element and its context elements (by tag)."""
        raise NotImplementedError
