"""The dashboard's handle on the store: which store, a read-only connection per query, and
cached queries.

`studdraw dashboard` names the store in the environment (`STUDDRAW_DB`). Every cache is keyed
by a `StoreRef` (the path, the newest modification time of its files and a fingerprint of the
accounts linked into persons), so a re-ingest or a link shows up on the next rerun while every
unchanged answer is served from memory.

The dashboard never blocks an import for longer than a page run: DuckDB lets no writer in while
any process holds the file open, so the store is opened read-only at the first query of a page
run that misses the caches and closed when the run ends (none at all when the caches answer);
an import that finds it open waits (`ingest --wait`, 60 s by default).
While an import holds the file, the pages say "import in progress" (`StoreBusyError`) instead
of failing. Each connection is locked down: no file access outside a Parquet dataset's own
folder (no `COPY ... TO`, no `read_csv` of other files), and that setting cannot be undone.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import astuple, dataclass
from pathlib import Path
from types import FunctionType
from typing import Any, NamedTuple, TypeVar

import duckdb
import polars as pl
import streamlit as st

from studdraw.pipeline import analytics, identities
from studdraw.pipeline.analytics import Filters, annotated, inventory
from studdraw.pipeline.analytics.source import ensure_features, hands_to_derive
from studdraw.pipeline.notes import notes_path
from studdraw.pipeline.store.schema import TABLES
from studdraw.pipeline.words import plural

from .launch import ENV_VAR

CACHE_ENTRIES = 512
_T = TypeVar("_T")


class StoreError(Exception):
    """The dashboard was started without a readable store."""


class StoreRef(NamedTuple):
    """A store as the caches see it: its path, a stamp that changes when it is written, and a
    fingerprint of the accounts linked into persons beside it (`identities.digest`), which
    every player's figures depend on."""

    path: str
    stamp: int
    identities: str = ""


def store_ref() -> StoreRef:
    """The store named by `STUDDRAW_DB`, stamped with its current modification time."""
    value = os.environ.get(ENV_VAR)
    if not value:
        raise StoreError("no store given: start the dashboard with `studdraw dashboard --db FILE`")
    path = Path(value).resolve()
    if not path.exists():
        raise StoreError(f"{path} does not exist: run `studdraw ingest PATH --db {path}` first")
    probe(path)
    return StoreRef(str(path), stamp_of(path), identities.digest(notes_path(path)))


def stamp_of(path: Path) -> int:
    """Newest mtime of the store: the DuckDB file and its WAL, or for a Parquet dataset the
    partition folders of `hands` (every committed batch adds a part to one of them)."""
    if path.is_file():
        wal = path.with_name(path.name + ".wal")
        files = [path, wal] if wal.exists() else [path]
    else:
        files = [path, *path.glob("hands/*/*/*")]
    return max(file.stat().st_mtime_ns for file in files)


class StoreBusyError(StoreError):
    """An import is writing to the store: its pages come back when it ends."""


BUSY_MESSAGE = (
    "Import in progress: an import is writing to {path}. The pages come back as soon as it ends."
)


def _busy(path: Path, error: duckdb.Error) -> bool:
    return isinstance(error, duckdb.IOException) and "lock" in str(error).lower()


def probe(path: Path) -> None:
    """Raise `StoreBusyError` when an import holds a DuckDB store (a cheap open and close)."""
    if not path.is_file():
        return
    try:
        duckdb.connect(str(path), read_only=True).close()
    except duckdb.Error as error:
        if _busy(path, error):
            raise StoreBusyError(BUSY_MESSAGE.format(path=path)) from None
        raise StoreError(f"cannot open {path}: {' '.join(str(error).split())[:300]}") from None


def open_locked_down(path: Path) -> duckdb.DuckDBPyConnection:
    """A read-only connection to the store whose SQL can reach no other file: external access
    off (a Parquet dataset keeps its own folder), the configuration locked."""
    try:
        con = analytics.open_store(path, ready=False)
        pending = hands_to_derive(con)
        if pending:  # a store an earlier studdraw imported, or a Parquet dataset
            with st.spinner(
                f"Deriving the statistics' rows of {plural(pending, 'hand')} the store does not "
                "keep yet (once per visit; `studdraw prepare` keeps them in a DuckDB store)…"
            ):
                ensure_features(con)
        else:
            ensure_features(con)
    except duckdb.Error as error:
        if _busy(path, error):
            raise StoreBusyError(BUSY_MESSAGE.format(path=path)) from None
        raise StoreError(f"cannot read {path}: {' '.join(str(error).split())[:300]}") from None
    if _locked_down(con):  # another session's open connection shares the database instance
        return con
    if path.is_dir():
        con.execute("SET allowed_directories = ?", [[str(path.resolve()) + os.sep]])
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")
    return con


