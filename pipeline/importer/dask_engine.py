"""`studdraw ingest --engine dask`: the local engine's import, with the splitting, parsing,
replaying, normalizing and Parquet writing done by Dask tasks on a cluster.

What runs where:

- the client (this process) lists the files, hashes each one (a file fully imported before is
  skipped, as locally), cuts big files into byte ranges that start at hand starts
  (`plan_ranges`), and bundles ranges and small files into tasks of about `task_bytes`;
- a worker splits a task into hand texts (`split_task`, kept on the worker) and the client
  fetches only their keys: room, first-line hand id, content hash;
- the client decides, in task order, which hands are new exactly as the local engine does
  (against the store as it was when the run began, the rejects recorded, the hands met earlier
  in the run), and a worker parses, replays and normalizes those (`process_task`, the store's
  `process_hands`); the client fetches their fates and assigns the store's hand ids in order;
- a worker writes the task's rows as staged Parquet parts in the hive layout of `--parquet`
  (`finish_task`);
- the client loads each task's parts into DuckDB (DuckDB reads the files) with the imports'
  rows in ONE transaction, in task order, then publishes the parts.

Only keys and fates (tens of bytes a hand) reach the client; texts and rows stay on the workers
and the shared storage. The tables, hand ids included, are those the local engine writes from
the same input. Without `--parquet` the parts go to a scratch folder beside the database and are
deleted once loaded.

A task that keeps failing (Dask retries it `RETRIES` times) is split up: each of its files is
tried as a task of its own, and the hands of a file that fails again are stored as
`internal_error` rejects with the failure as the reason; the rest of the job goes on.

The workers' stages are in `dask_tasks`, the plan of the tasks in `dask_plan`, the byte ranges
in `dask_ranges`, the cluster in `dask_cluster`; this module is the client's loop.
"""

from __future__ import annotations

import os
import shutil
import time
import uuid
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import duckdb
from distributed import Client, Future, wait

from studdraw.parsers.files import discover_files
from studdraw.pipeline.forkserver import signals_ignored
from studdraw.pipeline.importer.dask_cluster import cluster_client, settle
from studdraw.pipeline.importer.dask_plan import FileState, Stage, Task, plan_tasks
from studdraw.pipeline.importer.dask_tasks import (
    FAULT_ENV,
    FinishPlan,
    HandKeys,
    SplitHands,
    fates_of,
    finish_task,
    join_splits,
    keys_of,
    process_task,
    split_segment,
    split_task,
)
from studdraw.pipeline.importer.dedupe import Verdict, on_cut, on_fate
from studdraw.pipeline.importer.ingest import (
    ImportInterruptedError,
    IngestOptions,
    IngestSummary,
    apply_counts,
    mark_interrupted,
    summarize,
    unsettled,
)
from studdraw.pipeline.importer.process import STORED
from studdraw.pipeline.importer.settings import DEFAULT_TASK_BYTES
from studdraw.pipeline.importer.stopping import StopSwitch, stop_on_signals
from studdraw.pipeline.store.db import ImportRow, Key, Store, open_store, record_key
from studdraw.pipeline.store.parquet import ParquetDataset

RETRIES: Final = 2


@dataclass(slots=True)
class DaskOptions:
    """Where the cluster is (None: a LocalCluster of `IngestOptions.workers` processes) and how
    big a task is."""

    scheduler: str | None = None
    task_bytes: int = DEFAULT_TASK_BYTES


