"""The deduplication policy of an import, once for both engines (`ingest.py`, `dask_engine.py`).

A hand text is known by its key (room, file, content hash: `db.record_key`) and, once its room
and first-line id are read, by the content hash stored under that id. It is decided twice: when
it is cut (before any parsing: already stored, already seen in this import, or new) and when its
processed fate comes back (the parsed id is authoritative, and an earlier text of the hand may
have been stored meanwhile). Stored hands are never overwritten: a stored id with other content
is a `changed` reject. Each decision counts the text in the import's tally exactly once, so that
`hands_seen = stored + duplicates + rejected + unsupported` (stray texts are counted apart).
"""

from __future__ import annotations

from collections import Counter
from enum import Enum

from studdraw.pipeline.importer.process import REJECTED, STORED, STRAY_FATE
from studdraw.pipeline.store.db import Key


class Verdict(Enum):
    """What becomes of a hand text."""

    PROCESS = "process"  # new: parse, replay and normalize it (when cut); store it (when back)
    CHANGED = "changed"  # its id is stored with other content: a `changed` reject
    SKIP = "skip"  # counted, nothing more to do (a duplicate, or a fate already tallied)


def on_cut(
    tally: Counter[str],
    key: Key,
    digest: int,
    stored: int | None,
    *,
    stray: bool,
    recorded: set[Key],
    pending: set[Key],
) -> Verdict:
    """A text as it is cut: `stored`, the content hash the store holds under its room and
    first-line id (None when it holds none, or the id is unknown). Stray texts are problems,
    not hands: each recorded once. A new text's key joins `pending` until its fate is back."""
    if stray:
        tally["stray_texts"] += 1
        if key in recorded or key in pending:
            return Verdict.SKIP
        pending.add(key)
        return Verdict.PROCESS
    tally["hands_seen"] += 1
    if stored is not None:
        return _against_stored(tally, key, digest, stored, recorded)
    if key in recorded or key in pending:
        tally["duplicates"] += 1
        return Verdict.SKIP
    pending.add(key)
    return Verdict.PROCESS


def on_fate(
    tally: Counter[str],
    key: Key,
    digest: int,
    fate: int,
    stored: int | None,
    *,
    recorded: set[Key],
    pending: set[Key],
) -> Verdict:
    """A processed text's fate (`process.STORED`, ...): a parsed hand is stored (PROCESS) unless
    the store, or an earlier hand of this import, holds its parsed id (`stored`); a stray text
    was counted when it was cut; a rejected or unsupported hand is counted as such."""
    pending.discard(key)
    if fate == STORED:
        if stored is None:
            tally["stored"] += 1
            return Verdict.PROCESS
        return _against_stored(tally, key, digest, stored, recorded)
    recorded.add(key)
    if fate != STRAY_FATE:
        tally["rejected" if fate == REJECTED else "unsupported"] += 1
    return Verdict.SKIP


def _against_stored(
    tally: Counter[str], key: Key, digest: int, stored: int, recorded: set[Key]
) -> Verdict:
    """A hand whose id is already stored (content hash `stored`): the same text, or one already
    met, is a duplicate; other content is a `changed` reject (counted once)."""
    if stored == digest or key in recorded:
        tally["duplicates"] += 1
        return Verdict.SKIP
    recorded.add(key)
    tally["rejected"] += 1
    tally["changed"] += 1
    return Verdict.CHANGED
