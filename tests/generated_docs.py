"""Every generated doc, and the one command that writes them: `make docs`
(`python -m tests.generated_docs`). tests/test_generated_docs.py fails when a file differs from
what its generator writes.

- docs/violations.md: the problem codes (`studdraw.parsers.problems` and problems.toml), the
  house-rules profiles and the rules no export can show (`studdraw.pipeline.rules.explain`);
- docs/schema.md: the store's tables (`studdraw.pipeline.store.schema`);
- docs/phh.md: its PHH examples, each what `studdraw export` writes for the sample hand its
  marker names (`<!-- phh-example: FILE HAND -->`); the prose around them is hand-written.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Final

from studdraw.pipeline.export import FileExport, Selection, records_from_files
from studdraw.pipeline.phh import dumps
from studdraw.pipeline.rules import explain
from studdraw.pipeline.store import schema

CHECKOUT: Final = Path(__file__).resolve().parents[1]
"""Where the generators' inputs are (the sample histories)."""
REPO_ROOT = CHECKOUT
"""Where the generated files are written (a test points it elsewhere)."""
PHH_EXAMPLE: Final = re.compile(
    r"(<!-- phh-example: (\S+) (\S+) -->\n```toml\n)(.*?)(```)", re.DOTALL
)


def phh_example(path: str, hand: str) -> str:
    """The PHH of one sample hand, its source named relative to the repository."""
    here = Path.cwd()
    os.chdir(CHECKOUT)
    try:
        report = FileExport([], [])
        found = list(records_from_files([Path(path)], Selection(hands=(hand,)), report))
    finally:
        os.chdir(here)
    if len(found) != 1:
        raise ValueError(f"docs/phh.md names {path} {hand}: {len(found)} hands found, {report}")
    return dumps(*found[0])


def phh_page(page: str) -> str:
    return PHH_EXAMPLE.sub(lambda m: m[1] + phh_example(m[2], m[3]) + m[5], page)


GENERATED: Final[dict[str, Callable[[str], str]]] = {
    "docs/violations.md": lambda _: explain.markdown(),
    "docs/schema.md": lambda _: schema.markdown(),
    "docs/phh.md": phh_page,
}
"""Each generated file (relative to the repository) and how it is written from its current text."""


def regenerated(name: str) -> tuple[str, str]:
    """A generated file's text as it is, and as its generator writes it."""
    path = REPO_ROOT / name
    current = path.read_text(encoding="utf-8") if path.exists() else ""
    return current, GENERATED[name](current)


def main() -> int:
    """Write every generated file that differs from its generator's text; say which."""
    for name in GENERATED:
        current, wanted = regenerated(name)
        if current != wanted:
            (REPO_ROOT / name).write_text(wanted, encoding="utf-8")
            print(f"wrote {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
