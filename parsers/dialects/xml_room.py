"""What the XML rooms (iPoker, Merge, Boss Media) share: streaming, refusing reads of XML.

Files are read with defusedxml's expat parser, fed in 1 MiB chunks; only the hand element being
read is kept, so a 1 GB export never sits in memory. DTDs, entity declarations and external
entities are refused (defusedxml raises before anything is expanded); the rest of such a file is
only cut at hand start tags, raw, so each hand is a reject with that reason.

Exports are not always one well-formed document: Merge writes a `<description>` and then one
`<game>` after another with no root; iPoker sessions may be concatenated or cut short. The reader
therefore treats a file as a sequence of documents: where expat finds "junk after the document
element", a fresh parser starts at that byte. Any other XML error ends the hand it falls in (its
raw text is a hand text that the room then rejects with the XML error) and reading resumes at
the next hand start tag.

A hand text is the raw hand element as cut from the file (byte offset and line of its start tag)
followed by the context elements its room needs to read it alone (iPoker's session `<general>`,
Merge's `<description>`), rewritten with only the fields the room reads, so a worker parses any
hand text without the file and a re-exported session gives its hands the same texts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO, ClassVar, Final
from xml.etree.ElementTree import ParseError
from xml.parsers.expat import ExpatError
from xml.parsers.expat import errors as expat_errors
from xml.sax.saxutils import escape, quoteattr

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

from studdraw.parsers.dialects.base import HAND_ID_SPAN, HandBuilder, HandParseError, Room
from studdraw.parsers.files import CHUNK_SIZE, Encoding
from studdraw.parsers.model import HandText, Outcome, ParsedHand, ParseProblem, SourceRef

_RESTART_CODES: Final = frozenset(
    expat_errors.codes[name]
    for name in (
        expat_errors.XML_ERROR_JUNK_AFTER_DOC_ELEMENT,
        expat_errors.XML_ERROR_MISPLACED_XML_PI,
    )
)
_END_TAG: Final = b"</"
FEED_SIZE: Final = 1 << 14
_WRAP_START: Final = b"<studdraw-hand>"
_WRAP_END: Final = b"</studdraw-hand>"
_END_TAGS: Final = re.compile(rb"(?:\s*</[^<>]+>)*\s*")
"""What may follow the last hand after reading resumed: the end tags of its containers."""
REFUSED: Final = "refused XML: DTDs, entity declarations and external entities are not read"
_REFUSED_HEAD: Final = 1 << 16
_PROLOG_SIZE: Final = 1 << 12
"""How much of a refused document's start each of its hands carries (its DTD begins there)."""
_DECLARED_ENCODING: Final = re.compile(rb"""<\?xml[^>]*encoding=["']([\w.\-]+)["']""")


class XmlSink:
    """What a reader reports to: element events with the absolute byte offset and line of each,
    XML errors with their position, and a refused document."""

    reader: XmlReader | None = None

    def attach(self, reader: XmlReader) -> None:
        self.reader = reader

    def start(self, tag: str, attributes: list[str], offset: int, line: int) -> bool | None:
        """An element starts at `offset` (its `<`), on `line`; `attributes` alternate names
        and values. True: nothing inside the element is needed, only its end."""

    def end(self, tag: str, offset: int, line: int) -> None:
        """An element ends: `offset` is its end tag's `<`, or the end of an empty-element tag."""

    def data(self, text: str) -> None:
        """Character data of the innermost open element."""

    def error(self, message: str, offset: int, line: int) -> tuple[int, int] | None:
        """The XML is malformed at `offset`; reading resumes at the next hand start tag. The
        answer is where the broken text the reader then hands to `broken` starts (and its
        line), or None for no such text."""
        return None

    def broken(self, raw: bytes, offset: int, line: int) -> None:
        """The raw bytes from where `error` said up to the next hand start tag (or the end)."""

    def refused(self, error: DefusedXmlException, offset: int, line: int) -> None:
        """The document starting at `offset` declares a DTD or entities: nothing more is
        parsed (the reader then only cuts the raw hands, see `refused_hand`)."""

    def refused_hand(self, prolog: bytes, raw: bytes, offset: int, line: int) -> None:
        """A hand of a refused file, raw (from its start tag to the next one), with the start
        of the refused document (its DTD); `raw` is empty when the file shows no hand."""

    def keep_from(self) -> int:
        """The oldest absolute offset whose bytes the sink may still cut."""
        return 1 << 62

    def open_hand(self) -> bool:
        """Whether a hand element is open (the end of the file would cut it)."""
        return False


