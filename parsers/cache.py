"""What studdraw builds once per machine and loads in every later process: rooms' parsers and
line syntaxes (`rooms/grammar_cache.py`), the evaluators' lookup tables.

Building them takes tens to hundreds of milliseconds, which every command paid at start and
every ingest worker again (issue 15). They are kept in the user's cache folder
(`$XDG_CACHE_HOME/studdraw` or `~/.cache/studdraw`; `STUDDRAW_CACHE_DIR` names another, and an
empty value turns caching off), never in a shared temp folder, because what it holds is
unpickled. A file's name carries a digest of everything its contents derive from, so an edit
builds afresh; files are written whole under a temporary name and renamed into place, so a
process never reads another's half-written file. A cache that cannot be read or written costs
time, never an error.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import uuid
from collections.abc import Iterable
from pathlib import Path

CACHE_DIR_ENV = "STUDDRAW_CACHE_DIR"


def cache_folder(part: str) -> Path | None:
    """The folder for one kind of built object, or None when caching is off."""
    named = os.environ.get(CACHE_DIR_ENV)
    if named is not None:
        return Path(named) / part if named else None
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "studdraw" / part


def digest(sources: Iterable[Path], *versions: str) -> str:
    """A short digest of files (names and bytes) and version strings, Python's included."""
    hashed = hashlib.sha256()
    for path in sources:
        hashed.update(path.name.encode())
        hashed.update(path.read_bytes())
    hashed.update(" ".join((*versions, sys.version)).encode())
    return hashed.hexdigest()[:20]


def load(path: Path) -> object | None:
    """The object saved at `path`, or None when there is none that can be read."""
    try:
        value: object = pickle.loads(path.read_bytes())  # the user's own cache, never shared
    except Exception:  # missing, damaged, or saved by other code: built again, never an error
        return None
    return value


def save(path: Path, value: object) -> None:
    """Save `value` at `path`, whole or not at all; failures are ignored."""
    partial = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        partial.replace(path)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        partial.unlink(missing_ok=True)
