"""The Dask engine's tasks as the client plans and moves them (`dask_engine`): the files of an
import hashed and bundled into tasks of about `task_bytes` (ranges of big files, cut by
`dask_ranges`, and bundles of small ones), each file's ledger row opened as it is planned; and
the record of a task through its stages."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import Enum
from pathlib import Path

from distributed import Future

from studdraw.parsers.files import display_path
from studdraw.parsers.reader import open_history
from studdraw.pipeline.importer.dask_ranges import Segment, plan_ranges
from studdraw.pipeline.importer.dask_tasks import (
    Fates,
    Finished,
    FinishPlan,
    HandKeys,
    SplitHands,
)
from studdraw.pipeline.importer.ingest import file_state, ledger_path, name_note, unsettled
from studdraw.pipeline.importer.process import ProcessedBatch
from studdraw.pipeline.store.db import ImportRow, Key, Store


class Stage(Enum):
    SPLIT = 1  # hands being cut; next: decide which are new
    PROCESS = 2  # new hands being processed; next: their fates, hand ids
    FINISH = 3  # parts being written; next: load them into the store


@dataclass(slots=True)
class Task:
    number: int
    segments: list[Segment] = field(default_factory=list)
    size: int = 0
    deltas: dict[int, Counter[str]] = field(default_factory=dict)
    finished: dict[int, tuple[str, str | None]] = field(default_factory=dict)
    stage: Stage = Stage.SPLIT
    split: Future[SplitHands] | None = None
    keys: Future[HandKeys] | None = None
    hand_keys: HandKeys = field(default_factory=HandKeys)
    pending: dict[int, Key] = field(default_factory=dict)  # position -> key, to process
    changed: list[tuple[int, str]] = field(default_factory=list)
    poisoned: list[tuple[int, str]] = field(default_factory=list)
    groups: list[list[int]] = field(default_factory=list)  # positions of each processed batch
    processed: list[Future[ProcessedBatch]] = field(default_factory=list)
    fates: list[Future[Fates]] = field(default_factory=list)
    plan: FinishPlan | None = None
    finish: Future[Finished] | None = None
    new: list[tuple[str, str]] = field(default_factory=list)  # (room, id) it stores

    def delta(self, import_id: int) -> Counter[str]:
        found = self.deltas.get(import_id)
        if found is None:
            found = self.deltas[import_id] = Counter()
        return found


FileState = tuple[Path, tuple[int, int, int]]
"""A file as it was when hashed: its path and `ingest.file_state` (size, mtime, inode)."""


def plan_tasks(
    files: list[Path],
    advance: Callable[[Path], None],
    *,
    problems: list[tuple[Path, str]],
    store: Store,
    task_bytes: int,
    first_import: int,
    rows: dict[int, ImportRow],
    states: dict[int, FileState],
) -> Iterator[Task]:
    """Tasks of about `task_bytes`: ranges of big files, bundles of small ones. Each path (the
    folders in `problems` first, then `files`) gets a ledger row in `rows`, numbered from
    `first_import`; the row travels with the tasks holding its hands, its final status with
    the last. A file fully imported before is skipped. Each file read is kept in `states` as it
    was when hashed: the workers read it later, and its last task (tasks commit in order)
    checks it again, so a hash names what was read."""
    task = Task(0)
    for import_id, (path, reason) in enumerate(problems, first_import):
        row = ImportRow(
            import_id, display_path(path.absolute()), None, None, None, "running", _now()
        )
        rows[import_id] = row
        task.delta(import_id)
        task.finished[import_id] = ("failed", reason)
    for import_id, path in enumerate(files, first_import + len(problems)):
        row = ImportRow(import_id, ledger_path(path), None, None, None, "running", _now())
        row.note = name_note(path)
        rows[import_id] = row
        task.delta(import_id)
        try:
            before = file_state(path)
            row.size = size = before[0]
            with path.open("rb") as stream:
                row.content_hash = hashlib.file_digest(stream, "sha256").hexdigest()
            previous = store.completed_import(row.content_hash)
            if previous is not None:
                row.room, seen = previous
                task.delta(import_id).update(hands_seen=seen, duplicates=seen)
                task.finished[import_id] = ("skipped", None)
                advance(path)
                continue
            history = open_history(path)
            ranges = plan_ranges(history, size, task_bytes)
            unsettled(row, path, before)
            states[import_id] = (path, before)
        except OSError as error:
            task.finished[import_id] = ("failed", error.strerror or str(error))
            advance(path)
            continue
        row.room = history.room.name if history.room else None
        row.note = history.note or row.note
        location = str(path.absolute())
        bounds = [start for start, _ in ranges[1:]] + [size]
        for (start, line), end in zip(ranges, bounds, strict=True):
            if task.segments and task.size + (end - start) > task_bytes:
                yield task
                task = Task(task.number + 1)
            task.segments.append(
                Segment(
                    display_path(path),
                    location,
                    import_id,
                    start,
                    None if end == size else end,
                    line,
                )
            )
            task.size += end - start
            task.delta(import_id)
        task.finished[import_id] = ("complete", None)
        advance(path)
    if task.segments or task.deltas:
        yield task


def _now() -> datetime:
    return datetime.now(UTC)
