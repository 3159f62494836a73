"""`studdraw export`: stored or freshly parsed hands written as PHH (`.phh` per hand or one
`.phhs`).

The store keeps every event of a hand (`actions`) with the header (`hands`) and the seats
(`hand_players`), so a stored hand becomes the very HandRecord its room's text was parsed to,
and the exporter (`pipeline.phh`) writes it the same way whether it came from a store or a
file. Hands are read from the store in chunks of consecutive ids, a few queries per chunk, the
rows column by column: the export is bound by formatting, not by DuckDB.
"""

from __future__ import annotations

import gc
import itertools
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, fields
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final, Literal

import duckdb
import numpy as np
import pyarrow as pa

from studdraw.parsers.files import discover_files
from studdraw.parsers.model import (
    Event,
    EventKind,
    Game,
    HandRecord,
    ParsedHand,
    Seat,
    SourceRef,
    Stakes,
    Structure,
    Tournament,
)
from studdraw.parsers.phh.vocabulary import players_in_order
from studdraw.parsers.reader import open_history, parse_hand
from studdraw.pipeline import identities
from studdraw.pipeline.forkserver import pool_context
from studdraw.pipeline.identities import player_condition
from studdraw.pipeline.phh import dumps
from studdraw.pipeline.rules import replay
from studdraw.pipeline.store.migration import select_current, stored_version, upgrade
from studdraw.pipeline.store.schema import BATCH_TABLES, SCHEMA_VERSION

Format = Literal["phh", "phhs"]
CHUNK: Final = 2_000
_KINDS: Final = {kind.value: kind for kind in EventKind}
_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Selection:
    """Which hands to export; every field optional (empty = no restriction). `players`: hands
    one of them was dealt in; `since` inclusive, `until` exclusive (UTC); `hands` are the
    rooms' hand ids, `hand_ids` the store's keys (for callers that already hold them)."""

    players: tuple[str, ...] = ()
    games: tuple[str, ...] = ()
    rooms: tuple[str, ...] = ()
    since: datetime | None = None
    until: datetime | None = None
    hands: tuple[str, ...] = ()
    hand_ids: tuple[int, ...] = ()

    def accepts(self, record: HandRecord) -> bool:
        """The same selection applied to a parsed record (export from files)."""
        return (
            (
                not self.players
                or any(seat.player in self.players for seat in players_in_order(record))
            )
            and (not self.games or record.game in self.games)
            and (not self.rooms or record.room in self.rooms)
            and (self.since is None or record.started_at >= self.since)
            and (self.until is None or record.started_at < self.until)
            and (not self.hands or record.room_hand_id in self.hands)
        )


Exported = tuple[HandRecord, Sequence[str]]
"""A hand and its problems (as the store's `violations` rows) as `_violations` lines."""


def violation_line(code: str, severity: str, line: int, message: str) -> str:
    return f"{code} ({severity}) line {line}: {message}"


# -- from a store ---------------------------------------------------------------------------


def open_store(source: Path) -> duckdb.DuckDBPyConnection:
    """A read-only connection to a DuckDB store (one of an earlier schema version migrated
    first), or views over a Parquet dataset folder (an earlier version's parts read under
    today's columns), holding the accounts linked into persons beside it
    (pipeline/identities.py)."""
    if not source.exists():
        raise FileNotFoundError(f"no store at {source}")
    if not source.is_dir():
        con = duckdb.connect(str(source), read_only=True)
        if stored_version(con) < SCHEMA_VERSION:
            con.close()
            upgrade(source)
            con = duckdb.connect(str(source), read_only=True)
        identities.load(con, source)
        return con
    con = duckdb.connect()
    identities.load(con, source)
    for table in BATCH_TABLES:
        parts = source / table.name
        if any(parts.rglob("*.parquet")):
            pattern = str(parts / "**" / "*.parquet")
            relation = con.read_parquet(pattern, hive_partitioning=True, union_by_name=True)
            relation.select(
                select_current(table.name, table.column_names, relation.columns)
            ).create_view(table.name)
        else:
            con.register(table.name, table.arrow.empty_table())
    return con


