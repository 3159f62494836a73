"""The rooms' scan of a whole stream: which rooms' hands it holds, found by one regex pass over
the decoded text (`scan_starts`), every room's hand start in one alternation (`any_of`), so a
hand after any preamble, or a file of several rooms' hands, is read by the right room
(`reader.py`). Blanks at line ends are dropped first, as every reader of a file drops them
(`files.LINE_END_BLANKS`)."""

from __future__ import annotations

import codecs
import re
from collections.abc import Sequence
from typing import BinaryIO, Final

from studdraw.parsers.files import CHUNK_SIZE, Encoding, LineStarts

_BLANKS_AT_ENDS: Final = re.compile(r"[ \t]+(?=[\r\n])")


def _without_blanks_at_ends(text: str) -> str:
    """`text` (any line ends) without white space before any line end. Led by a character
    class, the substitution tries it at every character; four searches for a blank before a
    line end run at memchr speed, and over a file without such blanks (nearly every export)
    that is all: the rooms' scan of a 10,000-hand file took 0.47-0.60 s of CPU, now 0.25-0.35 s
    (docs/scaling.md)."""
    if " \n" in text or "\t\n" in text or " \r" in text or "\t\r" in text:
        return _BLANKS_AT_ENDS.sub("", text)
    return text


_LOOKAHEAD: Final = 4096
"""Characters kept after the last line end of a chunk while scanning: hand-start patterns
match a line's first few dozen characters."""


def scan_starts(
    stream: BinaryIO, encoding: Encoding, patterns: Sequence[re.Pattern[str]], limit: int = 2
) -> list[int]:
    """Which of `patterns` (hand starts, in priority order) start a line anywhere in the stream:
    their indexes in order of first appearance, at most `limit` of them.

    One regex search over the whole decoded stream, chunk by chunk (linear, C speed); a line
    belongs to the first pattern that matches it, as in the splitters."""
    if not patterns:
        return []
    found: list[int] = []

    def searcher(skip: Sequence[int]) -> LineStarts | None:
        rest = [p.pattern for i, p in enumerate(patterns) if i not in skip]
        if not rest:
            return None
        return LineStarts(any_of(rest))

    search = searcher(found)
    name = encoding.name if encoding.is_utf16 else "utf-8"
    decoder = codecs.getincrementaldecoder(name)(errors="replace")
    stream.seek(encoding.bom)
    carry = "\n"  # a line end before the first line, so it is searched like any other
    while search is not None:
        chunk = stream.read(CHUNK_SIZE)
        text = _without_blanks_at_ends(carry + decoder.decode(chunk))
        last = max(text.rfind("\n"), text.rfind("\r")) if chunk else len(text)
        position = 0
        finder = search.finder(text)
        while search is not None:
            match = finder.search(text, position)
            if match is None or match.start() >= last:
                break  # a line not whole yet is searched again with the next chunk
            position = match.end()
            owner = next(i for i, p in enumerate(patterns) if p.match(text, position))
            if owner not in found:
                found.append(owner)
                if len(found) >= limit:
                    return found
                search = searcher(found)
                if search is not None:
                    finder = search.finder(text)
        if not chunk:
            break
        carry = text[last : last + _LOOKAHEAD] if last >= 0 else ""
    return found


OPTIONAL_MARK: Final = ("\ufeff?", "\\ufeff?")
"""How a hand start tolerates a byte-order mark left at the start of a line (the character
itself, or its escape), at the front of its pattern."""


def any_of(patterns: Sequence[str]) -> str:
    """One alternation of regex `patterns`. Those that begin with an optional byte-order mark
    (`OPTIONAL_MARK`, followed by one group or by literal text, as every room's hand start is
    written) share it: tried once a line instead of once a pattern, and each alternative is
    then skipped on its first character, which takes 40% off a scan for every room's start."""
    marked: list[str] = []
    others: list[str] = []
    for pattern in patterns:
        mark = next((mark for mark in OPTIONAL_MARK if pattern.startswith(mark)), None)
        if mark is None:
            others.append(f"(?:{pattern})")
        else:
            marked.append(f"(?:{pattern.removeprefix(mark)})")
    if marked:
        others.insert(0, "\ufeff?(?:" + "|".join(marked) + ")")
    return "|".join(others)
