"""The fast path of cutting a UTF-8 file into hand texts: a chunk at a time, not a line at a time.

`split_stream` gives exactly what the line path of `files` (`split_lines(iter_lines(...))`)
gives, and hands the rest of a file to it wherever the fast path cannot be sure (text that is
not UTF-8, a line or hand over the bounds, blanks at a line's end). Kept apart from `files`,
which holds the encodings, the line path and the bounds both paths share.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import BinaryIO, Final

from studdraw.parsers import files
from studdraw.parsers.files import (
    Encoding,
    LineStarts,
    hand_text,
    iter_byte_lines,
    iter_lines,
    split_lines,
    without_line_end_blanks,
)
from studdraw.parsers.model import HandText

_LEADING_BLANK_LINES: Final = re.compile(r"(?:[^\S\r\n]*(?:\r\n|\r|\n))*")


def split_stream(
    stream: BinaryIO, encoding: Encoding, hand_start: re.Pattern[str], path: str, room: str | None
) -> Iterator[HandText]:
    """`split_lines(iter_lines(...))` for UTF-8 files, chunk by chunk instead of line by line.

    A chunk is decoded at once, hand starts are found with one multiline search, and byte
    offsets and line numbers come from counting. The results are identical to the line path,
    which still serves UTF-16 files and takes over for the rest of a file at the first chunk
    that is not valid UTF-8 (cp1252 exports decode line by line), that holds a line or a
    hand over the bounds (`MAX_LINE`, `MAX_HAND`), which the line path cuts linearly, or blanks
    at a line's end (hand starts are judged on lines without them, `LINE_END_BLANKS`).
    """
    if encoding.is_utf16:
        yield from split_lines(iter_lines(stream, encoding), hand_start, path, room)
        return
    # A line end followed by a hand start: leading with the line end lets the regex engine
    # skip ahead quickly, where a look-behind would be tried at every position.
    starts = LineStarts(hand_start.pattern, hand_start.flags)
    stream.seek(encoding.bom)
    offset, number = encoding.bom, 1  # byte offset and line number where `pending` begins
    pending = ""  # decoded text not yet cut into hands
    carry = b""  # bytes after the last line end of the data read so far
    at_hand = False  # whether `pending` begins with a hand start
    while True:
        chunk = stream.read(
            min(files.CHUNK_SIZE, files.MAX_LINE)
        )  # a line within one read is whole
        data = carry + chunk
        cut = data.rfind(b"\n") + 1 if chunk else len(data)
        if chunk and not cut:
            cut = data.rfind(b"\r", 0, len(data) - 1) + 1  # bare-CR files have no LF at all
        # The line running on from the previous read, measured up to its end in this one.
        run_end = files.LINE_END.search(data, len(carry)) if carry else None
        run = (run_end.start() if run_end else len(data)) if carry else 0
        body, carry = data[:cut], data[cut:]
        try:
            if max(run, len(carry)) > files.MAX_LINE or len(pending) + len(body) > files.MAX_HAND:
                raise _HandOverError
            if _has_line_end_blanks(body, final=not chunk):
                raise _HandOverError  # hand starts are judged on lines without them
            pending += body.decode("utf-8")
        except (UnicodeDecodeError, _HandOverError):
            stream.seek(offset)
            lines = iter_byte_lines(stream, offset, number)
            yield from split_lines(lines, hand_start, path, room)
            return
        found = [match.end() for match in starts.finder(pending).finditer(pending)]
        if hand_start.match(pending):
            found.insert(0, 0)
        if not chunk:
            found.append(len(pending))
        elif not found:
            continue
        begin = 0
        for end in found:
            if end == 0:
                at_hand = True
                continue
            segment = pending[begin:end]
            if at_hand:
                yield _segment_hand(segment, offset, number, path, room)
            else:
                blank = _LEADING_BLANK_LINES.match(segment)
                skip = blank.end() if blank else 0
                if segment[skip:].strip():
                    head = segment[:skip]
                    yield _segment_hand(
                        segment[skip:],
                        offset + _utf8_length(head),
                        number + _line_ends(head),
                        path,
                        room,
                        stray=True,
                    )
            offset += _utf8_length(segment)
            number += _line_ends(segment)
            begin, at_hand = end, True
        pending = pending[begin:]
        if not chunk:
            return


class _HandOverError(Exception):
    """The fast path meets a line or a hand over the bounds, or blanks at a line's end: the
    line path takes over."""


def _has_line_end_blanks(body: bytes, *, final: bool) -> bool:
    """Whether whole lines of raw text end in blanks (`LINE_END_BLANKS`; the text's own end
    counts as a line end when it is the file's)."""
    return (
        b" \n" in body
        or b"\t\n" in body
        or b" \r" in body
        or b"\t\r" in body
        or (final and body.endswith((b" ", b"\t")))
    )


def _segment_hand(
    segment: str, offset: int, number: int, path: str, room: str | None, *, stray: bool = False
) -> HandText:
    if "\r" in segment:
        segment = segment.replace("\r\n", "\n").replace("\r", "\n")
    return hand_text(without_line_end_blanks(segment), offset, number, path, room, stray=stray)


def _utf8_length(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8"))


def _line_ends(text: str) -> int:
    lf = text.count("\n")
    return lf + text.count("\r") - text.count("\r\n") if "\r" in text else lf
