"""The commands that fill the store and serve or export it: `ingest`, `prepare`, `export`,
`dashboard`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer
from rich.markup import escape

from studdraw.cli.console import console
from studdraw.cli.shared import (
    PathsArgument,
    RulesOption,
    WaitOption,
    check_store,
    chosen_rules,
    existing,
    opened_waiting,
    written_aside,
)
from studdraw.parsers.model import Game
from studdraw.pipeline.importer.settings import (
    BATCH_SIZE,
    DEFAULT_TASK_BYTES,
    PART_WITH_WORKERS,
    Engine,
)
from studdraw.pipeline.words import plural

if TYPE_CHECKING:
    import duckdb

T = TypeVar("T")


def ingest(
    paths: PathsArgument,
    *,
    db: Annotated[Path, typer.Option(help="DuckDB file (created if missing).")] = Path(
        "studdraw.duckdb"
    ),
    parquet: Annotated[
        Path | None,
        typer.Option(help="Also write a hive-partitioned Parquet dataset in this folder."),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            help="Processes that parse (default: the number of cores). Local engine: this "
            "one, which also cuts the files and writes the store, and N-1 workers (1: this one "
            "alone); dask: a LocalCluster of N.",
            min=1,
        ),
    ] = None,
    batch_size: Annotated[
        int | None,
        typer.Option(
            help=f"New hands per transaction (local engine; default: {BATCH_SIZE:,}; workers "
            f"get them in parts of at most {PART_WITH_WORKERS:,}; Dask: one per task).",
            min=1,
            show_default=False,
        ),
    ] = None,
    wait: Annotated[
        float, typer.Option(help="Seconds to wait for another process using the database.")
    ] = 60.0,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the summary as one JSON object on stdout.")
    ] = False,
    engine: Annotated[
        Engine,
        typer.Option(
            help="local: a process pool on this machine; dask: Dask tasks on a cluster "
            "(docs/scaling.md). The store is the same."
        ),
    ] = Engine.LOCAL,
    scheduler: Annotated[
        str | None,
        typer.Option(
            help="With --engine dask: the scheduler, tcp://HOST:PORT (default: a LocalCluster "
            "of --workers processes)."
        ),
    ] = None,
    task_mb: Annotated[
        int, typer.Option(help="With --engine dask: MiB of history text per task.", min=1)
    ] = DEFAULT_TASK_BYTES >> 20,
    rules: RulesOption = None,
    watch: Annotated[
        bool,
        typer.Option(
            "--watch",
            help="Keep watching PATH and import hands as the poker client writes them, until "
            "Ctrl-C (local engine).",
        ),
    ] = False,
    settle: Annotated[
        float,
        typer.Option(
            help="With --watch: seconds a file caught in the middle of a hand may stay "
            "unchanged before it is imported anyway.",
            min=0.0,
        ),
    ] = 30.0,
) -> None:
    """Import hand histories into the store: parse, replay, normalize, write, and keep the
    analytics' rows of every hand stored (idempotent: a re-import adds nothing). Exits 0 when
    done; 1 if a file could not be read (or does not exist) or no hand-history file was found;
    2 on a store that is busy past --wait, of another version or not a DuckDB file, or a Dask
    engine that cannot start; 3 if the disk is full, DuckDB ran out of memory or the
    store could not be written (the store is as it was before the batch); 130 (Ctrl-C) or 143
    (SIGTERM): stopped, what was committed is kept and a re-run resumes."""
    from studdraw.pipeline.forkserver import IMPORT_WORKERS, pool_context, process_count

    processes = process_count(workers)
    if engine is Engine.LOCAL and not watch and processes > 1:
        # The workers' fork server imports the pipeline while this process does (forkserver).
        pool_context(preload=[IMPORT_WORKERS])
    from studdraw.cli.ingest_report import run_ingest, run_watch
    from studdraw.pipeline.importer.ingest import IngestOptions
    from studdraw.pipeline.importer.pool import without_pandas

    existing(paths)  # before the store is created: a typo makes no empty store
    if scheduler is not None and engine is not Engine.DASK:
        console(stderr=True).print("[red]error:[/red] --scheduler needs --engine dask")
        raise typer.Exit(code=2)
    chosen_rules(rules)
    if watch and (engine is not Engine.LOCAL or parquet is not None or json_output):
        console(stderr=True).print(
            "[red]error:[/red] --watch runs the local engine into the DuckDB store only"
        )
        raise typer.Exit(code=2)
    with ExitStack() as scope:
        if engine is Engine.LOCAL:  # this process imports, then ends: no pandas for pyarrow
            scope.enter_context(without_pandas())
        if watch:
            options = IngestOptions(db, None, workers or 1, batch_size, wait, rules)
            code = run_watch(paths, options, settle)
        else:
            code = run_ingest(
                paths,
                db=db,
                parquet=parquet,
                workers=processes,
                batch_size=batch_size,
                wait=wait,
                json_output=json_output,
                engine=engine,
                scheduler=scheduler,
                task_bytes=task_mb << 20,
                rules=rules,
            )
    if code:
        raise typer.Exit(code=code)


def dashboard(
    db: Annotated[
        Path, typer.Option(help="The store: a DuckDB file or a Parquet dataset folder.")
    ] = Path("studdraw.duckdb"),
    port: Annotated[int, typer.Option(help="Port to serve on.", min=1, max=65535)] = 8501,
    address: Annotated[
        str, typer.Option(help="Address to listen on (0.0.0.0 for every interface).")
    ] = "localhost",
) -> None:
    """Serve the Streamlit dashboard on a store, read-only, until interrupted (it holds the
    store only while a page computes: imports go on meanwhile). Exits 2 if the store does not
    exist or cannot be read."""
    if not db.exists():
        console(stderr=True).print(
            f"[red]error:[/red] {db} does not exist; build it with `studdraw ingest PATH --db {db}`"
        )
        raise typer.Exit(code=2)
    check_store(db, write=False)
    from studdraw.dashboard.launch import serve

    serve(db, port, address)


def prepare(
    db: Annotated[Path, typer.Option("--db", help="DuckDB store.")] = Path("studdraw.duckdb"),
) -> None:
    """Derive the analytics' per-hand rows and sums the store lacks: rarely needed, as every
    import keeps those of its hands (and `ingest` runs this after each import); after an
    upgrade that changes the stats' definitions it rebuilds them (idempotent; resumes where an
    interrupted run stopped). Exits 2 if the store is missing, busy or cannot be written."""
    import duckdb

    from studdraw.cli.ingest_report import keep_analytics
    from studdraw.pipeline.store.db import one_line

    check_store(db, write=True)
    if not db.is_file():
        console(stderr=True).print(f"[red]error:[/red] no DuckDB store at {db}")
        raise typer.Exit(code=2)
    try:
        done = keep_analytics(db)
    except duckdb.Error as error:
        console(stderr=True).print(f"[red]error:[/red] cannot prepare {db}: {one_line(error)}")
        raise typer.Exit(code=2) from None
    console().print(
        f"derived {plural(done.derived_hands, 'hand')}; rows cover hand ids up to "
        f"{done.covered_through}" + (" (rebuilt: the definitions changed)" if done.rebuilt else "")
    )


class ExportFormat(StrEnum):
    PHH = "phh"
    PHHS = "phhs"


def export(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Export freshly parsed hands of these files or folders instead of a store.",
            show_default=False,
        ),
    ] = None,
    *,
    format: Annotated[
        ExportFormat, typer.Option("--format", help="phh: one file per hand; phhs: one file.")
    ],
    out: Annotated[
        Path, typer.Option(help="The .phhs file, or the folder of .phh files (created).")
    ],
    db: Annotated[Path, typer.Option(help="Store to read (DuckDB file or Parquet folder).")] = (
        Path("studdraw.duckdb")
    ),
    player: Annotated[
        list[str] | None, typer.Option(help="Hands this player was dealt in (repeatable).")
    ] = None,
    game: Annotated[list[Game] | None, typer.Option(help="Games (repeatable).")] = None,
    room: Annotated[list[str] | None, typer.Option(help="Rooms, e.g. pokerstars.")] = None,
    since: Annotated[
        str | None, typer.Option(help="Hands started at or after this UTC date or time.")
    ] = None,
    until: Annotated[
        str | None,
        typer.Option(help="Hands started before this UTC time, or on or before this date."),
    ] = None,
    hand: Annotated[list[str] | None, typer.Option(help="The rooms' hand ids.")] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            help="Processes formatting a store's hands (default: the number of cores; an export "
            "too small to pay for starting them stays in this one); 1: this one.",
            min=1,
        ),
    ] = None,
    wait: WaitOption = 60.0,
) -> None:
    """Write hands as PHH, the open Poker Hand History format (docs/phh.md): from the store,
    or from files parsed now. The output is written aside and takes its name only once whole.
    Exits 0 when written (or when no hand matches: nothing is written), 1 if a file could not
    be read, the output not written, or no player has a --player name, 2 if the store is
    missing or busy past --wait or a filter is malformed, 130 on Ctrl-C (nothing written)."""
    import duckdb

    from studdraw.cli.progress import progress
    from studdraw.pipeline import export as exporter
    from studdraw.pipeline.forkserver import process_count
    from studdraw.pipeline.notes import annotate_phh, notes_path

    stderr = console(stderr=True)
    try:
        selection = exporter.Selection(
            players=tuple(player or ()),
            games=tuple(str(g) for g in game or ()),
            rooms=tuple(room or ()),
            since=_utc_bound(since, end=False),
            until=_utc_bound(until, end=True),
            hands=tuple(hand or ()),
        )
    except ValueError as error:
        stderr.print(f"[red]error:[/red] {escape(str(error))}", highlight=False)
        raise typer.Exit(code=2) from None
    report = exporter.FileExport([], [])
    total = None
    if paths:
        hands = exporter.named(exporter.records_from_files(paths, selection, report))
    else:
        try:
            with opened_waiting(lambda: exporter.open_store(db), db, wait) as con:
                known_players(con, selection.players)
                ids = exporter.select_hand_ids(con, selection)
        except (FileNotFoundError, duckdb.Error) as error:
            stderr.print(f"[red]error:[/red] {escape(str(error))}", highlight=False)
            raise typer.Exit(code=2) from None
        if not ids:
            stderr.print(f"no hand matches; nothing written to {out}", markup=False)
            return
        total = len(ids)
        hands = exporter.texts_from_store(db, ids, process_count(workers))
    hands = annotate_phh(hands, notes_path(db))
    try:
        with written_aside(out) as aside, progress(stderr, "export", total=total) as tracker:
            count = exporter.write_export(_counted(hands, tracker.hands), aside, format.value)
    except OSError as error:
        stderr.print(f"[red]error:[/red] cannot write {escape(str(out))}: {error}")
        raise typer.Exit(code=1) from None
    except KeyboardInterrupt:
        stderr.print(f"[yellow]interrupted:[/yellow] nothing written to {escape(str(out))}")
        raise typer.Exit(code=130) from None
    reasons = Counter(problem.split(": ", 1)[1] for problem in report.problems)
    for reason, times in sorted(reasons.items()):
        stderr.print(f"not exported: {times} x {reason}", markup=False, highlight=False)
    for failure in report.unreadable:
        stderr.print(f"[red]unreadable:[/red] {escape(failure)}", highlight=False)
    stderr.print(f"exported {plural(count, 'hand')} to {out}", markup=False, highlight=False)
    if report.unreadable:
        raise typer.Exit(code=1)


def _counted(items: Iterable[T], advance: Callable[[int], None]) -> Iterator[T]:
    for item in items:
        yield item
        advance(1)


def known_players(con: duckdb.DuckDBPyConnection, names: Sequence[str]) -> None:
    """Exit 1 naming the nearest names when the store has no player of a name asked for (a
    person linked in the notes file, or a name of the store's accounts)."""
    import difflib

    from studdraw.pipeline.identities import IDENTITIES

    if not names:
        return
    everyone_sql = (
        f"SELECT DISTINCT person FROM {IDENTITIES} UNION SELECT DISTINCT name FROM hand_players"
    )
    found = {
        name
        for (name,) in con.execute(
            f"SELECT * FROM ({everyone_sql}) WHERE person IN (SELECT unnest(?))", [names]
        ).fetchall()
    }
    missing = [name for name in names if name not in found]
    if not missing:
        return
    everyone = [name for (name,) in con.execute(f"{everyone_sql} ORDER BY 1").fetchall()]
    for name in missing:
        same = [other for other in everyone if other.casefold() == name.casefold()]
        close = same or difflib.get_close_matches(name, everyone, n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(repr(other) for other in close)}?" if close else ""
        console(stderr=True).print(
            f"[red]error:[/red] no player named {escape(repr(name))}{escape(hint)}",
            highlight=False,
        )
    raise typer.Exit(code=1)


def _utc_bound(text: str | None, *, end: bool) -> datetime | None:
    """A --since/--until value: an ISO date or time, UTC unless it names a zone; a bare date
    as --until means the end of that day."""
    if text is None:
        return None
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    if end and len(text) == len("2026-01-31"):
        moment += timedelta(days=1)
    return moment