def select_hand_ids(con: duckdb.DuckDBPyConnection, selection: Selection) -> list[int]:
    """The store keys of the selected hands, in order."""
    clauses: list[str] = ["true"]
    params: dict[str, object] = {}
    for column, values in (
        ("game", selection.games),
        ("room", selection.rooms),
        ("room_hand_id", selection.hands),
        ("hand_id", selection.hand_ids),
    ):
        if values:
            clauses.append(f"{column} IN (SELECT unnest(${column}))")
            params[column] = list(values)
    if selection.players:
        anyone = " OR ".join(
            f"({player_condition('h.room', 'p.name', f'player_{n}')})"
            for n in range(len(selection.players))
        )
        clauses.append(
            "hand_id IN (SELECT hand_id FROM hand_players p JOIN hands h USING (hand_id) "
            f"WHERE p.dealt_in AND ({anyone}))"
        )
        params |= {f"player_{n}": name for n, name in enumerate(selection.players)}
    if selection.since is not None:
        clauses.append("started_at >= $since")
        params["since"] = selection.since
    if selection.until is not None:
        clauses.append("started_at < $until")
        params["until"] = selection.until
    sql = f"SELECT hand_id FROM hands WHERE {' AND '.join(clauses)} ORDER BY hand_id"
    return [row[0] for row in con.execute(sql, params).fetchall()]


_HAND_COLUMNS: Final = (
    "hand_id, room, room_hand_id, game, structure, small_bet, big_bet, ante, bring_in, "
    "small_blind, big_blind, currency, scale, tournament_id, tournament_buy_in, tournament_fee, "
    "tournament_currency, tournament_level, mixed, table_name, max_seats, button, "
    "epoch_us(started_at) AS started_at, "
    "room_time, reported_pot, reported_rake, hero, notes, source_path, source_offset, "
    "source_line, runs"
)


def records_from_store(
    con: duckdb.DuckDBPyConnection, hand_ids: Sequence[int], chunk: int = CHUNK
) -> Iterator[Exported]:
    """The stored hands as HandRecords with their violations, in `hand_ids` order."""
    for start in range(0, len(hand_ids), chunk):
        with without_cycle_collection():
            records = list(_chunk(con, list(hand_ids[start : start + chunk])))
        yield from records


