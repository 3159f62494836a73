"""`studdraw ingest`'s shell: progress on stderr, then the summary as tables or one JSON object.

Kept out of the command line (`cli/storage.py`) so the command there stays a thin declaration of
its options.
"""

from __future__ import annotations

import errno
import json
import signal
import sys
from collections.abc import Callable
from contextlib import ExitStack, suppress
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb
from rich.markup import escape
from rich.table import Table

if TYPE_CHECKING:
    from studdraw.pipeline.analytics import Prepared

from studdraw.cli.console import console
from studdraw.cli.progress import Tracker, progress
from studdraw.cli.shared import nothing_found
from studdraw.parsers.files import discover_files
from studdraw.pipeline.forkserver import process_count
from studdraw.pipeline.importer.ingest import (
    COUNTS,
    ImportInterruptedError,
    IngestOptions,
    IngestSummary,
    ingest,
)
from studdraw.pipeline.importer.settings import DEFAULT_TASK_BYTES, Engine
from studdraw.pipeline.importer.stopping import exit_code, stop_signal
from studdraw.pipeline.importer.summaries import import_summaries, split_summaries
from studdraw.pipeline.importer.watch import Imported, watch_folders
from studdraw.pipeline.store.db import (
    DatasetMismatchError,
    StoreLockedError,
    StoreOpenError,
    StoreVersionError,
    one_line,
)
from studdraw.pipeline.words import plural


def run_ingest(
    paths: list[Path],
    *,
    db: Path,
    parquet: Path | None,
    workers: int | None,
    batch_size: int | None,
    wait: float,
    json_output: bool,
    engine: Engine = Engine.LOCAL,
    scheduler: str | None = None,
    task_bytes: int = DEFAULT_TASK_BYTES,
    rules: str | None = None,
) -> int:
    """Run an import and print its summary; the exit code: 0 ok, 1 unreadable files or
    folders, 2 the store could not be opened (busy, another version, not a DuckDB file, a
    folder, not writable) or the Dask engine could not start, 3 the disk is full or DuckDB ran
    out of memory, 130/143 stopped by Ctrl-C/SIGTERM (a re-run resumes)."""
    stderr = console(stderr=True)
    options = IngestOptions(db, parquet, process_count(workers), batch_size, wait, rules)
    problems: list[tuple[Path, str]] = []
    found_files = discover_files(paths, lambda path, why: problems.append((path, why)))
    summary_files, files = split_summaries(list(found_files))
    if not files and not summary_files and not problems:
        nothing_found(paths)

    def on_wait(message: str) -> None:
        stderr.print(f"[yellow]waiting:[/yellow] {message}")

    try:
        with progress(stderr, "ingest", files=files) as tracker:
            if engine is Engine.DASK:
                summary = _ingest_dask(
                    paths,
                    options,
                    scheduler=scheduler,
                    task_bytes=task_bytes,
                    advance=tracker.file,
                    on_wait=on_wait,
                    files=files,
                    path_problems=problems,
                    on_hands=tracker.hands,
                )
            else:
                summary = ingest(
                    paths,
                    options,
                    tracker.file,
                    on_wait=on_wait,
                    files=files,
                    path_problems=problems,
                    on_hands=tracker.hands,
                )
        tournaments = import_summaries(summary_files, db, wait)
    except (
        StoreLockedError,
        StoreVersionError,
        StoreOpenError,
        DatasetMismatchError,
        EngineUnavailableError,
    ) as error:
        stderr.print(f"[red]error:[/red] {escape(str(error))}")
        return 2
    except ImportInterruptedError as stop:
        stderr.print(f"[yellow]interrupted:[/yellow] {escape(interrupted_message(stop, db))}")
        return exit_code(stop.signum)
    except BaseException as error:
        signum = stop_signal(error)
        if signum is not None:  # the Dask engine's stop: its committed tasks are kept
            stderr.print(
                f"[yellow]interrupted:[/yellow] {signal.Signals(signum).name}; what was "
                "committed is kept, run the same command again to resume"
            )
            return exit_code(signum)
        cause = resource_failure(error, db)
        if cause is None:
            raise
        stderr.print(f"[red]error:[/red] {escape(cause)}")
        return 3
    summary.failed_files += tournaments.failed_files
    for path, reason in summary.failed_files:
        stderr.print(f"[red]error:[/red] cannot read {escape(path)}: {reason}")
    for path, note in summary.notes:
        stderr.print(f"[yellow]note:[/yellow] {escape(path)}: {note}")
    if json_output:
        found = summary.as_dict() | {
            "tournament_summaries": {
                "files": tournaments.files,
                "tournaments": tournaments.tournaments,
                "results": tournaments.results,
            }
        }
        sys.stdout.write(json.dumps(found, ensure_ascii=False) + "\n")
    else:
        out = console()
        out.print(summary_table(summary, db))
        if summary.unsupported_reasons:
            out.print(unsupported_table(summary))
        if tournaments.files:
            out.print(
                f"{plural(tournaments.files, 'tournament summary file')}: "
                f"{plural(tournaments.tournaments, 'tournament')}, "
                f"{plural(tournaments.results, 'player result')}"
            )
    for path, line, text in tournaments.unknown_lines:
        stderr.print(f"{escape(path)}:{line}: unknown summary line: {escape(text)}")
    catch_up(db)
    return 1 if summary.failed_files else 0


