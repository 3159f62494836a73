"""The store an import of a fixed sample makes, as one digest per table, so that a change meant
to make the import faster (issue 42) can be held to the same store, hand for hand.

The sample: every file of the shared corpus and of `sample_histories/`, and a few synthesised
hands of each game PokerStars deals (`pipeline.synth`, fixed seeds), imported with one worker
into a fresh store. Each table's rows are read in order (`ORDER BY ALL`, ids included, so the
ids each hand got count too) with what differs from run to run taken out: the sample's folder in
every path (written `<sample>`), the ledger's clock times and the store's own id. A table's
digest is the SHA-256 of its rows' `repr`s, one a line; `rows` says how many.

    python -m tests.pipeline.store_identity          # print the digest of this checkout
    python -m tests.pipeline.store_identity --write  # record it as the reference

The reference (`stores/identity.json`) was made before issue 42's changes; test_store_identity.py
compares each import with it. A change that is meant to change the store (a new column, a rule
read differently, other synthesised hands) records a new reference, said so in its commit.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from pathlib import Path

import duckdb

from studdraw.parsers.model import Game
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from studdraw.pipeline.store.schema import IMPORTS, META
from studdraw.pipeline.synth import GAMES_DEALT, SynthOptions, render, synthesize
from tests.conftest import CORPUS, SAMPLES

REFERENCE = Path(__file__).parent / "stores" / "identity.json"
SYNTH_HANDS = 40
"""Synthesised hands per game: all-ins, side pots, split pots and reshuffles among them."""
VOLATILE = {IMPORTS.name: ("started_at", "finished_at")}
"""Columns that hold the time of the run, left out (and the store's own id, a row of META)."""


def sample(folder: Path) -> Path:
    """The sample's files under `folder`: copies of the corpus and the samples, and the
    synthesised hands, one file per game."""
    for source in (CORPUS, SAMPLES):
        shutil.copytree(source, folder / source.name)
    synth = folder / "synth"
    synth.mkdir()
    for number, game in enumerate(sorted(GAMES_DEALT["pokerstars"], key=str)):
        options = SynthOptions(game=Game(game), hands=SYNTH_HANDS, seed=4200 + number)
        texts = (render(record, options.room) + "\n\n\n" for record in synthesize(options))
        (synth / f"{game}.txt").write_text("".join(texts), encoding="utf-8")
    return folder


def digest(folder: Path) -> dict[str, dict[str, object]]:
    """Import the sample at `folder` into a fresh store beside it; each table's digest."""
    files = sample(folder / "in")
    db = folder / "identity.duckdb"
    ingest([files], IngestOptions(db=db, workers=1))
    prefix = str(files.resolve())
    tables: dict[str, dict[str, object]] = {}
    with duckdb.connect(str(db), read_only=True) as con:
        names = [
            name
            for (name,) in con.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE'"
                " ORDER BY table_name"
            ).fetchall()
        ]
        for name in names:
            columns = [
                column
                for (column,) in con.execute(
                    "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
                    "ORDER BY ordinal_position",
                    [name],
                ).fetchall()
                if column not in VOLATILE.get(name, ())
            ]
            where = " WHERE key <> 'store_id'" if name == META.name else ""
            listed = ", ".join(f'"{column}"' for column in columns)
            rows = con.execute(f'SELECT {listed} FROM "{name}"{where} ORDER BY ALL').fetchall()
            text = "\n".join(repr(row).replace(prefix, "<sample>") for row in rows)
            tables[name] = {
                "rows": len(rows),
                "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
            }
    return tables


def main() -> None:
    import tempfile  # noqa: PLC0415

    with tempfile.TemporaryDirectory(prefix="studdraw-identity-") as temp:
        found = digest(Path(temp))
    text = json.dumps(found, indent=1, sort_keys=True) + "\n"
    if "--write" in sys.argv[1:]:
        REFERENCE.write_text(text, encoding="utf-8")
    print(text, end="")


if __name__ == "__main__":
    main()
