"""The Dask engine's cluster (`studdraw.pipeline.importer.dask_engine`): a client of the scheduler
named, or of a LocalCluster started for the import and closed with it; and the import's tasks
stopped before it leaves the cluster."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Final

from distributed import Client, Future, LocalCluster

SETTLE_SECONDS: Final = 60.0
"""How long an import that stops waits for its tasks already running on the workers."""


class ClusterError(Exception):
    """The Dask scheduler given cannot be reached."""


@contextmanager
def cluster_client(scheduler: str | None, workers: int) -> Iterator[Client]:
    """A client of the scheduler at `scheduler`, or of a LocalCluster of `workers` processes
    of one thread each (the stages hold the GIL: threads would not run them in parallel)."""
    if scheduler is not None:
        try:
            remote = Client(scheduler)  # type: ignore[no-untyped-call]
        except OSError as error:
            raise ClusterError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
        with remote:
            yield remote
        return
    with LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        client = Client(cluster)  # type: ignore[no-untyped-call]
        try:
            yield client
        finally:
            with contextlib.suppress(OSError):  # a worker that is gone has nothing to say
                client.run(logs_silenced_for_good, on_error="ignore")
            with logs_silenced():
                client.close()  # type: ignore[no-untyped-call]
                cluster.close()


def settle(client: Client, futures: Sequence[Future[Any]], token: str) -> None:
    """Cancel an import's tasks and wait, at most `SETTLE_SECONDS`, until no worker runs one
    (`token` is in each task's key). A running task cannot be cancelled: it goes on on its
    worker, and closing the cluster under it, or removing the scratch folder it writes its
    parts in, makes the workers log tracebacks on the import's stderr (seen after SIGTERM).
    A cluster that cannot be reached any more runs nothing of ours to wait for."""
    with contextlib.suppress(OSError):
        if futures:
            client.cancel(list(futures))  # type: ignore[no-untyped-call]
        deadline = time.monotonic() + SETTLE_SECONDS
        while time.monotonic() < deadline:
            counts = client.run(running_tasks, token, on_error="return")
            if not any(isinstance(count, int) and count for count in counts.values()):
                return
            time.sleep(0.05)


def running_tasks(token: str, dask_worker: Any) -> int:
    """On a worker (`Client.run` passes it as `dask_worker`): how many tasks whose key holds
    `token` it is running, cancelled ones included."""
    return sum(token in str(task.key) for task in dask_worker.state.executing)


def logs_silenced_for_good() -> None:
    """On a worker of the import's own LocalCluster, idle and about to be closed: no more logs.
    Dask's shutdown races (a heartbeat in flight when the worker closes its connections) log
    tracebacks that say nothing about the import, which is over."""
    logging.disable(logging.CRITICAL)


@contextmanager
def logs_silenced() -> Iterator[None]:
    """The same for this process (the LocalCluster's scheduler and nannies) while it closes."""
    previous = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        yield
    finally:
        logging.disable(previous)
