"""The worker's stage: hand texts -> parse -> replay -> normalize -> Arrow batches.

`process_hands` is what an import's process pool runs (and what a Dask task would run); it never
raises on a bad hand. Every input hand gets exactly one fate, returned in input order, so the
writer can account for each one: stored, rejected or unsupported (or, for a stray text that is
no hand, recorded with its problem, FIL001).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import pyarrow as pa

from studdraw.parsers.model import HandText, Outcome, SourceRef
from studdraw.parsers.problems import Code, Problem, Stage
from studdraw.parsers.reader import describe_failure, parse_hand
from studdraw.pipeline.importer.collector import collected_per_batch
from studdraw.pipeline.rules import HouseRules, replay
from studdraw.pipeline.rules.house import house_rules_named
from studdraw.pipeline.store.normalize import (
    Reject,
    Replayed,
    Tables,
    Unsupported,
    normalize_hands,
    normalize_rejects,
    normalize_unsupported,
    out_of_range,
    rejected,
    shift_hand_ids,
)
from studdraw.pipeline.store.schema import BATCH_TABLES, HANDS, REJECTS, UNSUPPORTED

STORED: Final = ord("S")
REJECTED: Final = ord("R")
UNSUPPORTED_FATE: Final = ord("U")
STRAY_FATE: Final = ord("T")
CHUNK: Final = 500

_exchange: str | None = None
"""In an import's worker process: the shared-memory folder its answers go through
(`answer_through`)."""
_answer_numbers = itertools.count()


@dataclass(slots=True, frozen=True)
class PendingHand:
    """A hand text the writer has not seen before, sent to a worker to be processed."""

    hand: HandText
    room_hand_id: str | None
    content_hash: int
    import_id: int

    def __reduce__(self) -> tuple[Callable[..., PendingHand], tuple[object, ...]]:
        """Pickled as one flat tuple on its way to a worker: the dataclasses' own pickling, a
        Python call per object on both sides, took four times as long to pickle (0.8 s of the
        main process's time per 100,000 hands) and twice as long to unpickle."""
        hand, source = self.hand, self.hand.source
        return _pending_hand, (
            hand.text,
            source.path,
            source.offset,
            source.line,
            hand.room,
            hand.problem,
            hand.stray,
            self.room_hand_id,
            self.content_hash,
            self.import_id,
        )


def _pending_hand(  # noqa: PLR0917 (the fields of a pickled PendingHand, in order)
    text: str,
    path: str,
    offset: int,
    line: int,
    room: str | None,
    problem: Problem | None,
    stray: bool,
    room_hand_id: str | None,
    content_hash: int,
    import_id: int,
) -> PendingHand:
    hand = HandText(text, SourceRef(path, offset, line), room, problem, stray)
    return PendingHand(hand, room_hand_id, content_hash, import_id)


@dataclass(slots=True)
class ProcessedBatch:
    """A worker's answer: one batch per table (hands numbered 0.. in input order) and one fate
    byte per input hand (`STORED`, `REJECTED`, `UNSUPPORTED_FATE`)."""

    tables: Tables
    fates: bytes

    def __reduce__(self) -> tuple[Callable[..., ProcessedBatch], tuple[object, ...]]:
        """Pickled with its tables in Arrow's stream format. In a worker of an import's pool
        the streams go into a file in shared memory (`answer_through`) and only its name goes
        through the pipe: the importing process maps the file instead of reading, unpickling
        and decompressing 3.6 MB per 500 hands, 10 ms of its time against 0.2. Anywhere else
        (or when shared memory is full) they travel in the pickle, compressed by LZ4: a
        quarter of the bytes."""
        if _exchange is not None and (path := _shared(self.tables, _exchange)) is not None:
            return _mapped_batch, (path, self.fates)
        sink = pa.BufferOutputStream()
        _write_streams(sink, self.tables, "lz4")
        return _processed_batch, (sink.getvalue().to_pybytes(), self.fates)


def answer_through(folder: str | None) -> None:
    """From now on, in this process, pickle each `ProcessedBatch` as a file in `folder`
    (None: in the pickle itself). Set by the pool in each of its workers."""
    global _exchange  # noqa: PLW0603 (one setting per worker process)
    _exchange = folder


def _write_streams(sink: pa.NativeFile, tables: Tables, compression: str | None) -> None:
    """Every table of a batch as one Arrow stream after another, in `BATCH_TABLES` order."""
    options = pa.ipc.IpcWriteOptions(compression=compression)
    for table in BATCH_TABLES:
        rows = tables[table.name]
        with pa.ipc.new_stream(sink, rows.schema, options=options) as writer:
            writer.write_table(rows)


def _shared(tables: Tables, folder: str) -> str | None:
    """The batch's streams written, uncompressed, to a new file in `folder`; None if that
    failed (shared memory full, the folder removed by a stopping import): the pickle carries
    them instead."""
    path = Path(folder, f"{os.getpid()}-{next(_answer_numbers)}.arrow")
    try:
        with pa.OSFile(str(path), "wb") as sink:
            _write_streams(sink, tables, None)
    except OSError:
        path.unlink(missing_ok=True)
        return None
    return str(path)


def _read_streams(source: pa.NativeFile) -> Tables:
    return {table.name: pa.ipc.open_stream(source).read_all() for table in BATCH_TABLES}


def _processed_batch(packed: bytes, fates: bytes) -> ProcessedBatch:
    return ProcessedBatch(_read_streams(pa.BufferReader(packed)), fates)


def _mapped_batch(path: str, fates: bytes) -> ProcessedBatch:
    """A worker's answer left in shared memory: the tables are read in place from the
    mapped file, whose name is removed at once (its memory goes when the tables do)."""
    source = pa.memory_map(path)
    Path(path).unlink()
    return ProcessedBatch(_read_streams(source), fates)


def process_hands(items: Sequence[PendingHand], rules: str | None = None) -> ProcessedBatch:
    """Parse, replay and normalize a batch of hand texts, CHUNK hands at a time: only a chunk's
    records and replays are alive at once, while the batch (one transaction) can be larger.
    `rules` names the house-rules profile to replay under (None: each hand's room's). Python's
    cyclic collector runs once, at the end (`collector`)."""
    profile = house_rules_named(rules) if rules else None
    with collected_per_batch():
        return join_batches(
            [
                _process_chunk(items[start : start + CHUNK], profile)
                for start in range(0, len(items), CHUNK)
            ]
        )


def join_batches(parts: Sequence[ProcessedBatch]) -> ProcessedBatch:
    """Processed batches as one, in order (hand ids renumbered from 0 across them)."""
    if len(parts) == 1:
        return parts[0]
    shifted: list[Tables] = []
    offset = 0
    for part in parts:
        shifted.append(shift_hand_ids(part.tables, offset))
        offset += part.tables[HANDS.name].num_rows
    tables = {
        table.name: pa.concat_tables([part[table.name] for part in shifted])
        for table in BATCH_TABLES
    }
    return ProcessedBatch(tables, b"".join(part.fates for part in parts))


def _process_chunk(items: Sequence[PendingHand], rules: HouseRules | None) -> ProcessedBatch:
    """The chunk's hands go through one stage at a time (every hand parsed, then each replayed,
    then all normalized), not each hand through all three: the parsers' code and the rules
    engine's then take turns by the chunk, not by the hand, and a chunk takes 3-4% less time
    (`process_hands` over the ingest benchmark's hands, alternating, docs/scaling.md)."""
    parsed_hands = [parse_hand(item.hand) for item in items]
    replayed: list[Replayed] = []
    rejects: list[Reject] = []
    unsupported: list[Unsupported] = []
    sources: list[PendingHand] = []  # the item of each replayed hand
    fates = bytearray()
    for item, parsed in zip(items, parsed_hands, strict=True):
        room_hand_id = parsed.room_hand_id or item.room_hand_id
        record, problem = parsed.record, parsed.problem
        too_big = out_of_range(record) if record is not None else None
        if too_big is not None:
            record, problem = None, too_big
        if record is not None:
            try:
                result = replay(record, rules)
            except Exception as error:  # an engine bug must not stop an import: keep the text
                rejects.append(_internal(item, room_hand_id, Stage.REPLAY, error))
                fates.append(REJECTED)
                continue
            replayed.append(Replayed(record, result, item.content_hash, item.import_id))
            sources.append(item)
            fates.append(STORED)
        elif problem is None:  # a room's reader broke its contract: keep the text, say so
            source = item.hand.source
            problem = Problem(
                Code.INT001, Stage.PARSE, source.path, source.line, "no record and no problem"
            )
            rejects.append(
                rejected(item.hand, room_hand_id, item.content_hash, problem, item.import_id)
            )
            fates.append(REJECTED)
        elif parsed.outcome is Outcome.UNSUPPORTED:
            unsupported.append(
                Unsupported(
                    item.hand,
                    room_hand_id,
                    item.content_hash,
                    parsed.game_label,
                    problem.message,
                    item.import_id,
                )
            )
            fates.append(UNSUPPORTED_FATE)
        elif parsed.outcome is Outcome.STRAY:
            rejects.append(rejected(item.hand, None, item.content_hash, problem, item.import_id))
            fates.append(STRAY_FATE)
        else:
            rejects.append(
                rejected(item.hand, room_hand_id, item.content_hash, problem, item.import_id)
            )
            fates.append(REJECTED)
    tables = _normalize_isolating_failures(replayed, sources, rejects, fates)
    tables[REJECTS.name] = normalize_rejects(rejects)
    tables[UNSUPPORTED.name] = normalize_unsupported(unsupported)
    return ProcessedBatch(tables, bytes(fates))


def _normalize_isolating_failures(
    replayed: list[Replayed], sources: list[PendingHand], rejects: list[Reject], fates: bytearray
) -> Tables:
    """Normalize the batch at once; should that fail (a bug on some odd hand), normalize hand by
    hand and turn the failing ones into internal-error rejects, so one hand cannot sink a batch."""
    try:
        return normalize_hands(replayed)
    except Exception:
        pass
    good: list[Replayed] = []
    positions = [i for i, fate in enumerate(fates) if fate == STORED]
    for position, hand, item in zip(positions, replayed, sources, strict=True):
        try:
            normalize_hands([hand])
        except Exception as error:
            rejects.append(_internal(item, hand.record.room_hand_id, Stage.IMPORT, error))
            fates[position] = REJECTED
        else:
            good.append(hand)
    return normalize_hands(good)


def _internal(
    item: PendingHand, room_hand_id: str | None, stage: Stage, error: Exception
) -> Reject:
    """A hand a stage of studdraw failed on (INT001), kept as text."""
    hand = item.hand
    message = (
        f"the {stage} failed on this hand, a studdraw bug to report ({describe_failure(error)})"
    )
    problem = Problem(Code.INT001, stage, hand.source.path, hand.source.line, message)
    return rejected(hand, room_hand_id, item.content_hash, problem, item.import_id)
