"""Which modules a process imports: the compiled ones beside the sources, or the sources only.

Read by the `__init__.py` of `studdraw.parsers` and `studdraw.pipeline` before any of their
modules is imported, so kept free of imports beyond `os`, `pathlib` and `importlib.machinery`.
"""

from __future__ import annotations

import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
COMPLETE = CHECKOUT / "build" / "compiled.ok"
"""Written by setup.py's build (`OptionalBuildExt`) once every compiled module of a checkout is
in place, and removed before the first is replaced."""


def stale_modules(checkout: Path | None = None) -> list[str]:
    """The compiled modules of a checkout that are older than their sources (an edit or a
    `git pull` since the last `make compile`), as paths in the checkout: those `COMPLETE` names
    (a group's library has no source of its own)."""
    root = checkout or CHECKOUT
    try:
        names = (root / "build" / "compiled.ok").read_text(encoding="utf-8").split()
    except OSError:
        return []
    stale: list[str] = []
    for name in names:
        parts = name.split(".")[1:]  # studdraw.parsers.model -> parsers/model
        source = root.joinpath(*parts).with_suffix(".py")
        compiled = root.joinpath(*parts[:-1], parts[-1] + EXTENSION_SUFFIXES[0])
        try:
            if source.stat().st_mtime > compiled.stat().st_mtime:
                stale.append(str(compiled.relative_to(root)))
        except OSError:
            continue  # no source (the group's library), or not built: nothing to compare
    return sorted(stale)


def sources_only() -> bool:
    """Whether this process must import the Python sources: STUDDRAW_PURE=1, or a checkout
    (an installed package has no setup.py beside its folders) whose compiled modules are not
    all in place (never built, or being placed by a build) or not all current (a source edited
    or pulled since they were built: yesterday's compiled code could not even import today's
    sources). So no process ever mixes compiled modules with sources, runs code older than its
    source, or meets a compiled module without its group's library."""
    if os.environ.get("STUDDRAW_PURE") == "1":
        return True
    if not (CHECKOUT / "setup.py").is_file():
        return False
    return not COMPLETE.is_file() or bool(stale_modules())