def ingest_dask(
    paths: Sequence[Path],
    options: IngestOptions,
    dask: DaskOptions,
    *,
    advance: Callable[[Path], None] = lambda _path: None,
    on_wait: Callable[[str], None] | None = None,
    on_hands: Callable[[int], None] = lambda _count: None,
    files: list[Path] | None = None,
    path_problems: list[tuple[Path, str]] | None = None,
) -> IngestSummary:
    """`ingest` on a Dask cluster (see the module docstring); the same store and summary."""
    start = time.perf_counter()
    if files is None:
        path_problems = []
        files = list(discover_files(paths, lambda path, why: path_problems.append((path, why))))
    store = open_store(options.db, options.wait_seconds, on_wait)
    try:
        with cluster_client(dask.scheduler, options.workers) as client:
            threads = max(1, sum(client.nthreads().values()))  # type: ignore[no-untyped-call]
            importer = _Importer(store, options, dask, client, threads)
            importer.on_hands = on_hands
            importer.problems = list(path_problems or ())
            switch = StopSwitch()
            try:
                with stop_on_signals(switch):
                    importer.check_stop = switch.check
                    importer.run(files, advance)
                importer.upkeep.finish(store.connection)
            except BaseException as error:
                signum = switch.stopped_by(error)
                if signum is None:
                    raise
                with signals_ignored():
                    mark_interrupted(store, importer.rows)
                summary = summarize(importer.rows.values(), importer.reasons, threads)
                summary.files, summary.seconds = len(files), time.perf_counter() - start
                raise ImportInterruptedError(signum, summary) from None
            finally:
                importer.close()
            summary = summarize(importer.rows.values(), importer.reasons, threads)
    finally:
        store.close()
    summary.files = len(files)
    summary.seconds = time.perf_counter() - start
    return summary


