"""Progress bars on stderr for long runs, silent when stderr is not a terminal (pipes, CI)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
)


@contextmanager
def file_progress(files: Sequence[Path], console: Console) -> Iterator[Callable[[Path], None]]:
    """Yield an `advance(path)` callback; a bar over bytes read is shown only on a terminal."""
    if not console.is_terminal:
        yield lambda _path: None
        return
    sizes = {path: _size(path) for path in files}
    progress = Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    with progress:
        task = progress.add_task("files", total=sum(sizes.values()) or None)

        def advance(path: Path) -> None:
            progress.update(task, advance=sizes.get(path, 0), description=path.name[:40])

        yield advance


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
