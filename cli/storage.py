"""The commands that fill the store and serve or export it: `ingest`, `prepare`, `export`,
`dashboard`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from studdraw.cli.console import console
from studdraw.cli.shared import PathsArgument, RulesOption, check_store, chosen_rules
from studdraw.parsers.model import Game
from studdraw.pipeline.importer.settings import (
    BATCH_SIZE,
    DEFAULT_TASK_BYTES,
    PART_WITH_WORKERS,
    Engine,
)


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
    """Import hand histories into the store: parse, replay, normalize, write (idempotent).
    Exits 1 if a file could not be read, 2 if the database is busy or incompatible (or the
    Dask engine cannot start)."""
    from studdraw.pipeline.forkserver import IMPORT_WORKERS, pool_context, process_count

    processes = process_count(workers)
    if engine is Engine.LOCAL and not watch and processes > 1:
        # The workers' fork server imports the pipeline while this process does (forkserver).
        pool_context(preload=[IMPORT_WORKERS])
    from studdraw.cli.ingest_report import run_ingest, run_watch
    from studdraw.pipeline.importer.ingest import IngestOptions
    from studdraw.pipeline.importer.pool import without_pandas

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
    """Serve the Streamlit dashboard on a store, read-only, until interrupted.
    Exits 2 if the store does not exist."""
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
    """Keep the analytics' per-hand rows in the store, so stats and the dashboard stay fast on
    big stores (idempotent: afterwards only new hands are derived)."""
    import duckdb

    from studdraw.cli.progress import count_progress
    from studdraw.pipeline import analytics
    from studdraw.pipeline.store.db import one_line

    check_store(db, write=True)
    if not db.is_file():
        console(stderr=True).print(f"[red]error:[/red] no DuckDB store at {db}")
        raise typer.Exit(code=2)
    with ExitStack() as stack:
        bars: list[Callable[[int], None]] = []

        def start(total: int) -> None:
            bars.append(stack.enter_context(count_progress("hands", total, console(stderr=True))))

        def chunk(hands: int) -> None:
            for advance in bars:
                advance(hands)

        try:
            done = analytics.prepare(db, on_start=start, on_chunk=chunk)
        except duckdb.Error as error:
            console(stderr=True).print(f"[red]error:[/red] cannot prepare {db}: {one_line(error)}")
            raise typer.Exit(code=2) from None
    console().print(
        f"derived {done.derived_hands} hands; rows cover hand ids up to {done.covered_through}"
        + (" (rebuilt: the definitions changed)" if done.rebuilt else "")
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
) -> None:
    """Write hands as PHH, the open Poker Hand History format (docs/phh.md): from the store,
    or from files parsed now. Exits 1 if a file could not be read or the output written, 2 if
    the store is missing or a filter is malformed."""
    import duckdb

    from studdraw.pipeline import export as exporter
    from studdraw.pipeline.forkserver import process_count

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
        stderr.print(f"[red]error:[/red] {error}", markup=True, highlight=False)
        raise typer.Exit(code=2) from None
    report = exporter.FileExport([], [])
    if paths:
        hands = exporter.named(exporter.records_from_files(paths, selection, report))
    else:
        try:
            with exporter.open_store(db) as con:
                ids = exporter.select_hand_ids(con, selection)
        except (FileNotFoundError, duckdb.Error) as error:
            stderr.print(f"[red]error:[/red] {error}", markup=True, highlight=False)
            raise typer.Exit(code=2) from None
        hands = exporter.texts_from_store(db, ids, process_count(workers))
    try:
        count = exporter.write_export(hands, out, format.value)
    except OSError as error:
        stderr.print(f"[red]error:[/red] cannot write {out}: {error}", highlight=False)
        raise typer.Exit(code=1) from None
    reasons = Counter(problem.split(": ", 1)[1] for problem in report.problems)
    for reason, times in sorted(reasons.items()):
        stderr.print(f"not exported: {times} x {reason}", markup=False, highlight=False)
    for failure in report.unreadable:
        stderr.print(f"[red]unreadable:[/red] {failure}", highlight=False)
    stderr.print(f"exported {count} hands to {out}", markup=False, highlight=False)
    if report.unreadable:
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