class _Target:
    """Expat's element handlers: forward each event with the parser's current position.

    They are set on the defused expat parser directly (ElementTree's own handlers would build a
    tree nobody reads, at twice the cost); defusedxml's refusing handlers stay in place. When
    the sink's `start` answers True it needs nothing inside that element but its end: the
    handlers are then switched off until the element's end tag (hands do not nest), which
    halves the cost of splitting a file into hands."""

    __slots__ = ("base", "expat", "first_line", "sink", "skipping")

    def __init__(self, sink: XmlSink, base: int, first_line: int, expat: Any) -> None:
        self.sink = sink
        self.base = base
        self.first_line = first_line
        self.expat = expat
        self.skipping: str | None = None
        self._listen()

    def _listen(self) -> None:
        expat = self.expat
        expat.StartElementHandler = self.start
        expat.EndElementHandler = self.end
        expat.CharacterDataHandler = self.sink.data

    def start(self, tag: str, attributes: list[str]) -> None:
        expat = self.expat
        skip = self.sink.start(
            tag,
            attributes,
            self.base + expat.CurrentByteIndex,
            self.first_line + expat.CurrentLineNumber - 1,
        )
        if skip:
            self.skipping = tag
            expat.StartElementHandler = None
            expat.CharacterDataHandler = None
            expat.EndElementHandler = self.end_skipped

    def end_skipped(self, tag: str) -> None:
        if tag == self.skipping:
            self.skipping = None
            self._listen()
            self.end(tag)

    def end(self, tag: str) -> None:
        expat = self.expat
        self.sink.end(
            tag, self.base + expat.CurrentByteIndex, self.first_line + expat.CurrentLineNumber - 1
        )


