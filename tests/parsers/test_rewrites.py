"""Harmless rewrites change nothing: hand histories pass through forums, mail, editors and
converters that add or strip blanks at line ends, change the line ends, drop or add the final
line end and blank lines, or add or drop a byte-order mark. Each such rewrite of every corpus
file (read in place, written rewritten to a temporary folder) must give the same hands: the
same texts, the same parsed, unsupported and rejected counts per file and room, and the same
records and problems (only byte offsets may move)."""

from __future__ import annotations

import codecs
import re
import tempfile
from collections import Counter
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studdraw.parsers.files import detect_encoding, discover_files
from studdraw.parsers.model import ParsedHand, SourceRef
from studdraw.parsers.problems import Code
from studdraw.parsers.reader import open_history, parse_hand
from studdraw.pipeline.store.hand_hash import content_hash
from tests.conftest import CORPUS

FILES = sorted(discover_files([CORPUS])) if CORPUS.is_dir() else []
_LINE_TEXT = re.compile(r"([^\r\n]*)(\r\n|\r|\n|$)")
_XML_LINE_END = re.compile(r"[ \t]*(?:\r\n|\r|\n)")


@dataclass(frozen=True)
class Rewrite:
    """What a tool does to a file: `blanks` are the blanks each line may gain (chosen per line
    by `seed`), `strip` drops those a line has, `newline` replaces every line end (None keeps
    them), `tail` is what ends the file ("" drops the last line end), `bom` adds (True) or drops
    (False) a UTF-8 byte-order mark."""

    blanks: tuple[str, ...]
    seed: int
    strip: bool
    newline: str | None
    tail: str | None
    bom: bool | None

    def lines(self, text: str) -> str:
        """The rewrite of decoded text."""
        pick = Random(self.seed)
        out = []
        for printed, end in _LINE_TEXT.findall(text):
            if not printed and not end:
                continue
            body = printed.rstrip(" \t") if self.strip else printed
            body += pick.choice(self.blanks) if self.blanks else ""
            out.append(body + (self.newline or end if end else ""))
        rewritten = "".join(out)
        if self.tail is not None:
            rewritten = rewritten.rstrip("\r\n") + self.tail
        return rewritten

    def apply(self, data: bytes) -> bytes:
        """The rewrite of a file's bytes, in the file's own encoding. XML files and UTF-16 ones
        are decoded whole; 8-bit ones (UTF-8 with cp1252 lines) are rewritten line by line as
        bytes, which keeps each line's encoding."""
        encoding = detect_encoding(data[:4096])
        if encoding.is_utf16:
            mark, body = data[: encoding.bom], data[encoding.bom :]
            odd = body[len(body) - len(body) % 2 :]  # a stray last byte is kept as it is
            text = codecs.decode(body[: len(body) - len(odd)], encoding.name, "surrogatepass")
            return mark + self.lines(text).encode(encoding.name, "surrogatepass") + odd
        body = data[encoding.bom :]
        # Line by line as Latin-1, which maps every byte to one character and back.
        rewritten = self.lines(body.decode("latin-1")).encode("latin-1")
        has_mark = bool(encoding.bom) if self.bom is None else self.bom
        return (codecs.BOM_UTF8 if has_mark else b"") + rewritten


rewrites = st.builds(
    Rewrite,
    blanks=st.lists(st.sampled_from(["", " ", "\t", "  ", " \t", "\t "]), max_size=3).map(tuple),
    seed=st.integers(0, 2**16),
    strip=st.booleans(),
    newline=st.sampled_from([None, "\n", "\r\n", "\r"]),
    tail=st.sampled_from([None, "", "\n", "\r\n", "\n\n\n", "\n \n\t\n"]),
    bom=st.sampled_from([None, True, False]),
)


def outcome(parsed: ParsedHand) -> str:
    """What became of a hand: parsed, unsupported or rejected (with its code), or stray text."""
    if parsed.record is not None:
        return "parsed"
    assert parsed.problem is not None
    if parsed.problem.code is Code.UNS001:
        return "unsupported"
    if parsed.problem.code is Code.FIL001:
        return "stray"
    return f"rejected {parsed.problem.code.name}"


def hands(path: Path, name: str) -> list[tuple[object, ...]]:
    """A file's hands as what a rewrite must keep: text, first line, outcome, id, and the
    record and problem with the byte offset left out (a rewrite moves the bytes), and its
    content hash (the store's identity of the hand: the rewrite is a duplicate). A line room's
    text is the same to the character; an XML room keeps its hands' raw text, the same up to
    line ends and the blanks before them, which its hash leaves out."""
    found = []
    history = open_history(path)
    whole = any(part.whole_file for part in history.parts)
    for text in history.hand_texts(name):
        parsed = parse_hand(text)
        record = parsed.record
        if record is not None:
            record = replace(record, source=SourceRef(name, 0, record.source.line))
        found.append(
            (
                _XML_LINE_END.sub("\n", text.text) if whole else text.text,
                content_hash(text.text),
                text.source.line,
                outcome(parsed),
                parsed.room_hand_id,
                record,
                parsed.problem,
            )
        )
    return found


def rooms(path: Path) -> tuple[str, ...]:
    history = open_history(path)
    return tuple(room.name for part in history.parts for room in part.rooms)


@cache
def original(path: Path) -> tuple[tuple[str, ...], list[tuple[object, ...]]]:
    """A corpus file's rooms and hands as it is (read once a run)."""
    return rooms(path), hands(path, str(path))


@pytest.mark.skipif(not FILES, reason=f"the shared corpus is not at {CORPUS}")
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rewrites)
def test_a_harmless_rewrite_changes_no_hand_of_the_corpus(rewrite: Rewrite) -> None:
    counts: Counter[tuple[str, str]] = Counter()
    with tempfile.TemporaryDirectory() as folder:
        for number, path in enumerate(FILES):
            copy = Path(folder) / f"{number}{path.suffix}"
            copy.write_bytes(rewrite.apply(path.read_bytes()))
            room_names, before = original(path)
            assert rooms(copy) == room_names, path
            after = hands(copy, str(path))
            assert [hand[:5] for hand in after] == [hand[:5] for hand in before], path
            assert after == before, path
            counts.update((room_names[0] if room_names else "", hand[3]) for hand in after)
    assert counts[("pokerstars", "parsed")] > 0  # the corpus was read, not skipped


def test_the_rewrites_rewrite() -> None:
    """The rewrite itself: blanks added per line, line ends and the file's end replaced."""
    rewrite = Rewrite((" ", "\t"), 1, strip=False, newline="\r\n", tail="", bom=True)
    out = rewrite.apply(b"a\nb\r\n\nc\n")
    assert out.startswith(codecs.BOM_UTF8) and not out.endswith(b"\n")
    lines = out[3:].split(b"\r\n")
    assert [line.rstrip(b" \t") for line in lines] == [b"a", b"b", b"", b"c"]
    assert all(line.endswith((b" ", b"\t")) for line in lines)
    stripped = Rewrite((), 0, strip=True, newline=None, tail=None, bom=None)
    assert stripped.apply(b"a \nb\t\r\n") == b"a\nb\r\n"
