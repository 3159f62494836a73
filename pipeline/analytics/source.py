"""Where the analytics read from: a store opened read-only (a DuckDB file or a Parquet dataset),
the per-hand rows of `features.py` behind a temporary view, `player_hands`, their sums per player,
game, structure, room, stakes and day behind another, `player_rollup` (`registry.py`), and how
the store keeps both itself: `Upkeep`, which an import runs inside each batch's transaction, and
`prepare`, which derives what an import did not (a store from before, or new definitions).

The store holds the rows in `analytics_player_hands` and the sums in `analytics_rollup`; an
import adds the rows of its hands and their sums with every batch it writes, so the store is
ready once the import ends. Hands a store holds without rows (imported by an earlier studdraw,
or rows of other definitions) are derived on open into temporary tables and added to the views
(fine for thousands of hands, slow for millions) until `prepare` keeps them; `studdraw ingest`
runs it after every import, where it is a no-op unless such hands remain.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import duckdb
import polars as pl

from studdraw.pipeline import identities
from studdraw.pipeline.forkserver import process_count
from studdraw.pipeline.store.db import connect_writable, transaction
from studdraw.pipeline.store.migration import select_current, stored_version, upgrade
from studdraw.pipeline.store.schema import BATCH_TABLES, SCHEMA_VERSION

from . import cards
from .features import FEATURES_SQL
from .registry import KEY, ROLLUP_COMBINE, rollup_columns

TABLE: Final = "analytics_player_hands"
ROLLUP: Final = "analytics_rollup"
META: Final = "analytics_meta"
VIEW: Final = "player_hands"
ROLLUP_VIEW: Final = "player_rollup"
RECENT: Final = "analytics_recent"
RECENT_ROLLUP: Final = "analytics_recent_rollup"
CHUNK_HANDS: Final = 20_000
"""Hands derived per step (and per transaction in `prepare`): bounds the memory of the window
functions over `actions`, and how far `prepare`'s progress moves at a time."""
VERSION: Final = hashlib.sha256(
    "\n".join([FEATURES_SQL, *cards.CARDS_SQL, repr(cards.MADE), repr(cards.BAD)]).encode()
).hexdigest()[:16]
"""Fingerprint of the per-hand rows' definitions: kept rows of another version are rebuilt,
never mixed."""
ROLLUP_VERSION: Final = hashlib.sha256(rollup_columns().encode()).hexdigest()[:16]
"""Fingerprint of the rollup's columns (a new stat changes it without touching the rows)."""

_PARAM = re.compile(r"\$([a-z_][a-z_0-9]*)")


def run(con: duckdb.DuckDBPyConnection, sql: str, params: dict[str, object]) -> pl.DataFrame:
    """`sql` with the parameters it names (a filter may supply more than a query uses)."""
    named = set(_PARAM.findall(sql))
    frame: pl.DataFrame = con.sql(sql, params={k: v for k, v in params.items() if k in named}).pl()
    return frame


def open_store(source: Path, *, ready: bool = True) -> duckdb.DuckDBPyConnection:
    """A read-only connection to a DuckDB store, or to a Parquet dataset folder (views named
    like the store's tables over its hive-partitioned parts, rejects and unsupported hands
    included; the import ledger lives in the DuckDB file only), with `player_hands` ready
    (`ready=False`: left to `ensure_features`, after `hands_to_derive` says how many it
    derives). The accounts linked into persons in the notes file beside the store
    (pipeline/identities.py) are held in the connection for every player condition."""
    if source.is_dir():
        con = duckdb.connect()
        for table in BATCH_TABLES:
            parts = source / table.name
            if any(parts.rglob("*.parquet")):
                # union_by_name: the parts of an earlier version lack the columns added since
                relation = con.read_parquet(
                    str(parts / "**" / "*.parquet"), hive_partitioning=True, union_by_name=True
                )
                selected = select_current(table.name, table.column_names, relation.columns)
                relation.select(selected).create_view(table.name)
            else:
                con.register(table.name, table.arrow.empty_table())
    else:
        if not source.exists():
            raise FileNotFoundError(f"no store at {source}")
        con = duckdb.connect(str(source), read_only=True)
        if stored_version(con) < SCHEMA_VERSION:  # an earlier studdraw's store: migrate it
            con.close()
            upgrade(source)
            con = duckdb.connect(str(source), read_only=True)
    identities.load(con, source)
    if ready:
        ensure_features(con)
    return con


def hands_to_derive(con: duckdb.DuckDBPyConnection) -> int:
    """How many hands `ensure_features` derives on this connection: those the store keeps no
    rows of (every hand of a Parquet dataset; none of a store its imports kept current)."""
    return max(_last_hand(con) - _covered(con), 0)


