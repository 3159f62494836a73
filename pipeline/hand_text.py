"""A stored hand as text for people: the room's own text when its source file still holds it,
otherwise the hand written back from its record by a room renderer. What the dashboard's
replayer copies and the coach's report (`pipeline.coach`) prints.

The store keeps no raw text of a stored hand (only rejects keep theirs), but it keeps the file,
byte offset and a hash of the text: when the file is still there and the hand read at that
offset has the same hash, the text is exactly what the room wrote. Otherwise the record (the
store's rows give it back whole: `pipeline.export.stored_record`) is rendered in the room's
format where the project has a renderer (PokerStars, Full Tilt, KingsClub: the games only it
deals, drawmaha among them, have no PokerStars label), in PokerStars' format for other rooms,
and `HandText.origin` says which.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from studdraw.parsers.model import HandRecord
from studdraw.parsers.reader import open_history
from studdraw.parsers.render.fulltilt import fulltilt_can_render, render_fulltilt
from studdraw.parsers.render.kingsclub import kingsclub_can_render, render_kingsclub
from studdraw.parsers.render.pokerstars import render_pokerstars
from studdraw.pipeline.store.hand_hash import content_hash

RENDERERS: Final[dict[str, Callable[[HandRecord, str | None], str]]] = {
    "pokerstars": render_pokerstars,
    "fulltilt": render_fulltilt,
    "kingsclub": render_kingsclub,
}
ROOM_FORMATS: Final = {
    "pokerstars": "PokerStars' format",
    "fulltilt": "Full Tilt's format",
    "kingsclub": "KingsClub's format",
}
CAN_RENDER: Final[dict[str, Callable[[HandRecord], bool]]] = {
    "fulltilt": fulltilt_can_render,
    "kingsclub": kingsclub_can_render,
}
"""The rooms whose format holds only some hands; the others fall back to PokerStars'."""


@dataclass(frozen=True, slots=True)
class HandText:
    """The text and where it came from, in one sentence for the reader."""

    text: str
    origin: str


def record_text(record: HandRecord, stored_hash: int | None) -> HandText:
    """The hand as text: the source's exact text when its file still holds the hand whose
    text hashes to `stored_hash` (the store's `hands.content_hash`), else rendered."""
    source = record.source
    exact = None if stored_hash is None else source_text(source.path, source.offset, stored_hash)
    return _text(record, exact)


def records_texts(hands: Sequence[tuple[HandRecord, int | None]]) -> list[HandText]:
    """`record_text` of each (record, stored hash), in order, each source file read once."""
    wanted: dict[str, dict[int, int]] = {}
    for record, stored_hash in hands:
        if stored_hash is not None:
            wanted.setdefault(record.source.path, {})[record.source.offset] = stored_hash
    found: dict[tuple[str, int], str] = {}
    for path, hashes in wanted.items():
        for offset, text in _texts_at(path, hashes).items():
            found[(path, offset)] = text
    return [
        _text(record, found.get((record.source.path, record.source.offset))) for record, _ in hands
    ]


def _text(record: HandRecord, exact: str | None) -> HandText:
    source = record.source
    if exact is not None:
        return HandText(exact, f"As the room wrote it: {source.path}, line {source.line}.")
    room = record.room
    render = RENDERERS.get(room)
    can_render = CAN_RENDER.get(room)
    if render is not None and (can_render is None or can_render(record)):
        return HandText(
            render(record, record.hero),
            f"The source file is not available: written back from the store in "
            f"{ROOM_FORMATS[room]}.",
        )
    return HandText(
        render_pokerstars(record, record.hero),
        f"The source file is not available and there is no {room} renderer: written back "
        "from the store in PokerStars' format.",
    )


def source_text(path: str, offset: int, stored_hash: int) -> str | None:
    """The hand's text from its file, if the file still holds exactly that hand at `offset`."""
    return _texts_at(path, {offset: stored_hash}).get(offset)


def _texts_at(path: str, hashes: dict[int, int]) -> dict[int, str]:
    """The hands of the file at the offsets asked for whose texts still have the stored hashes
    (the file read up to the last offset asked for); none when it cannot be read."""
    found: dict[int, str] = {}
    last = max(hashes, default=-1)
    try:
        for hand in open_history(Path(path)).hand_texts():
            offset = hand.source.offset
            if offset > last:
                break
            if offset in hashes and content_hash(hand.text) == hashes[offset]:
                found[offset] = hand.text
    except (OSError, ValueError):
        return {}
    return found
