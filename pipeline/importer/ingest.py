"""Ingest: files -> split -> recognise known hands -> parse, replay, normalize -> store.

The main process reads and splits each file (the cheap floor of the pipeline) and recognises the
hands the store already holds before any parsing: a file whose bytes were fully imported before
is skipped at once, and every other hand is looked up by (room, hand id read from its first line,
content hash). Only new hands are parsed, replayed and normalized into Arrow tables
(`process.process_hands`), in pieces of `CHUNK` handed out as they are cut: with `--workers N`
to N-1 worker processes and to this one, which runs a piece whenever it would otherwise wait
(`pool.SharedPool`). The main process gathers the pieces in submission order and writes each
batch of `batch_size` new hands as one transaction (the parts still out once every file is cut
are written one by one as they come back), so the store is the same whatever the number of
workers. Exact dedupe lives in one process this way, and a single huge file is spread over
the workers as well as a folder of small ones.

Every hand text cut from a file ends as exactly one of stored, duplicate, rejected or
unsupported, counted per file in the `imports` table.
"""

from __future__ import annotations

import hashlib
import signal
import time
import uuid
from collections import Counter, deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import pyarrow as pa

from studdraw.parsers.files import discover_files, display_path
from studdraw.parsers.model import HandText
from studdraw.parsers.reader import open_history
from studdraw.parsers.rooms import BY_NAME
from studdraw.pipeline.forkserver import IMPORT_WORKERS, signals_ignored
from studdraw.pipeline.importer.collector import collect_batch, collected_per_batch
from studdraw.pipeline.importer.dedupe import Verdict, on_cut, on_fate
from studdraw.pipeline.importer.pool import InProcess, Stage, stage
from studdraw.pipeline.importer.process import (
    CHUNK,
    STORED,
    PendingHand,
    ProcessedBatch,
    join_batches,
    process_hands,
)
from studdraw.pipeline.importer.settings import BATCH_SIZE, part_size
from studdraw.pipeline.importer.stopping import StopSwitch, stop_on_signals, stop_workers
from studdraw.pipeline.store.db import ImportRow, Key, KnownHands, Store, open_store, record_key
from studdraw.pipeline.store.hand_hash import content_hash
from studdraw.pipeline.store.normalize import (
    Reject,
    Tables,
    keep_hands,
    normalize_rejects,
    shift_hand_ids,
)
from studdraw.pipeline.store.parquet import ParquetDataset, Part
from studdraw.pipeline.store.schema import HANDS, REJECTS, UNSUPPORTED

COUNTS: Final = ("hands_seen", "stored", "duplicates", "rejected", "unsupported")


@dataclass(slots=True)
class IngestOptions:
    db: Path
    parquet: Path | None = None
    workers: int = 1
    batch_size: int | None = None  # new hands per transaction (None: `BATCH_SIZE`)
    wait_seconds: float = 60.0
    rules: str | None = None  # a house-rules profile for every hand, instead of its room's


@dataclass(slots=True)
class IngestSummary:
    """What one `ingest` did; `hands_seen = stored + duplicates + rejected + unsupported`."""

    files: int = 0
    hands_seen: int = 0
    stored: int = 0
    duplicates: int = 0
    rejected: int = 0
    unsupported: int = 0
    with_errors: int = 0
    changed: int = 0
    stray_texts: int = 0
    skipped_files: int = 0
    failed_files: list[tuple[str, str]] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)
    interrupted: bool = False
    by_room: dict[str, Counter[str]] = field(default_factory=dict)
    unsupported_reasons: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    seconds: float = 0.0
    workers: int = 1

    def as_dict(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "hands_seen": self.hands_seen,
            "stored": self.stored,
            "duplicates": self.duplicates,
            "rejected": self.rejected,
            "unsupported": self.unsupported,
            "with_errors": self.with_errors,
            "changed": self.changed,
            "stray_texts": self.stray_texts,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands_seen / self.seconds) if self.seconds else None,
            "workers": self.workers,
            "skipped_files": self.skipped_files,
            "failed_files": [{"path": p, "error": e} for p, e in self.failed_files],
            "notes": [{"path": p, "note": n} for p, n in self.notes],
            "interrupted": self.interrupted,
            "by_room": {
                room: {name: counts[name] for name in COUNTS}
                for room, counts in sorted(self.by_room.items())
            },
            "unsupported_reasons": [
                {"room": room, "game": game, "reason": reason, "hands": hands}
                for (room, game, reason), hands in sorted(self.unsupported_reasons.items())
            ],
        }


