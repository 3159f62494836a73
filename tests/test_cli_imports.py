"""Each command loads only what it uses: printing help or reading one file must not load the
store, the analytics or their libraries, which cost most of a second to import (issue 15).

Every case runs the real command line in a fresh interpreter and lists which of the heavy
modules ended up loaded. Timing belongs to benchmarks/start.py; this proves the cause.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
ONE_HAND = REPO / "sample_histories" / "pokerstars" / "handwritten" / "td27-showdown.txt"

LIBRARIES = (
    *("duckdb", "polars", "pyarrow", "numpy", "streamlit", "dask", "distributed", "pokerkit"),
    "pydantic",  # typer 0.29 loads it to read parameters: pyproject keeps typer below 0.29
)
STORE = ("studdraw.pipeline.store", "studdraw.pipeline.analytics", "studdraw.dashboard")
RULES = ("studdraw.pipeline.rules",)
PARSERS = ("lark", "studdraw.parsers.reader")

RUN = """
import json, sys
from studdraw.cli.commands import app
try:
    app(sys.argv[1:], prog_name="studdraw")
except SystemExit:
    pass
heavy = json.loads(sys.stdin.read())
sys.__stdout__.write("\\n" + json.dumps(sorted(name for name in heavy if name in sys.modules)))
"""


def loaded(*args: str) -> list[str]:
    """Which of the heavy modules a command line loads, run in a fresh interpreter."""
    heavy = [*LIBRARIES, *STORE, *RULES, *PARSERS]
    done = subprocess.run(
        [sys.executable, "-c", RUN, *args],
        input=json.dumps(heavy),
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    result: list[str] = json.loads(done.stdout.rsplit("\n", 1)[-1])
    return result


@pytest.mark.parametrize(
    ("args", "allowed"),
    [
        ((), ()),
        (("--help",), ()),
        (("ingest", "--help"), ()),
        (("stats", "--help"), ()),
        (("parse", str(ONE_HAND)), PARSERS),
        (("parse", "--jsonl", str(ONE_HAND)), PARSERS),
        (("validate", str(ONE_HAND)), (*PARSERS, *RULES)),
        (("validate", "--explain", "SIZ001"), RULES),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, tuple) and value else None,
)
def test_command_loads_only_what_it_uses(args: tuple[str, ...], allowed: tuple[str, ...]) -> None:
    assert [name for name in loaded(*args) if name not in allowed] == []


def test_a_command_that_needs_the_store_loads_it() -> None:
    """The check above can fail: a store command does load DuckDB (a missing store exits 2
    after the store's checks ran)."""
    assert "duckdb" in loaded("stats", "--db", str(REPO / "no-such-store.duckdb"))


WORKER_START = """
import json, runpy, sys
runpy.run_path(sys.argv[1], run_name="__mp_main__")
loaded = [name for name in ("typer", "click", "rich") if name in sys.modules]
sys.__stdout__.write(json.dumps(loaded))
"""


def test_a_worker_running_the_script_again_loads_no_command() -> None:
    """A pool's worker process runs the `studdraw` script again as `__mp_main__` (multiprocessing
    does, to find what the main module defines): that must not load the command line's
    libraries, 60 ms and their memory in every worker before its first piece."""
    script = Path(sys.executable).with_name("studdraw")
    done = subprocess.run(
        [sys.executable, "-c", WORKER_START, str(script)],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    assert json.loads(done.stdout) == []
