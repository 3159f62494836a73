"""Importing a package's Python sources where compiled modules sit beside them.

Python's own finder prefers an extension module to a `.py` file of the same name; this finder,
placed first, finds a package's modules among its `.py` files only (see the `__init__.py` of
`studdraw.parsers` and `studdraw.pipeline`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, ModuleSpec, SourceFileLoader
from types import ModuleType


class SourcesOnly(MetaPathFinder):
    """Finds the modules under one package from their sources, ignoring compiled modules."""

    def __init__(self, package: str) -> None:
        self.prefix = package + "."

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if path is None or not fullname.startswith(self.prefix):
            return None
        for folder in path:
            finder = FileFinder(folder, (SourceFileLoader, SOURCE_SUFFIXES))
            spec = finder.find_spec(fullname, target)
            if spec is not None and spec.loader is not None:
                return spec
        return None


def import_sources_only(package: str) -> None:
    """From now on, import the modules under `package` from their sources."""
    prefix = package + "."
    if not any(
        isinstance(finder, SourcesOnly) and finder.prefix == prefix for finder in sys.meta_path
    ):
        sys.meta_path.insert(0, SourcesOnly(package))