def ensure_features(con: duckdb.DuckDBPyConnection) -> None:
    """Create the temporary views `player_hands` and `player_rollup` (once per connection): the
    rows `prepare` kept in the store, if current, plus rows derived now for the hands they do
    not cover."""
    if _count(con, "SELECT count(*) FROM duckdb_views() WHERE view_name = ? AND temporary", VIEW):
        return
    identities.ensure_registered(con)
    last = _last_hand(con)
    covered = _covered(con)
    hands = [TABLE] if covered >= 0 else []
    if last > covered or not hands:  # an empty store still gets every column
        _derive(con, RECENT, covered + 1, last, create="CREATE TEMP TABLE")
        hands.append(RECENT)
    _view(con, VIEW, hands)
    rollups = [ROLLUP] if covered >= 0 and _rollup_current(con, covered) else []
    unrolled = VIEW if not rollups else RECENT if RECENT in hands else None
    if unrolled is not None:
        con.execute(
            f"CREATE TEMP TABLE {RECENT_ROLLUP} AS "
            f"SELECT {rollup_columns()} FROM {unrolled} GROUP BY ALL"
        )
        rollups.append(RECENT_ROLLUP)
    _view(con, ROLLUP_VIEW, rollups)


def _rollup_current(con: duckdb.DuckDBPyConnection, covered: int) -> bool:
    """Whether the kept rollup sums exactly the kept rows, with today's columns."""
    meta = _meta(con)
    return meta.get("rollup_through") == str(covered) and (
        meta.get("rollup_version") == ROLLUP_VERSION
    )


def _view(con: duckdb.DuckDBPyConnection, name: str, tables: list[str]) -> None:
    union = " UNION ALL BY NAME ".join(f"SELECT * FROM {table}" for table in tables)
    con.execute(f"CREATE TEMP VIEW {name} AS {union}")


