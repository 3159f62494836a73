"""The XML rooms' files as UTF-8, whatever their bytes: one encoding for the XML parser.

Windows tools save iPoker, Merge and Boss exports as UTF-16 (LE or BE, with or without a
byte-order mark), and old exports declare UTF-8 but hold cp1252 bytes (the euro sign). expat
reads neither well (it refuses the bytes of a mis-declared file as malformed XML), so the reader
feeds it this stream instead: the file decoded as FPDB-3 reads such files (UTF-16 by its byte
pattern; otherwise the declared single-byte encoding, or UTF-8 with each byte that is not UTF-8
read as cp1252) and encoded again as UTF-8, chunk by chunk. A declaration naming an encoding no
codec knows is read the UTF-8 way and said so (`unknown`).
"""

from __future__ import annotations

import codecs
import re
from collections import deque
from collections.abc import Iterator
from typing import BinaryIO, Final, NamedTuple

from studdraw.parsers.files import CHUNK_SIZE, Encoding

_DECLARED: Final = re.compile(rb"""^\s*<\?xml[^>]*?encoding\s*=\s*["']([^"'>]{1,40})["']""")
_FALLBACK: Final = "studdraw-cp1252"
_UTF8_NAMES: Final = frozenset({"utf-8", "utf8", "us-ascii", "ascii"})
_LATIN_1: Final = frozenset({"latin-1", "iso8859-1", "cp1252"})


def _cp1252_for_bad_bytes(error: UnicodeError) -> tuple[str, int]:
    """The decoding error handler: bytes the codec cannot read are read as cp1252 (those
    cp1252 leaves undefined, as Latin-1), as an old export meant them."""
    if not isinstance(error, UnicodeDecodeError):
        raise error
    bad = error.object[error.start : error.end]
    return "".join(_CP1252[byte] for byte in bad), error.end


_CP1252: Final = tuple(
    bytes([byte]).decode("cp1252", errors="ignore") or chr(byte) for byte in range(256)
)
codecs.register_error(_FALLBACK, _cp1252_for_bad_bytes)


def declared_encoding(head: bytes) -> str | None:
    """The encoding an XML declaration at the start of `head` names (lowercase), if any."""
    found = _DECLARED.match(head.removeprefix(codecs.BOM_UTF8))
    return found.group(1).decode("ascii", "replace").strip().lower() if found else None


def reading_codec(encoding: Encoding, declared: str | None) -> tuple[str, str | None]:
    """The codec to decode a file with, and the declared encoding when no codec knows it.

    The bytes win over the declaration: UTF-16 by its pattern is read as UTF-16 whatever the
    declaration says, and a file declared UTF-16 whose bytes are not is read as UTF-8 (the
    declaration is wrong, the text is not)."""
    if encoding.is_utf16:
        return encoding.name, None
    if declared is None or declared in _UTF8_NAMES or declared.startswith("utf-16"):
        return "utf-8", None
    try:
        name = codecs.lookup(declared).name
    except LookupError:
        return "utf-8", declared
    if name.startswith(("utf-16", "utf-32", "utf_16", "utf_32")) or name == "utf-8":
        return "utf-8", None
    if name in _LATIN_1:  # as browsers and FPDB-3 read it: the euro sign is cp1252's 0x80
        return "cp1252", None
    return name, None


class _Piece(NamedTuple):
    """One chunk of the UTF-8 text fed to expat and where it came from in the file: `data`
    and `raw` only when its bytes do not map one to one (or two to one, UTF-16 ASCII)."""

    fed: int
    fed_end: int
    start: int
    width: int  # file bytes a fed byte when uniform, else 0
    data: bytes
    raw: bytes


