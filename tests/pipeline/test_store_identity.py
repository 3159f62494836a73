"""The store stays identical hand for hand (issue 42): an import of a fixed sample (the corpus,
the samples, synthesised hands of every PokerStars game) gives every table the rows of the
reference recorded before the import was made faster (`store_identity.py`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import CORPUS
from tests.pipeline.store_identity import REFERENCE, digest


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not there")
def test_every_table_holds_the_reference_rows(tmp_path: Path) -> None:
    reference = json.loads(REFERENCE.read_text(encoding="utf-8"))
    found = digest(tmp_path)
    differing = sorted(
        name for name in reference.keys() | found.keys() if reference.get(name) != found.get(name)
    )
    assert not differing, (
        f"tables unlike the reference: {differing} (rows now "
        f"{[found.get(name, {}).get('rows') for name in differing]}, in the reference "
        f"{[reference.get(name, {}).get('rows') for name in differing]}); a change meant to "
        "change the store records a new one: python -m tests.pipeline.store_identity --write"
    )
