"""`studdraw ingest --watch`: files imported as the poker client writes them, a hand caught half
written waiting for its end (a thread watches a folder while the test appends to a file)."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from studdraw.cli.commands import app
from studdraw.parsers.model import Game
from studdraw.pipeline.importer.ingest import IngestOptions
from studdraw.pipeline.importer.watch import Imported, hand_closed, watch_folders
from studdraw.pipeline.synth import SynthOptions, render, synthesize

WAIT = 60  # seconds an expected import may take on a loaded machine


@contextmanager
def watching(
    folder: Path, options: IngestOptions, settle: float
) -> Iterator[queue.Queue[Imported]]:
    """A watch of `folder` in a thread for the test's body, its imports in the queue; stopped
    (and joined) after it."""
    imports: queue.Queue[Imported] = queue.Queue()
    stop = threading.Event()
    watcher = threading.Thread(
        target=watch_folders,
        args=([folder], options, imports.put),
        kwargs={"settle": settle, "stop": stop},
    )
    watcher.start()
    try:
        yield imports
    finally:
        stop.set()
        watcher.join(timeout=WAIT)
    assert not watcher.is_alive()


@pytest.mark.parametrize(
    ("tail", "closed"),
    [
        (b"Seat 2: Bob folded\n\n\n", True),
        (b"Seat 2: Bob folded\r\n\r\n", True),
        (b"Seat 2: Bob folded\n\n  \t", True),
        (b"Seat 2: Bob folded\n", False),
        (b"*** 3rd STREET ***\nBob: folds", False),
        ("Bob folded\r\n\r\n".encode("utf-16-le"), True),
        ("Bob folded\r\n".encode("utf-16-le"), False),
    ],
)
def test_a_hand_is_closed_by_a_blank_line(tmp_path: Path, tail: bytes, closed: bool) -> None:
    path = tmp_path / "h.txt"
    path.write_bytes(b"x" * 100 + tail)
    assert hand_closed(path) is closed


def test_watch_imports_appended_hands_and_waits_for_a_half_written_one(tmp_path: Path) -> None:
    texts = [render(r, "pokerstars") for r in synthesize(SynthOptions(game=Game.RAZZ, hands=3))]
    folder = tmp_path / "client"
    folder.mkdir()
    db = tmp_path / "watch.duckdb"
    with watching(folder, IngestOptions(db, workers=1), settle=3600.0) as imports:
        assert imports.get(timeout=WAIT).hands.stored == 0  # the folder starts empty
        history = folder / "HH20260302 Razz.txt"
        history.write_text(texts[0] + "\n\n\n" + texts[1] + "\n\n\n", encoding="utf-8")
        first = imports.get(timeout=WAIT)
        assert (first.files, first.hands.stored) == ([history], 2)
        lines = texts[2].splitlines(keepends=True)
        half = len(lines) // 2
        with history.open("a", encoding="utf-8") as client:
            client.write("".join(lines[:half]))
        with pytest.raises(queue.Empty):  # the half-written hand waits
            imports.get(timeout=3)
        with history.open("a", encoding="utf-8") as client:
            client.write("".join(lines[half:]) + "\n\n\n")
        second = imports.get(timeout=WAIT)
        assert (second.hands.stored, second.hands.duplicates, second.hands.rejected) == (1, 2, 0)
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM hands").fetchall() == [(3,)]
        assert con.execute("SELECT count(*) FROM rejects").fetchall() == [(0,)]


def test_a_file_caught_mid_hand_at_the_start_waits_for_its_last_hand(tmp_path: Path) -> None:
    """The watch begins while the client is writing a hand: the whole hands are imported at
    once, the half-written one when it is complete (before: rejected as cut, then stored)."""
    texts = [render(r, "pokerstars") for r in synthesize(SynthOptions(game=Game.RAZZ, hands=3))]
    folder = tmp_path / "client"
    folder.mkdir()
    history = folder / "HH20260302 Razz.txt"
    lines = texts[2].splitlines(keepends=True)
    half = len(lines) // 2
    history.write_text(
        texts[0] + "\n\n\n" + texts[1] + "\n\n\n" + "".join(lines[:half]), encoding="utf-8"
    )
    db = tmp_path / "watch.duckdb"
    with watching(folder, IngestOptions(db, workers=1), settle=3600.0) as imports:
        first = imports.get(timeout=WAIT)  # the files that are whole: none
        assert (first.files, first.hands.hands_seen) == ([], 0)
        with pytest.raises(queue.Empty):  # the half-written hand waits
            imports.get(timeout=3)
        with history.open("a", encoding="utf-8") as client:
            client.write("".join(lines[half:]) + "\n\n\n")
        second = imports.get(timeout=WAIT)
        assert second.files == [history]
        assert (second.hands.stored, second.hands.duplicates, second.hands.rejected) == (3, 0, 0)
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM hands").fetchall() == [(3,)]
        assert con.execute("SELECT count(*) FROM rejects").fetchall() == [(0,)]
        assert con.execute("SELECT sum(rejected) FROM imports").fetchall() == [(0,)]


def test_a_file_cut_for_good_at_the_start_is_read_once_settled(tmp_path: Path) -> None:
    """A file left in the middle of a hand (the client gone) is not held for ever: once it has
    settled, its hands are read and the cut one rejected, never lost."""
    texts = [render(r, "pokerstars") for r in synthesize(SynthOptions(game=Game.RAZZ, hands=2))]
    folder = tmp_path / "client"
    folder.mkdir()
    history = folder / "HH20260302 Razz.txt"
    lines = texts[1].splitlines(keepends=True)
    history.write_text(texts[0] + "\n\n\n" + "".join(lines[: len(lines) // 2]), "utf-8")
    options = IngestOptions(tmp_path / "watch.duckdb", workers=1)
    with watching(folder, options, settle=1.0) as imports:
        assert imports.get(timeout=WAIT).files == []
        settled = imports.get(timeout=WAIT)
        assert settled.files == [history]
        assert (settled.hands.stored, settled.hands.rejected) == (1, 1)


def test_a_file_written_while_the_first_import_runs_is_imported(tmp_path: Path) -> None:
    """The watch is running before the folder is scanned: a file the client writes between the
    scan and the end of the first import is caught as a change, not lost."""
    text = render(next(synthesize(SynthOptions(game=Game.RAZZ, hands=1))), "pokerstars")
    folder = tmp_path / "client"
    folder.mkdir()
    late = folder / "HH20260302 Razz.txt"
    imports: queue.Queue[Imported] = queue.Queue()

    def heard(done: Imported) -> None:
        if imports.empty():  # the first import has scanned the folder: the client writes now
            late.write_text(text + "\n\n\n", encoding="utf-8")
        imports.put(done)

    stop = threading.Event()
    options = IngestOptions(tmp_path / "watch.duckdb", workers=1)
    watcher = threading.Thread(
        target=watch_folders, args=([folder], options, heard), kwargs={"stop": stop}
    )
    watcher.start()
    try:
        assert imports.get(timeout=WAIT).hands.stored == 0
        second = imports.get(timeout=WAIT)
        assert (second.files, second.hands.stored) == ([late], 1)
    finally:
        stop.set()
        watcher.join(timeout=WAIT)
    assert not watcher.is_alive()


def test_a_store_held_by_another_process_is_waited_for(tmp_path: Path) -> None:
    """The first import finds the store held: the watch says so and imports the files once the
    other process lets go, instead of stopping."""
    text = render(next(synthesize(SynthOptions(game=Game.RAZZ, hands=1))), "pokerstars")
    folder = tmp_path / "client"
    folder.mkdir()
    history = folder / "HH20260302 Razz.txt"
    history.write_text(text + "\n\n\n", encoding="utf-8")
    db = tmp_path / "held.duckdb"
    hold = (
        "import duckdb, sys; con = duckdb.connect(sys.argv[1]); print('held', flush=True); input()"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", hold, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    imports: queue.Queue[Imported] = queue.Queue()
    busy: queue.Queue[str] = queue.Queue()
    stop = threading.Event()
    watcher = threading.Thread(
        target=watch_folders,
        args=([folder], IngestOptions(db, workers=1, wait_seconds=0), imports.put),
        kwargs={"stop": stop, "on_busy": busy.put},
    )
    watcher.start()
    try:
        assert "in use by another process" in busy.get(timeout=WAIT)
        assert imports.empty()
        holder.communicate(input="\n", timeout=WAIT)  # the other process lets go
        done = imports.get(timeout=WAIT)
        assert (done.files, done.hands.stored) == ([history], 1)
    finally:
        stop.set()
        watcher.join(timeout=WAIT)
        holder.kill()
        holder.wait()
    assert not watcher.is_alive()


def test_watch_runs_the_local_engine_into_duckdb_only(tmp_path: Path) -> None:
    runner = CliRunner()
    for extra in (["--json"], ["--engine", "dask"], ["--parquet", str(tmp_path / "p")]):
        result = runner.invoke(
            app, ["ingest", str(tmp_path), "--db", str(tmp_path / "w.duckdb"), "--watch", *extra]
        )
        assert result.exit_code == 2
        assert "--watch runs the local engine into the DuckDB store only" in result.stderr
