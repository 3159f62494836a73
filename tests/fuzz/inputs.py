"""Hypothesis strategies for hostile hand-history files."""

from __future__ import annotations

import codecs
import gzip
import io
import re
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


HOSTILE_NAMES = ("Seat 3: x", "a (b) c", "Mr: [X] y", "Zoë: calls", "名前 (1)", "Seat", "O'Neil &")
"""Player names that look like the lines around them (':' '(' 'Seat'), in any script."""


def _rename(data: st.DataObject, text: str) -> str:
    """One player's name, wherever it appears, replaced by a hostile one."""
    names = sorted({next(g for g in found.groups() if g) for found in NAME.finditer(text)})
    if not names:
        return text
    name = data.draw(st.sampled_from(names), label="renamed")
    return text.replace(name, data.draw(st.sampled_from(HOSTILE_NAMES), label="new name"))


def _glue(data: st.DataObject, text: str) -> str:
    """Letters glued after an amount, or a count of cards beyond a deck."""
    kind = data.draw(st.sampled_from(["letters", "cards", "seat"]))
    if kind == "letters":
        run = "x" * data.draw(st.sampled_from([3, 100, 20_000]))
        return AMOUNT.sub(lambda found: found.group() + run, text, count=1)
    if kind == "cards":
        return CARD_COUNT.sub("300000000 card", text, count=1)
    return SEAT_NUMBER.sub(lambda found: found.group(1) + "65536", text, count=1)


NAME = re.compile(r"(?m)^Seat \d+: (\S+)|nickname=\"([^\"]+)\"|NAME=\"([^\"]+)\"")
AMOUNT = re.compile(r"\$\d+(?:\.\d+)?")
CARD_COUNT = re.compile(r"\d+ card")
SEAT_NUMBER = re.compile(r"((?:Seat |seat=\"|SEAT=\"))\d+")


@st.composite
def mutated_hand(draw: st.DrawFn) -> str:
    """A real hand, then cut, flipped, edited line by line, renamed, or given numbers and
    amounts no export prints."""
    data = draw(st.data())
    text = draw(st.sampled_from(real_hands()), label="seed hand")
    kind = draw(st.sampled_from(["cut", "flip", "lines", "rename", "glue", "nul", "same"]))
    if kind == "cut":
        return text[: draw(st.integers(0, len(text)))]
    if kind == "flip":
        return _flip(data, text)
    if kind == "lines":
        return _lines(data, text)
    if kind == "rename":
        return _rename(data, text)
    if kind == "glue":
        return _glue(data, text)
    if kind == "nul":
        at = draw(st.integers(0, len(text)))
        return text[:at] + "\x00" * draw(st.integers(1, 64)) + text[at:]
    return text


XML_ROOMS = frozenset({"ipoker", "merge", "boss"})


@cache
def xml_files() -> tuple[bytes, ...]:
    """The corpus's and the samples' XML exports (iPoker, Merge, Boss), whole."""
    roots = [path for path in (CORPUS, SAMPLES) if path.is_dir()]
    found: list[bytes] = []
    for path in discover_files(roots):
        try:
            history = open_history(path)
        except OSError:
            continue
        room = history.room
        if history.parts and history.parts[0].whole_file and room and room.name in XML_ROOMS:
            found.append(path.read_bytes())
    return tuple(found)


