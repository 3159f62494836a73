"""Parse throughput per room on an inflated copy of the real corpus, against a bare regex reader.

For every room with a grammar (text) or an XML schema, the in-scope hands of ../shared/corpus
are repeated into one file of at least --hands hands, then timed on one core, in the same run:

- read+split: decode the file and cut it into hand texts (the floor any parser pays);
- baseline: the bare `re` line parser of regex_baseline.py (one compiled pattern per line
  kind, tuples out, no model) over the same file;
- split+parse: read+split plus parsing every hand into a HandRecord.

Each room is timed --rounds times, in rounds over all rooms, and keeps its best time (a load
that comes and goes on a shared machine then slows every room alike).

Targets: split+parse >= 0.5x the baseline for every room (issue 15: MET/MISSED per room);
PokerStars split+parse >= 3,000 hands/s and no room below half of PokerStars' rate (issue 5).

    .venv/bin/python benchmarks/parse.py [--hands 2000] [--rounds 3] [--corpus ../shared/corpus]
        [--rooms pokerstars,kingsclub,...]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from rich.console import Console
from rich.table import Table

from studdraw.parsers.files import discover_files
from studdraw.parsers.reader import open_history, parse_hand
from studdraw.parsers.rooms import ROOMS
from studdraw.parsers.text.room import TextRoom
from studdraw.parsers.xml.room import XmlRoom

sys.path.insert(0, str(Path(__file__).resolve().parent))
import regex_baseline

REPO = Path(__file__).resolve().parents[1]
TARGET_STARS = 3000.0
TARGET_RATIO = 0.5
"""split+parse against the bare regex baseline (issue 15)."""


def in_scope_hands(corpus: Path) -> dict[str, list[tuple[str, int]]]:
    """The texts of every corpus hand that parses, grouped by room, with the hands in each text.

    An XML room's hand text is not a file on its own (its context follows it), so XML rooms
    contribute whole files whose every hand parses: repeated, they are sessions in a row.
    """
    hands: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for path in discover_files([corpus]):
        history = open_history(path)
        room = history.room
        if isinstance(room, XmlRoom):
            parsed = [parse_hand(hand) for hand in history.hand_texts()]
            if parsed and all(hand.record is not None for hand in parsed):
                text = path.read_bytes().decode("utf-8-sig")
                hands[room.name].append((text, len(parsed)))
            continue
        if not isinstance(room, TextRoom):
            continue
        for hand in history.hand_texts():
            if parse_hand(hand).record is not None:
                hands[room.name].append((hand.text, 1))
    return hands


def inflate(texts: list[tuple[str, int]], count: int, folder: Path, name: str) -> tuple[Path, int]:
    per_round = sum(hands for _, hands in texts)
    repeats = -(-count // per_round)
    path = folder / f"{name}.txt"
    with path.open("w", encoding="utf-8") as out:
        for _ in range(repeats):
            for text, _ in texts:
                out.write(text)
                out.write("\n\n\n")
    return path, repeats * per_round


def seconds(path: Path, parse: bool) -> tuple[int, float]:
    """Hands in the file and the time of one pass over it (split only, or split and parse)."""
    start = time.perf_counter()
    hands = 0
    for hand in open_history(path).hand_texts():
        if parse:
            parse_hand(hand)
        hands += 1
    return hands, time.perf_counter() - start


def baseline_seconds(path: Path, xml: bool) -> tuple[float, float]:
    """The time of one baseline pass over the file, and the share of its lines it classed."""
    start = time.perf_counter()
    lines, known = regex_baseline.read(path, xml=xml)
    return time.perf_counter() - start, known / lines if lines else 0.0


Row = tuple[str, int, int, float, float, float, float]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2_000, help="hands per room (at least)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus")
    parser.add_argument(
        "--rooms", default="", help="comma-separated rooms to time (default: every room)"
    )
    args = parser.parse_args()
    console = Console(width=160)
    load = os.getloadavg()[0]
    by_room = in_scope_hands(args.corpus)
    chosen = set(filter(None, args.rooms.split(",")))
    order = [
        room.name for room in ROOMS if room.name in by_room and (not chosen or room.name in chosen)
    ]
    xml_rooms = {room.name for room in ROOMS if isinstance(room, XmlRoom)}
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as folder:
        files = {name: inflate(by_room[name], args.hands, Path(folder), name) for name in order}
        best: dict[tuple[str, str], float] = {}
        known: dict[str, float] = {}
        for _ in range(args.rounds):
            for name, (path, _total) in files.items():
                for stage in ("split", "parse"):
                    _, took = seconds(path, stage == "parse")
                    best[(name, stage)] = min(best.get((name, stage), float("inf")), took)
                took, known[name] = baseline_seconds(path, name in xml_rooms)
                best[(name, "baseline")] = min(best.get((name, "baseline"), float("inf")), took)
        for name, (_path, total) in files.items():
            rates = [total / best[(name, stage)] for stage in ("split", "baseline", "parse")]
            rows.append((name, sum(n for _, n in by_room[name]), total, *rates, known[name]))
            console.print(f"{name}: {rates[2]:,.0f} hands/s", style="dim")
    console.print(table(rows, args.hands, load))
    verdicts(console, rows)


def table(rows: list[Row], hands: int, load: float) -> Table:
    stars = next((row[5] for row in rows if row[0] == "pokerstars"), None)
    result = Table(
        title=f"Parse throughput, one core (inflated to >= {hands:,} hands per room; load "
        f"average {load:.2f} at start, {os.getloadavg()[0]:.2f} at the end)"
    )
    columns = (
        "room",
        "corpus hands",
        "hands timed",
        "read+split /s",
        "baseline /s",
        "split+parse /s",
        "vs baseline",
        f"target >= {TARGET_RATIO}x",
        "baseline lines known",
        "vs PokerStars",
    )
    for column in columns:
        result.add_column(column, justify="left" if column == "room" else "right")
    for name, corpus_hands, total, floor, baseline, parsed, known in rows:
        ratio = parsed / baseline
        result.add_row(
            name,
            f"{corpus_hands:,}",
            f"{total:,}",
            f"{floor:,.0f}",
            f"{baseline:,.0f}",
            f"{parsed:,.0f}",
            f"{ratio:.3f}x",
            "MET" if ratio >= TARGET_RATIO else "MISSED",
            f"{known:.0%}",
            f"{parsed / stars:.2f}x" if stars else "-",
        )
    return result


def verdicts(console: Console, rows: list[Row]) -> None:
    missed = [row[0] for row in rows if row[5] / row[4] < TARGET_RATIO]
    console.print(
        f"split+parse >= {TARGET_RATIO}x the bare regex baseline, every room: "
        + ("MET" if not missed else f"MISSED ({', '.join(missed)})")
    )
    stars = next((row[5] for row in rows if row[0] == "pokerstars"), None)
    if stars is not None:
        verdict = "MET" if stars >= TARGET_STARS else "MISSED"
        console.print(f"PokerStars split+parse >= {TARGET_STARS:,.0f} hands/s: {verdict}")
        slow = [row[0] for row in rows if row[5] < stars / 2]
        console.print("Rooms below half the PokerStars rate: " + (", ".join(slow) or "none"))


if __name__ == "__main__":
    main()
