"""The map stays true: every file the architecture pages name exists.

docs/architecture.md and docs/internals.md name modules as a reader finds them, by a path under
the repository or under the package folder being described (`text/room.py` in parsers,
`store/db.py` in pipeline). A module moved or removed without the map following fails here.
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import REPO_ROOT

PAGES = ("architecture.md", "internals.md")
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


def named_files(page: str) -> list[str]:
    text = (REPO_ROOT / "docs" / page).read_text(encoding="utf-8")
    return sorted({name for name in NAMED_FILE.findall(text) if "<" not in name})


@pytest.mark.parametrize("page", PAGES)
def test_every_file_a_map_page_names_exists(page: str) -> None:
    missing = [
        name
        for name in named_files(page)
        if not any((REPO_ROOT / base / name).exists() for base in BASES)
    ]
    assert missing == [], f"docs/{page} names files that are not there: {missing}"


def test_the_pages_name_files_at_all() -> None:
    assert len(named_files("architecture.md")) >= 20
