"""The compiled build: the rules engine's hot modules and the evaluators go through mypyc.

Everything else about the package is in pyproject.toml. The compiled modules are the same
sources, type-checked by mypy and turned into C; the pure-Python package is the fallback, so
the build never fails for want of a compiler: with STUDDRAW_PURE=1, without a C compiler or
Python's headers, or when the type check or compiling fails, the wheel (or the editable install)
holds the Python sources only, and one line on stderr says why.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import re
import shlex
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Final

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
TEXT_ROOM: Final = re.compile(r"^class \w+\(TextRoom\):", re.MULTILINE)


def text_room_modules() -> tuple[str, ...]:
    """The module of every text room: each module of parsers/rooms that defines a class on
    `TextRoom` (a room's own reader is in its module). A new room is compiled with no list to
    keep; tests/parsers/test_room_declarations.py checks this against the registry."""
    modules = sorted((ROOT / "parsers" / "rooms").glob("*.py"))
    return tuple(
        f"parsers/rooms/{module.name}"
        for module in modules
        if TEXT_ROOM.search(module.read_text(encoding="utf-8"))
    )


# What replay spends its time in (benchmarks/replay.py): the state's layers, the showdown, the
# house rules and stakes it reads, and the evaluators it calls; the PHH exporter's walk over
# a hand's events (benchmarks/export.py: a third less time compiled); and what an import spends
# the rest of its time in (benchmarks/ingest.py): the line readers (the one pass over a hand's
# lines, the shared reader and its verb table, each text room's, the builder, the section
# order), the hand record they build (model.py: read by the rules engine and normalize field by
# field, its events made by a compiled `__init__`) and normalize. Left out on purpose:
# result.py (its dataclasses are built faster by the interpreter than through a compiled
# class's setters), base.py (the XML and PHH rooms and the tests subclass its `Room`),
# tokens.py and lines.py (a subclass of `str`; a syntax pickled to the grammar cache) and the
# modules mypyc cannot compile as they are (codes.py's enum with its own __new__, specs.py's
# slice-typed field) or need not be (structures.py: a table read as a hand's state is built).
# This list is the one place that says what is compiled, and it names no room: every text
# room's module is (`text_room_modules`).
COMPILED = (
    "pipeline/rules/betting.py",
    "pipeline/rules/boards.py",
    "pipeline/rules/core.py",
    "pipeline/rules/deck.py",
    "pipeline/rules/draws.py",
    "pipeline/rules/forced.py",
    "pipeline/rules/house.py",
    "pipeline/rules/replay.py",
    "pipeline/rules/showdown.py",
    "pipeline/rules/stakes.py",
    "pipeline/rules/state.py",
    "pipeline/evaluators/_hands.py",
    "pipeline/phh.py",
    "parsers/model.py",
    "parsers/builder.py",
    "parsers/text/classify.py",
    "parsers/text/line_reader.py",
    "parsers/text/order.py",
    "parsers/text/verbs.py",
    *text_room_modules(),
    "pipeline/store/normalize.py",
)
COMPLETE = ROOT / "build" / "compiled.ok"
"""In a checkout, the compiled modules are all in place: written once the last is, removed before
the first is replaced. Without it, every process imports the Python sources
(parsers/_build.py, which names the same file), so none ever mixes compiled modules with
sources or meets a shim without its group's library."""
# mypy reads the sources through the installed layout (studdraw/pipeline -> pipeline, ...),
# as `make typecheck` does, so that the compiled modules get their installed names.
LAYOUT = ROOT / ".typecheck" / "studdraw"


def pure_reason() -> str | None:
    """Why this build ships the Python sources only, or None to compile."""
    if os.environ.get("STUDDRAW_PURE") == "1":
        return "STUDDRAW_PURE=1"
    compiler = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "")
    if sys.platform != "win32" and (not compiler or shutil.which(compiler[0]) is None):
        return f"no C compiler ({' '.join(compiler) or 'none configured'})"
    if not Path(sysconfig.get_paths()["include"], "Python.h").is_file():
        return "no Python headers (Python.h) to compile against"
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed"
    return None


def source_layout() -> None:
    """The symlink tree mypy reads the sources through (the Makefile makes the same one)."""
    LAYOUT.mkdir(parents=True, exist_ok=True)
    for part in ("parsers", "pipeline", "dashboard", "cli"):
        link = LAYOUT / part
        if not link.is_symlink():
            link.symlink_to(Path("..", "..", part))


