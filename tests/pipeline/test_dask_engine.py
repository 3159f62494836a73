"""`ingest --engine dask` on a LocalCluster: the local engine's store and Parquet dataset, row for
row and id for id; idempotent; dedupe against the store; retried and poisoned tasks."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import dask
import duckdb
import pytest
from distributed import Client, LocalCluster
from typer.testing import CliRunner

from studdraw.cli.commands import app
from studdraw.pipeline.importer import dask_plan
from studdraw.pipeline.importer.dask_cluster import running_tasks
from studdraw.pipeline.importer.dask_engine import DaskOptions, ingest_dask
from studdraw.pipeline.importer.dask_tasks import FAULT_ENV
from studdraw.pipeline.importer.ingest import (
    CHANGED_NOTE,
    ImportInterruptedError,
    IngestOptions,
    IngestSummary,
    ingest,
)
from studdraw.pipeline.store.db import ImportRow
from studdraw.pipeline.store.schema import BATCH_TABLES
from studdraw.pipeline.synth import SynthOptions, render, synthesize
from tests.conftest import SAMPLES

pytestmark = pytest.mark.slow  # every test starts a Dask LocalCluster: `make test` runs them

TASK_BYTES = 64 << 10  # small tasks: big files cut in ranges, small ones bundled
COUNTS = ("stored", "duplicates", "rejected", "unsupported")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """One LocalCluster for the module's imports (each import is a client of it)."""
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        yield cluster.scheduler_address


def synthesised(path: Path, hands: int, seed: int) -> Path:
    texts = (render(r, "pokerstars") for r in synthesize(SynthOptions(hands=hands, seed=seed)))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n\n\n".join(texts) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def histories(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The samples (rejects, unsupported hands, a file no room knows), a file big enough to be
    cut into ranges, and a file holding one hand twice and a changed text of another."""
    folder = tmp_path_factory.mktemp("histories") / "in"
    shutil.copytree(SAMPLES, folder)
    (folder / "unknown.txt").write_text("not a hand history\n", encoding="utf-8")
    synthesised(folder / "big" / "stud-big.txt", 400, seed=7)
    razz = (SAMPLES / "pokerstars" / "handwritten" / "razz-uncalled-bet.txt").read_text()
    changed = razz.replace("Zeno III", "Zeno IV")
    (folder / "twice.txt").write_text(f"{razz}\n\n{razz}\n\n{changed}", encoding="utf-8")
    return folder


def local(paths: list[Path], db: Path, parquet: Path | None = None) -> IngestSummary:
    return ingest(paths, IngestOptions(db, parquet, workers=1, batch_size=64))


def dask_ingest(
    scheduler: str, paths: list[Path], db: Path, parquet: Path | None = None
) -> IngestSummary:
    return ingest_dask(paths, IngestOptions(db, parquet), DaskOptions(scheduler, TASK_BYTES))


@dataclass(frozen=True)
class Imported:
    """The histories imported by each engine, a Parquet dataset beside each store; and the
    cluster, to import more."""

    histories: Path
    scheduler: str
    local_db: Path
    dask_db: Path
    local: IngestSummary
    dask: IngestSummary

    def run(
        self, db: Path, parquet: Path | None = None, paths: list[Path] | None = None
    ) -> IngestSummary:
        return dask_ingest(self.scheduler, paths or [self.histories], db, parquet)


@pytest.fixture(scope="module")
def imported(histories: Path, scheduler: str, tmp_path_factory: pytest.TempPathFactory) -> Imported:
    work = tmp_path_factory.mktemp("stores")
    local_db, dask_db = work / "local.duckdb", work / "dask.duckdb"
    one = local([histories], local_db, work / "local-pq")
    other = dask_ingest(scheduler, [histories], dask_db, work / "dask-pq")
    return Imported(histories, scheduler, local_db, dask_db, one, other)


def comparable(summary: IngestSummary) -> dict[str, object]:
    found = summary.as_dict()
    for volatile in ("seconds", "hands_per_second", "workers"):
        del found[volatile]
    return found


def assert_identity(summary: IngestSummary) -> None:
    assert summary.hands_seen == sum(getattr(summary, name) for name in COUNTS)


def table_differences(first: Path, second: Path) -> dict[str, tuple[int, int]]:
    """Per table, rows only in the first store and rows only in the second, every column
    compared (hand and import ids too) but the ledger's clock and the parts' names."""
    queries = {table.name: f"SELECT * FROM {{}}.{table.name}" for table in BATCH_TABLES}
    queries["imports"] = "SELECT * EXCLUDE (started_at, finished_at) FROM {}.imports"
    queries["parquet_parts"] = (
        "SELECT table_name, sum(rows) FROM {}.parquet_parts GROUP BY table_name"
    )
    con = duckdb.connect()
    con.execute(f"ATTACH '{first}' AS a (READ_ONLY)")
    con.execute(f"ATTACH '{second}' AS b (READ_ONLY)")
    found = {}
    for name, query in queries.items():
        left, right = query.format("a"), query.format("b")
        only_a = con.execute(f"SELECT count(*) FROM ({left} EXCEPT ALL {right})").fetchone()
        only_b = con.execute(f"SELECT count(*) FROM ({right} EXCEPT ALL {left})").fetchone()
        assert only_a is not None and only_b is not None
        if only_a[0] or only_b[0]:
            found[name] = (only_a[0], only_b[0])
    con.close()
    return found


def dataset(root: Path, table: str) -> str:
    """A table's rows in a Parquet dataset, each with its hive folder (room=/game=/month=)."""
    return (
        "SELECT * EXCLUDE (filename), regexp_extract(filename, '/(room=[^/]*/game=[^/]*/month"
        f"=[^/]*)/part-', 1) AS folder FROM read_parquet('{root}/{table}/**/*.parquet', "
        "hive_partitioning = false, filename = true)"
    )


