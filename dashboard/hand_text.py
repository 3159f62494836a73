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

from studdraw.parsers.model import (
    Event,
    EventKind,
    Game,
    HandRecord,
    Seat,
    SourceRef,
    Stakes,
    Structure,
    Tournament,
)
from studdraw.parsers.reader import open_history
from studdraw.parsers.render.fulltilt import fulltilt_can_render, render_fulltilt
from studdraw.parsers.render.pokerstars import render_pokerstars
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
    event in order)."""
    tournament = (
        Tournament(
            header["tournament_id"],
            header["tournament_buy_in"],
            header["tournament_fee"],
            header["tournament_currency"],
            header["tournament_level"],
        )
        if header["tournament_id"] is not None
        else None
    )
    events = [
        Event(
            kind=EventKind(row["kind"]),
            line=row["line"],
            street=row["street"],
            player=row["actor"],
            amount=row["amount"],
            to=row["to_amount"],
            all_in=row["all_in"],
            cards=tuple(row["cards"] or ()),
            up=tuple(row["up"] or ()),
            count=row["count"],
            pot=row["pot"],
            text=row["text"],
        )
        for row in actions.sort("seq").iter_rows(named=True)
    ]
    return HandRecord(
        room=header["room"],
        room_hand_id=header["room_hand_id"],
        game=Game(header["game"]),
        structure=Structure(header["structure"]),
        currency=header["currency"],
        scale=header["scale"],
        stakes=Stakes(
            small_bet=header["small_bet"],
            big_bet=header["big_bet"],
            ante=header["ante"],
            bring_in=header["bring_in"],
            small_blind=header["small_blind"],
            big_blind=header["big_blind"],
        ),
        started_at=header["started_at"],
        room_time=header["room_time"],
        table=header["table_name"],
        seats=[
            Seat(row["seat"], row["name"], row["stack"], row["sitting_out"])
            for row in seats.sort("seat").iter_rows(named=True)
        ],
        events=events,
        source=SourceRef(header["source_path"], header["source_offset"], header["source_line"]),
        max_seats=header["max_seats"],
        button=header["button"],
        tournament=tournament,
        mixed=header["mixed"],
        hero=header["hero"],
        total_pot=header["reported_pot"],
        rake=header["reported_rake"],
        notes=list(header["notes"] or []),
    )
