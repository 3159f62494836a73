"""A named pipe or a link to /dev/zero in a folder never hangs a command (issue 41): found in
a folder, such a path is told and skipped, and the folder's files are read."""

from __future__ import annotations

import os
from pathlib import Path

import duckdb
import pytest

from studdraw.parsers.files import discover_files
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from tests.conftest import SAMPLES

STARS = SAMPLES / "pokerstars" / "razz.txt"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "histories"
    root.mkdir()
    (root / "razz.txt").write_bytes(STARS.read_bytes())
    os.mkfifo(root / "pipe.txt")
    if Path("/dev/zero").exists():
        (root / "zero.txt").symlink_to("/dev/zero")
    return root


def test_pipes_and_devices_in_a_folder_are_told_and_skipped(folder: Path) -> None:
    told: list[tuple[str, str]] = []
    found = list(discover_files([folder], lambda path, why: told.append((path.name, why))))
    assert found == [folder / "razz.txt"]
    reasons = dict(told)
    assert reasons["pipe.txt"].startswith("a named pipe, not a file: skipped")
    if (folder / "zero.txt").exists():
        assert reasons["zero.txt"].startswith("a device, not a file: skipped")


def test_an_import_of_such_a_folder_ends_with_each_path_in_the_ledger(
    folder: Path, tmp_path: Path
) -> None:
    store = tmp_path / "s.duckdb"
    ingest([folder], IngestOptions(store, workers=1))
    with duckdb.connect(str(store), read_only=True) as con:
        rows = con.execute(
            "SELECT path, status, stored, error FROM imports ORDER BY path"
        ).fetchall()
    by_name = {Path(path).name: (status, stored, error) for path, status, stored, error in rows}
    assert by_name["razz.txt"][:2] == ("complete", STARS.read_text().count("PokerStars Hand #"))
    assert by_name["pipe.txt"][0] == "failed" and "named pipe" in by_name["pipe.txt"][2]
