"""The Dask engine's cluster (`studdraw.pipeline.store.dask_engine`): a client of the scheduler
named, or of a LocalCluster started for the import and closed with it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from distributed import Client, LocalCluster


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
    cluster = LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
    )
    with cluster, Client(cluster) as client:  # type: ignore[no-untyped-call]
        yield client
