"""Hypothesis strategies for hostile hand-history files."""

from __future__ import annotations

import codecs
import gzip
import io
import re
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from hypothesis import strategies as st

from studdraw.parsers.files import discover_files
from studdraw.parsers.reader import open_history
from studdraw.parsers.rooms import BY_NAME

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "corpus"
SAMPLES = REPO / "sample_histories"


@cache
def real_hands() -> tuple[tuple[str, str], ...]:
    """Hand texts of every room studdraw reads, with their room, from the corpus (when
    present) and the samples: the seeds that mutations start from."""
    roots = [path for path in (CORPUS, SAMPLES) if path.is_dir()]
    found: list[tuple[str, str]] = []
    for path in discover_files(roots):
        try:
            history = open_history(path)
            found.extend(
                (hand.room, hand.text)
                for hand in history.hand_texts()
                if hand.room and not hand.stray
            )
        except OSError:
            continue
    return tuple(found)


@cache
def header_lines() -> frozenset[str]:
    """The first line of every seed hand, its numbers blurred (`blurred`): a line of a fuzzed
    file that blurs to one of them is a hand header, counted without the reader."""
    return frozenset(blurred(text.split("\n", 1)[0]) for _, text in real_hands())


def blurred(line: str) -> str:
    """A line with each run of digits (and a sign before it) as one 0: the numbers a mutation
    may change while the line stays a header."""
    return DIGITS.sub("0", line)


DIGITS = re.compile(r"-?\d+")


@dataclass(frozen=True, slots=True)
class Part:
    """One mutated hand: its text, its room, the mutation, and whether its header line is
    still its first and only header (then it is one hand, whatever the reader makes of it)."""

    text: str
    room: str
    mutation: str
    header_kept: bool


@dataclass(frozen=True, slots=True)
class Fuzzed:
    """A fuzzed file and what the generator knows of it: `headers` is the number of hand
    headers put in, counted apart from the reader (None when a mutation touched one, so
    that whether it still starts a hand is the reader's call), the rooms and mutations."""

    data: bytes
    headers: int | None
    rooms: tuple[str, ...]
    mutations: tuple[str, ...]


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
def mutated_part(draw: st.DrawFn) -> Part:
    """A real hand, then cut, flipped, edited line by line, renamed, or given numbers and
    amounts no export prints."""
    data = draw(st.data())
    room, text = draw(st.sampled_from(real_hands()), label="seed hand")
    kind = draw(st.sampled_from(["cut", "flip", "lines", "rename", "glue", "nul", "same"]))
    mutated = _mutated(data, kind, text)
    lines = mutated.split("\n")
    headers = header_lines()
    first = lines[0] == text.split("\n", 1)[0]
    kept = first and sum(blurred(line) in headers for line in lines) == 1
    kept = kept and _start_lines(room, mutated) == _start_lines(room, text)
    return Part(mutated, room, kind, kept)


def _start_lines(room: str, text: str) -> int:
    """The lines of a text where its room's hands may start: PartyPoker's hand opens with up
    to three such lines, and a mutation that damages one of them (not the first) changes
    where the reader cuts, so whether it is one hand is the reader's call."""
    start = BY_NAME[room].hand_start
    return sum(1 for line in text.split("\n") if start.match(line))


def _mutated(data: st.DataObject, kind: str, text: str) -> str:
    if kind == "cut":
        return text[: data.draw(st.integers(0, len(text)))]
    if kind == "flip":
        return _flip(data, text)
    if kind == "lines":
        return _lines(data, text)
    if kind == "rename":
        return _rename(data, text)
    if kind == "glue":
        return _glue(data, text)
    if kind == "nul":
        at = data.draw(st.integers(0, len(text)))
        return text[:at] + "\x00" * data.draw(st.integers(1, 64)) + text[at:]
    return text


def mutated_hand() -> st.SearchStrategy[str]:
    """A mutated hand's text alone."""
    return mutated_part().map(lambda part: part.text)


XML_ROOMS = frozenset({"ipoker", "merge", "boss"})

XML_HAND = re.compile(r"<(?:game|HISTORY)[\s>]")
"""A hand's start tag in the XML rooms' exports (iPoker and Merge `<game`, Boss `<HISTORY`)."""


@cache
def xml_files() -> tuple[tuple[str, bytes], ...]:
    """The corpus's and the samples' XML exports (iPoker, Merge, Boss), whole, with their room."""
    roots = [path for path in (CORPUS, SAMPLES) if path.is_dir()]
    found: list[tuple[str, bytes]] = []
    for path in discover_files(roots):
        try:
            history = open_history(path)
        except OSError:
            continue
        room = history.room
        if history.parts and history.parts[0].whole_file and room and room.name in XML_ROOMS:
            found.append((room.name, path.read_bytes()))
    return tuple(found)


