"""The dashboard never blocks an import, says "import in progress" while one runs, and its SQL
can reach no file but the store's own."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from studdraw.dashboard import store
from studdraw.dashboard.launch import ENV_VAR
from studdraw.dashboard.views import page
from tests.conftest import SAMPLES

APP = Path(page("overview")).parents[1] / "app.py"
RAZZ = SAMPLES / "pokerstars" / "razz.txt"
STUDDRAW = str(Path(sys.executable).parent / "studdraw")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("dash")
    db = folder / "s.duckdb"
    done = subprocess.run(
        [
            STUDDRAW,
            "ingest",
            str(RAZZ),
            "--db",
            str(db),
            "--workers",
            "1",
            "--parquet",
            str(folder / "pq"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return db


@pytest.mark.parametrize("kind", ["duckdb", "parquet"])
def test_the_connection_reaches_no_other_file(db: Path, tmp_path: Path, kind: str) -> None:
    path = db if kind == "duckdb" else db.parent / "pq"
    con = store.open_locked_down(path)
    try:
        assert con.execute("SELECT count(*) FROM hands").fetchone() == (60,)
        secret = tmp_path / "secret.csv"
        secret.write_text("a\n1\n", encoding="utf-8")
        attempts = [
            f"COPY (SELECT 1) TO '{tmp_path / 'out.csv'}'",
            f"SELECT * FROM read_csv('{secret}')",
            f"SELECT * FROM read_text('{secret}')",
            "SET enable_external_access = true",
        ]
        for sql in attempts:
            with pytest.raises(duckdb.Error):
                con.execute(sql)
    finally:
        con.close()
    assert not (tmp_path / "out.csv").exists()


def test_a_query_leaves_the_store_free_for_an_import(db: Path, tmp_path: Path) -> None:
    ref = store.StoreRef(str(db), 0)
    with store.connection(ref) as con:
        assert con.execute("SELECT count(*) FROM hands").fetchone() == (60,)
    other = tmp_path / "more.txt"
    other.write_text(RAZZ.read_text(encoding="utf-8").replace("Hand #", "Hand #3"), "utf-8")
    done = subprocess.run(
        [STUDDRAW, "ingest", str(other), "--db", str(db), "--workers", "1", "--wait", "0"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr  # not "in use by another process"


@pytest.fixture
def writer(db: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the store for writing, as a running import does."""
    code = (
        "import duckdb, sys; con = duckdb.connect(sys.argv[1]); print('ready', flush=True); "
        "sys.stdin.read()"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", code, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    yield process
    process.communicate("")


def test_a_page_during_an_import_says_so(
    db: Path, writer: subprocess.Popen[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_VAR, str(db))
    with pytest.raises(store.StoreBusyError):
        store.store_ref()
    app = AppTest.from_file(APP, default_timeout=60)
    app.run()
    assert not app.exception, [error.value for error in app.exception]
    assert any("Import in progress" in info.value for info in app.info)


QUERY_VALUES = st.one_of(
    st.text(max_size=40),
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(["²", "١٢", "0", "1", "9" * 30, "SIZ014", "%00", "<script>", "'; DROP"]),
)


@pytest.mark.slow  # 14 runs of a page, each with hostile parameters
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@example(name="replayer", hand="²", code="")  # a digit to str.isdigit, not to int()
@example(name="replayer", hand="9" * 30, code="")  # beyond 64 bits
@given(
    name=st.sampled_from(["replayer", "violation_codes", "overview", "data_quality"]),
    hand=QUERY_VALUES,
    code=QUERY_VALUES,
)
def test_no_url_parameter_breaks_a_page(
    db: Path, monkeypatch: pytest.MonkeyPatch, name: str, hand: str, code: str
) -> None:
    monkeypatch.setenv(ENV_VAR, str(db))
    app = AppTest.from_file(APP, default_timeout=60)
    app.run()
    app.switch_page(page(name))
    app.query_params.update({"hand": hand, "code": code})
    app.run()
    assert not app.exception, [error.value for error in app.exception]


def test_two_sessions_may_hold_the_store_open_at_once(db: Path) -> None:
    """Two pages querying at the same moment share DuckDB's instance of the file, locked by the
    first: the second connection opens too, as locked down (this failed on a busy server)."""
    first = store.open_locked_down(db)
    try:
        second = store.open_locked_down(db)
        try:
            count = "SELECT count(*) FROM hands"
            assert second.sql(count).fetchall() == first.sql(count).fetchall()
            with pytest.raises(duckdb.Error):
                second.execute("SET enable_external_access = true")
        finally:
            second.close()
    finally:
        first.close()