def keep_analytics(db: Path) -> Prepared:
    """`analytics.prepare` with its progress on stderr (counted in hands)."""
    from studdraw.pipeline import analytics

    stderr = console(stderr=True)
    with ExitStack() as stack:
        trackers: list[Tracker] = []

        def start(total: int) -> None:
            if total:
                trackers.append(stack.enter_context(progress(stderr, "prepare", total=total)))

        def chunk(hands: int) -> None:
            for tracker in trackers:
                tracker.hands(hands)

        return analytics.prepare(db, on_start=start, on_chunk=chunk)


def catch_up(db: Path) -> None:
    """After an import (which keeps the analytics of the hands it stores): derive those of the
    hands it could not, stored by an earlier studdraw or under other definitions, once. Said on
    stderr; a failure leaves the store as it is (readers derive what is missing) and says so."""
    stderr = console(stderr=True)
    try:
        done = keep_analytics(db)
    except (duckdb.Error, OSError) as error:
        stderr.print(
            f"[yellow]note:[/yellow] the analytics of earlier hands were not derived "
            f"({escape(one_line(error))}); `studdraw prepare --db {escape(str(db))}` does it"
        )
        return
    if done.derived_hands:
        why = "under other definitions" if done.rebuilt else "before imports kept them"
        stderr.print(
            f"derived the analytics of {plural(done.derived_hands, 'hand')} stored {why} "
            "(once: imports keep them from now on)",
            markup=False,
            highlight=False,
        )


def interrupted_message(stop: ImportInterruptedError, db: Path) -> str:
    summary = stop.summary
    return (
        f"{signal.Signals(stop.signum).name} stopped the import into {db}: {summary.stored:,} "
        f"hands were stored, {summary.hands_seen:,} seen, in the batches committed before it; "
        "the files not finished are marked interrupted. Run the same command again to resume."
    )


def resource_failure(error: BaseException, db: Path) -> str | None:
    """One line naming the cause when the machine, not the input, stopped the import: a full
    disk or DuckDB out of memory (the batch's transaction rolled back: the store is as it was
    before it); None for any other error."""
    text = " ".join(str(error).split())[:300]
    if isinstance(error, duckdb.OutOfMemoryException):
        return (
            f"DuckDB ran out of memory writing to {db} ({text}); the store is as it was before "
            "the batch; try a smaller --batch-size or fewer --workers"
        )
    no_space = isinstance(error, OSError) and error.errno == errno.ENOSPC
    if no_space or (isinstance(error, duckdb.Error) and "no space left" in text.lower()):
        return (
            f"the disk is full ({text}); the store {db} is as it was before the batch that "
            "failed; free some space and run the same command again to resume"
        )
    if isinstance(error, duckdb.IOException) and "could not read" in text.lower():
        return (
            f"cannot read the store {db} ({text}): the file is damaged or truncated; nothing "
            "was written to it"
        )
    if isinstance(error, duckdb.IOException | OSError):
        return f"cannot write the store {db}: {text}; it is as it was before the batch"
    return None


class EngineUnavailableError(Exception):
    """The engine asked for cannot run: Dask is not installed, or its scheduler is unreachable."""


