"""Tournament summary files into the store: `tournament_results`, one row per player and
tournament, what the analytics' tournament results read besides the hands."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from studdraw.parsers.summaries import TournamentSummary, is_summary, read_summaries
from studdraw.pipeline.store.db import open_store
from studdraw.pipeline.store.schema import TOURNAMENT_RESULTS


@dataclass(slots=True)
class SummaryImport:
    """What an import of summary files did."""

    files: int = 0
    tournaments: int = 0
    results: int = 0
    unknown_lines: list[tuple[str, int, str]] = field(default_factory=list)
    failed_files: list[tuple[str, str]] = field(default_factory=list)


def split_summaries(files: list[Path]) -> tuple[list[Path], list[Path]]:
    """The files that are tournament summaries, and the others (hand histories, or files for
    the import to report: an unreadable file is left to it)."""
    summaries: list[Path] = []
    others: list[Path] = []
    for path in files:
        try:
            found = is_summary(path)
        except OSError:
            found = False
        (summaries if found else others).append(path)
    return summaries, others


def import_summaries(files: list[Path], db: Path, wait_seconds: float = 60.0) -> SummaryImport:
    """Read the summary files and keep their results in the store, one transaction per file
    (idempotent: a summary read again replaces its own rows)."""
    done = SummaryImport()
    if not files:
        return done
    store = open_store(db, wait_seconds)
    try:
        con = store.connection
        for path in files:
            try:
                summaries = read_summaries(path)
            except OSError as error:
                done.failed_files.append((str(path), error.strerror or str(error)))
                continue
            rows = [row for summary in summaries for row in _rows(summary)]
            if rows:
                con.execute("BEGIN")
                con.executemany(
                    f"INSERT OR REPLACE INTO {TOURNAMENT_RESULTS.name} VALUES "
                    f"({', '.join('?' * len(TOURNAMENT_RESULTS.columns))})",
                    rows,
                )
                con.execute("COMMIT")
            done.files += 1
            done.tournaments += len(summaries)
            done.results += len(rows)
            done.unknown_lines += [
                (str(path), number, line)
                for summary in summaries
                for number, line in summary.unknown_lines
            ]
    finally:
        store.close()
    return done


def _rows(summary: TournamentSummary) -> list[tuple[object, ...]]:
    return [
        (
            summary.room,
            summary.tournament_id,
            finisher.name,
            finisher.place,
            finisher.prize,
            finisher.bounty,
            summary.buy_in,
            summary.fee,
            summary.bounty,
            summary.currency,
            summary.entries,
            summary.prize_pool,
            summary.game,
            summary.started,
            str(Path(summary.source).resolve()),
            summary.line,
        )
        for finisher in summary.finishers
    ]
