"""Every hand of the corpus and the samples parsed, and the stored rows of those that parse, so
two builds of the parsers and of normalize can be compared.

`python -m tests.parse_digest OUT` parses every file (`parse_file`), replays each record and
normalizes them all into the store's Arrow tables, and pickles to OUT the parser and normalize
modules it ran (compiled modules or `.py` files), the parsed hands (records or problems) and
the tables. test_compiled.py runs it with STUDDRAW_PURE=1 (the Python sources) and compares it
with the installed build in its own process.
"""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import pyarrow as pa

from studdraw.parsers import builder
from studdraw.parsers.files import discover_files
from studdraw.parsers.model import ParsedHand
from studdraw.parsers.reader import parse_file
from studdraw.parsers.rooms import pokerstars
from studdraw.parsers.text import line_reader, order
from studdraw.pipeline.rules import replay
from studdraw.pipeline.store import normalize
from studdraw.pipeline.store.normalize import Replayed
from tests.conftest import CORPUS, SAMPLES

MODULES = (builder, line_reader, order, pokerstars, normalize)
"""A few of the modules setup.py compiles: which build ran."""


def digest() -> dict[str, object]:
    """The modules that ran, every file's parsed hands (by path), and the rows of the hands."""
    folders = [path for path in (CORPUS, SAMPLES) if path.is_dir()]
    parsed: dict[str, list[ParsedHand]] = {
        str(path): list(parse_file(path)) for path in sorted(discover_files(folders))
    }
    records = [hand.record for hands in parsed.values() for hand in hands if hand.record]
    replayed = [
        Replayed(record, replay(record), number, 1) for number, record in enumerate(records)
    ]
    tables: dict[str, pa.Table] = normalize.normalize_hands(replayed)
    return {
        "modules": [module.__file__ for module in MODULES],
        "parsed": parsed,
        "tables": tables,
    }


def main() -> None:
    Path(sys.argv[1]).write_bytes(pickle.dumps(digest()))


if __name__ == "__main__":
    main()
