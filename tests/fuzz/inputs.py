"""Hypothesis strategies for hostile hand-history files."""

from __future__ import annotations

import codecs
import gzip
import io
import zipfile
from functools import cache
from pathlib import Path

from hypothesis import strategies as st

from studdraw.parsers.files import discover_files
from studdraw.parsers.reader import open_history

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "corpus"
SAMPLES = REPO / "sample_histories"


@cache
def real_hands() -> tuple[str, ...]:
    """Hand texts of every room studdraw reads, from the corpus (when present) and the
    samples: the seeds that mutations start from."""
    roots = [path for path in (CORPUS, SAMPLES) if path.is_dir()]
    texts: list[str] = []
    for path in discover_files(roots):
        try:
            history = open_history(path)
            texts.extend(hand.text for hand in history.hand_texts() if hand.room and not hand.stray)
        except OSError:
            continue
    return tuple(texts)


def _flip(data: st.DataObject, text: str) -> str:
    raw = bytearray(text.encode("utf-8"))
    for _ in range(data.draw(st.integers(1, 8), label="flips")):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    return raw.decode("utf-8", "replace")


def _lines(data: st.DataObject, text: str) -> str:
    lines = text.split("\n")
    for _ in range(data.draw(st.integers(1, 4), label="line edits")):
        kind = data.draw(st.sampled_from(["drop", "repeat", "swap", "insert", "digits"]))
        at = data.draw(st.integers(0, len(lines) - 1))
        if kind == "drop" and len(lines) > 1:
            del lines[at]
        elif kind == "repeat":
            lines.insert(at, lines[at])
        elif kind == "swap":
            other = data.draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        elif kind == "insert":
            lines.insert(at, data.draw(st.text(max_size=120), label="inserted line"))
        else:  # amounts and ids of any size
            digits = data.draw(st.sampled_from(["9" * 40, "0", "18446744073709551616", "-5"]))
            lines[at] = "".join(digits if c.isdigit() else c for c in lines[at])
    return "\n".join(lines)


@st.composite
def mutated_hand(draw: st.DrawFn) -> str:
    """A real hand, then cut, flipped, or edited line by line."""
    data = draw(st.data())
    text = draw(st.sampled_from(real_hands()), label="seed hand")
    kind = draw(st.sampled_from(["cut", "flip", "lines", "same"]))
    if kind == "cut":
        return text[: draw(st.integers(0, len(text)))]
    if kind == "flip":
        return _flip(data, text)
    if kind == "lines":
        return _lines(data, text)
    return text


@st.composite
def history_file(draw: st.DrawFn) -> bytes:
    """A whole file: mutated hands of any rooms, stray text between them, any encoding and
    line end, sometimes a huge line, a NUL tail or a gzip/zip wrapping; or random bytes."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=4096), label="random bytes")
    parts = draw(st.lists(mutated_hand(), min_size=0, max_size=5), label="hands")
    if draw(st.booleans()):
        at = draw(st.integers(0, len(parts)))
        parts.insert(at, draw(st.text(max_size=300), label="stray text"))
    text = "\n\n\n".join(parts)
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = text.replace("\n", newline)
    codec = draw(st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "cp1252"]))
    raw = (
        text.encode(codec, "replace") if codec == "cp1252" else text.encode(codec, "surrogatepass")
    )
    tail = draw(st.sampled_from(["none", "none", "none", "nul", "long line", "odd byte"]))
    if tail == "nul":
        raw += b"\x00" * draw(st.integers(1, 1 << 16))
    elif tail == "long line":
        raw += b"x" * draw(st.sampled_from([1 << 10, 1 << 16, (1 << 20) + 1])) + b"\n"
    elif tail == "odd byte":
        raw += b"\xff"
    wrapper = draw(st.sampled_from(["plain"] * 8 + ["gzip", "zip", "cut gzip"]))
    if wrapper == "gzip":
        return gzip.compress(raw)
    if wrapper == "cut gzip":
        return gzip.compress(raw)[: draw(st.integers(0, 64))]
    if wrapper == "zip":
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr("hands.txt", raw)
            archive.writestr("empty.txt", codecs.BOM_UTF8)
        return buffer.getvalue()
    return raw