def ingest(
    paths: Iterable[Path],
    options: IngestOptions,
    advance: Callable[[Path], None] = lambda _path: None,
    *,
    on_wait: Callable[[str], None] | None = None,
    files: list[Path] | None = None,
    path_problems: list[tuple[Path, str]] | None = None,
    on_hands: Callable[[int], None] = lambda _count: None,
) -> IngestSummary:
    """Import every hand-history file under `paths` into the store (see the module docstring).
    `advance(path)` is called as each file has been read, `on_hands(count)` as hands are cut
    from it (every `CHUNK`); `on_wait` once if the store is busy.
    `files` and `path_problems` (folders that could not be read): what `discover_files` found,
    when the caller already walked the paths."""
    start = time.perf_counter()
    if files is None:
        path_problems = []
        files = list(discover_files(paths, lambda path, why: path_problems.append((path, why))))
    store = open_store(options.db, options.wait_seconds, on_wait)
    importer: _Importer | None = None
    executor = stage(options.workers, IMPORT_WORKERS)
    switch = StopSwitch()
    with collected_per_batch():
        try:
            importer = _Importer(store, options)
            importer.on_hands = on_hands
            for path, reason in path_problems or ():
                importer.unreadable(path, reason)
            with stop_on_signals(switch):
                importer.check_stop = switch.check
                importer.run(files, executor, advance)
                executor.shutdown()
                importer.upkeep.finish(store.connection)
                switch.check()  # a signal during the last writes stops the import too
            summary = summarize(importer.rows.values(), importer.reasons, options.workers)
        except BaseException as error:
            signum = switch.stopped_by(error)
            with signals_ignored():
                stop_workers(executor)
                if signum is None or importer is None:
                    raise
                mark_interrupted(store, importer.rows)
            summary = summarize(importer.rows.values(), importer.reasons, options.workers)
            summary.files, summary.seconds = len(files), time.perf_counter() - start
            raise ImportInterruptedError(signum, summary) from None
        finally:
            store.close()
    summary.files = len(files)
    summary.seconds = time.perf_counter() - start
    return summary


class ImportInterruptedError(Exception):
    """An import stopped by a signal: what its committed batches hold (`summary`, marked
    interrupted in the ledger); a re-run resumes it."""

    def __init__(self, signum: int, summary: IngestSummary) -> None:
        super().__init__(f"interrupted by {signal.Signals(signum).name}")
        self.signum = signum
        self.summary = summary


@dataclass(slots=True)
class _Batch:
    """New hands and what the main process learnt while cutting them (duplicates, changed
    hands, finished files). A part of a transaction travels to the workers in pieces; the
    parts whose pieces are done are gathered into the transaction's batch, written as one."""

    number: int
    items: list[PendingHand] = field(default_factory=list)
    keys: list[Key] = field(default_factory=list)
    rejects: list[Reject] = field(default_factory=list)
    deltas: dict[int, Counter[str]] = field(default_factory=dict)
    finished: dict[int, tuple[str, str | None]] = field(default_factory=dict)
    pieces: list[Future[ProcessedBatch]] = field(default_factory=list)
    sent: int = 0  # items handed to the workers so far, in pieces of `CHUNK`
    done: list[ProcessedBatch] = field(default_factory=list)  # the pieces' results, in order

    def delta(self, import_id: int) -> Counter[str]:
        found = self.deltas.get(import_id)
        if found is None:
            found = self.deltas[import_id] = Counter()
        return found

    def gather(self, part: _Batch, results: list[ProcessedBatch]) -> None:
        """Add a part whose pieces are done, with their results, to this transaction."""
        self.items += part.items
        self.keys += part.keys
        self.rejects += part.rejects
        for import_id, delta in part.deltas.items():
            self.delta(import_id).update(delta)
        self.finished.update(part.finished)
        self.done += results


def _now() -> datetime:
    return datetime.now(UTC)


