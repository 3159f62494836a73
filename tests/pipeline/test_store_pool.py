"""The import's stage executors: every piece's result in order, whichever process ran it."""

from __future__ import annotations

import fcntl
import gc
import os
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studdraw.pipeline.forkserver import IMPORT_WORKERS
from studdraw.pipeline.importer import pool as pool_module
from studdraw.pipeline.importer import process as process_module
from studdraw.pipeline.importer.pool import (
    ANSWERS_PREFIX,
    PIPE_BYTES,
    InProcess,
    SharedPool,
    answers_folder,
    stage,
)
from studdraw.pipeline.importer.process import PendingHand, ProcessedBatch, process_hands
from tests.pipeline.test_store_normalize import sample_texts

PRELOAD = IMPORT_WORKERS


def where(value: int, main: int, release: str | None = None) -> tuple[int, bool]:
    """`value` and whether it was computed in the process `main`; in a worker, first say so
    (the files `release`.began and, for this piece, `release`.began.`value`) and wait for the
    file `release` to exist (a worker held at its first piece)."""
    here = os.getpid() == main
    if release is not None and not here:
        Path(release + ".began").touch()
        Path(f"{release}.began.{value}").touch()
        while not Path(release).exists():
            time.sleep(0.01)
    return value, here


class Payload:
    """A piece's argument whose life a test can watch (a weak reference)."""

    def __init__(self, value: int) -> None:
        self.value = value


def where_payload(payload: Payload, main: int, began: str) -> tuple[int, bool]:
    """Like `where`, slower here than in a worker, so the worker is handed pieces again."""
    here = os.getpid() == main
    if here:
        time.sleep(0.01)
    else:
        Path(began).touch()
    return payload.value, here


def processed_where(items: list[PendingHand], main: int, began: str) -> tuple[ProcessedBatch, bool]:
    """`process_hands` and whether it ran in the process `main` (in a worker, say so first)."""
    here = os.getpid() == main
    if not here:
        Path(began).touch()
    return process_hands(items), here


def fail(value: int) -> int:
    raise ValueError(f"piece {value} fails")


@pytest.fixture
def shared() -> Iterator[SharedPool]:
    pool = stage(2, PRELOAD)
    assert isinstance(pool, SharedPool)
    try:
        yield pool
    finally:
        pool.shutdown()


def test_one_process_runs_each_piece_at_once() -> None:
    pool = stage(1, PRELOAD)
    assert isinstance(pool, InProcess)
    future = pool.submit(where, 7, os.getpid())
    assert future.done() and pool.result(future) == (7, True)


def test_results_come_in_order_from_both_processes(shared: SharedPool, tmp_path: Path) -> None:
    """Twenty pieces, four handed to the worker ahead: the rest run here while the writer
    waits (or go to the worker as it gets through its own), and every result is the piece's
    own."""
    release = tmp_path / "release"
    release.touch()
    futures = [shared.submit(where, n, os.getpid(), str(release)) for n in range(20)]
    wait_for(Path(f"{release}.began"))
    results = [shared.result(future) for future in futures]
    assert [value for value, _ in results] == list(range(20))
    assert not results[0][1]  # the first piece went to the worker
    assert any(here for _, here in results)


def wait_for(path: Path) -> None:
    deadline = time.monotonic() + 60
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.01)


@pytest.mark.parametrize("shared_memory", [True, False])
def test_pieces_not_begun_are_taken_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_memory: bool
) -> None:
    """A worker held at its first piece: the writer, waiting with nothing left to hand out,
    takes back the newest pieces no worker has begun and runs them here, like the pieces that
    were never handed out. With shared memory to claim them in, that is every piece but the
    first; without, only those the pool has not yet passed on to the worker (it passes one
    or two ahead of the piece a worker runs, as its thread gets to it), the fourth at least."""
    if not shared_memory:
        monkeypatch.setattr(pool_module, "SHARED_MEMORY", str(tmp_path / "none"))
    shared = stage(2, PRELOAD)
    assert isinstance(shared, SharedPool) and (shared.exchange is not None) == shared_memory
    release = tmp_path / "release"
    try:
        futures = [shared.submit(where, n, os.getpid(), str(release)) for n in range(6)]
        assert [shared.result(future) for future in futures[4:]] == [(4, True), (5, True)]
        wait_for(Path(f"{release}.began"))
        timer = threading.Timer(1.0, release.touch)
        timer.start()
        try:
            results = [shared.result(future) for future in futures[:4]]
        finally:
            timer.join()
    finally:
        shared.shutdown()
    assert [value for value, _ in results] == [0, 1, 2, 3]
    ran_here = [here for _, here in results]
    if shared_memory:
        assert ran_here == [False, True, True, True]
    else:
        assert not ran_here[0] and ran_here[3]


