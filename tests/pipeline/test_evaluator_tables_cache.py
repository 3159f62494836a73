"""The evaluators' lookup tables, kept in the user's cache: a table loaded from it equals the
table built, a damaged file is built again, and caching off builds every time (issue 15)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from studdraw.parsers.cache import CACHE_DIR_ENV
from studdraw.pipeline.evaluators import _tables

TABLES: list[tuple[str, Callable[[], object], type]] = [
    ("high", _tables._build_high_tables, tuple),
    ("low27", _tables._build_low27_tables, tuple),
    ("low_a5", lambda: _tables._multiset_table(_tables._low_five, range(5, 8)), dict),
]


def refuse() -> object:
    raise AssertionError("built, not loaded from the cache")


@pytest.mark.parametrize(("name", "build", "kind"), TABLES, ids=[name for name, *_ in TABLES])
def test_a_table_loaded_from_the_cache_is_the_table_built(
    name: str,
    build: Callable[[], object],
    kind: type,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path))
    built = build()
    assert _tables._kept(name, build, kind) == built  # built and saved
    assert _tables._kept(name, refuse, kind) == built  # loaded
    for path in (tmp_path / "tables").iterdir():
        path.write_bytes(path.read_bytes()[:100])
    assert _tables._kept(name, build, kind) == built  # damaged: built again


def test_with_caching_off_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CACHE_DIR_ENV, "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    name, build, kind = TABLES[1]
    assert _tables._kept(name, build, kind) == build()
    assert list(tmp_path.iterdir()) == []
