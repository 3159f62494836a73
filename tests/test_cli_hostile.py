"""CLI manners on a hostile machine: a store path that cannot be a store is one line and exit 2
for every command; Ctrl-C and SIGTERM stop an import cleanly (exit 130/143, the ledger says
interrupted, a re-run resumes); workers never outlive a killed import."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from studdraw.cli.commands import app
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from tests.conftest import CORPUS, SAMPLES, corpus_file
from tests.pipeline.store_support import counts, differences, inflate

runner = CliRunner()
STUDDRAW = str(Path(sys.executable).parent / "studdraw")
RAZZ = SAMPLES / "pokerstars" / "razz.txt"


def bad_stores(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    text_file = tmp_path / "notes.duckdb"
    text_file.write_text("not a database\n", encoding="utf-8")
    folder = tmp_path / "folder"
    folder.mkdir()
    return {
        "folder": (folder, "is a folder"),
        "not duckdb": (text_file, "is not a DuckDB database file"),
        "no parent": (tmp_path / "missing" / "s.duckdb", "missing"),
    }


COMMANDS = {
    "ingest": ["ingest", str(RAZZ)],
    "stats": ["stats"],
    "leaks": ["leaks", "--player", "Hero"],
    "report": ["report", "--player", "Hero", "--out", "report.html"],
    "prepare": ["prepare"],
    "dashboard": ["dashboard"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("case", ["folder", "not duckdb", "no parent"])
def test_a_store_path_that_is_no_store_is_one_line_and_exit_2(
    tmp_path: Path, command: str, case: str
) -> None:
    db, expected = bad_stores(tmp_path)[case]
    result = runner.invoke(app, [*COMMANDS[command], "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.output
    assert expected in lines[0] and "Traceback" not in result.output


def start(folder: Path, db: Path, *options: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [STUDDRAW, "ingest", str(folder), "--db", str(db), "--json", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: a Ctrl-C reaches it and its workers
    )


def wait_for_stored(db: Path, process: subprocess.Popen[str]) -> None:
    """Until the importer's write-ahead log shows committed work (see test_store_crash)."""
    wal = Path(f"{db}.wal")
    deadline = time.monotonic() + 120
    while not (wal.exists() and wal.stat().st_size > 1_000_000):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no commit within two minutes"
        time.sleep(0.005)


@pytest.fixture(scope="module")
def many_hands(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    corpus_file()
    folder = tmp_path_factory.mktemp("many") / "in"
    return folder, inflate(CORPUS, folder, copies=8)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("engine", "signum", "code"),
    [("local", signal.SIGINT, 130), ("local", signal.SIGTERM, 143), ("dask", signal.SIGTERM, 143)],
)
def test_a_stop_signal_ends_the_import_cleanly_and_a_rerun_resumes(
    many_hands: tuple[Path, int], tmp_path: Path, engine: str, signum: int, code: int
) -> None:
    folder, hands = many_hands
    db = tmp_path / "s.duckdb"
    options = ["--engine", engine, "--workers", "2", "--batch-size", "50", "--task-mb", "1"]
    victim = start(folder, db, *options)
    wait_for_stored(db, victim)
    if engine == "local":
        os.killpg(victim.pid, signum)  # as a terminal's Ctrl-C, or a service manager's stop
    else:
        os.kill(victim.pid, signum)  # the main process alone: it stops its cluster itself
    try:
        out, err = victim.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(victim.pid, signal.SIGKILL)  # no orphan import left behind a failed test
        raise
    assert victim.returncode == code, err
    assert "Traceback" not in err and out == ""
    assert "interrupted:" in err and "Run the same command again to resume" in err
    con = duckdb.connect(str(db), read_only=True)
    stored = con.execute("SELECT count(*) FROM hands").fetchone()
    marked = con.execute(
        "SELECT count(*) FROM imports WHERE interrupted AND status = 'running'"
    ).fetchone()
    con.close()
    assert stored is not None and 0 < stored[0] < hands
    assert marked is not None and marked[0] >= 1
    rerun = start(folder, db, "--workers", "2")
    out, err = rerun.communicate(timeout=600)
    assert rerun.returncode == 0, err
    summary = json.loads(out)
    assert summary["stored"] + summary["duplicates"] == hands == summary["hands_seen"]
    assert summary["stored"] == hands - stored[0]


