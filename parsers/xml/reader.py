"""The XML rooms' byte reader: defusedxml's expat parser fed in chunks, one document after another.

Exports are not always one well-formed document: Merge writes a `<description>` and then one
`<game>` after another with no root; iPoker sessions may be concatenated or cut short. A file is
therefore read as a sequence of documents: where expat finds "junk after the document element",
a fresh parser starts at that byte. Any other XML error breaks the hand it falls in (its raw
bytes up to the next hand start tag go to the sink) and reading resumes at that tag. DTDs,
entity declarations and external entities are refused (defusedxml raises before anything is
expanded); the rest of such a file is only cut at hand start tags, raw.

Events reach an `XmlSink` with the absolute byte offset and line of each element, and the reader
keeps only the bytes the sink may still cut (`keep_from`), so memory stays bounded by a hand.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any, Final
from xml.etree.ElementTree import ParseError
from xml.parsers.expat import ExpatError
from xml.parsers.expat import errors as expat_errors

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

_RESTART_CODES: Final = frozenset(
    expat_errors.codes[name]
    for name in (
        expat_errors.XML_ERROR_JUNK_AFTER_DOC_ELEMENT,
        expat_errors.XML_ERROR_MISPLACED_XML_PI,
    )
)
_END_TAG: Final = b"</"
FEED_SIZE: Final = 1 << 14
MAX_FEED: Final = 1 << 26
REFUSED_HEAD: Final = 1 << 16
"""The most of a broken or refused hand's raw bytes kept as its text."""
PROLOG_SIZE: Final = 1 << 12
"""How much of a refused document's start each of its hands carries (its DTD begins there)."""


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
        self.skip_own = True  # the hand start tag the skipping starts at is the broken one
        self.stopped = False
        self.refusing = False  # a DTD or entity was refused: hands are only cut, raw
        self.prolog: bytes | None = None  # the refused document's start
        self.refused_hands = 0
        self.piece: tuple[int, int] | None = None  # the refused file's hand being cut
        self.refused_at = (0, first_line)  # where the refused document starts
        self.broken: tuple[int, int, bytearray] | None = None  # a text cut by an XML error
        self.feed_size = FEED_SIZE  # doubles while the parser is inside one token
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

    def _run(self, *, final: bool = False) -> None:
        """Feed what is buffered in pieces of FEED_SIZE: a file of many small documents
        (Merge) restarts a parser at every one, and each restart re-feeds from there. While a
        piece ends inside one token (a megabyte attribute), expat (before 2.6) scans the token
        again from its start at every feed: the pieces then double until it ends, so a token
        of any length costs time linear in it."""
        while not self.stopped:
            if self.skipping and not self._resync():
                return
            start = self.fed_end - self.buffer_base
            if not final and len(self.buffer) - start < self.feed_size > FEED_SIZE:
                return  # inside a long token: wait until a whole doubled piece is buffered
            data = self.buffer[start : start + self.feed_size]
            if not data:
                return
            self.fed_end += len(data)
            before = self.parser.parser.CurrentByteIndex
            try:
                self.parser.feed(data)
            except ParseError as error:
                self._failed(error)
            except DefusedXmlException as error:
                self._refuse(error)
            except ValueError:  # expat cannot read the encoding the declaration names
                self._read_as_utf8()
            else:
                stuck = self.parser.parser.CurrentByteIndex == before
                self.feed_size = min(self.feed_size * 2, MAX_FEED) if stuck else FEED_SIZE

    def _read_as_utf8(self) -> None:
        """Read the document again as UTF-8, whatever its declaration says (expat takes no
        multi-byte encoding but UTF-8 and UTF-16): an ASCII export reads as it is; bytes that
        are not UTF-8 are malformed XML, so their hand is rejected, never read wrong."""
        if self.encoding is not None:  # already overridden: give up on this document
            self._skip_from("unreadable XML encoding", self.doc_base, self.doc_line)
            return
        self.encoding = "utf-8"
        self.parser = self._new_parser(self.doc_base, self.doc_line)

    def _failed(self, error: ParseError) -> None:
        expat = self.parser.parser
        offset = self.doc_base + expat.ErrorByteIndex
        line = self.doc_line + expat.ErrorLineNumber - 1
        if self.raw(offset - 2, offset) == _END_TAG:  # expat points past an end tag's `</`
            offset -= 2
        elif self.raw(offset - 1, offset) == b"<":  # or past its `<`
            offset -= 1
        if error.code in _RESTART_CODES:  # the next document of a fragment or concatenated file
            self.parser = self._new_parser(offset, line)
            return
        self._skip_from(str(error), offset, line)

    def _skip_from(self, message: str, offset: int, line: int) -> None:
        """Report the document broken at `offset` and read on from the next hand start tag:
        one at `offset` itself (the `<` expat stopped at, inside a hand that lost its end)
        too, unless the document broken there started at it."""
        self._break(message, offset, line)
        self.skipping = True
        self.skip_own = offset <= self.doc_base
        self.doc_base, self.doc_line, self.fed_end = offset, line, offset

    def _break(self, message: str, offset: int, line: int) -> None:
        piece = self.sink.error(message, offset, line)
        if piece is not None:
            self.broken = (*piece, bytearray(self.raw(piece[0], offset)[:REFUSED_HEAD]))

    def _collect(self, raw: bytes) -> None:
        if self.broken is not None:
            kept = self.broken[2]
            kept += raw[: max(REFUSED_HEAD - len(kept), 0)]

    def _hand_over(self) -> None:
        if self.broken is not None:
            offset, line, raw = self.broken
            self.broken = None
            self.sink.broken(bytes(raw), offset, line)

    def _resync(self) -> bool:
        """Skip to the next hand start tag after the error; False while none is buffered."""
        at = self.doc_base - self.buffer_base
        found = self.resync.search(self.buffer, at + self.skip_own)
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
        document's start (`prolog`: up to the first hand, at most PROLOG_SIZE bytes)."""
        if self.prolog is None:
            start = self.refused_at[0] - self.buffer_base
            first = self.resync.search(self.buffer, start)
            end = first.start() if first else len(self.buffer)
            if first is None and not final and end - start < PROLOG_SIZE:
                return  # the prolog may go on in the next chunk
            self.prolog = self.buffer[start : min(end, start + PROLOG_SIZE)]
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
        self.sink.refused_hand(self.prolog, raw[:REFUSED_HEAD], *self.piece)
        self.refused_hands += 1
        self.piece = None

    def _ended_early(self) -> bool:
        """Finish a refused file or a skipped hand at the end of input; true when nothing is
        left for expat to finish."""
        if self.refusing:
            self._cut_refused(final=True)
            return True
        if self.skipping:
            self._collect(self.buffer[self.doc_base - self.buffer_base :])
            self._hand_over()
        return self.stopped or self.skipping

    def close(self) -> None:
        """End of input. A document left open is an error, unless only whitespace and the end
        tags of containers are missing (an iPoker session cut after its last hand)."""
        if self._ended_early():
            return
        self._run(final=True)  # what waited for a doubled piece
        if self._ended_early():
            return
        try:
            self.parser.parser.Parse(b"", True)  # not close(): it would finish the unused tree
        except ExpatError as error:
            expat = self.parser.parser
            line = self.doc_line + expat.ErrorLineNumber - 1
            if self.sink.open_hand():
                self._break(f"the file ends inside a hand ({error})", self.fed_end, line)
                self._hand_over()
                return
            # Cut inside a hand's start tag: expat never reported the hand, the bytes hold it.
            # Or every hand from there on: markup left open (a declaration whose `?>` was
            # damaged) swallowed them to the end, so each is kept whole, the last cut.
            after = max(self.sink.keep_from(), self.buffer_base) - self.buffer_base
            started = self.resync.search(self.buffer, after)
            if started is not None:
                offset = self.buffer_base + started.start()
                if self.doc_base >= self.buffer_base:  # expat's line is the open markup's
                    line = self.doc_line + self.raw(self.doc_base, offset).count(b"\n")
                last = started.start()
                for found in self.resync.finditer(self.buffer, last + 1):
                    last = found.start()
                self._break("the file ends inside a hand's start tag", offset, line)
                self.broken = (
                    offset,
                    line,
                    bytearray(self.buffer[started.start() : last + REFUSED_HEAD]),
                )
                self._hand_over()
        except DefusedXmlException as error:
            self._refuse(error)
            self._cut_refused(final=True)


def read_xml(
    chunks: Iterable[bytes], sink: XmlSink, resync: re.Pattern[bytes], encoding: str | None
) -> Iterator[None]:
    """Feed chunks of bytes to a reader, yielding after each chunk (the sink collects what it
    found), so callers stream their output."""
    reader = XmlReader(sink, resync, encoding)
    sink.attach(reader)
    for chunk in chunks:
        reader.feed(chunk)
        yield None
    reader.close()
    yield None
