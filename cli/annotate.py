"""`studdraw note`, `studdraw tag` and `studdraw notes`: a player's or a coach's notes and tags
on hands and players, kept beside the store (`<store>.notes.sqlite`, pipeline/notes.py), keyed
by room and room hand id or by room and player name so that they survive re-imports."""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from studdraw.cli.console import console

if TYPE_CHECKING:
    from studdraw.pipeline.notes import Target

StoreOption = Annotated[
    Path,
    typer.Option("--db", help="The store the notes go beside (DuckDB file or Parquet folder)."),
]


class What(StrEnum):
    HAND = "hand"
    PLAYER = "player"


WhatArgument = Annotated[What, typer.Argument(help="What the note is on: a hand or a player.")]
RoomArgument = Annotated[str, typer.Argument(help="The room (pokerstars, fulltilt, ...).")]
KeyArgument = Annotated[
    str, typer.Argument(help="The room's hand id (#123 or 123), or the player's name.")
]


def _target(what: What, room: str, key: str) -> Target:
    from studdraw.pipeline.notes import Kind, Target

    cleaned = key.strip().lstrip("#") if what is What.HAND else key
    return Target(Kind(what.value), room.strip().lower(), cleaned)


def note(
    what: WhatArgument,
    room: RoomArgument,
    key: KeyArgument,
    text: Annotated[str, typer.Argument(help="The note; an empty text removes it.")],
    *,
    db: StoreOption = Path("studdraw.duckdb"),
) -> None:
    """Write a note on a hand (`note hand pokerstars 2300001 "check-raise the turn"`) or on a
    player (`note player pokerstars Carol "calls down light"`); a second note replaces the
    first, an empty one removes it."""
    from studdraw.pipeline import notes

    path = notes.notes_path(db)
    notes.set_note(path, _target(what, room, key), text)
    console().print(f"{'noted' if text.strip() else 'note removed'} in {escape(str(path))}")


def tag(
    what: WhatArgument,
    room: RoomArgument,
    key: KeyArgument,
    tags: Annotated[list[str], typer.Argument(help='One or more tags ("review", "bluff").')],
    *,
    remove: Annotated[bool, typer.Option("--remove", help="Take the tags off.")] = False,
    db: StoreOption = Path("studdraw.duckdb"),
) -> None:
    """Tag a hand or a player (`tag hand pokerstars 2300001 review student-1`); --remove takes
    the tags off."""
    from studdraw.pipeline import notes

    path = notes.notes_path(db)
    notes.tag(path, _target(what, room, key), tags, remove=remove)
    console().print(f"{'untagged' if remove else 'tagged'} in {escape(str(path))}")


def list_notes(
    *,
    db: StoreOption = Path("studdraw.duckdb"),
    what: Annotated[What | None, typer.Option("--on", help="Only hands, or only players.")] = None,
    with_tag: Annotated[str | None, typer.Option("--tag", help="Only those with this tag.")] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON records.")] = False,
) -> None:
    """The notes and tags kept beside the store, hands and players, by room."""
    from rich.table import Table

    from studdraw.pipeline import notes

    kind = notes.Kind(what.value) if what else None
    found = notes.annotated(notes.notes_path(db), kind=kind, tag=with_tag)
    if json_output:
        rows = [
            {"on": a.target.kind.value, "room": a.target.room, "key": a.target.key,
             "note": a.note, "tags": list(a.tags), "updated_at": a.updated_at}
            for a in found
        ]  # fmt: skip
        sys.stdout.write(json.dumps(rows) + "\n")
        return
    if not found:
        console().print("no notes or tags")
        return
    table = Table("on", "room", "hand id / player", "note", "tags")
    for a in found:
        table.add_row(
            a.target.kind.value,
            escape(a.target.room),
            escape(a.target.key),
            escape(a.note),
            escape(", ".join(a.tags)),
        )
    console().print(table)
