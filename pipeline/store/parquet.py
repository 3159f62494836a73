"""The Parquet dataset: the batch tables as hive-partitioned part files, written from the same
Arrow batches as DuckDB.

Layout: `<root>/<table>/room=<room>/game=<game>/month=<YYYY-MM>/part-<token>.parquet`, the
partition being the hand's (child rows follow their hand; rejects and unsupported hands use
`unknown` for what they lack). Files keep every column of their table, so a part read on its own
is the table's rows as stored.

Writing is two-phase so a part is never half there: `stage` writes hidden `.…tmp` files,
the caller commits its own record of the parts (the import records them in DuckDB in the batch's
transaction), then `publish` renames them into place. `recover` finishes the job after a crash:
staged parts whose commit happened are published, the others deleted. A Dask job can use the same
`stage`/`publish` with its own tokens and commit record.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from .normalize import Tables
from .schema import BATCH_TABLES, HAND_TABLES, HANDS

UNKNOWN: Final = "unknown"
STAGED_PREFIX: Final = ".staged-"
STAGED_SUFFIX: Final = ".tmp"


@dataclass(frozen=True, slots=True)
class Part:
    """One part file: `path` relative to the dataset root (its final name)."""

    table: str
    path: str
    rows: int
    import_id: int  # the first import whose rows it holds


def _partition(room: str | None, game: str | None, month: str | None) -> str:
    return f"room={room or UNKNOWN}/game={game or UNKNOWN}/month={month or UNKNOWN}"


def _staged_name(final: Path) -> Path:
    return final.with_name(STAGED_PREFIX + final.name + STAGED_SUFFIX)


class ParquetDataset:
    """Writer of one dataset root; reusable by any process (parts never share a name)."""

    def __init__(self, root: Path, compression: str = "zstd") -> None:
        self.root = root.resolve()
        self.compression = compression

    def stage(self, tables: Tables, token: str, import_id: int) -> list[Part]:
        """Write every non-empty table of the batch as hidden staged parts, one per partition."""
        parts: list[Part] = []
        for table_name, partition, batch in self._split(tables):
            final = f"{table_name}/{partition}/part-{token}.parquet"
            target = self.root / final
            target.parent.mkdir(parents=True, exist_ok=True)
            pq.write_table(
                batch,
                _staged_name(target),
                compression=self.compression,
            )
            parts.append(Part(table_name, final, batch.num_rows, import_id))
        return parts

    def publish(self, parts: Iterable[Part]) -> None:
        """Give committed staged parts their final names (atomic renames)."""
        for part in parts:
            final = self.root / part.path
            staged = _staged_name(final)
            if staged.exists():
                staged.replace(final)

    def staged_path(self, part: Part) -> Path:
        """Where a part is while staged (what a loader reads before `publish`)."""
        return _staged_name(self.root / part.path)

    def discard(self, parts: Iterable[Part]) -> None:
        """Delete staged parts (a scratch dataset, once their rows are loaded elsewhere)."""
        for part in parts:
            self.staged_path(part).unlink(missing_ok=True)

    def recover(self, committed: Collection[str]) -> tuple[int, int]:
        """After a crash: publish staged parts whose path is in `committed`, delete the rest.
        Returns (published, deleted)."""
        published = deleted = 0
        if not self.root.is_dir():
            return 0, 0
        for staged in self.root.rglob(f"{STAGED_PREFIX}*{STAGED_SUFFIX}"):
            final = staged.with_name(staged.name[len(STAGED_PREFIX) : -len(STAGED_SUFFIX)])
            if final.relative_to(self.root).as_posix() in committed:
                staged.replace(final)
                published += 1
            else:
                staged.unlink()
                deleted += 1
        return published, deleted

    def _split(self, tables: Tables) -> Iterable[tuple[str, str, pa.Table]]:
        """(table, partition, rows) for every non-empty table of the batch."""
        hands = tables.get(HANDS.name)
        if hands is not None and hands.num_rows:
            yield from _split_hand_tables(tables, hands)
        for table in BATCH_TABLES[len(HAND_TABLES) :]:
            batch = tables.get(table.name)
            if batch is None or batch.num_rows == 0:
                continue
            rooms = batch.column("room")
            for room in sorted(set(rooms.to_pylist()), key=lambda s: s or ""):
                mask = pc.is_null(rooms) if room is None else pc.equal(rooms, room)
                yield table.name, _partition(room, None, None), batch.filter(mask)


def _split_hand_tables(tables: Tables, hands: pa.Table) -> Iterable[tuple[str, str, pa.Table]]:
    """Child rows go to their hand's partition (hand ids of a batch are consecutive)."""
    months = pc.strftime(hands.column("started_at"), format="%Y-%m", locale="C")
    keys = [
        _partition(room, game, month)
        for room, game, month in zip(
            hands.column("room").to_pylist(),
            hands.column("game").to_pylist(),
            months.to_pylist(),
            strict=True,
        )
    ]
    groups: dict[str, list[int]] = defaultdict(list)
    for position, key in enumerate(keys):
        groups[key].append(position)
    for table in HAND_TABLES:
        batch = tables[table.name]
        if batch.num_rows == 0:
            continue
        if len(groups) == 1:
            yield table.name, keys[0], batch
            continue
        local = pc.subtract(batch.column(0), hands.column(0)[0])
        for key, positions in groups.items():
            rows = batch.filter(pc.is_in(local, value_set=pa.array(positions, pa.int64())))
            if rows.num_rows:
                yield table.name, key, rows