def test_a_piece_claimed_here_is_skipped_by_its_worker(shared: SharedPool, tmp_path: Path) -> None:
    """The worker reaches the pieces this process claimed from it, and answers that they were
    taken back instead of running them: each piece runs in one process only."""
    release = tmp_path / "release"
    futures = [shared.submit(where, n, os.getpid(), str(release)) for n in range(4)]
    wait_for(Path(f"{release}.began.0"))
    assert shared.result(futures[3]) == (3, True)
    assert shared.result(futures[2]) == (2, True)
    release.touch()
    assert [shared.result(future)[0] for future in futures[:2]] == [0, 1]
    shared.shutdown()  # waits for the worker to get through the pieces it holds
    began = {path.name for path in tmp_path.glob("release.began.*")}
    assert "release.began.0" in began and began <= {"release.began.0", "release.began.1"}


def test_before_a_write_every_waiting_piece_goes_to_the_workers(
    shared: SharedPool, tmp_path: Path
) -> None:
    """Beyond the four a worker is handed ahead, pieces wait here, to run only when the writer
    asks for them. Before a write the writer hands them all out: the worker (held at its first
    piece until then) gets through every one while this process does something else."""
    release = tmp_path / "release"
    futures = [shared.submit(where, n, os.getpid(), str(release)) for n in range(10)]
    assert len(shared.waiting) == 6
    shared.hand_out_waiting()
    assert not shared.waiting
    release.touch()
    deadline = time.monotonic() + 60
    while not all(future.done() for future in futures) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [shared.result(future) for future in futures] == [(n, False) for n in range(10)]


def test_pieces_handed_out_before_a_write_can_be_taken_back(
    shared: SharedPool, tmp_path: Path
) -> None:
    """A worker held at its first piece: the writer, once it waits for a result, takes back
    the newest pieces it handed out before its write and runs them here."""
    release = tmp_path / "release"
    futures = [shared.submit(where, n, os.getpid(), str(release)) for n in range(10)]
    shared.hand_out_waiting()
    wait_for(Path(f"{release}.began"))
    assert shared.result(futures[9]) == (9, True)
    release.touch()
    results = [shared.result(future) for future in futures]
    assert [value for value, _ in results] == list(range(10))
    assert not results[0][1]


def test_a_failing_piece_raises_from_result(shared: SharedPool) -> None:
    """Where a piece ran, its error reaches the writer when it asks for the piece's result."""
    futures = [shared.submit(fail, n) for n in range(8)]
    for n, future in enumerate(futures):
        with pytest.raises(ValueError, match=f"piece {n} fails"):
            shared.result(future)


def test_shutdown_cancels_the_pieces_waiting_here(shared: SharedPool) -> None:
    futures = [shared.submit(where, n, os.getpid()) for n in range(10)]
    shared.shutdown(cancel_futures=True)
    assert all(future.cancelled() for future in futures[4:])


@pytest.mark.skipif(not hasattr(fcntl, "F_GETPIPE_SZ"), reason="no pipe sizes here")
def test_the_pipes_hold_a_piece(shared: SharedPool) -> None:
    """The pool's pipes are widened where the system allows (Linux: up to pipe-max-size)."""
    allowed = int(Path("/proc/sys/fs/pipe-max-size").read_text())
    pool: Any = shared.pool
    for queue in (pool._call_queue, pool._result_queue):
        size = fcntl.fcntl(queue._reader.fileno(), fcntl.F_GETPIPE_SZ)
        assert size >= min(PIPE_BYTES, allowed)


