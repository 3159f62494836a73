"""A stored hand as text to copy, from the replayer's rows: the room's own text when its source
file still holds it, otherwise written back from the store's rows by a room renderer
(`pipeline.hand_text`, which the coach's report uses too).
"""

from __future__ import annotations

from typing import Any

import polars as pl

from studdraw.parsers.model import EventKind, HandRecord, Seat
from studdraw.pipeline.export import EVENT_COLUMNS, stored_events, stored_record
from studdraw.pipeline.hand_text import HandText, record_text

__all__ = ["HandText", "hand_text", "record_from_rows"]


def hand_text(header: dict[str, Any], seats: pl.DataFrame, actions: pl.DataFrame) -> HandText:
    """The hand as text: the source's exact text when it can be found, else rendered."""
    return record_text(record_from_rows(header, seats, actions), header["content_hash"])


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
