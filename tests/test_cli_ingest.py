"""`studdraw ingest`: the JSON contract, the printed summary, the exit codes."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from studdraw.cli.commands import app
from studdraw.parsers.problems import Code
from studdraw.pipeline.forkserver import IMPORT_WORKERS
from studdraw.pipeline.rules.explain import explanations
from tests.conftest import SAMPLES

runner = CliRunner()
KEYS = {
    "files",
    "hands_seen",
    "stored",
    "duplicates",
    "rejected",
    "unsupported",
    "with_errors",
    "seconds",
}


def test_json_summary_then_reimport(tmp_path: Path) -> None:
    db, parquet = tmp_path / "s.duckdb", tmp_path / "pq"
    handwritten = SAMPLES / "pokerstars" / "handwritten"
    args = ["ingest", str(handwritten), "--db", str(db), "--parquet", str(parquet), "--json"]
    first = runner.invoke(app, [*args, "--workers", "2"])
    assert first.exit_code == 0, first.output
    summary = json.loads(first.stdout)
    assert summary.keys() >= KEYS
    counts = ("hands_seen", "stored", "rejected", "unsupported", "with_errors")
    assert tuple(summary[key] for key in counts) == (6, 3, 1, 2, 1)
    assert summary["by_room"]["pokerstars"]["stored"] == 3
    second = json.loads(runner.invoke(app, args).stdout)
    assert (second["stored"], second["duplicates"], second["skipped_files"]) == (0, 6, 3)
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*) FROM hands").fetchone() == (3,)
    assert con.execute("SELECT count(*) FROM imports").fetchone() == (6,)
    con.close()
    written = duckdb.sql(
        f"SELECT count(*) FROM read_parquet('{parquet}/hands/**/*.parquet')"
    ).fetchall()
    assert written == [(3,)]


def test_table_summary_lists_unsupported_hands(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(SAMPLES / "pokerstars" / "handwritten" / "td27-showdown.txt", folder)
    (folder / "holdem.txt").write_text(
        "PokerStars Hand #9: Hold'em No Limit ($1/$2 USD) - 2020/01/01 10:00:00 ET\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["ingest", str(folder), "--db", str(tmp_path / "t.duckdb")])
    assert result.exit_code == 0, result.output
    assert "Unsupported hands" in result.stdout
    assert "Hold'em" in result.stdout
    total = next(
        line for line in result.stdout.splitlines() if line.strip("│ ").startswith("total")
    )
    assert [cell.strip() for cell in total.split("│")[2:7]] == ["2", "1", "0", "0", "1"]


def test_unreadable_file_exits_1(tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    result = runner.invoke(
        app, ["ingest", str(missing), "--db", str(tmp_path / "u.duckdb"), "--json"]
    )
    assert result.exit_code == 1
    summary = json.loads(result.stdout)
    assert summary["failed_files"][0]["path"] == str(missing)
    assert "cannot read" in result.stderr


def test_rules_profile_judges_the_stored_hands(tmp_path: Path) -> None:
    """`--rules italian`: a bring-in of 2 cents at $0.04/$0.08 is PokerStars' stake but not the
    Italian rulebook's (the bring-in is the ante); the store keeps the verdict. Workers replay
    under the profile too."""
    folder = tmp_path / "in"
    folder.mkdir()
    hand = explanations()[Code.ORD005].hand  # a legal stud hand apart from its tied boards
    (folder / "stud.txt").write_text(hand, encoding="utf-8")
    for workers, name in (("1", "local.duckdb"), ("2", "pool.duckdb")):
        db = tmp_path / name
        args = ["ingest", str(folder), "--db", str(db), "--rules", "italian", "--workers", workers]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        con = duckdb.connect(str(db), read_only=True)
        codes = {code for (code,) in con.execute("SELECT code FROM violations").fetchall()}
        con.close()
        assert "SIZ002" in codes
    wrong = runner.invoke(
        app, ["ingest", str(folder), "--db", str(tmp_path / "x.duckdb"), "--rules", "vegas"]
    )
    assert wrong.exit_code == 2


EARLY_FORKSERVER = """
import sys
import studdraw.pipeline.forkserver as forkserver
calls = []
real = forkserver.pool_context
def spy(preload=()):
    calls.append(("studdraw.pipeline.store" in sys.modules, list(preload)))
    return real(preload)
forkserver.pool_context = spy
from studdraw.cli.commands import app
try:
    app(["ingest", sys.argv[1], "--db", sys.argv[2], "--workers", sys.argv[3], "--json"])
except SystemExit as done:
    assert not done.code, done.code
print(calls)
"""


@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_workers_fork_server_starts_before_the_pipeline_is_imported(
    tmp_path: Path, workers: str
) -> None:
    """With workers, `ingest` starts their fork server first, preloading the module the
    import's pool asks for, so the server's import and this process's run side by side (the
    server keeps the first preload it is given); with one process, none is started."""
    handwritten = SAMPLES / "pokerstars" / "handwritten"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            EARLY_FORKSERVER,
            str(handwritten),
            str(tmp_path / "s.duckdb"),
            workers,
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    calls = ast.literal_eval(done.stdout.strip().splitlines()[-1])
    if workers == "1":
        assert calls == []
    else:
        assert calls == [(False, [IMPORT_WORKERS]), (True, [IMPORT_WORKERS])]
