"""The cyclic collector during an import: off inside a block, cycles still freed once per batch,
and the process's collector left as it was found, whatever the nesting or the threads."""

from __future__ import annotations

import gc
import threading
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from studdraw.pipeline.importer.collector import collect_batch, collected_per_batch
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from tests.conftest import SAMPLES


class Node:
    """An object in a reference cycle: only the cyclic collector can free it."""

    def __init__(self) -> None:
        self.me = self


def cycle() -> weakref.ref[Node]:
    return weakref.ref(Node())


@pytest.fixture(autouse=True)
def collector_enabled() -> Iterator[None]:
    """Every test starts with the collector on and nothing frozen, and ends so."""
    gc.enable()
    assert gc.get_freeze_count() == 0
    yield
    gc.enable()
    gc.unfreeze()


def test_off_inside_and_restored_after() -> None:
    with collected_per_batch():
        assert not gc.isenabled()
        assert gc.get_freeze_count() > 0  # what lived before is not walked by a batch's pass
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_a_disabled_collector_stays_disabled() -> None:
    gc.disable()
    with collected_per_batch():
        pass
    assert not gc.isenabled()


def test_cycles_are_freed_at_each_batch_end_and_at_the_block_end() -> None:
    with collected_per_batch():
        first = cycle()
        assert first() is not None  # the automatic collector is off
        collect_batch()
        assert first() is None
        second = cycle()
    assert second() is None


def test_an_inner_block_collects_and_leaves_the_collector_off() -> None:
    with collected_per_batch():
        with collected_per_batch():
            made = cycle()
        assert made() is None
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_last_thread_out_restores_the_collector() -> None:
    inside, release = threading.Event(), threading.Event()
    states: list[bool] = []

    def other() -> None:
        with collected_per_batch():
            inside.set()
            release.wait(10)
            states.append(gc.isenabled())

    thread = threading.Thread(target=other)
    with collected_per_batch():
        thread.start()
        assert inside.wait(10)
    assert not gc.isenabled()  # the other thread's block is still open
    release.set()
    thread.join(10)
    assert states == [False]
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_an_import_leaves_the_collector_as_it_found_it(tmp_path: Path) -> None:
    summary = ingest([SAMPLES], IngestOptions(tmp_path / "store.duckdb"))
    assert summary.stored > 0
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0
