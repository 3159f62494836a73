"""The Dask engine's stages that run on the workers (`studdraw.pipeline.importer.dask_engine`):
split a task into hand texts, process the new ones, write the task's rows as staged Parquet parts.

Dask sends these functions to the workers by module path: they stay module-level functions of
this module, which imports no Dask, so every worker can import it on its own.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import pyarrow as pa

from studdraw.parsers.files import Encoding
from studdraw.parsers.model import HandText, SourceRef
from studdraw.parsers.reader import open_history
from studdraw.parsers.rooms import BY_NAME
from studdraw.pipeline.importer.dask_ranges import Segment
from studdraw.pipeline.importer.ingest import changed_reject, quality
from studdraw.pipeline.importer.process import (
    PendingHand,
    ProcessedBatch,
    join_batches,
    process_hands,
)
from studdraw.pipeline.store.hand_hash import content_hash
from studdraw.pipeline.store.normalize import (
    Reject,
    Tables,
    keep_hands,
    normalize_rejects,
    shift_hand_ids,
)
from studdraw.pipeline.store.parquet import ParquetDataset, Part
from studdraw.pipeline.store.schema import HANDS, REJECTS

FAULT_ENV: Final = "STUDDRAW_DASK_FAULT"
"""Fault drill, read when an import starts and sent with its tasks: comma-separated
`STAGE:TEXT[:FOLDER]` items make the `split`, `process` or `finish` task of any file whose path
contains TEXT raise; with FOLDER, only its first attempt (a marker file there remembers it)."""


class InjectedFailureError(RuntimeError):
    """A failure asked for through `FAULT_ENV`."""


@dataclass(slots=True)
class HandKeys:
    """What the client needs of each split hand to decide its fate, in split order; `poison`:
    the hands of a file whose tasks kept failing, with the failure."""

    rooms: list[str | None] = field(default_factory=list)
    hand_ids: list[str | None] = field(default_factory=list)
    digests: list[int] = field(default_factory=list)
    import_ids: list[int] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    poison: dict[int, str] = field(default_factory=dict)
    strays: set[int] = field(default_factory=set)  # positions of stray texts (not hands)


@dataclass(slots=True)
class SplitHands:
    """A task's hand texts (they stay on the worker) and their keys."""

    hands: list[HandText] = field(default_factory=list)
    keys: HandKeys = field(default_factory=HandKeys)

    def extend(self, other: SplitHands) -> None:
        offset = len(self.hands)
        self.hands += other.hands
        keys, more = self.keys, other.keys
        keys.rooms += more.rooms
        keys.hand_ids += more.hand_ids
        keys.digests += more.digests
        keys.import_ids += more.import_ids
        keys.paths += more.paths
        keys.poison.update({offset + i: reason for i, reason in more.poison.items()})
        keys.strays.update(offset + i for i in more.strays)


def split_segment(segment: Segment) -> SplitHands:
    """The segment's hand texts, identical (offsets and lines included) to those the reader
    cuts from the whole file, with their first-line ids and content hashes."""
    location = Path(segment.location)
    history = open_history(location)
    room = history.room
    if room is None or (segment.start == 0 and segment.end is None):
        texts = list(history.hand_texts(segment.path))
    else:
        with location.open("rb") as stream:
            stream.seek(segment.start)
            size = -1 if segment.end is None else segment.end - segment.start
            window = io.BytesIO(stream.read(size))
        encoding = history.encoding if segment.start == 0 else Encoding(history.encoding.name, 0)
        texts = [
            dataclasses.replace(
                hand,
                source=SourceRef(
                    hand.source.path,
                    hand.source.offset + segment.start,
                    hand.source.line + segment.line - 1,
                ),
            )
            for hand in room.hand_texts(window, encoding, segment.path)
        ]
    count = len(texts)
    keys = HandKeys(
        [hand.room for hand in texts],
        [_hand_id(hand) for hand in texts],
        [content_hash(hand.text) for hand in texts],
        [segment.import_id] * count,
        [segment.path] * count,
        strays={i for i, hand in enumerate(texts) if hand.stray},
    )
    return SplitHands(texts, keys)


def _hand_id(hand: HandText) -> str | None:
    """The id read from a hand's first line by its own room (a file may hold several)."""
    room = BY_NAME.get(hand.room) if hand.room and not hand.stray else None
    return room.hand_id(hand.text) if room else None


