"""Every generated doc is what its generator writes (tests/generated_docs.py lists them); a
stale one fails with the command that rewrites it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests import generated_docs
from tests.generated_docs import GENERATED, PHH_EXAMPLE, REPO_ROOT, regenerated


@pytest.mark.parametrize("name", list(GENERATED))
def test_the_generated_doc_is_current(name: str) -> None:
    current, wanted = regenerated(name)
    assert current == wanted, f"{name} is stale: run `make docs` (python -m tests.generated_docs)"


def test_the_phh_page_holds_its_examples() -> None:
    page = (REPO_ROOT / "docs" / "phh.md").read_text(encoding="utf-8")
    assert len(PHH_EXAMPLE.findall(page)) == 2


def test_make_docs_rewrites_a_stale_doc_and_only_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in GENERATED:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO_ROOT / name, tmp_path / name)
    stale = tmp_path / "docs" / "schema.md"
    stale.write_text(stale.read_text(encoding="utf-8").replace("BIGINT", "INTEGER"), "utf-8")
    untouched = {name: (tmp_path / name).stat().st_mtime_ns for name in GENERATED}
    monkeypatch.setattr(generated_docs, "REPO_ROOT", tmp_path)
    assert regenerated("docs/schema.md")[0] != regenerated("docs/schema.md")[1]
    generated_docs.main()
    assert stale.read_text(encoding="utf-8") == (REPO_ROOT / "docs" / "schema.md").read_text(
        encoding="utf-8"
    )
    for name in set(GENERATED) - {"docs/schema.md"}:
        assert (tmp_path / name).stat().st_mtime_ns == untouched[name], name
