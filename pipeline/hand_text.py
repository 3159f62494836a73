"""A stored hand as text for people: the room's own text when its source file still holds it,
otherwise the hand written back from its record. What the dashboard's replayer copies and the
coach's report (`pipeline.coach`) prints.

The store keeps no raw text of a stored hand (only rejects keep theirs), but it keeps the file,
byte offset and a hash of the text: when the file is still there and the hand read at that
offset has the same hash, the text is exactly what the room wrote. Otherwise the record (the
store's rows give it back whole: `pipeline.export.stored_record`) is written in the first
format that holds it (`parsers.render.RENDERERS`): the room's own (PokerStars, Full Tilt,
iPoker, KingsClub), else PokerStars' (its games, its structures, ids of digits), else PHH, which
holds every hand. What is written reads back as the same hand, and `HandText.origin` says which
format it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from studdraw.parsers.model import HandRecord
from studdraw.parsers.reader import open_history
from studdraw.parsers.render import RENDERERS
from studdraw.pipeline.phh import dumps
from studdraw.pipeline.store.hand_hash import content_hash


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
    own = RENDERERS.get(record.room)
    if own is not None and own.holds(record):
        return HandText(
            own.render(record, record.hero),
            f"The source file is not available: written back from the store in {own.name}.",
        )
    why = f"{own.name} cannot hold this hand" if own else f"studdraw writes no {record.room} text"
    stars = RENDERERS["pokerstars"]
    if stars.holds(record):
        return HandText(
            stars.render(record, record.hero),
            f"The source file is not available and {why}: written back from the store in "
            f"{stars.name}.",
        )
    return HandText(
        dumps(record),
        f"The source file is not available and {why}, nor PokerStars' format: written back "
        "from the store as PHH, the open hand-history format.",
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