def _ingest_dask(
    paths: list[Path],
    options: IngestOptions,
    *,
    scheduler: str | None,
    task_bytes: int,
    advance: Callable[[Path], None],
    on_wait: Callable[[str], None],
    files: list[Path],
    path_problems: list[tuple[Path, str]],
    on_hands: Callable[[int], None],
) -> IngestSummary:
    """The Dask runner, imported only when asked for: Dask is an optional extra."""
    try:
        from studdraw.pipeline.importer.dask_cluster import ClusterError
        from studdraw.pipeline.importer.dask_engine import DaskOptions, ingest_dask
    except ModuleNotFoundError as error:
        if error.name not in ("dask", "distributed"):
            raise
        raise EngineUnavailableError(
            "--engine dask needs Dask, which is not installed: pip install 'studdraw[dask]'"
        ) from None
    try:
        return ingest_dask(
            paths,
            options,
            DaskOptions(scheduler, task_bytes),
            advance=advance,
            on_wait=on_wait,
            files=files,
            path_problems=path_problems,
            on_hands=on_hands,
        )
    except ClusterError as error:
        raise EngineUnavailableError(str(error)) from None


def summary_table(summary: IngestSummary, db: Path) -> Table:
    rate = f"{summary.hands_seen / summary.seconds:,.0f} hands/s" if summary.seconds else ""
    table = Table(
        title=f"Ingest into {db}: {plural(summary.files, 'file')}, {summary.seconds:.1f} s, {rate}",
        caption=(
            f"{plural(summary.with_errors, 'stored hand')} with rule errors; "
            f"{plural(summary.changed, 'changed hand')} kept in rejects; "
            f"{plural(summary.skipped_files, 'file')} already imported; "
            f"{plural(summary.stray_texts, 'stray text')} (no room's hand: not counted as hands, "
            f"kept in rejects); {plural(len(summary.failed_files), 'path')} not read"
        ),
    )
    table.add_column("room")
    for column in COUNTS:
        table.add_column(column.replace("_", " "), justify="right")
    for room, counts in sorted(summary.by_room.items()):
        table.add_row(room, *(f"{counts[name]:,}" for name in COUNTS))
    table.add_section()
    table.add_row("total", *(f"{getattr(summary, name):,}" for name in COUNTS))
    return table


def unsupported_table(summary: IngestSummary) -> Table:
    """What was skipped and why, so 'unsupported' is never a silent loss."""
    table = Table(title="Unsupported hands (counted, not stored; see the `unsupported` table)")
    for column in ("room", "game", "reason", "hands"):
        table.add_column(column, justify="right" if column == "hands" else "left")
    for (room, game, reason), hands in sorted(summary.unsupported_reasons.items()):
        table.add_row(room, game, reason, f"{hands:,}")
    return table


def run_watch(paths: list[Path], options: IngestOptions, settle: float) -> int:
    """`studdraw ingest --watch`: one line per import on stdout, until Ctrl-C; the exit code
    (2 when a path does not exist)."""
    out, err = console(), console(stderr=True)
    missing = [path for path in paths if not path.exists()]
    if missing:
        err.print(f"[red]error:[/red] no such folder or file: {escape(str(missing[0]))}")
        return 2

    def told(done: Imported) -> None:
        hands = done.hands
        line = (
            f"{datetime.now().astimezone():%H:%M:%S} {plural(len(done.files), 'file')}: "
            f"{plural(hands.stored, 'new hand')}, {hands.duplicates:,} already stored, "
            f"{hands.rejected:,} rejected, {hands.unsupported:,} unsupported"
        )
        if done.tournaments.files:
            line += f"; {plural(done.tournaments.tournaments, 'tournament summary')}"
        out.print(line, markup=False, highlight=False)
        for path, reason in hands.failed_files + done.tournaments.failed_files:
            err.print(f"[red]error:[/red] cannot read {escape(path)}: {escape(reason)}")

    def busy(message: str) -> None:
        err.print(f"[yellow]waiting:[/yellow] {escape(message)}; will try again")

    if options.db.is_file():
        catch_up(options.db)  # so that every batch the watch imports keeps its analytics
    out.print(f"watching {', '.join(str(path) for path in paths)}; Ctrl-C stops", markup=False)
    with suppress(KeyboardInterrupt):
        watch_folders(paths, options, told, settle=settle, on_busy=busy)
    out.print("stopped watching")
    return 0
