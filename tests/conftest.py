"""Shared test fixtures: where the real corpus lives, and how to parse a hand from text."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa
import pytest

from studdraw.parsers.model import HandRecord, HandText, ParsedHand, SourceRef
from studdraw.parsers.rooms import BY_NAME
from studdraw.pipeline.rules import state
from tests import STALE_COMPILED

if TYPE_CHECKING:
    import polars as pl
    from streamlit.testing.v1 import AppTest

    from tests.dashboard_support import Facts

REPO_ROOT = Path(__file__).resolve().parents[1]
CORPUS = REPO_ROOT.parent / "shared" / "corpus"
SAMPLES = REPO_ROOT / "sample_histories"


@pytest.fixture(autouse=True)
def main_module_kept() -> Iterator[None]:
    """Streamlit's script runner (AppTest) installs the page it runs as `__main__` and leaves it
    there; a process pool started later in the same test process (a fork server's or a Dask
    worker's child) would run that page again on start and die. Each test ends with the
    `__main__` it began with."""
    main = sys.modules["__main__"]
    yield
    sys.modules["__main__"] = main


PROGRESS_LINE = re.compile(r"^[\w ]+: [\d,]+(?: of [\d,]+)? hands?(?: \(.*\))?, \d+ s$")
"""A progress line a long command prints every few seconds off a terminal (cli/progress.py):
how many a run prints depends on the machine's speed, so a test of what else it says skips
them."""


def messages(output: str) -> list[str]:
    """The lines of a command's output but its progress lines."""
    return [line for line in output.strip().splitlines() if not PROGRESS_LINE.match(line)]


def corpus_file(*parts: str) -> Path:
    """A file of the shared real corpus (../shared/corpus); the test is skipped without it."""
    path = CORPUS.joinpath(*parts)
    if not CORPUS.is_dir():
        pytest.skip(f"the shared corpus is not at {CORPUS}")
    assert path.exists(), f"missing corpus file {path}"
    return path


def parse_text(text: str, room: str = "pokerstars", path: str = "<test>") -> ParsedHand:
    """Parse one hand given as text with its room's reader."""
    return BY_NAME[room].parse(HandText(text.strip("\n"), SourceRef(path, 0, 1), room))


def one_hand_rows(source: Path, db: Path) -> tuple[dict[str, object], pl.DataFrame, pl.DataFrame]:
    """Import the one hand of `source` into a new store at `db`: its rows (the hand, its
    players, its actions), as the dashboard's replayer reads them."""
    import duckdb  # noqa: PLC0415 (the store's tests only)

    from studdraw.pipeline.importer.ingest import IngestOptions, ingest  # noqa: PLC0415

    ingest([source], IngestOptions(db=db, workers=1))
    with duckdb.connect(str(db), read_only=True) as con:
        header = con.sql("SELECT * FROM hands").pl().row(0, named=True)
        return (
            header,
            con.sql("SELECT * FROM hand_players").pl(),
            con.sql("SELECT * FROM actions").pl(),
        )


def parse_record(text: str, room: str = "pokerstars") -> HandRecord:
    parsed = parse_text(text, room)
    assert parsed.record is not None, parsed.problem
    return parsed.record


@pytest.fixture(scope="module")
def facts(tmp_path_factory: pytest.TempPathFactory) -> Facts:
    """The dashboard tests' store (tests/dashboard_support.py) and what it holds, built once a
    module for test_dashboard.py and test_dashboard_replayer.py. The imports wait for the first
    such test, so a process that runs none loads neither Streamlit nor the CLI."""
    from tests.dashboard_support import build_store, read_facts  # noqa: PLC0415

    return read_facts(build_store(tmp_path_factory.mktemp("dashboard")))


@pytest.fixture
def app(facts: Facts, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppTest]:
    """The dashboard's entry point (app.py) under AppTest, on the store of `facts`."""
    from streamlit.testing.v1 import AppTest  # noqa: PLC0415

    from studdraw.dashboard.launch import ENV_VAR  # noqa: PLC0415
    from tests.dashboard_support import APP, TIMEOUT  # noqa: PLC0415

    monkeypatch.setenv(ENV_VAR, str(facts.db))
    yield AppTest.from_file(APP, default_timeout=TIMEOUT)


def pytest_sessionstart(session: pytest.Session) -> None:
    """pyarrow asks once a process whether pandas is there, at its first conversion of a list,
    and keeps the answer. `studdraw ingest` converts with pandas out of reach, as its process
    ends with the import (`pool.without_pandas`); this process goes on to the dashboard's pages
    after the commands it runs in-process, so it converts first, pandas in reach."""
    pa.array([])


def pytest_report_header(config: pytest.Config) -> str:
    """Which build the run tests (tests/__init__.py chooses it)."""
    if STALE_COMPILED:
        return (
            f"studdraw: the Python sources (compiled modules older than their sources: "
            f"{', '.join(STALE_COMPILED)}; `make compile` rebuilds them)"
        )
    if os.environ.get("STUDDRAW_PURE") == "1":
        return "studdraw: the Python sources (STUDDRAW_PURE=1)"
    built = "compiled" if not (state.__file__ or "").endswith(".py") else "nothing compiled"
    return f"studdraw: the installed build ({built})"