class _Importer:
    def __init__(
        self,
        store: Store,
        options: IngestOptions,
        dask: DaskOptions,
        client: Client,
        threads: int,
    ) -> None:
        self.store = store
        self.task_bytes = dask.task_bytes
        self.client = client
        self.fault = os.environ.get(FAULT_ENV, "")
        self.rules = options.rules
        self.token = uuid.uuid4().hex[:12]
        self.problems: list[tuple[Path, str]] = []  # folders that could not be read
        self.check_stop: Callable[[], None] = lambda: None  # raises when a stop was asked
        self.on_hands: Callable[[int], None] = lambda _count: None  # as tasks commit
        # The analytics' upkeep (the local engine's `_Importer` says why it is imported here).
        from studdraw.pipeline.analytics.source import Upkeep  # noqa: PLC0415

        self.upkeep = Upkeep(store.connection)
        self.next_hand_id, self.first_import = store.next_ids()
        self.rows: dict[int, ImportRow] = {}
        # Each file's state when it was hashed at planning (`plan_tasks`); its last task checks
        # it again.
        self.states: dict[int, FileState] = {}
        self.failed: dict[int, str] = {}  # imports a worker and the client could not read
        self.reasons: Counter[tuple[str, str, str]] = Counter()
        self.recorded = store.recorded()
        self.pending: set[Key] = set()
        self.uncommitted: dict[tuple[str, str], int] = {}  # stored by tasks not yet committed
        self.queue: deque[Task] = deque()
        # Enough tasks ahead to keep every worker busy while the client decides and loads;
        # few enough that their texts and rows on the workers stay small.
        self.window = 2 * threads + 2
        if options.parquet is not None:
            self.dataset = ParquetDataset(options.parquet)
            store.claim_dataset(self.dataset.root)
            self.dataset.recover(store.committed_parts(self.dataset.root))
            self.scratch = False
        else:
            self.dataset = ParquetDataset(
                options.db.resolve().with_name(f".{options.db.name}.parts")
            )
            self.dataset.recover(())
            self.scratch = True

    def close(self) -> None:
        """Stop the import's tasks (none runs on after it), then remove the scratch parts."""
        futures = [
            future
            for task in self.queue
            for future in (task.split, task.keys, task.finish, *task.processed, *task.fates)
            if future is not None
        ]
        settle(self.client, futures, self.token)
        if self.scratch:
            shutil.rmtree(self.dataset.root, ignore_errors=True)

    def run(self, files: list[Path], advance: Callable[[Path], None]) -> None:
        tasks = plan_tasks(
            files,
            advance,
            problems=self.problems,
            store=self.store,
            task_bytes=self.task_bytes,
            first_import=self.first_import,
            rows=self.rows,
            states=self.states,
        )
        planned = False
        while True:
            self.check_stop()
            while not planned and len(self.queue) < self.window:
                task = next(tasks, None)
                if task is None:
                    planned = True
                else:
                    self._submit_split(task)
                    self.queue.append(task)
            if not self.queue:
                return
            if not self._step():
                wait(self._awaited(), return_when="FIRST_COMPLETED")  # type: ignore[no-untyped-call]

    def _submit_split(self, task: Task) -> None:
        if not task.segments:
            task.stage = Stage.FINISH  # only ledger rows: skipped or unreadable files
            return
        key = f"split-{self.token}-{task.number}"
        task.split = self.client.submit(
            split_task, task.segments, self.fault, key, key=key, retries=RETRIES
        )
        task.keys = self.client.submit(keys_of, task.split, key=f"keys-{self.token}-{task.number}")

    # -- the loop: move the earliest task that can move ----------------------------------------

    def _step(self) -> bool:
        """Advance one task by one stage, in task order per stage; False if all wait."""
        for task in self.queue:
            if task.stage is Stage.SPLIT:
                assert task.keys is not None
                if _done(task.keys):
                    self._decide_new(task)
                    return True
                break
        for task in self.queue:
            if task.stage is Stage.PROCESS:
                if all(_done(future) for future in task.fates):
                    self._decide_stored(task)
                    return True
                break
        head = self.queue[0]
        if head.stage is Stage.FINISH and (head.finish is None or _done(head.finish)):
            self._commit(self.queue.popleft())
            return True
        return False

    def _awaited(self) -> list[Future[Any]]:
        futures: list[Future[Any]] = []
        split = next((t for t in self.queue if t.stage is Stage.SPLIT), None)
        if split is not None and split.keys is not None:
            futures.append(split.keys)
        process = next((t for t in self.queue if t.stage is Stage.PROCESS), None)
        if process is not None:
            futures += process.fates
        if self.queue[0].finish is not None:
            futures.append(self.queue[0].finish)
        return futures

    # -- deciding, as the local engine's `_classify` and `_write` do ---------------------------

    def _decide_new(self, task: Task) -> None:
        """Which hands of the task are new (the local engine's `_classify`): a hand whose
        first-line id the store held when the run began is a duplicate or changed; one whose
        text was recorded or met earlier in the run is a duplicate; the rest are processed."""
        assert task.keys is not None
        keys = self._rescue_split(task) if task.keys.status == "error" else task.keys.result()
        task.hand_keys, task.keys = keys, None
        ids = [
            (room, hand_id)
            for room, hand_id in zip(keys.rooms, keys.hand_ids, strict=True)
            if room is not None and hand_id is not None
        ]
        at_start = (
            self.store.stored_hashes(
                [room for room, _ in ids], [hand_id for _, hand_id in ids], self.first_import
            )
            if ids
            else {}
        )
        for position, (room, hand_id, digest, import_id, path) in enumerate(
            zip(keys.rooms, keys.hand_ids, keys.digests, keys.import_ids, keys.paths, strict=True)
        ):
            delta = task.delta(import_id)
            key = record_key(room, path, digest)
            stray = position in keys.strays
            stored = None
            if not stray and room is not None and hand_id is not None:
                stored = at_start.get((room, hand_id))
            verdict = on_cut(
                delta,
                key,
                digest,
                stored,
                stray=stray,
                recorded=self.recorded,
                pending=self.pending,
            )
            if verdict is Verdict.CHANGED and hand_id is not None:
                task.changed.append((position, hand_id))
            elif verdict is Verdict.PROCESS:
                if not stray and position in keys.poison:
                    task.poisoned.append((position, keys.poison[position]))
                task.pending[position] = key
        positions = [i for i in task.pending if i not in keys.poison]
        if positions:
            self._submit_process(task, positions, f"process-{self.token}-{task.number}")
        task.stage = Stage.PROCESS

    def _submit_process(self, task: Task, positions: list[int], key: str) -> None:
        processed = self.client.submit(
            process_task,
            task.split,
            positions,
            self.fault,
            key,
            self.rules,
            key=key,
            retries=RETRIES,
        )
        task.groups.append(positions)
        task.processed.append(processed)
        task.fates.append(self.client.submit(fates_of, processed, key=f"fates-{key}"))

    def _decide_stored(self, task: Task) -> None:
        """What becomes of the processed hands (the local engine's `_write`): stored with the
        next hand ids, or a duplicate or changed hand if an earlier one has the id."""
        if any(future.status == "error" for future in task.fates):
            self._rescue_process(task)
        results = [future.result() for future in task.fates]
        rooms = [room for fates in results for room in fates.rooms]
        hand_ids = [hand_id for fates in results for hand_id in fates.hand_ids]
        in_store = self.store.stored_hashes(rooms, hand_ids) if hand_ids else {}
        keep: list[int] = []
        hand_index = 0
        positions = [position for group in task.groups for position in group]
        fates = b"".join(result.fates for result in results)
        keys = task.hand_keys
        for position, fate in zip(positions, fates, strict=True):
            room_key = (rooms[hand_index], hand_ids[hand_index]) if fate == STORED else None
            stored = None
            if room_key is not None:
                stored = self.uncommitted.get(room_key, in_store.get(room_key))
            verdict = on_fate(
                task.delta(keys.import_ids[position]),
                task.pending[position],
                keys.digests[position],
                fate,
                stored,
                recorded=self.recorded,
                pending=self.pending,
            )
            if verdict is Verdict.PROCESS and room_key is not None:
                self.uncommitted[room_key] = keys.digests[position]
                task.new.append(room_key)
                keep.append(hand_index)
            elif verdict is Verdict.CHANGED and room_key is not None:
                task.changed.append((position, room_key[1]))
            if fate == STORED:
                hand_index += 1
        for position, _ in task.poisoned:
            key = task.pending[position]
            self.pending.discard(key)
            self.recorded.add(key)
            task.delta(keys.import_ids[position])["rejected"] += 1
        task.plan = FinishPlan(
            str(self.dataset.root),
            f"{self.token}-{task.number:06d}",
            min(task.deltas.keys() | task.finished.keys()),
            self.next_hand_id,
            keep if len(keep) < hand_index else None,
            task.changed,
            task.poisoned,
        )
        self.next_hand_id += len(keep)
        if task.processed or task.changed or task.poisoned:
            finish_key = f"finish-{self.token}-{task.number}"
            task.finish = self.client.submit(
                finish_task,
                task.split,
                task.processed,
                task.plan,
                self.fault,
                finish_key,
                key=finish_key,
                retries=RETRIES,
            )
        task.stage = Stage.FINISH

    # -- loading ----------------------------------------------------------------------------------

    def _commit(self, task: Task) -> None:
        """Load the task's parts and its ledger rows as one transaction; then publish them.
        Parts the workers kept failing to write (their storage, most likely) are written here,
        from the same inputs, so the job goes on."""
        finished = None
        if task.finish is not None:
            if task.finish.status == "error":
                assert task.split is not None and task.plan is not None
                processed = [future.result() for future in task.processed]
                finished = finish_task(task.split.result(), processed, task.plan)
            else:
                finished = task.finish.result()
        parts = finished.parts if finished is not None else []
        if finished is not None:
            for import_id, count in finished.with_errors.items():
                task.delta(import_id)["with_errors"] += count
            self.reasons.update(finished.reasons)
        statuses = {
            import_id: ("failed", self.failed[import_id]) if import_id in self.failed else status
            for import_id, status in task.finished.items()
        }
        for import_id, (status, _) in statuses.items():  # every range read: did it change?
            state = self.states.pop(import_id, None)
            if state is not None and status == "complete":
                unsettled(self.rows[import_id], *state)  # as the local engine: no hash then
        touched = apply_counts(self.rows, task.deltas, statuses)
        files: dict[str, list[Path]] = {}
        for part in parts:
            files.setdefault(part.table, []).append(self.dataset.staged_path(part))
        first = task.plan.offset if task.plan is not None else 0
        last = first + len(task.new) - 1

        def derive(con: duckdb.DuckDBPyConnection) -> None:
            self.upkeep(con, first, last)

        if self.scratch:
            self.store.write_files(files, touched, derive=derive)
            self.dataset.discard(parts)
        else:
            self.store.write_files(files, touched, parts, self.dataset.root, derive=derive)
            self.dataset.publish(parts)
        for room_key in task.new:
            del self.uncommitted[room_key]
        self.on_hands(sum(delta["hands_seen"] for delta in task.deltas.values()))

    # -- tasks that keep failing ----------------------------------------------------------------

    def _rescue_split(self, task: Task) -> HandKeys:
        """The task's split failed for good: split its files one by one; a file whose split
        fails again is split here, and its hands will be rejects with the failure as reason."""
        assert task.split is not None
        failure = _describe(task.split)
        parts: list[Future[SplitHands] | SplitHands] = []
        futures = [task.split]
        if len(task.segments) > 1:
            futures = []
            for n, segment in enumerate(task.segments):
                key = f"split-{self.token}-{task.number}-{n}"
                futures.append(
                    self.client.submit(
                        split_task, [segment], self.fault, key, key=key, retries=RETRIES
                    )
                )
            wait(futures)  # type: ignore[no-untyped-call]
        for segment, future in zip(task.segments, futures, strict=True):
            if future.status != "error":
                parts.append(future)
                continue
            cause = failure if future is task.split else _describe(future)
            reason = f"the task kept failing: {cause}"
            try:
                split = split_segment(segment)
            except OSError as error:
                self.failed[segment.import_id] = error.strerror or str(error)
                continue
            split.keys.poison = dict.fromkeys(range(len(split.hands)), reason)
            parts.append(split)
        task.split = self.client.submit(join_splits, parts, key=f"join-{self.token}-{task.number}")
        return self.client.submit(keys_of, task.split).result()

    def _rescue_process(self, task: Task) -> None:
        """Processing failed for good: process each file's hands as a task of its own; the
        hands of a file that fails again become rejects with the failure as the reason."""
        failure = next(_describe(f) for f in task.fates if f.status == "error")
        positions = [position for group in task.groups for position in group]
        by_file: dict[int, list[int]] = {}
        for position in positions:
            by_file.setdefault(task.hand_keys.import_ids[position], []).append(position)
        task.groups, task.processed, task.fates = [], [], []
        if len(by_file) == 1:  # one file: its own task is what failed
            self._poison(task, positions, failure)
            return
        for import_id, group in by_file.items():
            self._submit_process(task, group, f"process-{self.token}-{task.number}-{import_id}")
        wait(task.fates)  # type: ignore[no-untyped-call]
        attempts = list(zip(task.groups, task.processed, task.fates, strict=True))
        task.groups, task.processed, task.fates = [], [], []
        for group, processed, fates in attempts:
            if fates.status == "error":
                self._poison(task, group, _describe(fates))
            else:
                task.groups.append(group)
                task.processed.append(processed)
                task.fates.append(fates)

    @staticmethod
    def _poison(task: Task, positions: list[int], failure: str) -> None:
        task.poisoned += [(i, f"the task kept failing: {failure}") for i in positions]


def _done(future: Future[Any]) -> bool:
    return future.status in ("finished", "error", "cancelled")


def _describe(future: Future[Any]) -> str:
    """A failed future's error, as `Type: message`."""
    try:
        future.result()
    except Exception as error:
        return f"{type(error).__name__}: {error}"
    return ""
