"""The replayer's "copy the hand as text": the room's own text while the source file holds the
hand, and otherwise the hand written back from the store's rows, identical for every currency
(tests/mixed_support.py: dollars, euros, play money, tournament chips)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from studdraw.dashboard.hand_text import hand_text
from tests.mixed_support import build_mixed_store


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_mixed_store(tmp_path_factory.mktemp("hand-text"))


def test_text_comes_from_the_source_or_the_rows_alike(store: Path) -> None:
    with duckdb.connect(str(store), read_only=True) as con:
        ids = [row[0] for row in con.execute("SELECT hand_id FROM hands ORDER BY 1").fetchall()]
        currencies = set()
        for hand_id in ids:
            header = con.sql("SELECT * FROM hands WHERE hand_id = ?", params=[hand_id]).pl()
            seats = con.sql("SELECT * FROM hand_players WHERE hand_id = ?", params=[hand_id]).pl()
            actions = con.sql("SELECT * FROM actions WHERE hand_id = ?", params=[hand_id]).pl()
            row = header.row(0, named=True)
            exact = hand_text(row, seats, actions)
            assert exact.origin.startswith("As the room wrote it")
            moved = hand_text({**row, "source_path": str(store) + ".gone"}, seats, actions)
            assert "written back from the store in PokerStars' format" in moved.origin
            if row["valid"]:  # a synthesised hand renders back to its very text
                assert moved.text == exact.text
                currencies.add(row["currency"])
    assert currencies == {"USD", "EUR", "PLAY", "CHIPS"}
