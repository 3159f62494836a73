"""The ledger records what was really read (issue 41): a file that changes between its hashing
and its reading (a sync client, the poker client rewriting it) is never recorded complete under
the hash of content whose hands were not all read, so a later import reads it again."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from studdraw.pipeline.importer import ingest as ingest_module
from studdraw.pipeline.importer.ingest import CHANGED_NOTE, IngestOptions, ingest
from tests.conftest import SAMPLES

STARS = (SAMPLES / "pokerstars" / "razz.txt").read_bytes()
HANDS = STARS.count(b"PokerStars Hand #")


def ledger(store: Path) -> list[tuple[object, ...]]:
    with duckdb.connect(str(store), read_only=True) as con:
        return con.execute(
            "SELECT status, content_hash IS NULL, hands_seen, stored, duplicates, note "
            "FROM imports ORDER BY import_id"
        ).fetchall()


def test_a_file_cut_while_it_is_read_is_read_again_when_it_is_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    history = folder / "razz.txt"
    history.write_bytes(STARS)
    cut = STARS[: STARS.index(b"PokerStars Hand #", len(STARS) // 2)]
    kept = cut.count(b"PokerStars Hand #")
    assert 0 < kept < HANDS
    real_open = ingest_module.open_history

    def shrinking(path: Path) -> object:
        """The file is cut after it was hashed, before its hands are read."""
        path.write_bytes(cut)
        return real_open(path)

    store = tmp_path / "s.duckdb"
    monkeypatch.setattr(ingest_module, "open_history", shrinking)
    ingest([folder], IngestOptions(store, workers=1))
    monkeypatch.setattr(ingest_module, "open_history", real_open)
    assert ledger(store) == [("complete", True, kept, kept, 0, CHANGED_NOTE)]

    history.write_bytes(STARS)  # the whole content comes back
    ingest([folder], IngestOptions(store, workers=1))
    second = ledger(store)[1]
    assert second == ("complete", False, HANDS, HANDS - kept, kept, None)

    ingest([folder], IngestOptions(store, workers=1))  # now whole and unchanged: skipped
    assert ledger(store)[2][0] == "skipped"