class XmlReader:
    """Feeds bytes to defused expat parsers, one per document, keeping the bytes from the oldest
    position the sink still needs (`sink.keep_from()`), so raw element text can be cut."""

    def __init__(
        self,
        sink: XmlSink,
        resync: re.Pattern[bytes],
        encoding: str | None,
        first_line: int = 1,
    ) -> None:
        self.sink = sink
        self.resync = resync
        self.encoding = encoding
        self.buffer = b""
        self.buffer_base = 0  # absolute offset of buffer[0]
        self.fed_end = 0  # absolute offset after the last byte given to the parser
        self.doc_base = 0  # where the current document (or the skipped stretch) starts
        self.doc_line = 1  # the line of doc_base
        self.skipping = False  # after an XML error: looking for the next hand start tag
        self.stopped = False
        self.refusing = False  # a DTD or entity was refused: hands are only cut, raw
        self.prolog: bytes | None = None  # the refused document's start
        self.refused_hands = 0
        self.piece: tuple[int, int] | None = None  # the refused file's hand being cut
        self.refused_at = (0, first_line)  # where the refused document starts
        self.broken: tuple[int, int, bytearray] | None = None  # a text cut by an XML error
        self.parser = self._new_parser(0, first_line)

    def _new_parser(self, base: int, line: int) -> DefusedXMLParser:
        parser = DefusedXMLParser(encoding=self.encoding, forbid_dtd=True)
        _Target(self.sink, base, line, parser.parser)
        self.doc_base, self.doc_line, self.fed_end = base, line, base
        return parser

    def raw(self, start: int, end: int) -> bytes:
        return self.buffer[start - self.buffer_base : end - self.buffer_base]

    def element_end(self, offset: int) -> int:
        """The offset after an element whose end event came at `offset`: the end of its end
        tag, or `offset` itself for an empty-element tag (expat reports its end there)."""
        at = offset - self.buffer_base
        if self.buffer[at : at + 2] == _END_TAG:
            return self.buffer.index(b">", at) + 1 + self.buffer_base
        return offset

    def feed(self, chunk: bytes) -> None:
        if self.refusing:
            self.buffer += chunk
            self._cut_refused(final=False)
            return
        if self.stopped:
            return
        self.buffer += chunk
        self._run()
        if not self.refusing:
            self._trim()

    def _trim(self) -> None:
        if self.skipping:  # keep a tail in which a hand start tag may begin
            keep = max(self.doc_base, self.buffer_base + len(self.buffer) - 256)
            self._collect(self.raw(self.doc_base, keep))
            self.doc_line += self.raw(self.doc_base, keep).count(b"\n")
            self.doc_base = keep
        else:
            keep = min(self.sink.keep_from(), self.fed_end)
        if keep > self.buffer_base:
            self.buffer = self.buffer[keep - self.buffer_base :]
            self.buffer_base = keep

    def _run(self) -> None:
        """Feed what is buffered in pieces of FEED_SIZE: a file of many small documents
        (Merge) restarts a parser at every one, and each restart re-feeds from there."""
        while not self.stopped:
            if self.skipping and not self._resync():
                return
            start = self.fed_end - self.buffer_base
            data = self.buffer[start : start + FEED_SIZE]
            if not data:
                return
            self.fed_end += len(data)
            try:
                self.parser.feed(data)
            except ParseError as error:
                self._failed(error)
            except DefusedXmlException as error:
                self._refuse(error)

    def _failed(self, error: ParseError) -> None:
        expat = self.parser.parser
        offset = self.doc_base + expat.ErrorByteIndex
        line = self.doc_line + expat.ErrorLineNumber - 1
        if self.raw(offset - 1, offset) == b"<":  # expat points past the `<` of an end tag
            offset -= 1
        if error.code in _RESTART_CODES:  # the next document of a fragment or concatenated file
            self.parser = self._new_parser(offset, line)
            return
        self._break(str(error), offset, line)
        self.skipping = True
        self.doc_base, self.doc_line, self.fed_end = offset, line, offset

    def _break(self, message: str, offset: int, line: int) -> None:
        piece = self.sink.error(message, offset, line)
        if piece is not None:
            self.broken = (*piece, bytearray(self.raw(piece[0], offset)[:_REFUSED_HEAD]))

    def _collect(self, raw: bytes) -> None:
        if self.broken is not None:
            kept = self.broken[2]
            kept += raw[: max(_REFUSED_HEAD - len(kept), 0)]

    def _hand_over(self) -> None:
        if self.broken is not None:
            offset, line, raw = self.broken
            self.broken = None
            self.sink.broken(bytes(raw), offset, line)

    def _resync(self) -> bool:
        """Skip to the next hand start tag after the error; False while none is buffered."""
        at = self.doc_base - self.buffer_base
        found = self.resync.search(self.buffer, at + 1)
        if found is None:
            return False
        line = self.doc_line + self.buffer[at : found.start()].count(b"\n")
        self._collect(self.buffer[at : found.start()])
        self._hand_over()
        self.skipping = False
        self.parser = self._new_parser(self.buffer_base + found.start(), line)
        return True

    def _refuse(self, error: DefusedXmlException) -> None:
        """Stop parsing; the rest of the file is only cut at hand start tags, raw, so every
        hand is counted (and rejected with the refusal) and nothing is expanded."""
        self.stopped = self.refusing = True
        self.sink.refused(error, self.doc_base, self.doc_line)
        self.refused_at = (self.doc_base, self.doc_line)
        self._cut_refused(final=False)

    def _cut_refused(self, *, final: bool) -> None:
        """Cut the refused file's hands out of what is buffered. Each carries the refused
        document's start (`prolog`: up to the first hand, at most _PROLOG_SIZE bytes)."""
        if self.prolog is None:
            start = self.refused_at[0] - self.buffer_base
            first = self.resync.search(self.buffer, start)
            end = first.start() if first else len(self.buffer)
            if first is None and not final and end - start < _PROLOG_SIZE:
                return  # the prolog may go on in the next chunk
            self.prolog = self.buffer[start : min(end, start + _PROLOG_SIZE)]
        at = self.doc_base - self.buffer_base
        for found in self.resync.finditer(self.buffer, at + (1 if self.piece else 0)):
            self._end_piece(found.start())
            self.piece = (self.buffer_base + found.start(), self.doc_line)
            self.doc_base = self.buffer_base + found.start()
        if final:
            if self.piece is not None:
                self._end_piece(len(self.buffer))
            elif not self.refused_hands:
                self.sink.refused_hand(self.prolog, b"", *self.refused_at)
            return
        keep = self.doc_base
        if self.piece is None:  # before the first hand: keep a tail a start tag may begin in
            keep = max(keep, self.buffer_base + len(self.buffer) - 256)
            self.doc_line += self.raw(self.doc_base, keep).count(b"\n")
            self.doc_base = keep
        self.buffer = self.buffer[keep - self.buffer_base :]
        self.buffer_base = keep

    def _end_piece(self, end: int) -> None:
        """Hand the refused file's current hand (up to buffer index `end`) to the sink."""
        start = self.doc_base - self.buffer_base
        raw = self.buffer[start:end]
        self.doc_line += raw.count(b"\n")
        if self.piece is None:
            return
        assert self.prolog is not None
        self.sink.refused_hand(self.prolog, raw[:_REFUSED_HEAD], *self.piece)
        self.refused_hands += 1
        self.piece = None

    def close(self) -> None:
        """End of input. A document left open is an error, unless only whitespace and the end
        tags of containers are missing (an iPoker session cut after its last hand)."""
        if self.refusing:
            self._cut_refused(final=True)
            return
        if self.skipping:
            self._collect(self.buffer[self.doc_base - self.buffer_base :])
            self._hand_over()
        if self.stopped or self.skipping:
            return
        try:
            self.parser.parser.Parse(b"", True)  # not close(): it would finish the unused tree
        except ExpatError as error:
            if self.sink.open_hand():
                expat = self.parser.parser
                line = self.doc_line + expat.ErrorLineNumber - 1
                self._break(f"the file ends inside a hand ({error})", self.fed_end, line)
                self._hand_over()
        except DefusedXmlException as error:
            self._refuse(error)
            self._cut_refused(final=True)