class _Importer:
    def __init__(self, store: Store, options: IngestOptions) -> None:
        self.store = store
        self.options = options
        self.batch_size = BATCH_SIZE if options.batch_size is None else options.batch_size
        self.part_size = part_size(self.batch_size, options.workers)
        self.transaction = _Batch(0)
        # Imported here, not with the module: Dask's workers import this module for its helpers
        # and never write the store, so they need not load the analytics (polars).
        from studdraw.pipeline.analytics.source import Upkeep  # noqa: PLC0415

        self.upkeep = Upkeep(store.connection)
        self.known: KnownHands = store.known()
        self.pending_keys: set[Key] = set()
        self.next_hand_id, self.next_import_id = store.next_ids()
        self.rows: dict[int, ImportRow] = {}
        self.reasons: Counter[tuple[str, str, str]] = Counter()
        self.batch = _Batch(0)
        self.inflight: deque[_Batch] = deque()
        self.dataset = ParquetDataset(options.parquet) if options.parquet else None
        self.token = uuid.uuid4().hex[:12]
        self.check_stop: Callable[[], None] = lambda: None  # raises when a stop was asked
        self.on_hands: Callable[[int], None] = lambda _count: None
        if self.dataset is not None:
            store.claim_dataset(self.dataset.root)
            self.dataset.recover(store.committed_parts(self.dataset.root))

    def run(self, files: list[Path], executor: Stage, advance: Callable[[Path], None]) -> None:
        # Batches in flight: enough to keep every worker busy while the writer works, few
        # enough to bound memory (each is a few MB of text out and of Arrow rows back).
        limit = 0 if isinstance(executor, InProcess) else self.options.workers
        for path in files:
            for full in self._scan(path, executor):
                self._submit(full, executor, limit)
            advance(path)
        self._submit(self.batch, executor, 0, last=True)

    def _send(self, batch: _Batch, executor: Stage, whole: bool) -> None:
        """Hand the batch's new items to the workers in pieces of `CHUNK` hands as they are
        cut (the rest too when `whole`): workers start on a batch while the file is still
        being cut, and the last piece of an import keeps one worker busy for a piece, not a
        batch (a transaction of `batch_size` hands stays one commit)."""
        while len(batch.items) - batch.sent >= (1 if whole else CHUNK):
            piece = batch.items[batch.sent : batch.sent + CHUNK]
            batch.pieces.append(executor.submit(process_hands, piece, self.options.rules))
            batch.sent += len(piece)

    def _submit(self, batch: _Batch, executor: Stage, limit: int, *, last: bool = False) -> None:
        """Queue a part of a transaction; gather the parts beyond `limit` in flight, writing
        each transaction once it is whole. The `last` part closes the import: what is left is
        written a part at a time, so the writer stores the parts already done while the
        workers parse the rest, and the import ends with one part's write, not a whole
        transaction's (0.1 s against 0.45 for 2,500 hands in parts against 10,000)."""
        if batch is self.batch:
            self.batch = _Batch(batch.number + 1)
        self._send(batch, executor, whole=True)
        self.inflight.append(batch)
        while len(self.inflight) > limit:
            self.check_stop()
            part = self.inflight.popleft()
            self.transaction.gather(part, [executor.result(piece) for piece in part.pieces])
            if last or len(self.transaction.items) >= self.batch_size:
                executor.hand_out_waiting()
                self._write()
            collect_batch()

    # -- the main process's side: cut files, recognise known hands --------------------------

    def unreadable(self, path: Path, reason: str) -> None:
        """A folder (or path) that could not be read while discovering files: a `failed` row
        in the ledger, written with the first batch."""
        import_id = self.next_import_id
        self.next_import_id += 1
        row = ImportRow(
            import_id, display_path(path.absolute()), None, None, None, "running", _now()
        )
        self.rows[import_id] = row
        self.batch.delta(import_id)
        self.batch.finished[import_id] = ("failed", reason)

    def _scan(self, path: Path, executor: Stage) -> Iterable[_Batch]:
        """Cut one file into hands, queueing the new ones; yields each batch that fills up."""
        import_id = self.next_import_id
        self.next_import_id += 1
        row = ImportRow(import_id, ledger_path(path), None, None, None, "running", _now())
        row.note = name_note(path)
        self.rows[import_id] = row
        self.batch.delta(import_id)
        try:
            before = file_state(path)
            row.size = before[0]
            with path.open("rb") as stream:
                row.content_hash = hashlib.file_digest(stream, "sha256").hexdigest()
            previous = self.store.completed_import(row.content_hash)
            if previous is not None:
                row.room, seen = previous
                delta = self.batch.delta(import_id)
                delta["hands_seen"] += seen
                delta["duplicates"] += seen
                self.on_hands(seen)
                self.batch.finished[import_id] = ("skipped", None)
                return
            history = open_history(path)
            row.room = history.room.name if history.room else None
            row.note = history.note or row.note
            cut = 0
            for cut, hand in enumerate(history.hand_texts(), 1):
                self.check_stop()
                room = BY_NAME.get(hand.room) if hand.room and not hand.stray else None
                self._classify(hand, room.hand_id(hand.text) if room else None, import_id)
                if cut % CHUNK == 0:
                    self.on_hands(CHUNK)
                if len(self.batch.items) >= self.part_size:
                    yield self.batch
                else:
                    self._send(self.batch, executor, whole=False)
            self.on_hands(cut % CHUNK)
            unsettled(row, path, before)
        except OSError as error:
            self.batch.finished[import_id] = ("failed", error.strerror or str(error))
            return
        self.batch.finished[import_id] = ("complete", None)

    def _classify(self, hand: HandText, hand_id: str | None, import_id: int) -> None:
        batch = self.batch
        delta = batch.delta(import_id)
        digest = content_hash(hand.text)
        room = hand.room
        key = record_key(room, hand.source.path, digest)
        stored = None
        if not hand.stray and room is not None and hand_id is not None:
            stored = self.known.stored.get(room, {}).get(hand_id)
        verdict = on_cut(
            delta,
            key,
            digest,
            stored,
            stray=hand.stray,
            recorded=self.known.recorded,
            pending=self.pending_keys,
        )
        if verdict is Verdict.CHANGED and hand_id is not None:
            batch.rejects.append(changed_reject(hand, hand_id, digest, import_id))
        elif verdict is Verdict.PROCESS:
            batch.keys.append(key)
            batch.items.append(
                PendingHand(hand, None if hand.stray else hand_id, digest, import_id)
            )

    # -- the writer ---------------------------------------------------------------------------

    def _write(self) -> None:
        """Write the transaction gathered so far: its rows, its imports' new state and its
        Parquet parts, as one DuckDB transaction."""
        batch, self.transaction = self.transaction, _Batch(self.transaction.number + 1)
        result = join_batches(batch.done) if batch.done else None
        tables: Tables = dict(result.tables) if result is not None else {}
        fates = result.fates if result is not None else b""
        keep: list[int] = []
        rejects = list(batch.rejects)
        hand_index = 0
        # The parsed id is authoritative (a room may print it below the first line), and the
        # store says whether it is there: an earlier text of the hand may have been stored by
        # an earlier batch of this import while this one was on its way. Stored hands are never
        # overwritten.
        hands = tables.get(HANDS.name)
        rooms = hands.column("room").to_pylist() if hands is not None else []
        hand_ids = hands.column("room_hand_id").to_pylist() if hands is not None else []
        in_store = self.store.stored_hashes(rooms, hand_ids) if hand_ids else {}
        for item, key, fate in zip(batch.items, batch.keys, fates, strict=True):
            room_key = (rooms[hand_index], hand_ids[hand_index]) if fate == STORED else None
            verdict = on_fate(
                batch.delta(item.import_id),
                key,
                item.content_hash,
                fate,
                in_store.get(room_key) if room_key is not None else None,
                recorded=self.known.recorded,
                pending=self.pending_keys,
            )
            if verdict is Verdict.PROCESS and room_key is not None:
                in_store[room_key] = item.content_hash
                keep.append(hand_index)
            elif verdict is Verdict.CHANGED and room_key is not None:
                rejects.append(
                    changed_reject(item.hand, room_key[1], item.content_hash, item.import_id)
                )
            if fate == STORED:
                hand_index += 1
        if result is not None:
            if len(keep) < hand_index:
                tables = keep_hands(tables, keep)
            with_errors, reasons = quality(tables)
            for import_id, count in with_errors.items():
                batch.delta(import_id)["with_errors"] += count
            self.reasons.update(reasons)
        if batch.rejects or len(rejects) > len(batch.rejects):
            extra = normalize_rejects(rejects)
            if REJECTS.name in tables:
                extra = pa.concat_tables([tables[REJECTS.name], extra])
            tables[REJECTS.name] = extra
        first = self.next_hand_id
        if HANDS.name in tables:
            stored = tables[HANDS.name].num_rows
            tables = shift_hand_ids(tables, self.next_hand_id)
            self.next_hand_id += stored
        touched = apply_counts(self.rows, batch.deltas, batch.finished)
        parts: list[Part] = []
        if self.dataset is not None and tables and touched:
            token = f"{self.token}-{batch.number:06d}"
            parts = self.dataset.stage(tables, token, touched[0].import_id)
        last = self.next_hand_id - 1
        self.store.write(
            tables,
            touched,
            parts,
            self.dataset.root if self.dataset else None,
            derive=(lambda con: self.upkeep(con, first, last)) if last >= first else None,
        )
        if self.dataset is not None:
            self.dataset.publish(parts)