def compiled_extensions() -> list[Extension]:
    """mypyc's extensions for the hot modules, or none (the reason is printed)."""
    reason = pure_reason()
    if reason is None:
        try:
            source_layout()
        except OSError as error:
            reason = f"the source layout cannot be linked ({error})"
    if reason is None:
        # mypyc type-checks the modules first and exits (SystemExit, not an Exception) on an
        # error: a build environment without what the check reads, or a mypy that reads the
        # code differently, must give the pure package, not a failed install.
        output = io.StringIO()
        try:
            with contextlib.redirect_stdout(output):
                from mypyc.build import mypycify  # noqa: PLC0415 (only a compiled build)

                paths = [str(LAYOUT.relative_to(ROOT) / path) for path in COMPILED]
                return mypycify(
                    paths, group_name="studdraw.parsers.compiled", target_dir="build/mypyc"
                )
        except (Exception, SystemExit) as error:
            reason = f"the type check or mypyc failed ({first_error(output.getvalue(), error)})"
    print(f"studdraw: building the pure-Python package: {reason}", file=sys.stderr)
    return []


def first_error(output: str, error: BaseException) -> str:
    """The first line of mypy's or mypyc's that names an error, else the exception itself."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    found = next((line for line in lines if "error" in line), None) or (lines or [""])[0]
    if not found:
        found = str(error) if not isinstance(error, SystemExit) else f"exit {error.code}"
    return found if len(found) <= 300 else found[:299] + "…"


class OptionalBuildExt(build_ext):
    """build_ext that falls back to the pure-Python package when compiling fails: a compiled
    module is only ever installed with the rest of its group."""

    def run(self) -> None:
        if self.in_place():
            COMPLETE.unlink(missing_ok=True)  # stale modules go now: sources only meanwhile
        self.remove_stale_modules()
        try:
            super().run()
        except (Exception, SystemExit) as error:  # a compiler's failure takes many forms
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            text = " ".join(str(error).split())[:300]
            print(
                f"studdraw: building the pure-Python package: compiling failed ({text})",
                file=sys.stderr,
            )
            return
        if self.in_place():
            # Modules found up to date are not copied again: mark them as current, so a compiled
            # module older than its source always means a stale build (tests/conftest.py).
            for extension in self.extensions:
                Path(self.get_ext_fullpath(extension.name)).touch()

    def copy_extensions_to_source(self) -> None:
        """Place the built modules beside their sources, each under a temporary name first and
        then renamed (a process never loads a half-copied file): the group's library before its
        shims (a shim imports it), `COMPLETE` removed first and written last."""
        build_py = self.get_finalized_command("build_py")
        pairs = [self._get_inplace_equivalent(build_py, ext) for ext in self.extensions]
        pairs.sort(key=lambda pair: not Path(pair[0]).name.split(".")[0].endswith("__mypyc"))
        COMPLETE.unlink(missing_ok=True)
        for inplace_file, regular_file in pairs:
            target = Path(inplace_file)
            aside = target.with_name(f".{target.name}.{os.getpid()}")
            shutil.copyfile(regular_file, aside)
            shutil.copymode(regular_file, aside)
            aside.replace(target)
        if self.extensions:  # the pure package (none compiled) marks nothing as built
            COMPLETE.parent.mkdir(parents=True, exist_ok=True)
            COMPLETE.write_text("\n".join(ext.name for ext in self.extensions) + "\n")

    def in_place(self) -> bool:
        return bool(self.inplace or getattr(self, "editable_mode", False))

    def remove_stale_modules(self) -> None:
        """Remove compiled modules this build does not make (left by an earlier build with
        another list, or before STUDDRAW_PURE=1): Python would import them first, and a shim
        without its module in the group's library fails to import."""
        suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
        # studdraw.pipeline.rules.core is pipeline/rules/core in the checkout (the package-dir
        # mapping) and studdraw/pipeline/rules/core in the build folder.
        wanted = {"/".join(e.name.split(".")[1:]) + suffix for e in self.extensions}
        roots = [Path(self.build_lib) / "studdraw"] + ([ROOT] if self.in_place() else [])
        for root in roots:
            for part in ("parsers", "pipeline", "dashboard"):
                for module in (root / part).rglob(f"*{suffix}"):
                    if module.relative_to(root).as_posix() not in wanted:
                        module.unlink()


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt})
