"""A hand's identity in the store (its content hash), and the renewal of the hashes of a store
written before a hash meant the text with LF line ends and no blanks before them.

Blanks at line ends are dropped as lines are read (`files.LINE_END_BLANKS`), and an XML hand's
hash now takes its text so too: a hand pasted with blanks at its line ends (a forum, an
editor), or an XML hand of a CRLF file, had another hash in a store an older studdraw wrote, so
read again it was a `changed` reject instead of a duplicate. Opening such a store renews its
hashes once (`migration.migrate`, schema version 4):

- a `changed` reject or a stray text keeps its raw text: its hash is taken again (other rejects
  keep theirs: read again, a hand that the blanks broke is stored, and its parse error goes);
- a stored or unsupported hand keeps only its file and offset: the file, when it is still
  there, is read again, and the stored hash is renewed only when it is proven to be the older
  hash of the hand's text (an XML hand's text as the file has it; a text room's with its blanks
  put back from the file's own lines). A hand whose file is gone, moved or changed keeps its
  hash (a later import of a copy is then a `changed` reject, as before: never stored twice).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import duckdb

from studdraw.parsers.files import LINE_END_BLANKS, decode_line, without_line_end_blanks
from studdraw.parsers.reader import open_history

_LINE_END: Final = re.compile(r"\r\n|\r|\n")
_BLANK_AT_END: Final = re.compile(rb"[ \t](?:\r|\n|$)")


def content_hash(text: str) -> int:
    """64-bit BLAKE2b of a hand's text as a signed integer (fits DuckDB's BIGINT), taken with
    LF line ends and no blanks before them: a text room's hands are read so, and an XML hand's
    text keeps the file's own (a copy rewritten by an editor, a forum or a transfer is then
    the same hand)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text_digest(without_line_end_blanks(text))


def text_digest(text: str) -> int:
    """The hash of `text` as it is (what an older store holds for an XML hand's raw text)."""
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True)


def renew_hashes(con: duckdb.DuckDBPyConnection) -> int:
    """Renew the hashes of hands read before line-end blanks were dropped (see the module);
    returns how many rows changed."""
    renewed = 0
    rows = con.execute(
        "SELECT rowid, raw_text, content_hash FROM rejects WHERE kind IN ('changed', "
        "'stray_text') AND (contains(raw_text, chr(13)) OR regexp_matches(raw_text, "
        "'[ \\t](\\n|$)'))"
    ).fetchall()
    for rowid, raw_text, digest in rows:
        if content_hash(raw_text) != digest:
            con.execute(
                "UPDATE rejects SET content_hash = ? WHERE rowid = ?",
                [content_hash(raw_text), rowid],
            )
            renewed += 1
    for table in ("hands", "unsupported"):
        found = con.execute(
            f"SELECT source_path, source_offset, content_hash FROM {table} "
            "WHERE room IS NOT NULL ORDER BY source_path, source_offset"
        ).fetchall()
        by_path: dict[str, dict[int, int]] = {}
        for path, offset, digest in found:
            by_path.setdefault(path, {})[offset] = digest
        for path, stored in by_path.items():
            for offset, older, digest in _renewed(Path(path), stored):
                con.execute(
                    f"UPDATE {table} SET content_hash = ? "
                    "WHERE source_path = ? AND source_offset = ? AND content_hash = ?",
                    [digest, path, offset, older],
                )
                renewed += 1
    return renewed


def _renewed(path: Path, stored: dict[int, int]) -> Iterator[tuple[int, int, int]]:
    """(offset, stored hash, today's hash) of each hand of the plain file at `path` whose
    stored hash (by offset) is the older reader's hash of it. A file without blanks before a
    line end nor a CR is hashed alike by both readers and not read further."""
    try:
        data = path.read_bytes()
        if not (_BLANK_AT_END.search(data) or b"\r" in data or b"\x00" in data[:4096]):
            return
        history = open_history(path)
        if history.compression is not None or len(history.parts) != 1:
            return  # an archive's members: no byte lines of the file to put blanks back from
        lines: list[str] | None = None
        for hand in history.hand_texts():
            digest = stored.get(hand.source.offset)
            if digest is None or content_hash(hand.text) == digest:
                continue
            if lines is None:
                lines = _file_lines(data, history.encoding.name, history.encoding.bom)
            # an XML hand's text is as the file has it; a text room's lost its blanks
            older = [hand.text]
            if (blanks := _with_blanks(hand.text, lines, hand.source.line)) is not None:
                older.append(blanks)
            if any(text_digest(text) == digest for text in older):
                yield hand.source.offset, digest, content_hash(hand.text)
    except OSError:
        return  # gone or unreadable: the hashes stay


def _file_lines(data: bytes, encoding: str, bom: int) -> list[str]:
    """A file's lines as decoded, blanks at their ends kept (numbered from 1)."""
    data = data[bom:]
    if encoding.startswith("utf-16"):
        text = data[: len(data) // 2 * 2].decode(encoding, errors="replace")
        return _LINE_END.split(text)
    return [decode_line(line) for line in data.splitlines()]


def _with_blanks(text: str, lines: list[str], first: int) -> str | None:
    """`text` (a text room's hand read from line `first` on) with each line's end blanks as
    the file has them: the text the older reader cut. None when the file's lines are not the
    text's (a room's tidy changed them)."""
    own = text.split("\n")
    raw = lines[first - 1 : first - 1 + len(own)]
    if len(raw) != len(own) or any(
        kept.rstrip(LINE_END_BLANKS) != line for line, kept in zip(own, raw, strict=True)
    ):
        return None
    return "\n".join(raw)
