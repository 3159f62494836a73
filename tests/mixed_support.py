"""A store whose hero plays for four kinds of money: US dollars, euros, play money and
tournament chips, a dollar table and a tournament at the same time (one session holding two
currencies), plus the hand-written hand with rule errors (dollars). What the currency tests and
the dashboard's mixed-currency tests read."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from studdraw.parsers.model import Game, Tournament
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from studdraw.pipeline.synth import SynthOptions, render, synthesize
from tests.conftest import SAMPLES

HERO: Final = "Hero"
TOURNAMENT: Final = Tournament("777000111", 300, 30, "USD", "Level I")


@dataclass(frozen=True, slots=True)
class Money:
    """One kind of money the hero played for: its hands are synthesised with `seed` from
    `start` and written as PokerStars prints them."""

    currency: str
    seed: int
    start: datetime
    hands: int = 30
    tournament: Tournament | None = None


KINDS: Final = (
    Money("USD", 31, datetime(2026, 3, 2, 18, 0, tzinfo=UTC)),
    Money("CHIPS", 32, datetime(2026, 3, 2, 18, 1, tzinfo=UTC), tournament=TOURNAMENT),
    Money("EUR", 33, datetime(2026, 3, 4, 20, 0, tzinfo=UTC)),
    Money("PLAY", 34, datetime(2026, 3, 6, 9, 0, tzinfo=UTC)),
)
"""The dollar table and the tournament overlap (one session, two currencies)."""


def build_mixed_store(folder: Path) -> Path:
    """Write the histories under `folder/histories` and import them into
    `folder/mixed.duckdb`."""
    histories = folder / "histories"
    histories.mkdir(parents=True)
    for money in KINDS:
        options = SynthOptions(
            game=Game.STUD,
            hands=money.hands,
            seed=money.seed,
            start=money.start,
            hero=HERO,
            currency=money.currency,
            tournament=money.tournament,
        )
        texts = [render(record, "pokerstars") for record in synthesize(options)]
        name = f"stud-{money.currency.lower()}.txt"
        (histories / name).write_text("\n\n\n".join(texts) + "\n", encoding="utf-8")
    shutil.copy(SAMPLES / "pokerstars" / "handwritten" / "broken.txt", histories / "broken.txt")
    db = folder / "mixed.duckdb"
    summary = ingest([histories], IngestOptions(db, workers=1))
    assert summary.stored == sum(money.hands for money in KINDS) + 1, summary
    return db