# `studdraw ingest` whose analytics' upkeep, at one point of a run (`where`, the `nth` time),
# starts a DuckDB query that only an interrupt ends, and a thread that sends Ctrl-C twice once
# DuckDB reports the query running (the second after the first was handled): both signals land
# inside a DuckDB call, deterministically. "derive" runs inside a batch's write transaction,
# "compact" inside the import's last one (after every batch).
_SECOND_CTRL_C = """
import os, signal, sys, threading, time
from studdraw.cli import main
from studdraw.pipeline.analytics import source
from studdraw.pipeline.importer.stopping import StopSwitch

where, nth = sys.argv[1], int(sys.argv[2])
sys.argv = ["studdraw", *sys.argv[3:]]
handled = threading.Event()
calls = []

def ctrl_c_twice(con):
    while con.query_progress() < 0:
        time.sleep(0.001)
    os.kill(os.getpid(), signal.SIGINT)
    handled.wait()
    os.kill(os.getpid(), signal.SIGINT)

def endless(con):
    calls.append(con)
    if len(calls) == nth:
        con.execute("SET enable_progress_bar = true; SET enable_progress_bar_print = false")
        con.execute("SET progress_bar_time = 0")
        threading.Thread(target=ctrl_c_twice, args=(con,), daemon=True).start()
        con.execute("SELECT count(*) FROM range(1000000000000)")

def handle(switch, signum, frame, original=StopSwitch._handle):
    original(switch, signum, frame)
    handled.set()

def derive(upkeep, con, lo, hi, original=source.Upkeep.__call__):
    original(upkeep, con, lo, hi)
    endless(con)

def compact(con, original=source._compact_rollup):
    original(con)
    endless(con)

StopSwitch._handle = handle
if where == "derive":
    source.Upkeep.__call__ = derive
else:
    source._compact_rollup = compact
main()
"""


@pytest.fixture(scope="module")
def few_hands(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, int]:
    """An input folder of the corpus's hands once, and the store of its uninterrupted import."""
    corpus_file()
    root = tmp_path_factory.mktemp("few")
    hands = inflate(CORPUS, root / "in", copies=1)
    reference = root / "reference.duckdb"
    assert ingest([root / "in"], IngestOptions(reference, workers=1)).stored == hands
    return root / "in", reference, hands