def test_same_store_as_the_local_engine(imported: Imported) -> None:
    local_db, dask_db, one, other = (
        imported.local_db,
        imported.dask_db,
        imported.local,
        imported.dask,
    )
    assert_identity(other)
    assert comparable(other) == comparable(one)
    assert (other.duplicates, other.changed) == (2, 1)  # twice.txt: the razz sample twice
    assert other.rejected > 0 and other.unsupported > 0
    assert table_differences(local_db, dask_db) == {}


def test_same_parquet_as_the_local_engine(imported: Imported) -> None:
    local_db, dask_db = imported.local_db, imported.dask_db
    con = duckdb.connect()
    for table in BATCH_TABLES:
        left = dataset(local_db.parent / "local-pq", table.name)
        right = dataset(dask_db.parent / "dask-pq", table.name)
        rows = con.execute(f"SELECT count(*) FROM ({left})").fetchone()
        only_local = con.execute(f"SELECT count(*) FROM ({left} EXCEPT ALL {right})").fetchone()
        only_dask = con.execute(f"SELECT count(*) FROM ({right} EXCEPT ALL {left})").fetchone()
        assert rows is not None and rows[0] > 0, table.name
        assert (only_local, only_dask) == ((0,), (0,)), table.name
    assert not list((dask_db.parent / "dask-pq").rglob(".staged-*"))


def test_reimport_dedupes_against_the_store(
    imported: Imported,
    tmp_path: Path,
) -> None:
    """Again as it is (every file known by its hash), then with every file's bytes changed and
    a new file: hands known by their ids are duplicates, the new ones stored after them."""
    local_db, dask_db = (
        Path(shutil.copy(db, tmp_path / db.name)) for db in (imported.local_db, imported.dask_db)
    )
    same = local([imported.histories], local_db)
    again = imported.run(dask_db)
    assert comparable(again) == comparable(same)
    assert (again.stored, again.skipped_files) == (0, again.files)
    touched = shutil.copytree(imported.histories, tmp_path / "touched")
    for path in touched.rglob("*.txt"):
        with path.open("a", encoding="utf-8") as out:
            out.write("\n")
    synthesised(touched / "new.txt", 30, seed=8)
    one = local([touched], local_db)
    other = imported.run(dask_db, paths=[touched])
    assert_identity(other)
    assert comparable(other) == comparable(one)
    assert other.stored == 30 and other.duplicates > 500
    assert table_differences(local_db, dask_db) == {}
    assert not (tmp_path / ".dask.duckdb.parts").exists()  # the scratch parts are gone


