"""Progress of the long commands (issue 36): hands counted as they go, a bar on a terminal, a
line every few seconds without one."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest
from rich.console import Console

from studdraw.cli import progress as progress_module
from studdraw.cli.progress import progress
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from tests.conftest import SAMPLES


def until(condition: object, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "nothing printed"
        time.sleep(0.01)


def test_without_a_terminal_a_line_every_few_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress_module, "LINE_SECONDS", 0.01)
    out = io.StringIO()
    console = Console(file=out, force_terminal=False)
    files = sorted(SAMPLES.rglob("*.txt"))[:3]
    with progress(console, "ingest", files=files) as tracker:
        tracker.hands(1_234)
        tracker.file(files[0])
        until(lambda: "\n" in out.getvalue())
    line = out.getvalue().splitlines()[0]
    assert line.startswith("ingest: 1,234 hands (1 of 3 files), ")
    assert line.endswith(" s")


def test_without_a_terminal_a_short_command_prints_nothing() -> None:
    out = io.StringIO()
    with progress(Console(file=out, force_terminal=False), "parse", total=10) as tracker:
        tracker.hands(10)
    assert out.getvalue() == ""


def test_a_terminal_shows_a_bar_counting_hands() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120)
    with progress(console, "prepare", total=50_000) as tracker:
        tracker.hands(20_000)
        console.file.flush()
        tracker._bar.refresh()
        assert "20,000 hands" in out.getvalue()


def test_ingest_counts_every_hand_it_cuts(tmp_path: Path) -> None:
    counted: list[int] = []
    summary = ingest(
        [SAMPLES], IngestOptions(tmp_path / "s.duckdb", workers=1), on_hands=counted.append
    )
    assert sum(counted) == summary.hands_seen > 0
    again: list[int] = []
    ingest([SAMPLES], IngestOptions(tmp_path / "s.duckdb", workers=1), on_hands=again.append)
    assert sum(again) == summary.hands_seen  # files skipped whole count their hands too