def _locked_down(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the connection's database is already locked down: DuckDB shares one instance
    (and its settings) among the connections a process holds open to the same file."""
    ((locked, external),) = con.execute(
        "SELECT current_setting('lock_configuration'), current_setting('enable_external_access')"
    ).fetchall()  # fetched to the end: DuckDB refuses other work beside an unfinished result
    return bool(locked) and not external


class _RunConnection:
    """The connection of one page run: opened at the run's first query that misses the caches,
    closed when the run ends."""

    def __init__(self) -> None:
        self.ref: StoreRef | None = None
        self.con: duckdb.DuckDBPyConnection | None = None

    def get(self, ref: StoreRef) -> duckdb.DuckDBPyConnection:
        if self.con is None or self.ref != ref:
            self.close()
            self.con, self.ref = open_locked_down(Path(ref.path)), ref
        return self.con

    def close(self) -> None:
        if self.con is not None:
            self.con.close()
            self.con = self.ref = None


_RUN: ContextVar[_RunConnection | None] = ContextVar("studdraw_run_connection", default=None)


@contextmanager
def page_run() -> Iterator[None]:
    """Share one connection among the queries of a page run (app.py wraps each run): opening
    the store and readying its analytics views costs more than most of a page's queries, and
    the rows imported since the last `prepare` are derived once per connection. Closed when the
    run ends (st.stop and st.rerun included), so an import waits at most for one run."""
    run = _RunConnection()
    token = _RUN.set(run)
    try:
        yield
    except StoreBusyError as busy:
        st.info(str(busy), icon=":material/hourglass_top:")
    except (StoreError, duckdb.Error) as error:  # damaged: the page says so, no traceback
        st.error(f"The store cannot be read: {' '.join(str(error).split())[:300]}")
    finally:
        _RUN.reset(token)
        run.close()


@contextmanager
def connection(ref: StoreRef) -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-only connection to the store for the duration of the block: the page run's
    (`page_run`), or one opened for the block and closed after it so that an import can take
    the file (the caches make most page runs open none)."""
    run = _RUN.get()
    if run is not None:
        yield run.get(ref)
        return
    con = open_locked_down(Path(ref.path))
    try:
        yield con
    finally:
        con.close()


@st.cache_data(max_entries=8, show_spinner=False)
def tables(ref: StoreRef) -> frozenset[str]:
    """Tables and views of the store: the Parquet dataset lacks `imports` and `parquet_parts`."""
    with connection(ref) as con:
        names = con.sql("SELECT table_name FROM information_schema.tables").fetchall()
    return frozenset(name for (name,) in names)


def count(ref: StoreRef, table: str) -> int | None:
    """Rows of one of the store's own tables, None when this store does not have it."""
    if table not in TABLES:
        raise ValueError(f"not a store table: {table}")
    if table not in tables(ref):
        return None
    return read(ref, inventory.row_count, table)


def _filters_key(filters: Filters) -> tuple[object, ...]:
    return astuple(filters)


def _function_key(function: FunctionType) -> str:
    return f"{function.__module__}.{function.__qualname__}"


_HASH: dict[str | type[Any], Callable[[Any], Any]] = {
    Filters: _filters_key,
    FunctionType: _function_key,
}


@st.cache_data(max_entries=CACHE_ENTRIES, show_spinner=False, hash_funcs=_HASH)
def read(ref: StoreRef, reader: Callable[..., _T], *args: Any, **options: Any) -> _T:
    """`reader(connection, *args, **options)`, a function of the analytics (the dashboard runs
    no SQL of its own), cached per store version."""
    with connection(ref) as con:
        return reader(con, *args, **options)


@st.cache_data(max_entries=8, show_spinner=False)
def players(ref: StoreRef) -> pl.DataFrame:
    """`analytics.players`: name, hands, rooms, games, first and last seen."""
    with connection(ref) as con:
        return analytics.players(con)


@st.cache_data(max_entries=CACHE_ENTRIES, show_spinner=False, hash_funcs=_HASH)
def player_stats(ref: StoreRef, filters: Filters) -> pl.DataFrame:
    with connection(ref) as con:
        return analytics.player_stats(con, filters)


@st.cache_data(max_entries=CACHE_ENTRIES, show_spinner=False, hash_funcs=_HASH)
def session_starts(ref: StoreRef, player: str) -> pl.DataFrame:
    with connection(ref) as con:
        return analytics.session_starts(con, player)


@st.cache_data(max_entries=CACHE_ENTRIES, show_spinner=False, hash_funcs=_HASH)
def sessions(ref: StoreRef, filters: Filters) -> pl.DataFrame:
    with connection(ref) as con:
        return analytics.sessions(con, filters)


@dataclass(frozen=True, slots=True)
class Results:
    """A player's results over time as the graph needs them: `points`, the hands numbered 1..
    (`hand_no`) and thinned to about `max_points` rows (every session's first and last hand
    kept); `starts`, each session's first hand number; `last`, the final row (the totals)."""

    hands: int
    points: pl.DataFrame
    starts: pl.DataFrame
    last: dict[str, Any]


@st.cache_data(max_entries=CACHE_ENTRIES, show_spinner=False, hash_funcs=_HASH)
def results(ref: StoreRef, filters: Filters, max_points: int) -> Results | None:
    """`analytics.results_over_time`, reduced to what a graph can show: a million-hand frame
    is neither cached (Streamlit pickles every cached value) nor drawn."""
    with connection(ref) as con:
        frame = analytics.results_over_time(con, filters)
    if frame.is_empty():
        return None
    numbered = frame.with_row_index("hand_no", offset=1)
    session = pl.col("session")
    step = max(1, -(-numbered.height // max_points))
    keep = (
        (pl.col("hand_no") % step == 0)
        | (session != session.shift(1)).fill_null(True)
        | (session != session.shift(-1)).fill_null(True)
    )
    starts = (
        numbered.group_by("session")
        .agg(pl.col("hand_no").min(), pl.col("started_at").min())
        .sort("session")
    )
    return Results(
        hands=numbered.height,
        points=numbered.filter(keep),
        starts=starts,
        last=numbered.row(numbered.height - 1, named=True),
    )


@st.cache_data(max_entries=CACHE_ENTRIES, show_spinner=False, hash_funcs=_HASH)
def starting_hands(ref: StoreRef, filters: Filters) -> pl.DataFrame:
    with connection(ref) as con:
        return analytics.starting_hands(con, filters)


@st.cache_data(max_entries=CACHE_ENTRIES, show_spinner=False, hash_funcs=_HASH)
def door_cards(ref: StoreRef, filters: Filters) -> pl.DataFrame:
    with connection(ref) as con:
        return analytics.door_cards(con, filters)


@st.cache_data(max_entries=CACHE_ENTRIES, show_spinner=False, hash_funcs=_HASH)
def leaks(ref: StoreRef, filters: Filters) -> pl.DataFrame:
    with connection(ref) as con:
        return analytics.leaks(con, filters)


@st.cache_data(max_entries=CACHE_ENTRIES, show_spinner=False, hash_funcs=_HASH)
def hands_behind(ref: StoreRef, filters: Filters, stat: str, limit: int = 50) -> pl.DataFrame:
    with connection(ref) as con:
        return analytics.hands_behind(con, filters, stat, limit)


@st.cache_data(max_entries=CACHE_ENTRIES, show_spinner=False, hash_funcs=_HASH)
def assess(ref: StoreRef, filters: Filters) -> pl.DataFrame:
    with connection(ref) as con:
        return analytics.assess(con, filters)


@st.cache_data(max_entries=CACHE_ENTRIES, show_spinner=False, hash_funcs=_HASH)
def doubtful_hands(ref: StoreRef, filters: Filters) -> int:
    with connection(ref) as con:
        return analytics.doubtful_hands(con, filters)


@st.cache_data(max_entries=CACHE_ENTRIES, show_spinner=False, hash_funcs=_HASH)
def session_hands(ref: StoreRef, filters: Filters) -> pl.DataFrame:
    """The hands of one session (`filters.session`), in time order: a session is a few hundred
    hands at most, and `results_over_time` reads only the player's rows."""
    with connection(ref) as con:
        frame = analytics.results_over_time(con, filters)
    return frame.select("hand_id", "room_hand_id", "started_at", "game", "net", "big_bets")


@st.cache_data(max_entries=CACHE_ENTRIES, show_spinner=False, hash_funcs=_HASH)
def tournament_results(ref: StoreRef, filters: Filters) -> pl.DataFrame:
    with connection(ref) as con:
        return analytics.tournament_results(con, filters)


@st.cache_data(max_entries=CACHE_ENTRIES, show_spinner=False, hash_funcs=_HASH)
def tournament_summary(ref: StoreRef, filters: Filters) -> pl.DataFrame:
    with connection(ref) as con:
        return analytics.tournament_summary(con, filters)


@st.cache_data(max_entries=CACHE_ENTRIES, show_spinner=False)
def tournament_chips(ref: StoreRef, player: str, room: str, tournament_id: str) -> pl.DataFrame:
    with connection(ref) as con:
        return analytics.tournament_chips(con, player, room, tournament_id)


@st.cache_data(max_entries=CACHE_ENTRIES, show_spinner=False)
def hands_of_keys(ref: StoreRef, keys: tuple[tuple[str, str], ...]) -> pl.DataFrame:
    """`analytics.annotated.hands_of_keys`: the stored hands of notes' (room, hand id) keys."""
    with connection(ref) as con:
        return annotated.hands_of_keys(con, keys)
