"""`studdraw ingest`'s shell: progress on stderr, then the summary as tables or one JSON object.

Kept out of cli.py so the command there stays a thin declaration of its options.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path

from rich.markup import escape
from rich.table import Table

from studdraw.parsers.files import discover_files
from studdraw.pipeline.console import console
from studdraw.pipeline.progress import file_progress

from .db import StoreLockedError, StoreVersionError
from .ingest import COUNTS, DEFAULT_TASK_BYTES, IngestOptions, IngestSummary, ingest
from .summaries import import_summaries, split_summaries


class Engine(StrEnum):
    """Where an import's parsing runs: a process pool here, or Dask tasks on a cluster."""

    LOCAL = "local"
    DASK = "dask"


def run_ingest(
    paths: list[Path],
    *,
    db: Path,
    parquet: Path | None,
    workers: int | None,
    batch_size: int,
    wait: float,
    json_output: bool,
    engine: Engine = Engine.LOCAL,
    scheduler: str | None = None,
    task_bytes: int = DEFAULT_TASK_BYTES,
) -> int:
    """Run an import and print its summary; the exit code (0 ok, 1 unreadable files, 2 the
    store could not be opened, or the Dask engine could not start)."""
    stderr = console(stderr=True)
    options = IngestOptions(db, parquet, workers or os.cpu_count() or 1, batch_size, wait)
    summary_files, files = split_summaries(list(discover_files(paths)))

    def on_wait(message: str) -> None:
        stderr.print(f"[yellow]waiting:[/yellow] {message}")

    try:
        with file_progress(files, stderr) as advance:
            if engine is Engine.DASK:
                summary = _ingest_dask(
                    paths,
                    options,
                    scheduler=scheduler,
                    task_bytes=task_bytes,
                    advance=advance,
                    on_wait=on_wait,
                    files=files,
                )
            else:
                summary = ingest(paths, options, advance, on_wait=on_wait, files=files)
        tournaments = import_summaries(summary_files, db, wait)
    except (StoreLockedError, StoreVersionError, EngineUnavailableError) as error:
        stderr.print(f"[red]error:[/red] {escape(str(error))}")
        return 2
    summary.failed_files += tournaments.failed_files
    for path, reason in summary.failed_files:
        stderr.print(f"[red]error:[/red] cannot read {path}: {reason}")
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
                f"{tournaments.files} tournament summary files: {tournaments.tournaments} "
                f"tournaments, {tournaments.results} player results"
            )
    for path, line, text in tournaments.unknown_lines:
        stderr.print(f"{escape(path)}:{line}: unknown summary line: {escape(text)}")
    return 1 if summary.failed_files else 0


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
) -> IngestSummary:
    """The Dask runner, imported only when asked for: Dask is an optional extra."""
    try:
        from .dask_engine import ClusterError, DaskOptions, ingest_dask  # noqa: PLC0415
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
        )
    except ClusterError as error:
        raise EngineUnavailableError(str(error)) from None


def summary_table(summary: IngestSummary, db: Path) -> Table:
    rate = f"{summary.hands_seen / summary.seconds:,.0f} hands/s" if summary.seconds else ""
    table = Table(
        title=f"Ingest into {db}: {summary.files} files, {summary.seconds:.1f} s, {rate}",
        caption=(
            f"{summary.with_errors} stored hands with rule errors; {summary.changed} changed "
            f"hands kept in rejects; {summary.skipped_files} files already imported"
        ),
    )
    table.add_column("site")
    for column in COUNTS:
        table.add_column(column.replace("_", " "), justify="right")
    for site, counts in sorted(summary.by_site.items()):
        table.add_row(site, *(f"{counts[name]:,}" for name in COUNTS))
    table.add_section()
    table.add_row("total", *(f"{getattr(summary, name):,}" for name in COUNTS))
    return table


def unsupported_table(summary: IngestSummary) -> Table:
    """What was skipped and why, so 'unsupported' is never a silent loss."""
    table = Table(title="Unsupported hands (counted, not stored; see the `unsupported` table)")
    for column in ("site", "game", "reason", "hands"):
        table.add_column(column, justify="right" if column == "hands" else "left")
    for (site, game, reason), hands in sorted(summary.unsupported_reasons.items()):
        table.add_row(site, game, reason, f"{hands:,}")
    return table
