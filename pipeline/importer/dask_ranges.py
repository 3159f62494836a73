"""The Dask engine's plan on the client: big files cut into byte ranges that start at hand
starts, so that workers can split them apart (`studdraw.pipeline.importer.dask_engine`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import BinaryIO, Final

from studdraw.parsers.files import CHUNK_SIZE, LINE_END_BLANKS, decode_line
from studdraw.parsers.reader import HistoryFile
from studdraw.parsers.room import Room

_LINE_END: Final = re.compile(rb"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class Segment:
    """Hands of one file for a worker to split: the whole file (`end` None from `start` 0), or
    the bytes [start, end) (end None: to the end), `start` being a hand start on line `line`."""

    path: str  # as found: what the hands' `source_path` says
    location: str  # absolute: what a worker opens
    import_id: int
    start: int = 0
    end: int | None = None
    line: int = 1


def can_cut(history: HistoryFile) -> bool:
    """Whether a file's hands can be split from any hand start on: a room using the shared
    chunked splitter, whose `tidy` reads each hand on its own (Party's joins a hand's opening
    lines: a hand start that continues a hand), in a byte encoding where a line end is one byte
    (not UTF-16)."""
    room = history.room
    return (
        room is not None
        and history.single_room
        and not history.encoding.is_utf16
        and not room.whole_files
        and type(room).split is Room.split
        and room.tidy_per_hand
    )


def plan_ranges(history: HistoryFile, size: int, task_bytes: int) -> list[tuple[int, int]]:
    """(start, first line) of each byte range a file is cut into, about `task_bytes` apart,
    each starting at a hand start; one range (0, 1) for a file that is small or cannot be cut."""
    if size < task_bytes * 3 // 2 or not can_cut(history):
        return [(0, 1)]
    assert history.room is not None
    cuts = [0]
    with history.path.open("rb") as stream:
        target = task_bytes
        while size - target >= task_bytes // 2:
            found = _hand_start_from(stream, target, history.room.hand_start)
            if found is None:
                break
            cuts.append(found)
            target = found + task_bytes
        return list(zip(cuts, _line_numbers(stream, cuts), strict=True))


def _hand_start_from(stream: BinaryIO, target: int, hand_start: re.Pattern[str]) -> int | None:
    """Offset of the first line at or after byte `target` (> 0) that starts a hand, judged as
    the splitter judges a line (decoded, without its end blanks, `hand_start.match`); None if
    no hand starts there."""
    stream.seek(target - 1)  # the byte before tells whether `target` itself starts a line
    base, data = target - 1, b""
    while True:
        chunk = stream.read(1 << 16)
        data += chunk
        position = 0  # where the line holding `position` begins its search for its end
        while True:
            end = _LINE_END.search(data, position)
            if end is None or (chunk and end.end() == len(data)):
                break  # the line end, or a CR's LF, may be in the next chunk
            start = end.end()
            following = _LINE_END.search(data, start)
            if following is None and chunk:
                break  # the line is not whole yet
            line = data[start : following.start() if following else len(data)]
            if hand_start.match(decode_line(line).rstrip(LINE_END_BLANKS)):
                return base + start
            position = start
        if not chunk:
            return None
        data, base = data[position:], base + position


def _line_numbers(stream: BinaryIO, cuts: Sequence[int]) -> list[int]:
    """The line number at each cut (line ends as the splitter counts them: LF, CRLF, lone CR)."""
    numbers, count, position, after_cr = [], 0, 0, False
    stream.seek(0)
    for cut in cuts:
        while position < cut:
            data = stream.read(min(CHUNK_SIZE, cut - position))
            if not data:
                break
            count += data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")
            count -= after_cr and data.startswith(b"\n")
            after_cr, position = data.endswith(b"\r"), position + len(data)
        numbers.append(count + 1)
    return numbers