def _meta(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """The analytics' facts about the store (version, coverage of the kept rows)."""
    if not _has_table(con, META):
        return {}
    return dict(con.sql(f"SELECT key, value FROM {META}").fetchall())


def _count(con: duckdb.DuckDBPyConnection, sql: str, *params: object) -> int:
    """The single integer a query returns."""
    return int(con.sql(sql, params=list(params)).fetchall()[0][0])


def _last_hand(con: duckdb.DuckDBPyConnection) -> int:
    return _count(con, "SELECT coalesce(max(hand_id), -1) FROM hands")


def _has_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    return (
        _count(
            con,
            "SELECT count(*) FROM duckdb_tables() "
            "WHERE table_name = ? AND NOT temporary AND database_name = current_database()",
            name,
        )
        > 0
    )


def _covered(con: duckdb.DuckDBPyConnection) -> int:
    """The last hand id the prepared rows cover, or -1 (none, or of another version)."""
    meta = _meta(con)
    if not _has_table(con, TABLE) or meta.get("version") != VERSION:
        return -1
    return int(meta.get("covered_through", -1))


def _derive(
    con: duckdb.DuckDBPyConnection,
    table: str,
    lo: int,
    hi: int,
    *,
    create: str | None,
    pool: Executor | None = None,
) -> None:
    """Append the rows of hands [lo, hi] to `table`, chunk by chunk; `create` (`CREATE TABLE`,
    `CREATE TEMP TABLE`) makes the table from the first chunk, even an empty one; a process
    `pool` computes the all-in equities."""
    for start in range(lo, max(hi, lo) + 1, CHUNK_HANDS):
        end = min(start + CHUNK_HANDS - 1, hi)
        head = f"{create} {table} AS" if create else f"INSERT INTO {table} BY NAME"
        create = None
        con.register("_cards", cards.draw_card_flags(con, start, end).to_arrow())
        con.register("_allin", cards.allin_adjusted(con, start, end, pool).to_arrow())
        try:
            con.execute(f"{head} {FEATURES_SQL}", {"lo": start, "hi": end})
        finally:
            con.unregister("_cards")
            con.unregister("_allin")


class Upkeep:
    """Keeps the store's analytics rows and sums current while an import writes: called inside
    each batch's transaction with the batch's new hand ids, it derives their rows, adds their
    rollup rows and moves the coverage on, so the batch and its analytics commit (or roll back)
    together, whatever the engine or the number of workers. It does so only when the rows were
    current when the import began (or the store is new); otherwise `prepare` catches up.
    `finish` sums the rollup rows the batches added into one per key."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        last = _last_hand(con)
        self.covered = _covered(con) if _has_table(con, TABLE) else -1
        if _has_table(con, TABLE):
            self.live = self.covered >= last and _rollup_current(con, self.covered)
        else:
            self.live = last < 0  # an empty store: the first batch makes the tables
        self.derived = 0

    def __call__(self, con: duckdb.DuckDBPyConnection, lo: int, hi: int) -> None:
        """Derive the rows of hands [lo, hi], just written in the caller's transaction."""
        if not self.live or hi < lo:
            return
        con.execute(f"CREATE TABLE IF NOT EXISTS {META} (key VARCHAR PRIMARY KEY, value VARCHAR)")
        new = not _has_table(con, TABLE)
        _derive(con, TABLE, lo, hi, create="CREATE TABLE" if new else None)
        sums = (
            f"SELECT {rollup_columns()} FROM {TABLE} WHERE hand_id BETWEEN $lo AND $hi GROUP BY ALL"
        )
        head = f"CREATE OR REPLACE TABLE {ROLLUP} AS" if new else f"INSERT INTO {ROLLUP} BY NAME"
        con.execute(f"{head} {sums}", {"lo": lo, "hi": hi})
        self.covered = max(self.covered, hi)
        _record_coverage(con, self.covered)
        self.derived += hi - lo + 1

    def finish(self, con: duckdb.DuckDBPyConnection) -> None:
        """One rollup row per key again, in one transaction (the import's batches each added
        theirs): a few thousand rows to sum, whatever the store's size."""
        if self.derived:
            with transaction(con):
                _compact_rollup(con)


def _record_coverage(con: duckdb.DuckDBPyConnection, through: int) -> None:
    """The rows and their rollup cover every stored hand up to `through`, of today's
    definitions."""
    con.execute(
        f"INSERT OR REPLACE INTO {META} VALUES ('version', ?), ('covered_through', ?), "
        "('rollup_through', ?), ('rollup_version', ?)",
        [VERSION, str(through), str(through), ROLLUP_VERSION],
    )


def _compact_rollup(con: duckdb.DuckDBPyConnection) -> None:
    """Sum the rollup's rows of the same key into one (`ROLLUP_COMBINE`), keeping each
    column's type."""
    columns = con.execute(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_name = ? AND table_catalog = current_database() "
        "AND table_schema = current_schema() ORDER BY ordinal_position",
        [ROLLUP],
    ).fetchall()
    parts = [
        name
        if name in KEY
        else f"CAST({ROLLUP_COMBINE.get(name, 'sum')}({name}) AS {kind}) AS {name}"
        for name, kind in columns
    ]
    con.execute(
        f"CREATE OR REPLACE TABLE {ROLLUP} AS SELECT {', '.join(parts)} FROM {ROLLUP} "
        f"GROUP BY {', '.join(KEY)}"
    )


@dataclass(frozen=True, slots=True)
class Prepared:
    """What `prepare` did: hands whose rows it derived now, and the rows' coverage."""

    derived_hands: int
    covered_through: int
    rebuilt: bool


def prepare(
    path: Path,
    workers: int | None = None,
    on_start: Callable[[int], None] | None = None,
    on_chunk: Callable[[int], None] | None = None,
) -> Prepared:
    """Keep the per-hand analytics rows in the store `path` (opened for writing), so pages read
    them instead of deriving them. Idempotent: a second run derives nothing; after an import it
    derives only the new hands; a change of definitions (VERSION) rebuilds the table. Each chunk
    is one transaction with the coverage it adds, so an interrupted run resumes where it
    stopped. `workers` processes (default: one per core) compute the all-in equities, so call
    it from a `__main__`-guarded program. `on_start(hands)` learns how many hands are to derive,
    `on_chunk(hands)` each chunk's hands once committed (for a progress bar)."""
    con = connect_writable(path)
    pool = cards.equity_pool(process_count(workers))
    try:
        con.execute(f"CREATE TABLE IF NOT EXISTS {META} (key VARCHAR PRIMARY KEY, value VARCHAR)")
        rebuilt = False
        if _has_table(con, TABLE) and _covered(con) < 0:
            con.execute(f"DROP TABLE {TABLE}")
            con.execute(f"DROP TABLE IF EXISTS {ROLLUP}")
            rebuilt = True
        covered = _covered(con) if _has_table(con, TABLE) else -1
        last = _last_hand(con)
        total = max(last - covered, 0)
        if on_start is not None:
            on_start(total)
        for start in range(covered + 1, last + 1, CHUNK_HANDS):
            end = min(start + CHUNK_HANDS - 1, last)
            create = None if _has_table(con, TABLE) else "CREATE TABLE"
            con.execute("BEGIN")
            _derive(con, TABLE, start, end, create=create, pool=pool)
            con.execute(
                f"INSERT OR REPLACE INTO {META} VALUES ('version', ?), ('covered_through', ?)",
                [VERSION, str(end)],
            )
            con.execute("COMMIT")
            if on_chunk is not None:
                on_chunk(end - start + 1)
        if _has_table(con, TABLE) and not _rollup_current(con, last):
            con.execute("BEGIN")
            con.execute(
                f"CREATE OR REPLACE TABLE {ROLLUP} AS "
                f"SELECT {rollup_columns()} FROM {TABLE} GROUP BY ALL"
            )
            con.execute(
                f"INSERT OR REPLACE INTO {META} "
                "VALUES ('rollup_through', ?), ('rollup_version', ?)",
                [str(last), ROLLUP_VERSION],
            )
            con.execute("COMMIT")
        return Prepared(total, max(last, covered), rebuilt)
    finally:
        con.close()
        if pool is not None:
            pool.shutdown()