def test_a_file_that_changes_after_planning_is_read_again_when_whole(
    scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The workers read a file after the client hashed it: cut in between, it is recorded
    without the hash of its whole content (the local engine's rule), so once whole again
    the next import reads the hands past the cut instead of skipping the file for ever."""
    folder = tmp_path / "in"
    history = synthesised(folder / "stud.txt", 40, seed=11)
    whole = history.read_bytes()
    starts = [at for at in range(len(whole)) if whole.startswith(b"PokerStars Hand #", at)]
    cut = whole[: starts[len(starts) // 2]]
    real = dask_plan.unsettled

    def cut_after_planning(row: ImportRow, path: Path, before: tuple[int, int, int]) -> None:
        real(row, path, before)
        if path.read_bytes() == whole:  # planned: the file is cut before a worker reads it
            path.write_bytes(cut)

    monkeypatch.setattr(dask_plan, "unsettled", cut_after_planning)
    db = tmp_path / "changed.duckdb"
    first = dask_ingest(scheduler, [folder], db)
    monkeypatch.setattr(dask_plan, "unsettled", real)
    assert first.stored == len(starts) // 2
    history.write_bytes(whole)
    second = dask_ingest(scheduler, [folder], db)
    assert (second.skipped_files, second.stored) == (0, len(starts) - len(starts) // 2)
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute(
            "SELECT status, content_hash IS NULL, note FROM imports ORDER BY import_id"
        ).fetchall()
    assert rows == [("complete", True, CHANGED_NOTE), ("complete", False, None)]


def test_a_failed_task_is_retried(
    imported: Imported,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    markers = tmp_path / "markers"
    markers.mkdir()
    faults = f"split:stud-big:{markers},process:razz:{markers},finish:stud8:{markers}"
    monkeypatch.setenv(FAULT_ENV, faults)
    db, parquet = tmp_path / "retried.duckdb", tmp_path / "pq"
    summary = imported.run(db, parquet)
    assert len(list(markers.iterdir())) > 10  # every task over those files failed once
    assert comparable(summary) == comparable(imported.local)
    assert table_differences(imported.local_db, db) == {}


def test_parts_the_workers_cannot_write_are_written_by_the_client(
    imported: Imported,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(FAULT_ENV, "finish:stud")  # stud.txt, stud8.txt, stud-big.txt
    db, parquet = tmp_path / "written.duckdb", tmp_path / "pq"
    summary = imported.run(db, parquet)
    assert comparable(summary) == comparable(imported.local)
    assert table_differences(imported.local_db, db) == {}
    assert len(list(parquet.rglob("part-*.parquet"))) > 20


def test_a_stopped_import_leaves_no_task_running_nor_scratch_parts(
    imported: Imported, tmp_path: Path
) -> None:
    """A stop signal ends the import only once none of its tasks runs on a worker: a task left
    running wrote its parts into the scratch folder being removed, or had the cluster closed
    under it, and the workers logged tracebacks on the import's stderr (seen after SIGTERM).
    Six files, a task each: the signal comes while they are planned, so the import stops with
    their splits sent, the first ones running on the workers."""
    files = [synthesised(tmp_path / "in" / f"{n}.txt", 400, seed=n) for n in range(6)]
    db = tmp_path / "stopped.duckdb"

    def stop_at_the_last(path: Path) -> None:
        if path == files[2]:
            os.kill(os.getpid(), signal.SIGTERM)

    with Client(imported.scheduler) as client:
        with pytest.raises(ImportInterruptedError):
            ingest_dask(
                files,
                IngestOptions(db, None),
                DaskOptions(imported.scheduler, min(f.stat().st_size for f in files)),
                advance=stop_at_the_last,
            )
        assert client.run(running_tasks, "") == dict.fromkeys(client.nthreads(), 0)
    assert not db.with_name(f".{db.name}.parts").exists()


@pytest.mark.parametrize("stage", ["split", "process"])
def test_a_poisoned_file_ends_in_rejects(
    imported: Imported,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    stage: str,
) -> None:
    """Files whose tasks always fail (td27.txt, cut in ranges; td27-showdown.txt, in a task with
    other small files): their hands are rejects giving the failure; every other file is
    imported as without the failure."""
    monkeypatch.setenv(FAULT_ENV, f"{stage}:td27.txt,{stage}:td27-showdown.txt")
    db = tmp_path / "poisoned.duckdb"
    summary = imported.run(db)
    assert_identity(summary)
    con = duckdb.connect(str(db), read_only=True)
    con.execute(f"ATTACH '{imported.local_db}' AS reference (READ_ONLY)")
    poisoned = "regexp_matches(source_path, '/td27(-showdown)?[.]txt$')"
    [(reference_hands,)] = con.execute(
        f"SELECT count(*) FROM reference.hands WHERE {poisoned}"
    ).fetchall()
    assert reference_hands == 61
    rejects = con.execute(f"SELECT kind, reason FROM rejects WHERE {poisoned}").fetchall()
    assert len(rejects) == reference_hands
    assert {kind for kind, _ in rejects} == {"internal_error"}
    assert all(f"InjectedFailureError: injected {stage} failure" in r for _, r in rejects)
    for table in ("hands", "rejects", "unsupported"):
        key = "room, room_hand_id, content_hash, source_path, source_offset, source_line"
        mine = f"SELECT {key} FROM {table} WHERE NOT {poisoned}"
        theirs = f"SELECT {key} FROM reference.{table} WHERE NOT {poisoned}"
        [(only_mine,)] = con.execute(
            f"SELECT count(*) FROM ({mine} EXCEPT ALL {theirs})"
        ).fetchall()
        [(only_theirs,)] = con.execute(
            f"SELECT count(*) FROM ({theirs} EXCEPT ALL {mine})"
        ).fetchall()
        assert (only_mine, only_theirs) == (0, 0), table
    assert summary.stored == imported.local.stored - reference_hands
    assert summary.rejected == imported.local.rejected + reference_hands
    con.close()


runner = CliRunner()


def test_cli_starts_a_local_cluster(tmp_path: Path) -> None:
    handwritten = SAMPLES / "pokerstars" / "handwritten"
    db, parquet = tmp_path / "s.duckdb", tmp_path / "pq"
    args = ["ingest", str(handwritten), "--db", str(db), "--parquet", str(parquet), "--json"]
    result = runner.invoke(app, [*args, "--engine", "dask", "--workers", "2"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    counts = ("hands_seen", "stored", "rejected", "unsupported", "with_errors", "workers")
    assert tuple(summary[key] for key in counts) == (6, 3, 1, 2, 1, 2)
    assert len(list(parquet.glob("hands/room=pokerstars/game=*/month=*/part-*.parquet"))) >= 2


def test_cli_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["ingest", str(SAMPLES / "pokerstars" / "handwritten"), "--db", str(tmp_path / "e")]
    alone = runner.invoke(app, [*args, "--scheduler", "tcp://127.0.0.1:9"])
    assert alone.exit_code == 2 and "--scheduler needs --engine dask" in alone.output
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        away = runner.invoke(app, [*args, "--engine", "dask", "--scheduler", "tcp://127.0.0.1:9"])
    assert away.exit_code == 2 and "cannot reach the Dask scheduler" in away.output
    monkeypatch.setitem(sys.modules, "distributed", None)
    monkeypatch.delitem(sys.modules, "studdraw.pipeline.importer.dask_cluster")
    monkeypatch.delitem(sys.modules, "studdraw.pipeline.importer.dask_engine")
    missing = runner.invoke(app, [*args, "--engine", "dask"])
    assert missing.exit_code == 2
    assert "not installed: pip install 'studdraw[dask]'" in " ".join(missing.output.split())
