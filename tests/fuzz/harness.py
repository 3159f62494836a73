"""One hostile file at a time through `parse` and `validate`, and batches of them through
`ingest`, with the figures of the run: inputs, crashes, hangs, hands lost or miscounted."""

from __future__ import annotations

import shutil
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed

from studdraw.parsers.files import display_path
from studdraw.parsers.model import ParsedHand
from studdraw.parsers.problems import Code
from studdraw.parsers.reader import MAX_REASON, open_history, parse_hand
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from studdraw.pipeline.rules.validate import Validation

from .inputs import Fuzzed, history_file

HANG_SECONDS = 2.0
"""CPU seconds an input may take: the process's own time, not the wall clock, so that a fuzz
run at `nice -n 19` on a loaded machine does not count the waits for a core as hangs."""


@dataclass(slots=True)
class Tally:
    """The figures of a run (what docs/reliability.md reports)."""

    inputs: int = 0
    hand_texts: int = 0
    stray_texts: int = 0
    unreadable: int = 0
    crashes: list[str] = field(default_factory=list)
    hangs: list[str] = field(default_factory=list)
    hands_lost: int = 0
    internal_errors: list[str] = field(default_factory=list)
    headers_counted: int = 0
    """Inputs whose hand headers the generator counted (no mutation touched a header)."""
    headers: int = 0
    miscounted: list[str] = field(default_factory=list)
    """Inputs whose reader or ledger count differs from the generator's header count."""
    rooms: Counter[str] = field(default_factory=Counter)
    mutations: Counter[str] = field(default_factory=Counter)
    slowest: float = 0.0
    slowest_wall: float = 0.0
    slowest_input: str = ""
    seconds: float = 0.0

    def as_dict(self) -> dict[str, object]:
        return {
            "inputs": self.inputs,
            "hand_texts": self.hand_texts,
            "stray_texts": self.stray_texts,
            "unreadable_inputs": self.unreadable,
            "crashes": len(self.crashes),
            "hangs_over_2s": len(self.hangs),
            "hands_lost": self.hands_lost,
            "internal_errors": len(self.internal_errors),
            "inputs_with_headers_counted": self.headers_counted,
            "headers_counted": self.headers,
            "inputs_miscounted": len(self.miscounted),
            "slowest_input_seconds": round(self.slowest, 3),
            "slowest_input_wall_seconds": round(self.slowest_wall, 3),
            "slowest_input": self.slowest_input,
            "seconds": round(self.seconds, 1),
            "inputs_per_room": dict(sorted(self.rooms.items())),
            "inputs_per_mutation": dict(sorted(self.mutations.items())),
            "failures": [*self.crashes, *self.hangs, *self.internal_errors, *self.miscounted][:50],
        }


def check_parsed(parsed: ParsedHand) -> None:
    """What every parsed hand must be: a record or a problem, a problem one bounded line."""
    assert (parsed.record is None) != (parsed.problem is None), parsed
    if parsed.problem is not None:
        message = parsed.problem.message
        assert message.strip() and len(message) <= MAX_REASON and "\n" not in message, message
        assert parsed.problem.line >= 1


