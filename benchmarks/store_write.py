"""How fast the store takes an import's batches, at the store's checkpoint threshold against
DuckDB's default, measured in the same run.

The corpus hands are inflated as `ingest.py` does (each copy with its own hand ids) and put
through parse, replay and normalize once, untimed, into batches of a one-process import's size
(`--batch-size` to choose another). Then only `Store.write` is timed, batch after batch into a
fresh DuckDB file, and the closing of the store (its last checkpoint), once at DuckDB's default
threshold (16 MB, the baseline) and once at `CHECKPOINT_THRESHOLD`. `--rounds N` writes the
batches N times over (fresh hand ids each round) to show how the cost of each round grows with
the store.

    .venv/bin/python benchmarks/store_write.py [--hands 100000] [--rounds 3] [--batch-size N]

The batches are held in memory: about 5 KB of Arrow rows a hand (500 MB at 100,000 hands).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
from rich.console import Console
from rich.table import Table

from studdraw.parsers.files import discover_files
from studdraw.parsers.reader import open_history
from studdraw.pipeline.importer.process import PendingHand, process_hands
from studdraw.pipeline.importer.settings import BATCH_SIZE
from studdraw.pipeline.store.db import CHECKPOINT_THRESHOLD, open_store
from studdraw.pipeline.store.normalize import Tables, shift_hand_ids
from studdraw.pipeline.store.schema import HANDS

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ingest import REPO, corpus_hands, inflate

DUCKDB_DEFAULT = "16MB"


def batches(folder: Path, size: int) -> list[Tables]:
    """The tables of each batch of new hands, as an import's workers hand them to the writer."""
    hands = [hand for path in discover_files([folder]) for hand in open_history(path).hand_texts()]
    items = [PendingHand(hand, None, n, 1) for n, hand in enumerate(hands)]
    found: list[Tables] = []
    offset = 0
    for start in range(0, len(items), size):
        tables = dict(process_hands(items[start : start + size]).tables)
        found.append(shift_hand_ids(tables, offset))
        offset += tables[HANDS.name].num_rows
    return found


def round_copy(tables: Tables, round_: int, shift: int) -> Tables:
    """The batch again with hand ids past the earlier rounds' and its own room hand ids."""
    if round_ == 0:
        return tables
    moved = shift_hand_ids(tables, shift * round_)
    hands = moved[HANDS.name]
    ids = pc.binary_join_element_wise(hands["room_hand_id"], pa.scalar(f"r{round_}"), "")
    moved[HANDS.name] = hands.set_column(
        hands.schema.get_field_index("room_hand_id"), "room_hand_id", ids
    )
    return moved


def timed_writes(
    db: Path, threshold: str, written: list[Tables], rounds: int, shift: int
) -> tuple[list[float], float]:
    """Seconds to write each round of batches, and to close the store (its last checkpoint)."""
    store = open_store(db, 0)
    store.connection.execute(f"SET checkpoint_threshold = '{threshold}'")
    per_round = []
    for round_ in range(rounds):
        start = time.perf_counter()
        for tables in written:
            store.write(round_copy(tables, round_, shift), [])
        per_round.append(time.perf_counter() - start)
    start = time.perf_counter()
    store.close()
    return per_round, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument(
        "--batch-size",
        type=int,
        default=BATCH_SIZE,
        help="default: the size of an import's transactions",
    )
    parser.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus")
    args = parser.parse_args()
    console = Console(width=150)
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "in"
        inflate(corpus_hands(args.corpus), folder, args.hands, 5000)
        written = batches(folder, args.batch_size)
        hands = sum(tables[HANDS.name].num_rows for tables in written)
        results = {}
        for threshold in (DUCKDB_DEFAULT, CHECKPOINT_THRESHOLD):
            db = Path(temp) / f"store-{threshold}.duckdb"
            results[threshold] = timed_writes(db, threshold, written, args.rounds, hands)
    table = Table(title=f"Store writes: {hands:,} hands a round in batches of {args.batch_size:,}")
    table.add_column("checkpoint threshold")
    for round_ in range(args.rounds):
        table.add_column(f"round {round_ + 1} (s)", justify="right")
    table.add_column("close (s)", justify="right")
    table.add_column("hands/s", justify="right")
    table.add_column("vs default", justify="right")
    base = sum(results[DUCKDB_DEFAULT][0]) + results[DUCKDB_DEFAULT][1]
    for threshold, (per_round, close) in results.items():
        total = sum(per_round) + close
        label = threshold + (
            " (DuckDB's default)" if threshold == DUCKDB_DEFAULT else " (the store's)"
        )
        cells = [f"{seconds:.1f}" for seconds in per_round]
        rate = hands * args.rounds / total
        table.add_row(label, *cells, f"{close:.1f}", f"{rate:,.0f}", f"{base / total:.2f}x")
    console.print(table)


if __name__ == "__main__":
    main()
