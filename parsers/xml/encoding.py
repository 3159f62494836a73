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
from collections.abc import Iterator
from typing import BinaryIO, Final

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


def utf8_chunks(stream: BinaryIO, encoding: Encoding, codec: str) -> Iterator[bytes]:
    """The stream (positioned anywhere) from its first byte after the byte-order mark,
    decoded with `codec` and encoded as UTF-8, one chunk per read."""
    stream.seek(encoding.bom)
    errors = "replace" if codec.startswith("utf-16") else _FALLBACK
    decoder = codecs.getincrementaldecoder(codec)(errors=errors)
    first = True
    while chunk := stream.read(CHUNK_SIZE):
        text = decoder.decode(chunk)
        if first and text:
            text, first = text.removeprefix("\ufeff"), False
        if text:
            yield text.encode("utf-8", "replace")
    # Never `final=True` for UTF-16: a stray odd last byte is not text; a UTF-8 file's cut
    # last character is read as cp1252, as any other byte that is not UTF-8.
    tail = decoder.decode(b"", final=codec == "utf-8")
    if tail:
        yield tail.encode("utf-8", "replace")
