"""The map stays true: every file the architecture and room pages name exists.

docs/architecture.md, docs/internals.md and each room's page (docs/rooms/) name modules as a
reader finds them, by a path under the repository or under the package folder being described
(`text/room.py` in parsers, `store/db.py` in pipeline). A module moved, split or removed without
the pages following fails here.
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import REPO_ROOT

PAGES = (
    "architecture.md",
    "internals.md",
    *sorted(f"rooms/{page.name}" for page in (REPO_ROOT / "docs" / "rooms").glob("*.md")),
)
NAMED_FILE = re.compile(r"`([\w./<>-]+\.(?:py|lark|toml|css))`")
BASES = (
    "",
    "parsers",
    "parsers/rooms",
    "parsers/text",
    "parsers/render",
    "pipeline",
    "pipeline/rules",
    "pipeline/store",
    "pipeline/importer",
    "pipeline/analytics",
    "dashboard",
    "cli",
    "benchmarks",
    "tests",
    "tests/parsers",
    "tests/pipeline",
)


FPDB_CONVERTER = re.compile(r"\w+ToFpdb\.py")
"""FPDB-3's converters, which a room's page names as what it was learnt from: not ours."""


def named_files(page: str) -> list[str]:
    text = (REPO_ROOT / "docs" / page).read_text(encoding="utf-8")
    names = {name for name in NAMED_FILE.findall(text) if "<" not in name}
    return sorted(name for name in names if not FPDB_CONVERTER.fullmatch(name))


def bases(page: str) -> tuple[str, ...]:
    """Where a page's names are looked for: a room's page also names its handwritten forms'
    `MANIFEST.toml` (tests/parsers/forms/<room>/)."""
    if page.startswith("rooms/"):
        return (*BASES, f"tests/parsers/forms/{page.removeprefix('rooms/').removesuffix('.md')}")
    return BASES


@pytest.mark.parametrize("page", PAGES)
def test_every_file_a_map_page_names_exists(page: str) -> None:
    missing = [
        name
        for name in named_files(page)
        if not any((REPO_ROOT / base / name).exists() for base in bases(page))
    ]
    assert missing == [], f"docs/{page} names files that are not there: {missing}"


def test_the_pages_name_files_at_all() -> None:
    assert len(named_files("architecture.md")) >= 20