def read_xml(
    stream: BinaryIO, sink: XmlSink, resync: re.Pattern[bytes], encoding: str | None
) -> Iterator[None]:
    """Feed a binary stream to a reader chunk by chunk, yielding after each chunk (the sink
    collects what it found), so callers stream their output."""
    reader = XmlReader(sink, resync, encoding)
    sink.attach(reader)
    while chunk := stream.read(CHUNK_SIZE):
        reader.feed(chunk)
        yield None
    reader.close()
    yield None


# --- splitting a file into hand texts -------------------------------------------------------


@dataclass(slots=True)
class _Open:
    tag: str
    offset: int
    line: int
    depth: int


class HandCutter(XmlSink):
    """Cuts hand elements, with the context elements their room needs, out of a file."""

    def __init__(self, room: XmlRoom, path: str, text_encoding: str) -> None:
        self.room = room
        self.path = path
        self.text_encoding = text_encoding
        self.depth = 0
        self.last = 0
        self.hand: _Open | None = None
        self.context_open: _Open | None = None
        self.context: dict[str, str] = {}
        self.context_attributes: list[str] = []
        self.field: str | None = None  # the context field whose text is being read
        self.broken_hand = False
        self.fields: list[tuple[str, str]] = []
        self.ready: list[HandText] = []

    def start(self, tag: str, attributes: list[str], offset: int, line: int) -> bool:
        self.depth += 1
        self.last = offset
        context = self.context_open
        if context is not None:
            if self.depth == context.depth + 1 and tag in self.room.context_fields:
                self.field = tag
            return False
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
            self._emit(hand, self._decode(raw), with_context=True)
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
        reject; an error outside hands makes a text of its own (nothing is skipped unseen)."""
        hand, self.hand, self.context_open, self.depth = self.hand, None, None, 0
        self.broken_hand = hand is not None
        self.last = offset
        return (hand.offset, hand.line) if hand is not None else (offset, line)

    def broken(self, raw: bytes, offset: int, line: int) -> None:
        """Only end tags, whose start tags came before reading resumed, are not a text."""
        if self.broken_hand or not _END_TAGS.fullmatch(raw):
            self._emit(_Open("", offset, line, 0), self._decode(raw), with_context=False)

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

    def _emit(self, start: _Open, text: str, *, with_context: bool) -> None:
        if with_context and self.context:
            text = "\n".join((text, *self.context.values()))
        source = SourceRef(self.path, start.offset, start.line)
        self.ready.append(HandText(text, source, self.room.name))

    def _decode(self, raw: bytes) -> str:
        try:
            return raw.decode(self.text_encoding)
        except UnicodeDecodeError:
            return raw.decode("cp1252", errors="replace")


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
    context_tags: ClassVar[frozenset[str]] = frozenset()
    context_fields: ClassVar[frozenset[str]] = frozenset()
    """The children of a context element that the room reads (the rest is left out)."""
    resync: ClassVar[re.Pattern[bytes]]
    """Matches a hand's start tag in raw bytes, where reading resumes after an XML error."""

    def sniff(self, head: str) -> bool:
        """XML rooms may put a whole session on one line: search the head, not its lines."""
        return self.hand_start.search(head) is not None

    def hand_id(self, head: str) -> str | None:
        """The id of the hand element, which a refused file's hands carry after its DTD."""
        found = self.hand_id_pattern.search(head, 0, _PROLOG_SIZE + HAND_ID_SPAN)
        return found.group("hand_id") if found else None

    def hand_texts(self, stream: BinaryIO, encoding: Encoding, path: str) -> Iterator[HandText]:
        stream.seek(0)
        head = stream.read(512)
        stream.seek(0)
        declared = _DECLARED_ENCODING.search(head)
        text_encoding = encoding.name
        if declared and not encoding.is_utf16:
            text_encoding = declared.group(1).decode("ascii").lower()
        cutter = HandCutter(self, path, text_encoding)
        expat_encoding = encoding.name.upper() if encoding.is_utf16 else None
        for _ in read_xml(stream, cutter, self.resync, expat_encoding):
            yield from cutter.ready
            cutter.ready.clear()

    def parse(self, hand: HandText) -> ParsedHand:
        """Parse one hand text; never raises."""
        site_hand_id = self.hand_id(hand.text)
        try:
            roots = read_tree(hand, self.resync)
            if not roots or roots[0].tag != self.hand_tag:
                raise HandParseError(f"not a <{self.hand_tag}> element", hand.source.line)
            builder = HandBuilder(hand, self.name)
            self.build(roots[0], {node.tag: node for node in roots[1:]}, builder)
            record = builder.finish()
        except HandParseError as failure:
            problem = ParseProblem(
                failure.outcome, failure.message, failure.line, failure.game_label
            )
            return ParsedHand(hand, site_hand_id, problem=problem)
        except Exception as error:  # a room bug must not stop an import: report it as data
            message = f"internal parser error: {type(error).__name__}: {error}"
            problem = ParseProblem(Outcome.ERROR, message, hand.source.line)
            return ParsedHand(hand, site_hand_id, problem=problem)
        return ParsedHand(hand, record.site_hand_id, record=record)

    def build(self, element: Node, context: dict[str, Node], b: HandBuilder) -> None:
        """Fill the builder from the hand element and its context elements (by tag)."""
        raise NotImplementedError
