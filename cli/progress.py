"""Progress of a long command on stderr: hands counted as they go (and files, where there are
files), as a bar on a terminal and, off one (a pipe, a log, CI), as a line every few seconds, so
a long run always shows a sign of life and never floods a log.

rich.progress is loaded only when a bar is shown: a command run in a pipe never pays for it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studdraw.pipeline.words import plural

if TYPE_CHECKING:
    from rich.console import Console

LINE_SECONDS = 5.0
"""Off a terminal: seconds between two progress lines (none for a command that ends sooner)."""


class Tracker:
    """What a command reports as it goes: `hands(n)` as hands are done, `file(path)` as each
    file has been read."""

    def __init__(self, label: str, files: Sequence[Path], total: int | None) -> None:
        self.label = label
        self.count_files = len(files)
        self.total = total
        self.done_hands = 0
        self.done_files = 0
        self.started = time.monotonic()
        self.sizes = {path: _size(path) for path in files} if files else {}
        self._bar: Any = None
        self._task: Any = None

    def hands(self, count: int = 1) -> None:
        self.done_hands += count
        if self._bar is not None:
            self._update(0)

    def file(self, path: Path) -> None:
        self.done_files += 1
        if self._bar is not None:
            self._update(self.sizes.get(path, 0), path.name[:40])

    def line(self) -> str:
        """The state as one line: `ingest: 12,500 hands (3 of 10 files), 25 s`."""
        done = f"{self.done_hands:,}" + (f" of {self.total:,}" if self.total else "")
        text = f"{self.label}: {done} {'hand' if self.done_hands == 1 else 'hands'}"
        if self.count_files:
            text += f" ({self.done_files:,} of {plural(self.count_files, 'file')})"
        return f"{text}, {time.monotonic() - self.started:.0f} s"

    def _update(self, advance: int, description: str | None = None) -> None:
        fields: dict[str, Any] = {"hands": f"{self.done_hands:,}", "files": self.done_files}
        if description is not None:
            fields["description"] = description
        if not self.sizes:  # the bar follows the hands (of a known total)
            advance, fields["completed"] = 0, self.done_hands
        self._bar.update(self._task, advance=advance, **fields)


@contextmanager
def progress(
    console: Console, label: str, *, files: Sequence[Path] = (), total: int | None = None
) -> Iterator[Tracker]:
    """A `Tracker` over `files` (the bar follows the bytes read) or `total` hands (the bar
    follows the hands), shown on `console` while the block runs."""
    tracker = Tracker(label, files, total)
    if not console.is_terminal:
        with _lines(console, tracker):
            yield tracker
        return
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    columns = [
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[hands]} hands"),
    ]
    if files:
        columns.append(TextColumn(f"{{task.fields[files]}}/{len(files)} files"))
    bar = Progress(*columns, TimeRemainingColumn(), console=console, transient=True)
    extent = sum(tracker.sizes.values()) if files else total
    with bar:
        tracker._bar = bar
        tracker._task = bar.add_task(label, total=extent or None, hands="0", files=0)
        yield tracker


@contextmanager
def _lines(console: Console, tracker: Tracker) -> Iterator[None]:
    """Print the tracker's line every `LINE_SECONDS` from a background thread until the block
    ends."""
    stop = threading.Event()

    def tick() -> None:
        while not stop.wait(LINE_SECONDS):
            console.print(tracker.line(), markup=False, highlight=False)

    thread = threading.Thread(target=tick, name="studdraw-progress", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
