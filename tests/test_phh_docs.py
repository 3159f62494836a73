"""docs/phh.md's examples are what `studdraw export` writes for the sample hands they name.

Regenerate the page's examples after a change to the exporter:
    .venv/bin/python -m tests.test_phh_docs
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from studdraw.pipeline.export import FileExport, Selection, records_from_files
from studdraw.pipeline.phh import dumps
from tests.conftest import REPO_ROOT

DOC = REPO_ROOT / "docs" / "phh.md"
EXAMPLE = re.compile(r"(<!-- phh-example: (\S+) (\S+) -->\n```toml\n)(.*?)(```)", re.DOTALL)


def example(path: str, hand: str) -> str:
    """The PHH of one sample hand, its source named relative to the repository."""
    here = Path.cwd()
    os.chdir(REPO_ROOT)
    try:
        report = FileExport([], [])
        found = list(records_from_files([Path(path)], Selection(hands=(hand,)), report))
    finally:
        os.chdir(here)
    assert len(found) == 1, (path, hand, report)
    return dumps(*found[0])


def regenerated(page: str) -> str:
    return EXAMPLE.sub(lambda m: m[1] + example(m[2], m[3]) + m[5], page)


def test_the_examples_are_the_exporters_output() -> None:
    page = DOC.read_text(encoding="utf-8")
    assert len(EXAMPLE.findall(page)) == 2
    assert page == regenerated(page), "run: .venv/bin/python -m tests.test_phh_docs"


if __name__ == "__main__":
    DOC.write_text(regenerated(DOC.read_text(encoding="utf-8")), encoding="utf-8")
