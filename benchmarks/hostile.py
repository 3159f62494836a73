"""Hostile inputs in time linear in their size (issue 41): each is read at a size and at 4 times
that size, and the time ratio must stay within 6 (4 for linear work, the rest for the noise of
a shared machine; the quadratic readers of old took 16 to 40 times longer for 4 times the input).
Times are CPU seconds of this process (a shared machine's waits for a core are not counted).

- a zip of N small members (each member's analysis once reopened the archive: 4,000 members
  took 85 s);
- an iPoker `<game>` start tag with one attribute of M megabytes (the parser once rescanned
  the token at every feed: 32 MB took 62 s);
- an amount with a run of K letters glued after it (`calls $0.02xxx...`: 163 KB took 54 s).

    .venv/bin/python benchmarks/hostile.py [--members 1000] [--megabytes 4] [--letters 50000]
"""

from __future__ import annotations

import argparse
import io
import tempfile
import time
import zipfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from rich.console import Console
from rich.table import Table

from studdraw.parsers.reader import open_history, parse_hand

REPO = Path(__file__).resolve().parents[1]
STARS = (REPO / "sample_histories" / "pokerstars" / "razz.txt").read_bytes()
FIRST = STARS.split(b"\n\n\n")[0]
TARGET = 6.0
"""The most time 4 times the input may take, as a multiple of the time of the input."""
SESSION = (
    b'<?xml version="1.0" encoding="utf-8"?><session sessioncode="1"><general>'
    b"<gametype>7 Card Stud L $0.05/$0.10</gametype><currency>USD</currency></general>"
)


def zip_of(members: int) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as out:
        for i in range(members):
            out.writestr(f"hands-{i:06d}.txt", FIRST)
    return buffer.getvalue()


def long_attribute(megabytes: int) -> bytes:
    value = b"x" * (megabytes << 20)
    return SESSION + b'<game gamecode="2" note="' + value + b'"><general/></game></session>'


def read_file(folder: Path, data: bytes) -> float:
    path = folder / "input"
    path.write_bytes(data)
    start = time.process_time()
    for hand in open_history(path).hand_texts():
        parse_hand(hand)
    elapsed = time.process_time() - start
    path.unlink()
    return elapsed


def glued_amount(letters: int) -> float:
    hand = next(
        hand
        for hand in open_history(REPO / "sample_histories/pokerstars/stud.txt").hand_texts()
        if not hand.stray
    )
    line = next(line for line in hand.text.split("\n") if ": calls $" in line)
    text = hand.text.replace(line, line + "x" * letters, 1)
    start = time.process_time()
    parse_hand(replace(hand, text=text))
    return time.process_time() - start


def best(run: Callable[[], float], repeat: int = 2) -> float:
    return min(run() for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--members", type=int, default=1000, help="zip members at 1x")
    parser.add_argument("--megabytes", type=int, default=4, help="attribute size at 1x, MB")
    parser.add_argument("--letters", type=int, default=50_000, help="glued letters at 1x")
    args = parser.parse_args()
    console = Console(width=120)
    table = Table(title="Hostile inputs: seconds at 1x and 4x the size, and their ratio")
    for column in ("input", "1x", "1x s", "4x s", "ratio", "verdict"):
        table.add_column(column, justify="left" if column == "input" else "right")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        cases: list[tuple[str, str, Callable[[int], float], int]] = [
            (
                "zip of small members",
                f"{args.members:,} members",
                lambda n: best(lambda: read_file(folder, zip_of(n))),
                args.members,
            ),
            (
                "iPoker tag, one long attribute",
                f"{args.megabytes} MB",
                lambda n: best(lambda: read_file(folder, long_attribute(n))),
                args.megabytes,
            ),
            (
                "amount with letters glued after",
                f"{args.letters:,} letters",
                lambda n: best(lambda: glued_amount(n)),
                args.letters,
            ),
        ]
        for name, size, run, n in cases:
            once, four = run(n), run(4 * n)
            ratio = four / max(once, 1e-6)
            verdict = "MET" if ratio <= TARGET else "MISSED"
            table.add_row(name, size, f"{once:.3f}", f"{four:.3f}", f"{ratio:.1f}", verdict)
            console.print(f"{name} done", style="dim")
    console.print(table)
    console.print(f"Target: 4x the input within {TARGET:g}x the time (same run, same machine).")


if __name__ == "__main__":
    main()
