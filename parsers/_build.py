"""Which modules a process imports: the compiled ones beside the sources, or the sources only.

Read by the `__init__.py` of `studdraw.parsers` and `studdraw.pipeline` before any of their
modules is imported, so kept free of imports beyond `os` and `pathlib`.
"""

from __future__ import annotations

import os
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
COMPLETE = CHECKOUT / "build" / "compiled.ok"
"""Written by setup.py's build (`OptionalBuildExt`) once every compiled module of a checkout is
in place, and removed before the first is replaced."""


def sources_only() -> bool:
    """Whether this process must import the Python sources: STUDDRAW_PURE=1, or a checkout
    (an installed package has no setup.py beside its folders) whose compiled modules are not
    all in place, never built or being placed by a build. So no process ever mixes compiled
    modules with sources, nor meets a compiled module without its group's library."""
    if os.environ.get("STUDDRAW_PURE") == "1":
        return True
    return (CHECKOUT / "setup.py").is_file() and not COMPLETE.is_file()
