"""A stored hand as text to copy: the room's own text when its source file still holds it,
otherwise written back from the store's rows by a room renderer.

The store keeps no raw text of a stored hand (only rejects keep theirs), but it keeps the file,
byte offset and a hash of the text: when the file is still there and the hand read at that
offset has the same hash, the text is exactly what the room wrote. Otherwise the hand is rebuilt
from its rows (`actions` holds every event in order) and rendered in the room's format where
the project has a renderer (PokerStars, Full Tilt), in PokerStars' format for other rooms, and
the page says which.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import polars as pl

from studdraw.parsers.model import EventKind, HandRecord, Seat
from studdraw.parsers.reader import open_history
from studdraw.parsers.render.fulltilt import fulltilt_can_render, render_fulltilt
from studdraw.parsers.render.pokerstars import render_pokerstars
from studdraw.pipeline.export import EVENT_COLUMNS, stored_events, stored_record
from studdraw.pipeline.importer.process import content_hash

RENDERERS: Final[dict[str, Callable[[HandRecord, str | None], str]]] = {
    "pokerstars": render_pokerstars,
    "fulltilt": render_fulltilt,
}
ROOM_FORMATS: Final = {"pokerstars": "PokerStars' format", "fulltilt": "Full Tilt's format"}


@dataclass(frozen=True, slots=True)
class HandText:
    """The text and where it came from, in one sentence for the page."""

    text: str
    origin: str


def hand_text(header: dict[str, Any], seats: pl.DataFrame, actions: pl.DataFrame) -> HandText:
    """The hand as text: the source's exact text when it can be found, else rendered."""
    exact = _from_source(header)
    if exact is not None:
        return HandText(
            exact,
            f"As the room wrote it: {header['source_path']}, line {header['source_line']}.",
        )
    record = record_from_rows(header, seats, actions)
    room = header["room"]
    render = RENDERERS.get(room)
    if render is not None and (room != "fulltilt" or fulltilt_can_render(record)):
        return HandText(
            render(record, header["hero"]),
            f"The source file is not available: written back from the store in "
            f"{ROOM_FORMATS[room]}.",
        )
    return HandText(
        render_pokerstars(record, header["hero"]),
        f"The source file is not available and there is no {room} renderer: written back "
        "from the store in PokerStars' format.",
    )


def _from_source(header: dict[str, Any]) -> str | None:
    """The hand's text from its file, if the file still holds exactly that hand."""
    path = Path(header["source_path"])
    try:
        history = open_history(path)
        for found in history.hand_texts():
            if found.source.offset == header["source_offset"]:
                text = found.text
                return text if content_hash(text) == header["content_hash"] else None
            if found.source.offset > header["source_offset"]:
                return None
    except (OSError, ValueError):
        return None
    return None


def record_from_rows(
    header: dict[str, Any], seats: pl.DataFrame, actions: pl.DataFrame
) -> HandRecord:
    """The `HandRecord` a stored hand was made from, rebuilt from its rows (every seat, every
    event in order) the way the export rebuilds it."""
    events = actions.sort("seq").select(EVENT_COLUMNS).to_dict(as_series=False)
    events["kind"] = [EventKind(kind) for kind in events["kind"]]
    return stored_record(
        header.__getitem__,
        [
            Seat(row["seat"], row["name"], row["stack"], row["sitting_out"])
            for row in seats.sort("seat").iter_rows(named=True)
        ],
        stored_events(events),
    )