class FileOffsets:
    """Maps an offset in the UTF-8 text `utf8_chunks` yields back to the file's bytes, so a
    UTF-16 or mis-encoded file's hands keep their true byte offsets. Only the chunks from
    the last offset asked for on are kept, and within a chunk the mapping goes on from the
    last offset asked for (hands are asked for in file order): linear in the file."""

    def __init__(self, codec: str) -> None:
        self.codec = codec
        self.pieces: deque[_Piece] = deque()
        self.cursor = (-1, 0, 0)  # a piece's fed start, a fed offset into it, its file bytes

    def add(self, fed: int, start: int, text: str, data: bytes, raw: bytes) -> None:
        wide = self.codec.startswith("utf-16")
        if self.codec == "utf-8" and len(data) == len(raw):
            width = 1  # UTF-8 bytes as they are in the file
        elif text.isascii():
            width = 2 if wide else 1
        else:
            width = 0
        kept = (data, raw) if width == 0 else (b"", b"")
        self.pieces.append(_Piece(fed, fed + len(data), start, width, *kept))

    def file_offset(self, fed: int) -> int:
        pieces = self.pieces
        while len(pieces) > 1 and pieces[0].fed_end <= fed:
            pieces.popleft()
        if not pieces:
            return fed
        piece = pieces[0]
        into = max(0, fed - piece.fed)
        if piece.width:
            return piece.start + into * piece.width
        into = min(into, len(piece.data))
        base, done, at = self.cursor
        if base != piece.fed or into < done:
            done = at = 0
        between = piece.data[done:into]
        if self.codec.startswith("utf-16"):
            at += len(between.decode("utf-8", "ignore").encode("utf-16-le", "surrogatepass"))
        elif self.codec != "utf-8":  # a byte the codec did not read is one fallback character
            at += len(between.decode("utf-8", "ignore").encode(self.codec, "replace"))
        elif piece.raw.startswith(between, at):  # no byte read as cp1252 in between
            at += len(between)
        else:
            at = _utf8_span(between.decode("utf-8", "ignore"), piece.raw, at)
        self.cursor = (piece.fed, into, at)
        return piece.start + at


def _utf8_span(text: str, raw: bytes, at: int) -> int:
    """Where the bytes of `raw` (UTF-8 with bytes that are not, read as cp1252) that decode
    to `text` from `at` end: a character whose UTF-8 bytes are next was read as UTF-8, any
    other from one byte (the decoder takes UTF-8 first, the same way)."""
    for char in text:
        encoded = char.encode("utf-8", "replace")
        at += len(encoded) if raw.startswith(encoded, at) else 1
    return at


def utf8_chunks(
    stream: BinaryIO, encoding: Encoding, codec: str, offsets: FileOffsets | None = None
) -> Iterator[bytes]:
    """The stream (positioned anywhere) from its first byte after the byte-order mark,
    decoded with `codec` and encoded as UTF-8, one chunk per read; `offsets` learns where
    each chunk's text was in the file."""
    stream.seek(encoding.bom)
    errors = "replace" if codec.startswith("utf-16") else _FALLBACK
    decoder = codecs.getincrementaldecoder(codec)(errors=errors)
    first = True
    position = encoding.bom  # the file offset of the next byte read
    pending = b""  # bytes the decoder holds (a character cut between reads)
    fed = 0
    while chunk := stream.read(CHUNK_SIZE):
        start = position - len(pending)
        text = decoder.decode(chunk)
        position += len(chunk)
        held = decoder.getstate()[0]
        raw = (pending + chunk)[: len(pending) + len(chunk) - len(held)]
        pending = held
        if first and text:
            marked = text
            text, first = text.removeprefix("\ufeff"), False
            if text is not marked:  # a second mark (the first was `encoding.bom`)
                mark = 2 if codec.startswith("utf-16") else 3
                start, raw = start + mark, raw[mark:]
        if text:
            data = text.encode("utf-8", "replace")
            if offsets is not None:
                offsets.add(fed, start, text, data, raw)
            fed += len(data)
            yield data
    # Never `final=True` for UTF-16: a stray odd last byte is not text; a UTF-8 file's cut
    # last character is read as cp1252, as any other byte that is not UTF-8.
    tail = decoder.decode(b"", final=codec == "utf-8")
    if tail:
        data = tail.encode("utf-8", "replace")
        if offsets is not None:
            offsets.add(fed, position - len(pending), tail, data, pending)
        yield data