def test_a_piece_is_freed_without_the_cycle_collector(shared: SharedPool, tmp_path: Path) -> None:
    """An import runs the cyclic collector only over what is young: a piece a worker ran must
    be freed by reference counting once its result is taken, or every piece's hands and rows
    stay alive to the end of the import (seen: 6.8 GB at a million hands)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        payloads = [Payload(n) for n in range(40)]
        alive = [weakref.ref(payload) for payload in payloads]
        began = tmp_path / "began"
        futures = [
            shared.submit(where_payload, payload, os.getpid(), str(began)) for payload in payloads
        ]
        del payloads
        wait_for(began)
        results = [shared.result(future) for future in futures]
        del futures
        assert [value for value, _ in results] == list(range(40))
        in_worker = {value for value, here in results if not here}
        listed = {piece.args[0].value for piece in shared.out}  # still handed out: kept
        assert in_worker - listed
        assert all(alive[value]() is None for value in in_worker - listed)
    finally:
        if enabled:
            gc.enable()


def test_answers_cross_through_shared_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker leaves each answer in the pool's folder in shared memory and sends its name;
    this process maps it (and removes the name at once), so the folder holds no answer once
    every answer is in (only the pieces' claims), and is gone after the pool."""
    monkeypatch.setattr(pool_module, "SHARED_MEMORY", str(tmp_path))
    mapped: list[str] = []

    def counted(path: str, fates: bytes) -> ProcessedBatch:
        mapped.append(path)
        return real(path, fates)

    real = process_module._mapped_batch
    monkeypatch.setattr(process_module, "_mapped_batch", counted)  # found by name on unpickling
    items = sample_texts()
    expected = process_hands(items)
    shared = stage(2, PRELOAD)
    assert isinstance(shared, SharedPool) and shared.exchange is not None
    exchange = Path(shared.exchange)
    assert exchange.parent == tmp_path and exchange.name.startswith(
        f"{ANSWERS_PREFIX}{os.getpid()}-"
    )
    try:
        began = tmp_path / "began"
        futures = [
            shared.submit(processed_where, items, os.getpid(), str(began)) for _ in range(12)
        ]
        wait_for(began)
        results = [shared.result(future) for future in futures]
        assert list(exchange.glob("*.arrow")) == []
    finally:
        shared.shutdown()
    assert not exchange.exists()
    assert len(mapped) == sum(not here for _, here in results) > 0
    for batch, _ in results:
        assert batch.fates == expected.fates
        assert all(batch.tables[name].equals(expected.tables[name]) for name in expected.tables)


def test_the_answers_folder_sweeps_those_of_gone_importers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A killed import leaves its folder behind; the next pool removes the folders of
    processes that are gone, and no other."""
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    left = tmp_path / f"{ANSWERS_PREFIX}{int(gone.stdout)}-abc"
    left.mkdir()
    (left / "1-0.arrow").write_bytes(b"rows")
    alive = tmp_path / f"{ANSWERS_PREFIX}{os.getpid()}-def"
    alive.mkdir()
    other = tmp_path / f"{ANSWERS_PREFIX}unnamed"
    other.mkdir()
    monkeypatch.setattr(pool_module, "SHARED_MEMORY", str(tmp_path))
    made = answers_folder()
    assert made is not None and Path(made).is_dir()
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(
        [alive.name, other.name, Path(made).name]
    )
    monkeypatch.setattr(pool_module, "SHARED_MEMORY", str(tmp_path / "no shared memory"))
    assert answers_folder() is None


WORKER_MAPS = """
from pathlib import Path
from studdraw.pipeline.forkserver import IMPORT_WORKERS
from studdraw.pipeline.importer.pool import SharedPool, stage

pool = stage(2, IMPORT_WORKERS)
assert isinstance(pool, SharedPool)
try:
    pool.pool.submit(eval, "__import__('pyarrow').array(['a list of strings'])").result()
    print(pool.pool.submit(Path.read_text, Path("/proc/self/maps")).result())
finally:
    pool.shutdown()
"""


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs Linux's /proc")
def test_a_worker_loads_the_stage_and_neither_duckdb_nor_pandas() -> None:
    """An import's worker (and its fork server) loads what the worker stage runs, never the
    writer's DuckDB (13 MB a process), nor the pandas that pyarrow's first conversion of a list
    would import (~50 MB; `pool.without_pandas`). Run in a fresh interpreter: a fork server is
    one per process, and keeps the first preload it is given."""
    done = subprocess.run(
        [sys.executable, "-c", WORKER_MAPS], capture_output=True, text=True, check=True
    )
    assert "libarrow" in done.stdout
    assert "_duckdb" not in done.stdout
    assert "/pandas/" not in done.stdout
