"""The test suite. Importing it (which pytest does before any test module, and `python -m
tests...` too) chooses the build the tests run: a compiled module older than its source (an
edit since the last `make compile`) would test yesterday's code, so the whole run, and every
process it starts, then imports the Python sources (STUDDRAW_PURE=1), and the run's header says
so (tests/conftest.py). Compiling never blocks a run: `make compile` rebuilds, `make test` does
it first by itself."""

from __future__ import annotations

import os

from studdraw.parsers._build import stale_modules

STALE_COMPILED = [] if os.environ.get("STUDDRAW_PURE") == "1" else stale_modules()
if STALE_COMPILED:
    os.environ["STUDDRAW_PURE"] = "1"