@st.composite
def xml_file(draw: st.DrawFn) -> Fuzzed:
    """A whole XML export, as Windows tools and old exports save it (UTF-16 with or without a
    BOM, cp1252 under a UTF-8 declaration, an unknown declared encoding), damaged or not, and
    sometimes with a text room's hands after it."""
    room, data = draw(st.sampled_from(xml_files()), label="xml file")
    original = text = data.decode("utf-8", "replace")
    hands = len(XML_HAND.findall(text))
    headers: int | None = hands
    rooms = [room]
    edit = draw(st.sampled_from(["same", "cut", "flip", "no end tag", "junk", "text after"]))
    if edit == "cut":
        at = draw(st.integers(0, len(text)))
        text = text[:at]
        headers = len(XML_HAND.findall(text))
        last = text.rfind("<")
        if last >= 0 and any(tag.startswith(text[last:]) for tag in ("<game ", "<HISTORY ")):
            headers = None  # cut inside a start tag's name: the reader's call
        elif headers and not BY_NAME[room].hand_start.search(text):
            headers = None  # no start tag left whole enough to tell the room: the reader's call
    elif edit == "flip":
        text = _flip(draw(st.data()), text)
    elif edit == "no end tag":
        text = text.replace("</game>", "", 1).replace("</HISTORY>", "", 1)
    elif edit == "junk":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.text(max_size=80), label="junk") + text[at:]
    elif edit == "text after":
        part = draw(mutated_part())
        text += "\n\n" + part.text
        rooms.append(part.room)
        headers = hands + 1 if part.header_kept else None
    if edit in {"flip", "junk"} and _starts(room, text) != _starts(room, original):
        headers = None  # a start tag damaged where it tells its room
    shape = draw(st.sampled_from(["utf-8", "utf-16-le", "utf-16-be", "bom16", "cp1252", "x-enc"]))
    mutations = (f"xml {edit}", f"xml {shape}")
    if shape in {"utf-16-le", "utf-16-be", "bom16"}:
        text = re.sub(r'encoding="[^"]*"', 'encoding="UTF-16"', text, count=1)
        codec = "utf-16" if shape == "bom16" else shape
        return Fuzzed(text.encode(codec, "surrogatepass"), headers, tuple(rooms), mutations)
    if shape == "x-enc":
        text = re.sub(r'encoding="[^"]*"', 'encoding="x-unknown-42"', text, count=1)
    if shape == "cp1252":
        raw = text.replace("$", "€").encode("cp1252", "replace")
    else:
        raw = text.encode("utf-8", "surrogatepass")
    return Fuzzed(raw, headers, tuple(rooms), mutations)


def _starts(room: str, text: str) -> tuple[int, int]:
    """The hand start tags of a text, and those that tell its room (`Room.hand_start`)."""
    return len(XML_HAND.findall(text)), len(BY_NAME[room].hand_start.findall(text))


CODECS = ("utf-8", "utf-8-sig", "utf-16", "utf-16-le", "cp1252")
WIDE = frozenset({"utf-16", "utf-16-le"})


def _encoded(text: str, codec: str) -> bytes:
    if codec == "cp1252":
        return text.encode(codec, "replace")
    return text.encode(codec, "surrogatepass")


@st.composite
def history_file(draw: st.DrawFn) -> Fuzzed:
    """A whole file: mutated hands of any rooms, stray text between them, any encoding and
    line end, sometimes a huge line, a NUL tail or a gzip/zip wrapping; or random bytes."""
    pick = draw(st.integers(0, 9))
    if pick == 0:
        return Fuzzed(draw(st.binary(max_size=4096), label="random bytes"), 0, (), ("random",))
    if pick == 1 and xml_files():
        return draw(xml_file())
    parts = draw(st.lists(mutated_part(), min_size=0, max_size=5), label="hands")
    headers: int | None = len(parts) if all(part.header_kept for part in parts) else None
    mutations = [part.mutation for part in parts]
    texts = [part.text for part in parts]
    if draw(st.booleans()):
        at = draw(st.integers(0, len(texts)))
        texts.insert(at, draw(st.text(max_size=300), label="stray text"))
        mutations.append("stray text")
    text = "\n\n\n".join(texts)
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = text.replace("\n", newline)
    if draw(st.booleans()):  # one encoding for the file
        codec = draw(st.sampled_from(CODECS))
        raw = _encoded(text, codec)
        mutations.append(codec)
        wide = codec in WIDE
    else:  # mixed: each hand in an encoding of its own (concatenated exports)
        chosen = [draw(st.sampled_from(CODECS)) for _ in text.split(newline * 3)]
        wide = chosen[-1] in WIDE
        raw = b"".join(
            _encoded(part + newline * 3, codec)
            for part, codec in zip(text.split(newline * 3), chosen, strict=True)
        )
        if len({codec in WIDE for codec in chosen}) > 1:
            headers = None  # UTF-16 and 8-bit text in one file: the reader reads one of them
            mutations.append("mixed encoding widths")
        else:
            mutations.append("mixed encodings")
    tail = draw(st.sampled_from(["none", "none", "none", "nul", "long line", "odd byte"]))
    mutations.append(f"tail {tail}")
    if tail == "nul":
        raw += b"\x00" * draw(st.integers(1, 1 << 16))
    elif tail == "long line":  # in the file's encoding (its last hand's)
        line = "x" * draw(st.sampled_from([1 << 10, 1 << 16, (1 << 20) + 1])) + "\n"
        raw += line.encode("utf-16-le" if wide else "ascii")
    elif tail == "odd byte":
        raw += b"\xff"
    wrapper = draw(st.sampled_from(["plain"] * 8 + ["gzip", "zip", "cut gzip", "locked zip"]))
    mutations.append(wrapper)
    rooms = tuple(part.room for part in parts)
    if wrapper == "gzip":
        return Fuzzed(gzip.compress(raw), headers, rooms, tuple(mutations))
    if wrapper == "cut gzip":
        cut = gzip.compress(raw)[: draw(st.integers(0, 64))]
        return Fuzzed(cut, None, rooms, tuple(mutations))
    if wrapper in {"zip", "locked zip"}:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr("hands.txt", raw)
            archive.writestr("empty.txt", codecs.BOM_UTF8)
            archive.writestr("more.txt", raw)
        packed = buffer.getvalue()
        if wrapper == "locked zip":
            return Fuzzed(_locked(packed, b"hands.txt"), headers, rooms, tuple(mutations))
        twice = None if headers is None else 2 * headers
        return Fuzzed(packed, twice, rooms, tuple(mutations))
    return Fuzzed(raw, headers, rooms, tuple(mutations))


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