def split_task(segments: Sequence[Segment], fault: str, key: str) -> SplitHands:
    """Round 1 on a worker: cut the task's files and ranges into hand texts."""
    _inject(fault, "split", [segment.path for segment in segments], key)
    split = SplitHands()
    for segment in segments:
        split.extend(split_segment(segment))
    return split


def join_splits(parts: Sequence[SplitHands]) -> SplitHands:
    """One task's hands again, after its files were split one by one."""
    split = SplitHands()
    for part in parts:
        split.extend(part)
    return split


def keys_of(split: SplitHands) -> HandKeys:
    return split.keys


def process_task(
    split: SplitHands, positions: Sequence[int], fault: str, key: str, rules: str | None = None
) -> ProcessedBatch:
    """Round 2 on a worker: parse, replay and normalize the hands at `positions`."""
    keys = split.keys
    _inject(fault, "process", sorted({keys.paths[i] for i in positions}), key)
    items = [
        PendingHand(split.hands[i], keys.hand_ids[i], keys.digests[i], keys.import_ids[i])
        for i in positions
    ]
    return process_hands(items, rules)


@dataclass(frozen=True, slots=True)
class Fates:
    """A processed batch's fate per hand and the parsed (room, id) of each stored one."""

    fates: bytes
    rooms: list[str]
    hand_ids: list[str]


def fates_of(batch: ProcessedBatch) -> Fates:
    hands = batch.tables[HANDS.name]
    return Fates(
        batch.fates, hands.column("room").to_pylist(), hands.column("room_hand_id").to_pylist()
    )


@dataclass(frozen=True, slots=True)
class FinishPlan:
    """What the client decided about a task's hands, for the worker that writes its parts."""

    root: str
    token: str
    import_id: int  # the first import the parts hold rows of
    offset: int  # store id of the first stored hand
    keep: list[int] | None  # batch-local ids of the processed hands to store; None: all
    changed: list[tuple[int, str]]  # (position, id) of hands whose id is stored otherwise
    poisoned: list[tuple[int, str]]  # (position, reason) of hands whose tasks kept failing


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished task: its staged parts and what the import counts of them."""

    parts: list[Part]
    with_errors: Counter[int]
    reasons: Counter[tuple[str, str, str]]


def finish_task(
    split: SplitHands,
    processed: Sequence[ProcessedBatch],
    plan: FinishPlan,
    fault: str = "",
    key: str = "",
) -> Finished:
    """Round 3 on a worker: the task's rows as the local engine's writer makes them (stored
    hands only, store ids, changed and failed hands as rejects), staged as Parquet parts."""
    _inject(fault, "finish", sorted(set(split.keys.paths)), key)
    tables: Tables = dict(join_batches(processed).tables) if processed else {}
    with_errors: Counter[int] = Counter()
    reasons: Counter[tuple[str, str, str]] = Counter()
    if tables:
        if plan.keep is not None:
            tables = keep_hands(tables, plan.keep)
        with_errors, reasons = quality(tables)
    keys = split.keys
    extra = [
        changed_reject(split.hands[i], hand_id, keys.digests[i], keys.import_ids[i])
        for i, hand_id in plan.changed
    ] + [
        Reject(
            split.hands[i],
            keys.hand_ids[i],
            keys.digests[i],
            "internal_error",
            reason,
            None,
            keys.import_ids[i],
        )
        for i, reason in plan.poisoned
    ]
    if extra:
        rows = normalize_rejects(extra)
        if REJECTS.name in tables:
            rows = pa.concat_tables([tables[REJECTS.name], rows])
        tables[REJECTS.name] = rows
    if HANDS.name in tables:
        tables = shift_hand_ids(tables, plan.offset)
    parts = ParquetDataset(Path(plan.root)).stage(tables, plan.token, plan.import_id)
    return Finished(parts, with_errors, reasons)


def _inject(spec: str, stage: str, paths: Sequence[str], key: str) -> None:
    """Raise `InjectedFailureError` where the fault drill (`FAULT_ENV`) asks for it."""
    for item in filter(None, spec.split(",")):
        wanted, text, folder = [*item.split(":", 2), ""][:3]
        if wanted != stage or not any(text in path for path in paths):
            continue
        if folder:
            marker = Path(folder) / hashlib.sha1(key.encode()).hexdigest()
            try:
                marker.touch(exist_ok=False)
            except FileExistsError:
                continue
        raise InjectedFailureError(f"injected {stage} failure for {text!r}")