class Harness:
    """Feeds inputs one by one; `ingest` runs on each batch of `batch` inputs, in a fresh
    store, and every file's ledger row must account for each hand the reader cut."""

    def __init__(
        self,
        workdir: Path,
        crash_dir: Path | None = None,
        batch: int = 100,
        progress: Callable[[Tally], None] | None = None,
    ) -> None:
        self.progress = progress
        self.workdir = workdir
        self.crash_dir = crash_dir
        self.batch = batch
        self.tally = Tally()
        self.pending: dict[Path, tuple[tuple[int, int] | None, int | None]] = {}
        self.folder = workdir / "batch"
        self.folder.mkdir(parents=True, exist_ok=True)

    def check(self, fuzzed: Fuzzed, number: int) -> None:
        """Input `number` of the run (its file's name, so that a kept input names its place)."""
        tally = self.tally
        tally.inputs += 1
        tally.rooms.update(set(fuzzed.rooms))
        tally.mutations.update(set(fuzzed.mutations))
        path = self.folder / f"input-{number:07d}.txt"
        path.write_bytes(fuzzed.data)
        start, wall = time.process_time(), time.perf_counter()
        try:
            expected = self._parse_and_validate(path)
        except Exception:
            self._crash(path, "parse/validate")
            expected = None
        elapsed, elapsed_wall = time.process_time() - start, time.perf_counter() - wall
        if elapsed > HANG_SECONDS and expected is not None:
            elapsed = min(elapsed, self._cpu_seconds_again(path))
        if elapsed > tally.slowest:
            tally.slowest, tally.slowest_input = elapsed, f"{path.name} ({len(fuzzed.data)} bytes)"
        tally.slowest_wall = max(tally.slowest_wall, elapsed_wall)
        if elapsed > HANG_SECONDS:
            self._keep(path, "hangs")
            tally.hangs.append(f"{path.name}: {elapsed:.1f} s")
        if fuzzed.headers is not None:
            tally.headers_counted += 1
            tally.headers += fuzzed.headers
            if expected is not None and expected[0] != fuzzed.headers:
                self._miscounted(path, fuzzed, f"read {expected[0]}")
        self.pending[path] = (expected, fuzzed.headers)
        if len(self.pending) >= self.batch:
            self.flush()

    def _miscounted(self, path: Path, fuzzed: Fuzzed, found: str) -> None:
        line = f"{path.name}: {fuzzed.headers} headers, {found} ({', '.join(fuzzed.mutations)})"
        self.tally.miscounted.append(line)
        self._keep(path, "miscounted")
        if self.crash_dir is not None:  # what the generator knew, to replay it as a test
            with (self.crash_dir / "miscounted.txt").open("a", encoding="utf-8") as notes:
                notes.write(line + "\n")

    def _cpu_seconds_again(self, path: Path) -> float:
        """An input's CPU time measured a second time, its figures not counted again: a full
        garbage collection of the run's own heap (hypothesis keeps every input's choices), or
        the store's threads finishing the last batch, can fall on any input and is not its
        cost; an input that is really slow is slow twice."""
        tally = self.tally
        counted = (
            tally.unreadable,
            tally.hand_texts,
            tally.stray_texts,
            len(tally.internal_errors),
        )
        start = time.process_time()
        self._parse_and_validate(path)
        elapsed = time.process_time() - start
        tally.unreadable, tally.hand_texts, tally.stray_texts = counted[:3]
        del tally.internal_errors[counted[3] :]
        return elapsed

    def _parse_and_validate(self, path: Path) -> tuple[int, int] | None:
        try:
            texts = list(open_history(path).hand_texts())
        except OSError:  # a damaged archive: the import reports the file as failed
            self.tally.unreadable += 1
            return None
        parsed = [parse_hand(text) for text in texts]
        for item in parsed:
            check_parsed(item)
            if item.problem is not None and item.problem.code is Code.INT001:
                self.tally.internal_errors.append(f"{path.name}: {item.problem.message}")
                self._keep(path, "internal")
        hands = [item for item in parsed if not item.hand.stray]
        for line, _ in Validation().lines(hands):  # an engine failure is a line of INT001
            if f" {Code.INT001.value} " in line:
                self.tally.internal_errors.append(f"{path.name}: validate: {line[-200:]}")
                self._keep(path, "internal")
        self.tally.hand_texts += len(hands)
        self.tally.stray_texts += len(parsed) - len(hands)
        return len(hands), len(parsed) - len(hands)

    def flush(self) -> None:
        """Ingest the pending inputs into a fresh store and check every file's accounting."""
        if not self.pending:
            return
        db = self.workdir / "fuzz.duckdb"
        db.unlink(missing_ok=True)
        start = time.process_time()
        try:
            ingest([self.folder], IngestOptions(db, workers=1, batch_size=500, wait_seconds=5))
            self._account(db)
        except Exception:
            self._crash(self.folder, "ingest")
        elapsed = time.process_time() - start
        if elapsed > HANG_SECONDS * len(self.pending):
            self.tally.hangs.append(f"ingest of {len(self.pending)} inputs: {elapsed:.1f} s")
        shutil.rmtree(self.folder)
        self.folder.mkdir()
        self.pending.clear()
        if self.progress is not None:
            self.progress(self.tally)

    def _account(self, db: Path) -> None:
        con = duckdb.connect(str(db), read_only=True)
        try:
            rows = con.execute(
                "SELECT path, status, hands_seen, stored + duplicates + rejected + unsupported, "
                "stray_texts FROM imports"
            ).fetchall()
            internal = con.execute(
                "SELECT source_path, reason FROM rejects WHERE kind = 'internal_error'"
            ).fetchall()
        finally:
            con.close()
        self.tally.internal_errors += [f"ingest: {path}: {message}" for path, message in internal]
        for path in self.pending:  # kept to be replayed: the batch folder is emptied next
            shown = display_path(path.resolve())
            if any(source == shown or source.startswith(f"{shown}!/") for source, _ in internal):
                self._keep(path, "internal")
        ledger = {path: (status, seen, fates, strays) for path, status, seen, fates, strays in rows}
        for path, (expected, headers) in self.pending.items():
            status, seen, fates, strays = ledger[display_path(path.resolve())]
            if seen != fates:
                self.tally.hands_lost += abs(seen - fates)
                self._keep(path, "lost")
            if expected is not None and status == "complete" and (seen, strays) != expected:
                self.tally.hands_lost += abs(expected[0] - seen)
                self._keep(path, "lost")
            if headers is not None and status == "complete" and fates != headers:
                found = f"ingest: {path.name}: {headers} headers, {fates} in the ledger"
                self.tally.miscounted.append(found)
                self._keep(path, "miscounted")

    def _crash(self, path: Path, stage: str) -> None:
        self.tally.crashes.append(f"{stage}: {path.name}: {traceback.format_exc(limit=-3)}")
        self._keep(path, "crashes")

    def _keep(self, path: Path, kind: str) -> None:
        if self.crash_dir is None:
            return
        target = self.crash_dir / kind / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.is_dir():
            shutil.copytree(path, target, dirs_exist_ok=True)
        else:
            shutil.copyfile(path, target)


def run(harness: Harness, inputs: int, seed: int | None = None, first: int = 1) -> Tally:
    """Drive `inputs` hypothesis-generated files through the harness (no shrinking: a failing
    input is counted and kept, and the run goes on). Inputs before number `first` are made but
    not checked: with the same seed, a reported input is made again without rerunning the
    ones before it."""
    start = time.perf_counter()
    made = 0

    @settings(
        max_examples=inputs,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(history_file())
    def one(fuzzed: Fuzzed) -> None:
        nonlocal made
        made += 1
        if made >= first:
            harness.check(fuzzed, made)

    driven = one if seed is None else hypothesis_seed(seed)(one)
    driven()
    harness.flush()
    harness.tally.seconds = time.perf_counter() - start
    return harness.tally


def summary_lines(tally: Tally) -> Iterable[str]:
    figures = tally.as_dict()
    failures = figures.pop("failures")
    for name, value in figures.items():
        yield f"{name.replace('_', ' '):>27}: {value}"
    assert isinstance(failures, list)
    yield from failures[:20]
