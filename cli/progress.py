"""Progress bars on stderr for long runs, silent when stderr is not a terminal (pipes, CI).

rich.progress is loaded only when a bar is shown: a command run in a pipe never pays for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console


@contextmanager
def file_progress(files: Sequence[Path], console: Console) -> Iterator[Callable[[Path], None]]:
    """Yield an `advance(path)` callback; a bar over bytes read is shown only on a terminal."""
    if not console.is_terminal:
        yield lambda _path: None
        return
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    sizes = {path: _size(path) for path in files}
    progress = Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[done]}/{task.fields[count]} files"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    with progress:
        # The bar and the time left follow the bytes read (files differ in size); the counter
        # says what its label says: files.
        task = progress.add_task(
            "files", total=sum(sizes.values()) or None, done=0, count=len(files)
        )
        done = 0

        def advance(path: Path) -> None:
            nonlocal done
            done += 1
            progress.update(task, advance=sizes.get(path, 0), description=path.name[:40], done=done)

        yield advance


@contextmanager
def count_progress(label: str, total: int, console: Console) -> Iterator[Callable[[int], None]]:
    """Yield an `advance(n)` callback over `total` items named by `label` (e.g. "hands");
    shown only on a terminal."""
    if not console.is_terminal or total <= 0:
        yield lambda _n: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    progress = Progress(
        TextColumn(f"[progress.description]{label}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    with progress:
        task = progress.add_task(label, total=total)
        yield lambda n: progress.update(task, advance=n)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
