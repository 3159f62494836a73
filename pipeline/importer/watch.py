"""`studdraw ingest --watch`: import hand histories as the poker client writes them, as trackers
do, until stopped.

Every file under the watched folders is imported once at the start; then each file the client
creates or appends to is imported again (the import recognises the hands it already holds, so
only the new ones are stored). A client appends a hand when it ends; a file caught in the middle
of a hand (its text does not end with the blank line that closes a hand) waits until it does, or
until it has not changed for `settle` seconds (a hand cut short for good is then read, and
rejected with its reason, never lost); a file found so at the start waits the same way.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import Final

from watchfiles import Change, watch

from studdraw.parsers.files import IGNORED_SUFFIXES, discover_files
from studdraw.pipeline.importer.ingest import IngestOptions, IngestSummary, ingest
from studdraw.pipeline.importer.summaries import SummaryImport, import_summaries, split_summaries
from studdraw.pipeline.store.db import StoreLockedError

TAIL_BYTES: Final = 64
"""How much of a file's end tells whether its last hand is closed."""
POLL_MS: Final = 500
"""How often the watch wakes without a change, to import the files that have settled."""


@dataclass(frozen=True, slots=True)
class Imported:
    """One import the watch made: the files, and what became of their hands and summaries."""

    files: list[Path]
    hands: IngestSummary
    tournaments: SummaryImport


def hand_closed(path: Path) -> bool:
    """Whether the file ends with a blank line (its last hand is complete), in any of the
    rooms' encodings and line ends."""
    try:
        with path.open("rb") as stream:
            stream.seek(max(path.stat().st_size - TAIL_BYTES, 0))
            tail = stream.read()
    except OSError:
        return True  # gone or unreadable: the import reports it
    text = tail.replace(b"\x00", b"").replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return text.rstrip(b" \t").endswith(b"\n\n")


def _history_like(path: Path) -> bool:
    """What a folder scan would pick up: no hidden files, none of the ignored suffixes."""
    return not path.name.startswith(".") and path.suffix.lower() not in IGNORED_SUFFIXES


def import_files(files: list[Path], options: IngestOptions) -> Imported:
    """Import hand histories and tournament summaries, as `studdraw ingest` does."""
    summaries, histories = split_summaries(files)
    hands = ingest(histories, options, files=histories)
    return Imported(files, hands, import_summaries(summaries, options.db, options.wait_seconds))


def watch_folders(
    folders: list[Path],
    options: IngestOptions,
    on_import: Callable[[Imported], None],
    *,
    settle: float = 30.0,
    stop: threading.Event | None = None,
    on_busy: Callable[[str], None] | None = None,
) -> None:
    """Import everything under `folders`, then each file as it changes, until `stop` is set
    (or Ctrl-C). `on_import` hears of every import; `on_busy` of a store held by another
    process past `options.wait_seconds` (the files are tried again later)."""
    changed: dict[Path, float] = {}  # file -> when it last changed (monotonic)

    def attempt(files: list[Path]) -> None:
        try:
            on_import(import_files(files, options))
        except StoreLockedError as error:  # another writer (or reader) holds the store
            if on_busy is not None:
                on_busy(str(error))
            changed.update(dict.fromkeys(files, time.monotonic()))  # tried again on a later wake

    wakes = watch(
        *folders, stop_event=stop, rust_timeout=POLL_MS, yield_on_timeout=True, debounce=POLL_MS
    )
    # The first wake starts the watcher; only then is the folder scanned, so a file written
    # while the first import runs is caught as a change, never lost between scan and watch. A
    # file found in the middle of a hand waits as if it had just changed (keyed as the watcher
    # names files: absolute paths), so its last hand is read once it is whole.
    first = next(wakes, set())
    found = list(discover_files(folders))
    held = {path: path.absolute() for path in found if not hand_closed(path)}
    changed.update(dict.fromkeys(held.values(), time.monotonic()))
    attempt([path for path in found if path not in held])
    for changes in chain([first], wakes):
        now = time.monotonic()
        for change, name in changes:
            path = Path(name)
            if change is not Change.deleted and path.is_file():
                changed[path] = now
        ready = sorted(
            path for path, when in changed.items() if hand_closed(path) or now - when >= settle
        )
        for path in ready:
            del changed[path]
        files = [path for path in ready if _history_like(path)]
        if files:
            attempt(files)
