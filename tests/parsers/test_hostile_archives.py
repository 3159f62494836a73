"""Hostile archives (issue 41): an encrypted or corrupt zip member is a finding with its name and
the rest of the archive is read; a zip of many members is read through one open archive (its
central directory read once, not once a member); member names never reach a terminal raw."""

from __future__ import annotations

import io
import struct
import zipfile
from pathlib import Path

import duckdb
import pytest

from studdraw.parsers import reader
from studdraw.parsers.model import Outcome
from studdraw.parsers.problems import Code
from studdraw.parsers.reader import open_history, parse_hand
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from tests.conftest import SAMPLES

STARS = (SAMPLES / "pokerstars" / "razz.txt").read_bytes()
HANDS = STARS.count(b"PokerStars Hand #")


def archive(members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as out:
        for name, data in members.items():
            out.writestr(name, data)
    return buffer.getvalue()


def encrypted(data: bytes, member: str) -> bytes:
    """The archive with `member` flagged as encrypted (bit 0 of its flags), as a zip written
    with a password says, in its local header and its central directory entry."""
    raw = bytearray(data)
    name = member.encode()
    for signature, flags_at, name_at in ((b"PK\x03\x04", 6, 30), (b"PK\x01\x02", 8, 46)):
        at = raw.find(signature)
        while at >= 0:
            if raw[at + name_at : at + name_at + len(name)] == name:
                (flags,) = struct.unpack_from("<H", raw, at + flags_at)
                struct.pack_into("<H", raw, at + flags_at, flags | 1)
            at = raw.find(signature, at + 4)
    return bytes(raw)


def corrupted(data: bytes, member: str) -> bytes:
    """The archive with the compressed bytes of `member` scrambled."""
    raw = bytearray(data)
    at = raw.find(b"PK\x03\x04")
    while raw[at + 30 : at + 30 + len(member)] != member.encode():
        at = raw.find(b"PK\x03\x04", at + 4)
    name_length, extra_length = struct.unpack_from("<HH", raw, at + 26)
    start = at + 30 + name_length + extra_length
    for i in range(start + 2, start + 40):
        raw[i] ^= 0x5A
    return bytes(raw)


def fates(path: Path) -> tuple[list[Outcome], list[str]]:
    parsed = [parse_hand(hand) for hand in open_history(path).hand_texts()]
    findings = [p.problem.message for p in parsed if p.hand.stray and p.problem is not None]
    return [p.outcome for p in parsed if not p.hand.stray], findings


@pytest.mark.parametrize(
    ("damage", "words"),
    [(encrypted, "encrypted (a password is needed)"), (corrupted, "damaged")],
    ids=["encrypted", "corrupt"],
)
def test_an_unreadable_member_is_a_finding_and_the_rest_is_read(
    tmp_path: Path, damage: object, words: str
) -> None:
    data = archive({"a.txt": STARS, "hands.txt": STARS, "z.txt": STARS})
    path = tmp_path / "export.zip"
    path.write_bytes(damage(data, "hands.txt"))  # type: ignore[operator]
    outcomes, findings = fates(path)
    assert outcomes == [Outcome.PARSED] * (2 * HANDS)
    assert len(findings) == 1
    assert "'hands.txt' cannot be read" in findings[0] and words in findings[0]
    assert "Error" not in findings[0]


def test_an_unreadable_member_is_counted_apart_by_the_import(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    data = archive({"a.txt": STARS, "hands.txt": STARS})
    (folder / "export.zip").write_bytes(encrypted(data, "hands.txt"))
    store = tmp_path / "s.duckdb"
    ingest([folder], IngestOptions(store, workers=1))
    with duckdb.connect(str(store), read_only=True) as con:
        row = con.execute("SELECT status, hands_seen, stored, stray_texts FROM imports").fetchone()
    assert row == ("complete", HANDS, HANDS, 1)


def test_a_zip_of_many_members_opens_its_archive_once_a_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A work counter, not a timing: each pass over the archive (finding the rooms, reading
    the hands) opens it once, however many members it holds."""
    members = {f"m{i:04d}.txt": STARS for i in range(200)}
    path = tmp_path / "many.zip"
    path.write_bytes(archive(members, zipfile.ZIP_STORED))
    opened: list[object] = []
    real = zipfile.ZipFile

    class Counting(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args: object, **kwargs: object) -> None:
            opened.append(args[0])
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(reader.zipfile, "ZipFile", Counting)
    history = open_history(path)
    texts = [hand for hand in history.hand_texts() if not hand.stray]
    assert len(texts) == 200 * HANDS
    assert len(opened) == 2


def test_member_names_with_terminal_escapes_are_shown_escaped(tmp_path: Path) -> None:
    path = tmp_path / "names.zip"
    path.write_bytes(archive({"\x1b[2Jevil.txt": STARS}))
    history = open_history(path)
    hand = next(history.hand_texts())
    assert "\x1b" not in hand.source.path and "\\x1b[2Jevil.txt" in hand.source.path
    assert parse_hand(hand).problem is None or parse_hand(hand).problem.code is not Code.INT001
