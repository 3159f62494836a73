"""Notes and tags on hands and players, in a file of their own beside the store.

The hand store is read-only to the dashboard and rebuilt by re-imports, so what a player or a
coach writes about a hand or an opponent (and which accounts are one person,
`pipeline.identities`) lives apart: `<store>.notes.sqlite` (SQLite, from the
standard library: it takes a write while an import holds the DuckDB store, and a backup is one
file). Everything is keyed by what survives a re-import: a hand by its room and the room's hand
id, a player by the room and the name the room prints, never by a store's surrogate ids.
"""

from __future__ import annotations

import sqlite3
import tomllib
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Final

from studdraw.parsers.phh.vocabulary import toml_string

SUFFIX: Final = ".notes.sqlite"

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS notes (
  kind TEXT NOT NULL CHECK (kind IN ('hand', 'player')),
  room TEXT NOT NULL,
  key TEXT NOT NULL,
  note TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (kind, room, key)
);
CREATE TABLE IF NOT EXISTS tags (
  kind TEXT NOT NULL CHECK (kind IN ('hand', 'player')),
  room TEXT NOT NULL,
  key TEXT NOT NULL,
  tag TEXT NOT NULL,
  PRIMARY KEY (kind, room, key, tag)
);
CREATE TABLE IF NOT EXISTS identities (
  room TEXT NOT NULL,
  name TEXT NOT NULL,
  person TEXT NOT NULL,
  PRIMARY KEY (room, name)
);
"""
"""Notes and tags (here), and the accounts linked into persons (`pipeline.identities`)."""


class Kind(StrEnum):
    HAND = "hand"
    PLAYER = "player"


@dataclass(frozen=True, slots=True)
class Target:
    """What a note or tag is about: a hand (`key` = the room's hand id) or a player (`key` = the
    name as the room prints it), in a room."""

    kind: Kind
    room: str
    key: str


@dataclass(frozen=True, slots=True)
class Annotation:
    """A target's note (empty when it has only tags) and tags, in name order."""

    target: Target
    note: str
    tags: tuple[str, ...]
    updated_at: str | None


def notes_path(store: Path) -> Path:
    """The notes file of a store: beside the DuckDB file, or beside a Parquet dataset's
    folder."""
    return store.with_name(store.name + SUFFIX)


@contextmanager
def connected(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection with the schema in place, committed when the block ends without error."""
    with closing(sqlite3.connect(path)) as con:
        con.executescript(_SCHEMA)
        with con:
            yield con


def set_note(path: Path, target: Target, text: str) -> None:
    """Write (or, with empty text, remove) the target's note."""
    with connected(path) as con:
        if not text.strip():
            con.execute(
                "DELETE FROM notes WHERE kind = ? AND room = ? AND key = ?",
                (target.kind, target.room, target.key),
            )
            return
        con.execute(
            "INSERT INTO notes VALUES (?, ?, ?, ?, ?) ON CONFLICT (kind, room, key) "
            "DO UPDATE SET note = excluded.note, updated_at = excluded.updated_at",
            (target.kind, target.room, target.key, text.strip(), _now()),
        )


def tag(path: Path, target: Target, tags: Sequence[str], *, remove: bool = False) -> None:
    """Add the tags to the target (or take them off): a tag is a word or two, kept as typed
    without the spaces around it; adding one twice keeps one."""
    words = [word.strip() for word in tags if word.strip()]
    with connected(path) as con:
        sql = (
            "DELETE FROM tags WHERE kind = ? AND room = ? AND key = ? AND tag = ?"
            if remove
            else "INSERT OR IGNORE INTO tags VALUES (?, ?, ?, ?)"
        )
        con.executemany(sql, [(target.kind, target.room, target.key, word) for word in words])


def annotated(path: Path, *, kind: Kind | None = None, tag: str | None = None) -> list[Annotation]:
    """Every annotated target (of one kind, or carrying one tag), by kind, room and key; none
    when the store has no notes file yet."""
    if not path.exists():
        return []
    with connected(path) as con:
        notes = {
            (Kind(k), room, key): (note, at)
            for k, room, key, note, at in con.execute("SELECT * FROM notes").fetchall()
        }
        tagged: dict[tuple[Kind, str, str], list[str]] = {}
        for k, room, key, word in con.execute("SELECT * FROM tags ORDER BY tag").fetchall():
            tagged.setdefault((Kind(k), room, key), []).append(word)
    found = []
    for k, room, key in sorted(notes.keys() | tagged.keys()):
        words = tuple(tagged.get((k, room, key), ()))
        if (kind is not None and k != kind) or (tag is not None and tag not in words):
            continue
        note, at = notes.get((k, room, key), ("", None))
        found.append(Annotation(Target(k, room, key), note, words, at))
    return found


def annotate_phh(texts: Iterable[tuple[str, str]], path: Path) -> Iterator[tuple[str, str]]:
    """`studdraw export`'s PHH texts (file name, text) with the notes file's words on each hand
    added in studdraw's `_` fields (docs/phh.md): `_note` and `_tags` on the hand,
    `_player_notes` and `_player_tags` per player (in `players` order) when any player has
    some. Texts pass unchanged when the store has no notes file."""
    found = annotated(path)
    if not found:
        yield from texts
        return
    by_target = {a.target: a for a in found}
    for name, text in texts:
        fields = tomllib.loads(text)
        room, hand = str(fields.get("_room", "")), str(fields.get("hand", ""))
        extra = []
        mark = by_target.get(Target(Kind.HAND, room, hand))
        if mark is not None and mark.note:
            extra.append(f"_note = {toml_string(mark.note)}")
        if mark is not None and mark.tags:
            extra.append(f"_tags = {_strings(mark.tags)}")
        players = [by_target.get(Target(Kind.PLAYER, room, str(p))) for p in fields["players"]]
        if any(players):
            extra.append(f"_player_notes = {_strings(p.note if p else '' for p in players)}")
            tags = ", ".join(_strings(p.tags if p else ()) for p in players)
            extra.append(f"_player_tags = [{tags}]")
        yield name, text + "".join(f"{line}\n" for line in extra)


def _strings(values: Iterable[str]) -> str:
    return "[" + ", ".join(toml_string(value) for value in values) + "]"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
