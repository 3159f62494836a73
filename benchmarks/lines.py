"""Splitting throughput against line length: flat from 1 KB to 100 MB lines (issue 14).

For each line length, a file of about --megabytes MB (at least one line) is made of a real hand
followed by lines of that length without any line end inside them, in UTF-8, UTF-16 and with
bare CR line ends; it is timed through `open_history(...).hand_texts()` (the reader's whole
path: room detection, then the fast or the line splitter, the line bound). The throughput at
each length is compared with the 1 KB lines of the same run: a splitter linear in its input
keeps the ratio near 1 (the quadratic one of old took 9 s for one 25 KB line).

    .venv/bin/python benchmarks/lines.py [--megabytes 8] [--largest-mb 100]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from studdraw.parsers.reader import open_history

REPO = Path(__file__).resolve().parents[1]
HAND = (REPO / "sample_histories" / "pokerstars" / "razz.txt").read_text(encoding="utf-8")
HAND = HAND.split("\n\n\n")[0]
TARGET_RATIO = 0.5
"""Each length at least half the 1 KB throughput: flat, up to the noise of a loaded machine."""
SHAPES = {
    "utf-8 LF": ("utf-8", "\n"),
    "utf-16 CRLF": ("utf-16", "\r\n"),
    "cp1252 CR": ("cp1252", "\r"),
}


def build(path: Path, line: int, total: int, codec: str, newline: str) -> int:
    """Write the file; its size in bytes."""
    count = max(1, total // line)
    body = "x" * (line - 1) + "é"
    with path.open("wb") as out:
        out.write((HAND + newline).replace("\n", newline).encode(codec))
        encoded = (body + newline).encode(codec)
        if codec.startswith("utf-16"):
            encoded = encoded[2:]  # one byte-order mark, at the start of the file
        for _ in range(count):
            out.write(encoded)
    return path.stat().st_size


def rate(path: Path) -> float:
    """Megabytes per second through the reader (best of two runs)."""
    best = float("inf")
    for _ in range(2):
        start = time.perf_counter()
        hands = list(open_history(path).hand_texts())
        best = min(best, time.perf_counter() - start)
        assert hands and hands[0].room == "pokerstars"
    return path.stat().st_size / best / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=int, default=8, help="size of each timed file")
    parser.add_argument("--largest-mb", type=int, default=100, help="the longest line, in MB")
    args = parser.parse_args()
    lengths = [1 << 10, 10 << 10, 100 << 10, 1 << 20, 10 << 20, args.largest_mb << 20]
    console = Console(width=140)
    table = Table(title="Reading files of long lines: MB/s, and the ratio to 1 KB lines")
    table.add_column("line length", justify="right")
    for shape in SHAPES:
        table.add_column(f"{shape} MB/s", justify="right")
        table.add_column("ratio", justify="right")
    table.add_column("verdict")
    baseline: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        for length in lengths:
            cells = [f"{length:,} B"]
            worst = float("inf")
            for shape, (codec, newline) in SHAPES.items():
                path = Path(folder) / "lines.txt"
                build(path, length, args.megabytes << 20, codec, newline)
                measured = rate(path)
                baseline.setdefault(shape, measured)
                ratio = measured / baseline[shape]
                worst = min(worst, ratio)
                cells += [f"{measured:,.1f}", f"{ratio:.2f}"]
                path.unlink()
            cells.append("met" if worst >= TARGET_RATIO else "MISSED")
            table.add_row(*cells)
            console.print(f"{length:,} B lines done", style="dim")
    console.print(table)
    console.print(
        f"Target: every length at least {TARGET_RATIO:.0%} of the 1 KB throughput of the same "
        "shape (baseline measured in this run)."
    )


if __name__ == "__main__":
    main()
