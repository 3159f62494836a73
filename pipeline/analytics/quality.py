"""Data quality over a store: the problems the rules engine kept with stored hands, by origin and
code, and the hands that were not stored (rejects with their raw text, unsupported hands), so
that nothing read is out of sight. The dashboard's data-quality page reads these.

Raw store reads: nothing here depends on the derived per-hand rows (`source.VERSION`).
"""

from __future__ import annotations

from typing import Any, Final

import duckdb
import polars as pl

from studdraw.parsers.problems import Code, Origin

EXPORT_CODES: Final = [str(code) for code in Code if code.origin is Origin.EXPORT]
"""The codes of the export's defects; every other error is play that broke the rules."""


def _frame(con: duckdb.DuckDBPyConnection, sql: str, *params: Any) -> pl.DataFrame:
    frame: pl.DataFrame = con.sql(sql, params=list(params)).pl()
    return frame


def quality_counts(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    """Stored hands (`hands`), those with warnings (`warned`), violations, and the hands with an
    error of play (`play`) and with an export defect (`export`)."""
    counts: dict[str, int] = _frame(
        con,
        "SELECT (SELECT count(*) FROM hands) AS hands, "
        "(SELECT count(*) FROM hands WHERE warnings > 0) AS warned, "
        "(SELECT count(*) FROM violations) AS violations",
    ).row(0, named=True)
    origins: dict[str, int] = _frame(
        con,
        "SELECT count(DISTINCT hand_id) FILTER (WHERE severity = 'error' AND NOT "
        "list_contains(?, code)) AS play, count(DISTINCT hand_id) FILTER (WHERE "
        "list_contains(?, code)) AS export FROM violations",
        EXPORT_CODES,
        EXPORT_CODES,
    ).row(0, named=True)
    return {**counts, **origins}


def violations_by_code(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Per room, code and severity: the violations and the hands they are in, most first."""
    return _frame(
        con,
        "SELECT h.room AS room, v.code, v.severity, count(*) AS violations, "
        "count(DISTINCT v.hand_id) AS hands FROM violations v JOIN hands h USING (hand_id) "
        "GROUP BY ALL ORDER BY violations DESC, room, v.code",
    )


def violation_examples(con: duckdb.DuckDBPyConnection, code: str, limit: int) -> pl.DataFrame:
    """The latest `limit` violations of `code`, with their hand (store id, room's id, game,
    start in UTC), line and message."""
    return _frame(
        con,
        "SELECT v.hand_id, h.room AS room, h.room_hand_id, h.game, "
        "strftime(timezone('UTC', h.started_at), '%Y-%m-%d %H:%M') AS started_utc, v.line, "
        "v.message FROM violations v JOIN hands h USING (hand_id) WHERE v.code = ? "
        "ORDER BY v.hand_id DESC, v.seq LIMIT ?",
        code,
        limit,
    )


def rejects_by_kind(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Rejected hands per room and kind, most first."""
    return _frame(
        con,
        "SELECT coalesce(room, 'unknown') AS room, kind, count(*) AS hands "
        "FROM rejects GROUP BY ALL ORDER BY hands DESC",
    )


def reject_reasons(con: duckdb.DuckDBPyConnection, limit: int) -> pl.DataFrame:
    """Rejected hands per room, kind and reason, the `limit` most common."""
    return _frame(
        con,
        "SELECT coalesce(room, 'unknown') AS room, kind, reason, count(*) AS hands "
        "FROM rejects GROUP BY ALL ORDER BY hands DESC LIMIT ?",
        limit,
    )


def latest_rejects(con: duckdb.DuckDBPyConnection, limit: int) -> pl.DataFrame:
    """The latest `limit` rejects (by import, file and place), each with its id (the content
    hash), room, room's id, kind, reason and where it was read."""
    return _frame(
        con,
        "SELECT content_hash AS id, coalesce(room, 'unknown') AS room, room_hand_id, kind, reason, "
        "source_path, source_line FROM rejects ORDER BY import_id DESC, source_path, "
        "source_offset LIMIT ?",
        limit,
    )


def reject_text(con: duckdb.DuckDBPyConnection, content_hash: str) -> dict[str, Any]:
    """One reject's reason, the line of the error and of the hand's start, and its raw text."""
    row: dict[str, Any] = _frame(
        con,
        "SELECT reason, error_line, source_line, raw_text FROM rejects WHERE content_hash = ? "
        "LIMIT 1",
        content_hash,
    ).row(0, named=True)
    return row


def unsupported_by_reason(con: duckdb.DuckDBPyConnection, limit: int) -> pl.DataFrame:
    """Unsupported hands per room, room's game label and reason, the `limit` most common."""
    return _frame(
        con,
        "SELECT coalesce(room, 'unrecognised') AS room, coalesce(game_label, '?') AS label, "
        "reason, count(*) AS hands FROM unsupported GROUP BY ALL ORDER BY hands DESC LIMIT ?",
        limit,
    )


def latest_unsupported(con: duckdb.DuckDBPyConnection, limit: int) -> pl.DataFrame:
    """Where the latest `limit` unsupported hands were read (they are counted, not stored)."""
    return _frame(
        con,
        "SELECT coalesce(room, 'unrecognised') AS room, coalesce(game_label, '?') AS label, "
        "source_path, source_line, room_hand_id FROM unsupported "
        "ORDER BY import_id DESC, source_path, source_offset LIMIT ?",
        limit,
    )
