"""The analytics rows of a batch of hands, derived where the batch is made: in an import's worker,
beside parse and replay, from the batch's own Arrow tables (issue 36).

The rows are those `prepare` derives from the store (`features.FEATURES_SQL`, the draw hands'
flags and the all-in equities of `cards.py`, the same SQL and code run on an in-memory DuckDB
holding the batch alone), numbered like the batch's hands (0..n-1) and renumbered with them on
their way into the store (`keep_rows`, `shift_rows`). Every fact of a row is a fact of its own
hand (no SQL of the rows looks at another hand, and an all-in equity is seeded by the hand's
content), so rows derived per batch equal rows derived per 20,000 hands of the store.

The importing process then only inserts them (`source.Upkeep`): what it spent deriving them,
a third of the import's CPU on stud hands, runs in the workers, in parallel, and no longer
after the last batch's hands are parsed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from . import cards
from .features import FEATURES_SQL

SOURCES: Final = ("hands", "hand_players", "actions", "player_streets", "pots")
"""The batch tables the rows are derived from."""


def derive_rows(tables: Mapping[str, pa.Table]) -> pa.Table:
    """The analytics rows of a batch's hands, from its tables (hands numbered 0..n-1), on a
    one-thread in-memory DuckDB (the worker is one of the import's processes)."""
    con = duckdb.connect(config={"threads": 1})
    try:
        for name in SOURCES:
            con.register(name, tables[name])
        bounds = {"lo": 0, "hi": tables["hands"].num_rows - 1}
        con.register("_cards", cards.draw_card_flags(con, **bounds).to_arrow())
        con.register("_allin", cards.allin_adjusted(con, **bounds).to_arrow())
        rows: pa.Table = con.sql(FEATURES_SQL, params=bounds).to_arrow_table()
    finally:
        con.close()
    return rows


def shift_rows(rows: pa.Table, offset: int) -> pa.Table:
    """The rows with `hand_id` moved by `offset` (as `normalize.shift_hand_ids` moves the
    batch's tables)."""
    if offset == 0:
        return rows
    at = rows.schema.get_field_index("hand_id")
    column = pc.add(rows.column(at), pa.scalar(offset, rows.schema.field(at).type))
    return rows.set_column(at, rows.schema.field(at), column)


def keep_rows(rows: pa.Table, keep: Sequence[int]) -> pa.Table:
    """Only the rows of the hands whose batch-local ids are in `keep`, renumbered
    0..len(keep)-1 in order (as `normalize.keep_hands` keeps the batch's tables)."""
    at = rows.schema.get_field_index("hand_id")
    kept = rows.filter(pc.is_in(rows.column(at), value_set=pa.array(keep, type=pa.int64())))
    renumber = {old: new for new, old in enumerate(keep)}
    ids = pa.array(
        [renumber[i] for i in kept.column(at).to_pylist()], type=rows.schema.field(at).type
    )
    return kept.set_column(at, rows.schema.field(at), ids)


def join_rows(parts: Sequence[pa.Table | None], sizes: Sequence[int]) -> pa.Table | None:
    """The rows of batches joined in order, each moved past the hands of those before it
    (`sizes`: each batch's hands); None if any batch came without rows."""
    if any(part is None for part in parts):
        return None
    shifted = []
    offset = 0
    for part, size in zip(parts, sizes, strict=True):
        assert part is not None
        shifted.append(shift_rows(part, offset))
        offset += size
    return pa.concat_tables(shifted)


def pack(rows: pa.Table | None) -> bytes | None:
    """The rows as an LZ4-compressed Arrow stream, to travel in a worker's pickled answer."""
    if rows is None:
        return None
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(
        sink, rows.schema, options=pa.ipc.IpcWriteOptions(compression="lz4")
    ) as writer:
        writer.write_table(rows)
    packed: bytes = sink.getvalue().to_pybytes()
    return packed


def unpack(packed: bytes | None) -> pa.Table | None:
    """The rows `pack` packed."""
    if packed is None:
        return None
    rows: pa.Table = pa.ipc.open_stream(pa.BufferReader(packed)).read_all()
    return rows
