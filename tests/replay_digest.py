"""Every replay of a fixed set of hands as text, and every hand as PHH, so two builds of the
engine and the exporter can be compared.

`python -m tests.replay_digest RECORDS OUT` replays the pickled records of RECORDS and the
generated hands below, and writes to OUT (JSON) the engine and exporter modules it ran (compiled
modules or `.py` files), one `repr` per result (streets, players, pots, settlement and
violations) and each hand's PHH text with its violations. test_compiled.py runs it with
STUDDRAW_PURE=1 (the Python sources) and compares it with the installed build in its own
process.
"""

from __future__ import annotations

import json
import pickle
import random
import sys
from collections.abc import Sequence
from pathlib import Path

from studdraw.parsers.model import Game, HandRecord, Structure
from studdraw.pipeline import phh
from studdraw.pipeline.export import violation_line
from studdraw.pipeline.rules import replay, state
from studdraw.pipeline.rules.generate import random_hand
from tests.pipeline.test_rules_properties import MUTATIONS

SEED = 2026
HANDS_PER_KIND = 12


def generated_hands() -> list[HandRecord]:
    """Random legal hands of every game, structure and table size (dealt by the engine under
    test, so the records themselves are compared too), each with every mutation that applies:
    hands that break each rule the property tests know."""
    rng = random.Random(SEED)
    hands = []
    for game in Game:
        for structure in Structure:
            for count in range(HANDS_PER_KIND):
                record = random_hand(game, structure, 2 + count % 7, rng)
                hands.append(record)
                hands.extend(
                    mutant for mutate in MUTATIONS.values() if (mutant := mutate(record, rng))
                )
    return hands


def digest(records: Sequence[HandRecord]) -> dict[str, object]:
    """The engine and exporter that ran and, per record (then per generated hand), the hand and
    its replay, and the PHH of both."""
    generated = generated_hands()
    return {
        "engine": state.__file__,
        "exporter": phh.__file__,
        "replays": [repr(replay(record)) for record in records],
        "generated": [f"{record!r}\n{replay(record)!r}" for record in generated],
        "phh": [as_phh(record) for record in (*records, *generated)],
    }


def as_phh(record: HandRecord) -> str:
    """The hand as `studdraw export` writes it, with its violations."""
    found = replay(record).problems
    return phh.dumps(record, [violation_line(v.code, v.severity, v.line, v.message) for v in found])


def main() -> None:
    records_path, out_path = map(Path, sys.argv[1:3])
    records = pickle.loads(records_path.read_bytes())
    out_path.write_text(json.dumps(digest(records)), encoding="utf-8")


if __name__ == "__main__":
    main()
