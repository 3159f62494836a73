"""Helpers shared by the store tests: inputs built from the real corpus, and table comparisons."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import duckdb

from studdraw.parsers.files import discover_files
from studdraw.parsers.reader import open_history, parse_hand
from studdraw.parsers.text.room import TextRoom
from studdraw.pipeline.store.schema import BATCH_TABLES, HAND_TABLES, TABLES

SURROGATES = ("hand_id", "import_id")


def corpus_hand_texts(corpus: Path) -> dict[str, list[tuple[str, str]]]:
    """(text, room hand id) of every distinct corpus hand that parses, per room, kept only if
    the text still parses, to a new id, once its id is rewritten (see `rewrite`)."""
    hands: dict[str, list[tuple[str, str]]] = defaultdict(list)
    seen: set[tuple[str, str]] = set()
    for path in discover_files([corpus]):
        history = open_history(path)
        if not isinstance(history.room, TextRoom):
            continue
        for hand in history.hand_texts():
            record = parse_hand(hand).record
            if record is None or (record.room, record.room_hand_id) in seen:
                continue
            seen.add((record.room, record.room_hand_id))
            probe = replace(hand, text=rewrite(hand.text, record.room_hand_id, 0))
            again = parse_hand(probe).record
            if again is not None and again.room_hand_id == f"{record.room_hand_id}000000":
                hands[history.room.name].append((hand.text, record.room_hand_id))
    return hands


def rewrite(text: str, hand_id: str, copy: int) -> str:
    """The hand with every mention of its id given a copy number (rooms repeat the id)."""
    return text.replace(hand_id, f"{hand_id}{copy:06d}")


def inflate(corpus: Path, folder: Path, copies: int, files_per_room: int = 2) -> int:
    """Write `copies` copies of every parsed corpus hand, each copy with its own hand ids,
    spread over a few files per room. Returns the number of hands written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = 0
    for room, hands in sorted(corpus_hand_texts(corpus).items()):
        outs = [
            (folder / f"{room}-{n}.txt").open("w", encoding="utf-8") for n in range(files_per_room)
        ]
        for copy in range(copies):
            out = outs[copy % files_per_room]
            for text, hand_id in hands:
                out.write(rewrite(text, hand_id, copy))
                out.write("\n\n\n")
                written += 1
        for out in outs:
            out.close()
    return written


def canonical(table: str, schema: str = "") -> str:
    """A SELECT of a table's rows without surrogate keys, child rows keyed by their hand's
    (room, room_hand_id) instead: equal for two stores that hold the same hands, whatever ids
    they were given."""
    prefix = f"{schema}." if schema else ""
    columns = [c for c in TABLES[table].column_names if c not in SURROGATES]
    if table in {t.name for t in HAND_TABLES} and table != "hands":
        picked = ", ".join(f"t.{c}" for c in columns)
        return (
            f"SELECT h.room AS hand_room, h.room_hand_id AS hand_key, {picked} "
            f"FROM {prefix}{table} t JOIN {prefix}hands h USING (hand_id)"
        )
    return f"SELECT {', '.join(columns)} FROM {prefix}{table}"


def differences(first: Path, second: Path) -> dict[str, tuple[int, int]]:
    """Per batch table, rows only in the first store and rows only in the second (as
    multisets); empty when both stores hold the same rows."""
    con = duckdb.connect()
    con.execute(f"ATTACH '{first}' AS a (READ_ONLY)")
    con.execute(f"ATTACH '{second}' AS b (READ_ONLY)")
    found: dict[str, tuple[int, int]] = {}
    for table in BATCH_TABLES:
        left, right = canonical(table.name, "a"), canonical(table.name, "b")
        only_a = con.execute(f"SELECT count(*) FROM ({left} EXCEPT ALL {right})").fetchone()
        only_b = con.execute(f"SELECT count(*) FROM ({right} EXCEPT ALL {left})").fetchone()
        assert only_a is not None and only_b is not None
        if only_a[0] or only_b[0]:
            found[table.name] = (only_a[0], only_b[0])
    con.close()
    return found


def counts(db: Path) -> dict[str, int]:
    """Rows per batch table."""
    con = duckdb.connect(str(db), read_only=True)
    found: dict[str, int] = {}
    for table in BATCH_TABLES:
        row = con.execute(f"SELECT count(*) FROM {table.name}").fetchone()
        assert row is not None
        found[table.name] = int(row[0])
    con.close()
    return found


def parquet_differences(db: Path, root: Path) -> dict[str, tuple[int, int]]:
    """Per batch table, rows only in DuckDB and rows only in the Parquet dataset at `root`."""
    con = duckdb.connect(str(db), read_only=True)
    found: dict[str, tuple[int, int]] = {}
    for table in BATCH_TABLES:
        columns = ", ".join(table.column_names)
        if not any((root / table.name).rglob("*.parquet")):  # nothing written: none stored?
            row = con.execute(f"SELECT count(*) FROM {table.name}").fetchone()
            assert row is not None
            if row[0]:
                found[table.name] = (row[0], 0)
            continue
        files = f"read_parquet('{root}/{table.name}/**/*.parquet', hive_partitioning = false)"
        stored, written = f"SELECT {columns} FROM {table.name}", f"SELECT {columns} FROM {files}"
        only_db = con.execute(f"SELECT count(*) FROM ({stored} EXCEPT ALL {written})").fetchone()
        only_pq = con.execute(f"SELECT count(*) FROM ({written} EXCEPT ALL {stored})").fetchone()
        assert only_db is not None and only_pq is not None
        if only_db[0] or only_pq[0]:
            found[table.name] = (only_db[0], only_pq[0])
    con.close()
    return found


def forget_analytics(db: Path) -> None:
    """Drop the analytics' rows, sums and facts from a store: a store as an import of a studdraw
    before the import kept them (issue 36) left it."""
    con = duckdb.connect(str(db))
    for table in ("analytics_player_hands", "analytics_rollup", "analytics_meta"):
        con.execute(f"DROP TABLE IF EXISTS {table}")
    con.close()