@pytest.mark.slow
@pytest.mark.parametrize(("where", "nth"), [("derive", 3), ("compact", 1)])
def test_a_second_ctrl_c_inside_a_duckdb_call_stops_cleanly_and_a_rerun_completes(
    few_hands: tuple[Path, Path, int], tmp_path: Path, where: str, nth: int
) -> None:
    folder, reference, hands = few_hands
    db = tmp_path / "s.duckdb"
    command = ["ingest", str(folder), "--db", str(db), "--json", "--workers", "1"]
    victim = subprocess.run(
        [sys.executable, "-c", _SECOND_CTRL_C, where, str(nth), *command, "--batch-size", "50"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert victim.returncode == 130, victim.stderr
    told = [line for line in victim.stderr.splitlines() if not line.startswith("ingest: ")]
    assert len(told) == 1 and told[0].startswith("interrupted: SIGINT"), victim.stderr
    assert victim.stdout == ""
    con = duckdb.connect(str(db), read_only=True)
    stored = con.execute("SELECT count(*) FROM hands").fetchall()[0][0]
    ledger = con.execute(
        "SELECT sum(stored), count(*) FILTER (status = 'running' AND NOT interrupted), "
        "count(*) FILTER (interrupted) FROM imports"
    ).fetchall()
    con.close()
    (ledger_stored, left_running, interrupted), *_ = ledger
    assert (ledger_stored, left_running) == (stored, 0)  # the ledger counts what is kept
    if where == "derive":
        assert 0 < stored < hands and interrupted >= 1
    else:  # every batch was committed before the stop
        assert (stored, interrupted) == (hands, 0)
    rerun = subprocess.run(
        [STUDDRAW, *command], capture_output=True, text=True, timeout=600, check=False
    )
    assert rerun.returncode == 0, rerun.stderr
    summary = json.loads(rerun.stdout)
    assert (summary["stored"], summary["duplicates"]) == (hands - stored, stored)
    assert differences(reference, db) == {}
    assert counts(db) == counts(reference)


_POOL_SCRIPT = """
import os, sys
from studdraw.pipeline.importer.pool import stage
pool = stage(3, "studdraw.pipeline.importer.ingest")
for started in [pool.submit(os.getpid) for _ in range(8)]:  # the workers start
    pool.result(started)
sys.stdout.write("ready\\n")
sys.stdout.flush()
sys.stdin.readline()
pool.shutdown()
"""


def ignored_signals(pid: int) -> set[int]:
    """The signals a process ignores (its `SigIgn` mask in /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigIgn:"):
            mask = int(line.split()[1], 16)
            return {number for number in range(1, 65) if mask >> (number - 1) & 1}
    raise AssertionError(f"no SigIgn line for {pid}")


@pytest.mark.slow  # a kill drill: signals sent to a pool's processes as they start
def test_pool_processes_ignore_the_stop_signals_from_birth() -> None:
    """The import's forkserver (and so every worker it starts, before any code of the worker
    runs) ignores Ctrl-C, SIGTERM and SIGHUP: a signal to the process group that lands while a
    worker starts cannot break the pool."""
    pool = subprocess.Popen(
        [sys.executable, "-c", _POOL_SCRIPT],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert pool.stdout is not None and pool.stdout.readline() == "ready\n"
        below = [pid for pid in descendants(pool.pid) if alive(pid)]
        assert len(below) >= 2  # the forkserver and at least one worker
        stops = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
        for pid in below:
            assert stops <= ignored_signals(pid), pid
    finally:
        pool.communicate("\n", timeout=60)


def descendants(pid: int) -> set[int]:
    """Every process below `pid` (from /proc), alive or not yet reaped."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        children = {child for child, parent in parents.items() if parent in frontier}
        frontier = children - found
        found |= children
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")  # a zombie has exited; only its parent's wait is missing


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process tree from /proc")
@pytest.mark.parametrize("engine", ["local", "dask"])
def test_workers_exit_when_the_import_is_killed(
    many_hands: tuple[Path, int], tmp_path: Path, engine: str
) -> None:
    folder, _ = many_hands
    db = tmp_path / "s.duckdb"
    options = ["--engine", engine, "--workers", "2", "--batch-size", "50", "--task-mb", "1"]
    victim = start(folder, db, *options)
    wait_for_stored(db, victim)
    workers = descendants(victim.pid)
    assert workers, "the import should run worker processes"
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait()
    deadline = time.monotonic() + 60  # a bound on the wait, not a speed target
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if alive(pid)], "orphan workers outlived the import"


def test_parse_and_validate_report_stray_text_and_junk_apart(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "empty.txt").write_bytes(b"")
    (folder / "late.txt").write_text("a tracker's header\n\n" + RAZZ.read_text("utf-8"), "utf-8")
    hands = RAZZ.read_text("utf-8").count("PokerStars Hand #")
    parsed = runner.invoke(app, ["parse", str(folder)])
    assert parsed.exit_code == 0, parsed.output
    assert "1 stray text (text that starts no room's hand" in parsed.output
    lines = runner.invoke(app, ["parse", str(folder), "--jsonl"]).stdout.splitlines()
    outcomes = [json.loads(line)["outcome"] for line in lines]
    assert outcomes.count("stray") == 1 and outcomes.count("parsed") == hands == len(lines) - 1
    assert "empty.txt: an empty file: no hands" in parsed.output
    validated = runner.invoke(app, ["validate", str(folder)])
    assert "late.txt:1: FIL001 [warning] [scope] text that starts no room's hand: " in (
        validated.output
    )
    assert f"late.txt: {hands} hands, {hands} replayed" in validated.output