def mark_interrupted(store: Store, rows: dict[int, ImportRow]) -> None:
    """After a stop: the run's rows become what the store holds (a second signal may stop a
    batch's write, whose counts the rows already hold), and every file not finished is marked
    interrupted (its counts those of the batches committed), in one transaction."""
    committed = store.imports_from(min(rows, default=0))
    for import_id, row in rows.items():
        rows[import_id] = committed.get(import_id) or ImportRow(
            import_id, row.path, row.room, row.size, None, "running", row.started_at, note=row.note
        )
    running = [row for row in rows.values() if row.status == "running"]
    for row in running:
        row.interrupted = True
    if running:
        store.write({}, running)


def ledger_path(path: Path) -> str:
    """The file as the ledger names it: absolute, symlinks resolved where they can be (a
    symlink loop cannot), as text any store takes (see `display_path`)."""
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError):  # Python 3.11 raises RuntimeError on a symlink loop
        resolved = path.absolute()
    return display_path(resolved)


def name_note(path: Path) -> str | None:
    """A note for a file name that is not valid UTF-8 (imported all the same)."""
    if display_path(path) == str(path):
        return None
    return "the file name is not valid UTF-8; shown with \\x escapes"


def changed_reject(hand: HandText, hand_id: str, digest: int, import_id: int) -> Reject:
    """A hand whose id is stored with other content: kept apart, never overwriting the store."""
    return Reject(
        hand,
        hand_id,
        digest,
        "changed",
        f"hand {hand_id} is already stored with other content; the stored hand is kept",
        None,
        import_id,
    )