@st.composite
def xml_file(draw: st.DrawFn) -> bytes:
    """A whole XML export, as Windows tools and old exports save it (UTF-16 with or without a
    BOM, cp1252 under a UTF-8 declaration, an unknown declared encoding), damaged or not, and
    sometimes with a text room's hands after it."""
    data = draw(st.sampled_from(xml_files()), label="xml file")
    text = data.decode("utf-8", "replace")
    edit = draw(st.sampled_from(["same", "cut", "flip", "no end tag", "junk", "text after"]))
    if edit == "cut":
        text = text[: draw(st.integers(0, len(text)))]
    elif edit == "flip":
        text = _flip(draw(st.data()), text)
    elif edit == "no end tag":
        text = text.replace("</game>", "", 1).replace("</HISTORY>", "", 1)
    elif edit == "junk":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.text(max_size=80), label="junk") + text[at:]
    elif edit == "text after":
        text += "\n\n" + draw(mutated_hand())
    shape = draw(st.sampled_from(["utf-8", "utf-16-le", "utf-16-be", "bom16", "cp1252", "x-enc"]))
    if shape in {"utf-16-le", "utf-16-be", "bom16"}:
        text = re.sub(r'encoding="[^"]*"', 'encoding="UTF-16"', text, count=1)
        codec = "utf-16" if shape == "bom16" else shape
        return text.encode(codec, "surrogatepass")
    if shape == "x-enc":
        text = re.sub(r'encoding="[^"]*"', 'encoding="x-unknown-42"', text, count=1)
    if shape == "cp1252":
        return text.replace("$", "€").encode("cp1252", "replace")
    return text.encode("utf-8", "surrogatepass")


def _encoded(draw: st.DrawFn, text: str) -> bytes:
    codec = draw(st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "cp1252"]))
    if codec == "cp1252":
        return text.encode(codec, "replace")
    return text.encode(codec, "surrogatepass")


@st.composite
def history_file(draw: st.DrawFn) -> bytes:
    """A whole file: mutated hands of any rooms, stray text between them, any encoding and
    line end, sometimes a huge line, a NUL tail or a gzip/zip wrapping; or random bytes."""
    pick = draw(st.integers(0, 9))
    if pick == 0:
        return draw(st.binary(max_size=4096), label="random bytes")
    if pick == 1 and xml_files():
        return draw(xml_file())
    parts = draw(st.lists(mutated_hand(), min_size=0, max_size=5), label="hands")
    if draw(st.booleans()):
        at = draw(st.integers(0, len(parts)))
        parts.insert(at, draw(st.text(max_size=300), label="stray text"))
    text = "\n\n\n".join(parts)
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = text.replace("\n", newline)
    if draw(st.booleans()):  # one encoding for the file
        raw = _encoded(draw, text)
    else:  # mixed: each hand in an encoding of its own (concatenated exports)
        raw = b"".join(_encoded(draw, part + newline * 3) for part in text.split(newline * 3))
    tail = draw(st.sampled_from(["none", "none", "none", "nul", "long line", "odd byte"]))
    if tail == "nul":
        raw += b"\x00" * draw(st.integers(1, 1 << 16))
    elif tail == "long line":
        raw += b"x" * draw(st.sampled_from([1 << 10, 1 << 16, (1 << 20) + 1])) + b"\n"
    elif tail == "odd byte":
        raw += b"\xff"
    wrapper = draw(st.sampled_from(["plain"] * 8 + ["gzip", "zip", "cut gzip", "locked zip"]))
    if wrapper == "gzip":
        return gzip.compress(raw)
    if wrapper == "cut gzip":
        return gzip.compress(raw)[: draw(st.integers(0, 64))]
    if wrapper in {"zip", "locked zip"}:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr("hands.txt", raw)
            archive.writestr("empty.txt", codecs.BOM_UTF8)
            archive.writestr("more.txt", raw)
        packed = buffer.getvalue()
        return _locked(packed, b"hands.txt") if wrapper == "locked zip" else packed
    return raw


def _locked(data: bytes, member: bytes) -> bytes:
    """A zip whose `member` is flagged as encrypted (a password-protected export)."""
    raw = bytearray(data)
    for signature, flags_at, name_at in ((b"PK\x03\x04", 6, 30), (b"PK\x01\x02", 8, 46)):
        at = raw.find(signature)
        while at >= 0:
            if raw[at + name_at : at + name_at + len(member)] == member:
                raw[at + flags_at] |= 1
            at = raw.find(signature, at + 4)
    return bytes(raw)
