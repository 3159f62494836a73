"""What several command modules share: the paths argument, the --rules and --wait options, the
checks that turn a bad store path or rules profile into one line and exit 2, waiting for a busy
store, opening a store to read, and writing an output aside before it takes its name."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from studdraw.cli.console import console

if TYPE_CHECKING:
    import duckdb

    from studdraw.pipeline.rules.house import HouseRules

T = TypeVar("T")


PathsArgument = Annotated[
    list[Path],
    typer.Argument(help="Hand-history files or folders, searched recursively.", show_default=False),
]


RulesOption = Annotated[
    str | None,
    typer.Option(
        "--rules",
        help="Replay every hand under this house-rules profile (a rulebook's, e.g. "
        "casinos-austria, or a room's) instead of its room's; see docs/violations.md.",
        show_default=False,
    ),
]


def chosen_rules(name: str | None) -> HouseRules | None:
    """The profile named by --rules; exits 2 naming the choices when there is none."""
    if name is None:
        return None
    from studdraw.pipeline.rules.house import house_rules_named

    try:
        return house_rules_named(name)
    except ValueError as error:
        from rich.markup import escape

        console(stderr=True).print(f"[red]error:[/red] {escape(str(error))}", highlight=False)
        raise typer.Exit(code=2) from None


def existing(paths: list[Path]) -> None:
    """Exit 1 with one line when none of `paths` exists, before anything is created (a typo
    makes no empty store); when some do, the missing ones are reported as unreadable files."""
    from rich.markup import escape

    missing = [path for path in paths if not path.exists() and not path.is_symlink()]
    if paths and len(missing) == len(paths):
        shown = ", ".join(str(path) for path in missing)
        console(stderr=True).print(f"[red]error:[/red] no such file or folder: {escape(shown)}")
        raise typer.Exit(code=1)


def nothing_found(paths: list[Path]) -> None:
    """Exit 1 saying that no file was found under `paths` (empty folders)."""
    from rich.markup import escape

    shown = ", ".join(str(path) for path in paths)
    console(stderr=True).print(
        f"[red]error:[/red] no hand-history file found in {escape(shown)}", highlight=False
    )
    raise typer.Exit(code=1)


def check_store(db: Path, *, write: bool) -> None:
    """Exit 2 with one line when `db` cannot be a store (a folder, another kind of file, not
    writable), before DuckDB would answer with a traceback."""
    from rich.markup import escape

    from studdraw.pipeline.store.db import StoreOpenError, check_store_path

    try:
        check_store_path(db, write=write)
    except StoreOpenError as error:
        console(stderr=True).print(f"[red]error:[/red] {escape(str(error))}")
        raise typer.Exit(code=2) from None


WaitOption = Annotated[
    float,
    typer.Option(help="Seconds to wait for an import holding the store before giving up (exit 2)."),
]


def opened_waiting(opener: Callable[[], T], db: Path, wait: float) -> T:
    """`opener()` once the store `db` is free: while an import holds it (DuckDB's lock error),
    say so once and try again until `wait` seconds have passed, then exit 2 with one line."""
    import duckdb
    from rich.markup import escape

    from studdraw.pipeline.store.db import LOCK_POLL_SECONDS

    deadline: float | None = None  # counted from the first refusal: `wait` is time spent waiting
    while True:
        try:
            return opener()
        except duckdb.IOException as error:
            if "lock" not in str(error).lower():
                raise
            stderr = console(stderr=True)
            if deadline is None:
                deadline = time.monotonic() + wait
                if wait > 0:
                    stderr.print(
                        f"[yellow]waiting:[/yellow] {escape(str(db))} is in use by another "
                        f"process (an import?); waiting up to {wait:g} s for it to finish"
                    )
            if time.monotonic() >= deadline:
                stderr.print(
                    f"[red]error:[/red] {escape(str(db))} is in use by another process (an "
                    f"import?); gave up after waiting {wait:g} s (--wait)"
                )
                raise typer.Exit(code=2) from None
            time.sleep(LOCK_POLL_SECONDS)


def opened_store(
    open_store: Callable[[Path], duckdb.DuckDBPyConnection], db: Path, wait: float
) -> duckdb.DuckDBPyConnection:
    """`open_store(db)` read-only once the store is free (`opened_waiting`), or exit 2 with the
    reason: each reader passes its own opener (the reports' has the analytics ready)."""
    import duckdb

    from studdraw.pipeline.store.db import one_line

    check_store(db, write=False)
    try:
        return opened_waiting(lambda: open_store(db), db, wait)
    except (OSError, duckdb.Error) as error:
        console(stderr=True).print(f"[red]error:[/red] cannot open {db}: {one_line(error)}")
        raise typer.Exit(code=2) from None


@contextmanager
def written_aside(out: Path) -> Iterator[Path]:
    """A path beside `out` to write to; renamed to `out` when the block ends normally, removed
    (file or folder) when it raises, Ctrl-C included: a reader never sees a partial output."""
    aside = out.with_name(f".{out.name}.partial-{os.getpid()}")
    try:
        yield aside
    except BaseException:
        _remove(aside)
        raise
    if aside.is_dir() and out.is_dir():  # a folder that exists: its new files join it
        for item in aside.iterdir():
            item.replace(out / item.name)
        aside.rmdir()
    elif aside.exists():
        aside.replace(out)


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)