def quality(tables: Tables) -> tuple[Counter[int], Counter[tuple[str, str, str]]]:
    """Of a batch about to be written: stored hands with rule errors per import, and the
    unsupported hands per (room, game label, reason)."""
    hands = tables[HANDS.name]
    with_errors = Counter(
        import_id
        for import_id, errors in zip(
            hands.column("import_id").to_pylist(), hands.column("errors").to_pylist(), strict=True
        )
        if errors
    )
    unsupported = tables[UNSUPPORTED.name]
    reasons = Counter(
        (room or "unknown", label or "?", reason)
        for room, label, reason in zip(
            unsupported.column("room").to_pylist(),
            unsupported.column("game_label").to_pylist(),
            unsupported.column("reason").to_pylist(),
            strict=True,
        )
    )
    return with_errors, reasons


CHANGED_NOTE: Final = (
    "the file changed while it was read: its hands were read as they stood, and the next "
    "import reads it again"
)


def file_state(path: Path) -> tuple[int, int, int]:
    """What tells a file's content changed: its size, modification time and inode."""
    info = path.stat()
    return info.st_size, info.st_mtime_ns, info.st_ino


def unsettled(row: ImportRow, path: Path, before: tuple[int, int, int]) -> None:
    """A file that changed between its hashing and the end of its reading (a sync client or
    the poker client rewriting it) is recorded without a hash, so no later import skips it
    as read: the hash would name content whose hands were not all read."""
    try:
        changed = file_state(path) != before
    except OSError:  # gone since: what was read stands, the hash does not
        changed = True
    if changed:
        row.content_hash = None
        row.note = CHANGED_NOTE


def apply_counts(
    rows: dict[int, ImportRow],
    deltas: dict[int, Counter[str]],
    finished: dict[int, tuple[str, str | None]],
) -> list[ImportRow]:
    """Add a batch's counts (and the files it finishes) to their imports' rows; the rows to
    write with the batch."""
    for import_id, delta in deltas.items():
        row = rows[import_id]
        for name, value in delta.items():
            setattr(row, name, getattr(row, name) + value)
    for import_id, (status, error) in finished.items():
        row = rows[import_id]
        row.status, row.error, row.finished_at = status, error, _now()
    return [rows[i] for i in sorted(deltas.keys() | finished.keys())]


def summarize(
    rows: Iterable[ImportRow], reasons: Counter[tuple[str, str, str]], workers: int
) -> IngestSummary:
    """The run's summary from its imports' rows (files, seconds: the caller's)."""
    summary = IngestSummary(workers=workers, unsupported_reasons=reasons)
    for row in rows:
        for name in (*COUNTS, "changed", "with_errors", "stray_texts"):
            setattr(summary, name, getattr(summary, name) + getattr(row, name))
        if row.note:
            summary.notes.append((row.path, row.note))
        summary.interrupted |= row.interrupted
        room = summary.by_room.setdefault(row.room or "unknown", Counter())
        room.update({name: getattr(row, name) for name in COUNTS})
        if row.status == "skipped":
            summary.skipped_files += 1
        elif row.status == "failed":
            summary.failed_files.append((row.path, row.error or ""))
    return summary
