"""A test process stays able to start worker processes after a dashboard page ran in it.

Streamlit's AppTest installs the page it runs as `__main__` and leaves it there; every child of a
fork server or a Dask nanny started afterwards runs `__main__` again, so an import or export in a
later test died on start (BrokenProcessPool, "Nanny failed to start"), depending on which test
modules one xdist worker happened to run. tests/conftest.py's `main_module_kept` restores it; the
two tests below run in this order, in one process (one module: `--dist loadfile`).
"""

from __future__ import annotations

import sys
from concurrent.futures import ProcessPoolExecutor

from streamlit.testing.v1 import AppTest

from studdraw.pipeline.forkserver import pool_context
from tests.dashboard_support import APP

PAGE_RUN: list[object] = []


def test_a_page_runs_as_main() -> None:
    before = sys.modules["__main__"]
    AppTest.from_file(str(APP), default_timeout=60).run()
    PAGE_RUN.append(before)
    assert sys.modules["__main__"] is not before  # what the fixture has to undo


def test_a_pool_started_after_it_starts_its_workers() -> None:
    assert PAGE_RUN, "runs after test_a_page_runs_as_main"
    assert sys.modules["__main__"] is PAGE_RUN[0]
    with ProcessPoolExecutor(1, mp_context=pool_context(["os"])) as pool:
        assert pool.submit(abs, -3).result(timeout=120) == 3