@contextmanager
def without_cycle_collection() -> Iterator[None]:
    """Python's cycle collector paused while a chunk is rebuilt (and formatted): a hand is some
    sixty new objects, none in a cycle, and the collector walked them again and again while
    they lived (a third of the export's time). Reference counting frees them all the same."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def chunk_condition(ids: list[int]) -> tuple[str, dict[str, object]]:
    """The rows of a chunk of sorted hand ids: a range (child tables are stored in hand order,
    so DuckDB's zone maps skip the rest), narrowed to the ids when the chunk has gaps."""
    params: dict[str, object] = {"lo": ids[0], "hi": ids[-1]}
    if ids[-1] - ids[0] + 1 == len(ids):
        return "hand_id BETWEEN $lo AND $hi", params
    params["ids"] = ids
    return "hand_id BETWEEN $lo AND $hi AND hand_id IN (SELECT unnest($ids))", params


def fetch_columns(
    con: duckdb.DuckDBPyConnection,
    sql: str,
    params: dict[str, object],
    order: tuple[str, str] | None = None,
    repeated: dict[str, Callable[[Any], Any]] | None = None,
) -> dict[str, list[Any]]:
    """A query's result as Python lists, column by column (much cheaper than row objects).

    `order`: the two columns the rows must be sorted by. The query asks for no order: a DuckDB
    table returns its rows as they were inserted, in hand order, which is checked here (a
    vectorised look at the two columns) and only otherwise sorted, in Arrow; sorting in DuckDB
    cost half of reading the events. `repeated`: columns of few distinct values (an event's
    kind, its player), each distinct value converted once and the objects shared by the rows."""
    table = con.sql(sql, params=params).to_arrow_table()
    if order is not None and not _sorted_by(table, *order):
        table = table.sort_by([(order[0], "ascending"), (order[1], "ascending")])
    converters = repeated or {}
    return {
        name: (
            _shared_values(table.column(name), converters[name])
            if name in converters
            else table.column(name).to_pylist()
        )
        for name in table.column_names
    }


def _sorted_by(table: pa.Table, first: str, second: str) -> bool:
    """Whether the rows are in strictly increasing (first, second) order."""
    major = table.column(first).to_numpy()
    minor = table.column(second).to_numpy()
    same = major[1:] == major[:-1]
    return bool(np.all((major[1:] > major[:-1]) | (same & (minor[1:] > minor[:-1]))))


def _shared_values(column: pa.ChunkedArray, convert: Callable[[Any], Any]) -> list[Any]:
    """`convert` of each value of a column of few distinct values: dictionary-encoded by Arrow,
    each distinct value converted once, the rows' objects taken by numpy (no Python per row)."""
    encoded = column.combine_chunks().dictionary_encode()
    values = [convert(value) for value in encoded.dictionary.to_pylist()]
    values.append(convert(None))  # a null row
    indices = encoded.indices.fill_null(len(values) - 1).to_numpy()
    objects = np.fromiter(values, dtype=object, count=len(values))
    taken: list[Any] = objects[indices].tolist()
    return taken


def _groups(hand_ids: list[Any]) -> dict[int, tuple[int, int]]:
    """Row ranges per hand of rows sorted by hand (the boundaries found by numpy)."""
    if not hand_ids:
        return {}
    ids = np.asarray(hand_ids, dtype=np.int64)
    starts = np.flatnonzero(ids[1:] != ids[:-1]) + 1
    bounds = [0, *starts.tolist(), len(hand_ids)]
    return {hand_ids[lo]: (lo, hi) for lo, hi in itertools.pairwise(bounds)}


Rows = dict[str, list[Any]]


def _same(value: Any) -> Any:
    """A repeated column's values as they are (a player's name, a pot)."""
    return value


def chunk_rows(
    con: duckdb.DuckDBPyConnection, ids: list[int], event_columns: Sequence[str] = ()
) -> tuple[Rows, Rows, Rows, Rows]:
    """The rows of a chunk of sorted hand ids, as columns: hands, seats, events (every field,
    or `event_columns`), violations."""
    where, params = chunk_condition(ids)
    hands = fetch_columns(con, f"SELECT {_HAND_COLUMNS} FROM hands WHERE {where}", params)
    hands["started_at"] = [_EPOCH + timedelta(microseconds=us) for us in hands["started_at"]]
    seats = fetch_columns(
        con,
        f"SELECT hand_id, seat, name, stack, sitting_out FROM hand_players WHERE {where}",
        params,
        order=("hand_id", "seat"),
    )
    events = fetch_columns(
        con,
        f"SELECT hand_id, seq, {', '.join(event_columns or EVENT_COLUMNS)} FROM actions "
        f"WHERE {where}",
        params,
        order=("hand_id", "seq"),
        repeated={"kind": _KINDS.get, "actor": _same, "pot": _same},
    )
    found = fetch_columns(
        con,
        f"SELECT hand_id, seq, code, severity, line, message FROM violations WHERE {where}",
        params,
        order=("hand_id", "seq"),
    )
    return hands, seats, events, found


def _chunk(
    con: duckdb.DuckDBPyConnection, ids: list[int], event_columns: Sequence[str] = ()
) -> Iterator[Exported]:
    hands, seats, events, found = chunk_rows(con, ids, event_columns)
    seat_rows, event_rows = _groups(seats["hand_id"]), _groups(events["hand_id"])
    violation_rows = _groups(found["hand_id"])
    row_of = {hand_id: row for row, hand_id in enumerate(hands["hand_id"])}
    every_event = stored_events(events)
    for hand_id in ids:
        row = row_of.get(hand_id)
        if row is None:
            continue
        lo, hi = seat_rows.get(hand_id, (0, 0))
        hand_seats = [
            Seat(seats["seat"][k], seats["name"][k], seats["stack"][k], seats["sitting_out"][k])
            for k in range(lo, hi)
        ]
        lo, hi = event_rows.get(hand_id, (0, 0))
        hand_events = every_event[lo:hi]
        lo, hi = violation_rows.get(hand_id, (0, 0))
        violations = [
            violation_line(
                found["code"][k], found["severity"][k], found["line"][k], found["message"][k]
            )
            for k in range(lo, hi)
        ]
        yield stored_record(_column_getter(hands, row), hand_seats, hand_events), violations


def _column_getter(columns: dict[str, list[Any]], row: int) -> Callable[[str], Any]:
    def get(name: str) -> Any:
        return columns[name][row]

    return get


def stored_events(columns: dict[str, list[Any]]) -> list[Event]:
    """The events of stored `actions` rows given as columns (`kind` already an `EventKind`),
    made by `map` (no Python loop per event): the columns are Event's fields in order, the card
    lists tuples first; a field not read is its `_NOT_WRITTEN` value. The one way back from
    the rows to events (the export, the dashboard's hand text)."""
    for name in ("cards", "up"):
        if name in columns:
            columns[name] = [tuple(values) if values else () for values in columns[name]]
    fields = (
        columns[name] if name in columns else itertools.repeat(_NOT_WRITTEN[name])
        for name in EVENT_COLUMNS
    )
    return list(map(Event, *fields))


_COLUMN_OF_FIELD: Final = {"player": "actor", "to": "to_amount"}
"""The event fields whose `actions` column has another name (every other column is its field's
name: normalize writes them)."""
EVENT_COLUMNS: Final = tuple(_COLUMN_OF_FIELD.get(part.name, part.name) for part in fields(Event))
"""The actions table's columns that are Event's fields, in Event's order."""
_NOT_WRITTEN: Final[dict[str, object]] = {
    "line": 0,
    "to_amount": None,
    "all_in": False,
    "up": (),
    "text": None,
}
"""The event fields the PHH writer (pipeline.phh) never reads, and what they are left at in
the records an export of texts makes and drops (a fifth of its reading time):
tests/test_phh_export.py holds those texts to the PHH of the whole records."""
PHH_EVENT_COLUMNS: Final = tuple(name for name in EVENT_COLUMNS if name not in _NOT_WRITTEN)


def stored_record(get: Callable[[str], Any], seats: list[Seat], events: list[Event]) -> HandRecord:
    """The `HandRecord` a stored hand was made from, from its `hands` row (`get` reads a column)
    and its seats and events: the one way back from the store's rows to a record."""
    tournament = None
    if get("tournament_id") is not None:
        tournament = Tournament(
            get("tournament_id"),
            get("tournament_buy_in"),
            get("tournament_fee"),
            get("tournament_currency"),
            get("tournament_level"),
        )
    return HandRecord(
        room=get("room"),
        room_hand_id=get("room_hand_id"),
        game=Game(get("game")),
        structure=Structure(get("structure")),
        currency=get("currency"),
        scale=get("scale"),
        stakes=Stakes(
            get("small_bet"),
            get("big_bet"),
            get("ante"),
            get("bring_in"),
            get("small_blind"),
            get("big_blind"),
        ),
        started_at=get("started_at"),
        room_time=get("room_time"),
        table=get("table_name"),
        seats=seats,
        events=events,
        source=SourceRef(get("source_path"), get("source_offset"), get("source_line")),
        max_seats=get("max_seats"),
        button=get("button"),
        tournament=tournament,
        mixed=get("mixed"),
        hero=get("hero"),
        total_pot=get("reported_pot"),
        rake=get("reported_rake"),
        notes=list(get("notes") or ()),
        runs=get("runs"),
    )


# -- from files -----------------------------------------------------------------------------


@dataclass(slots=True)
class FileExport:
    """What reading files for an export met besides the hands: hands that did not parse (with
    their reason) and unreadable files; reported by the CLI, never dropped silently."""

    problems: list[str]  # "file:line: why", one per hand that did not parse
    unreadable: list[str]


def records_from_files(
    paths: Iterable[Path], selection: Selection, report: FileExport
) -> Iterator[Exported]:
    """Freshly parsed and replayed hands of the files that `selection` accepts."""
    for path in discover_files(paths):
        try:
            history = open_history(path)
            texts = list(history.hand_texts())
        except OSError as error:
            report.unreadable.append(f"{path}: {error.strerror or error}")
            continue
        for text in texts:
            parsed: ParsedHand = parse_hand(text)
            record = parsed.record
            if record is None:
                problem = parsed.problem
                assert problem is not None
                report.problems.append(
                    f"{text.source.path}:{problem.line}: {parsed.outcome}: {problem.message}"
                )
                continue
            if not selection.accepts(record):
                continue
            violations = [
                violation_line(v.code, v.severity, v.line, v.message)
                for v in [*record.problems, *replay(record).problems]
            ]
            yield record, violations


# -- writing --------------------------------------------------------------------------------

_UNSAFE: Final = re.compile(r"[^A-Za-z0-9._-]+")


def file_name(record: HandRecord) -> str:
    """`<room>-<hand id>.phh`, with anything a file system may refuse replaced by `_`."""
    return _UNSAFE.sub("_", f"{record.room}-{record.room_hand_id}") + ".phh"


Named = tuple[str, str]
"""A hand's PHH text and the name of its `.phh` file."""


def named(hands: Iterable[Exported]) -> Iterator[Named]:
    for record, violations in hands:
        yield file_name(record), dumps(record, violations)


def texts_from_store(source: Path, hand_ids: Sequence[int], workers: int = 1) -> Iterator[Named]:
    """The stored hands' PHH, in order. With `workers` > 1 the chunks (half-size: the last
    ones keep every worker busy) are formatted in that many processes, each with the store
    open read-only, and in this one (`_pooled_texts`). An export of at most two chunks a worker
    stays in this process: starting the workers takes about as long as formatting that many
    hands here."""
    size = CHUNK if workers <= 1 else max(1, CHUNK // 2)
    chunks = [list(hand_ids[at : at + size]) for at in range(0, len(hand_ids), size)]
    if workers <= 1 or len(chunks) <= 2 * workers:
        con = open_store(source)
        for ids in chunks:
            yield from chunk_texts(con, ids)
        return
    with ProcessPoolExecutor(workers, mp_context=pool_context(preload=[__name__])) as pool:
        yield from _pooled_texts(source, chunks, pool, workers)


def _pooled_texts(
    source: Path, chunks: list[list[int]], pool: ProcessPoolExecutor, workers: int
) -> Iterator[Named]:
    """The chunks' texts in order, formatted by the pool's workers and this process. Starting
    the workers takes about half a second (a thread waits for it), in which this process
    formats the first chunks itself; then any chunk no worker has taken yet when its turn
    comes is formatted here too."""
    with open_store(source) as con:
        failed: list[BaseException] = []

        def start() -> None:
            try:
                for _ in range(workers):
                    pool.submit(_open_worker_store, str(source))
            except BaseException as error:  # raised here once this process has caught up
                failed.append(error)

        starter = threading.Thread(target=start, daemon=True)
        starter.start()
        done = 0
        while done < len(chunks) and starter.is_alive():
            texts = chunk_texts(con, chunks[done])
            done += 1
            yield from texts
        starter.join()
        if failed and done < len(chunks):
            raise failed[0]
        later = [pool.submit(_chunk_texts, (str(source), ids)) for ids in chunks[done:]]
        for ids, future in zip(chunks[done:], later, strict=True):
            yield from (chunk_texts(con, ids) if future.cancel() else future.result())


_WORKER_STORES: dict[str, duckdb.DuckDBPyConnection] = {}


def _worker_store(source: str) -> duckdb.DuckDBPyConnection:
    """In a worker process: the store, opened once and kept open between chunks."""
    con = _WORKER_STORES.get(source)
    if con is None:
        con = _WORKER_STORES[source] = open_store(Path(source))
    return con


def _open_worker_store(source: str) -> None:
    _worker_store(source)


def _chunk_texts(task: tuple[str, list[int]]) -> list[Named]:
    """In a worker process: one chunk's PHH texts."""
    source, ids = task
    return chunk_texts(_worker_store(source), ids)


def chunk_texts(con: duckdb.DuckDBPyConnection, ids: list[int]) -> list[Named]:
    """One chunk of stored hands' PHH texts."""
    with without_cycle_collection():
        return list(named(_chunk(con, ids, PHH_EVENT_COLUMNS)))


def write_export(hands: Iterable[Named], out: Path, format: Format) -> int:
    """Write the hands; returns how many. `phhs`: one file at `out`, a `[N]` table per hand;
    `phh`: one file per hand in the folder `out` (created)."""
    count = 0
    if format == "phhs":
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("w", encoding="utf-8", newline="\n") as stream:
            for count, (_, text) in enumerate(hands, 1):
                stream.write(f"[{count}]\n{text}\n")
        return count
    out.mkdir(parents=True, exist_ok=True)
    taken: set[str] = set()
    for given, text in hands:
        name = given
        while name in taken:  # the same hand id read twice: keep both
            name = name.removesuffix(".phh") + "+.phh"
        taken.add(name)
        (out / name).write_text(text, encoding="utf-8")
        count += 1
    return count
