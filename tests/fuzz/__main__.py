"""`python -m tests.fuzz --inputs N [--seed S] [--report FILE]`: a fuzz run of any length.

Failing inputs are kept under `--keep` (crashes/, hangs/, lost/, miscounted/, internal/) to be
replayed as tests; the exit status is 1 when any input crashed, hung, lost or miscounted a hand
or had an internal error."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from .harness import Harness, Tally, run, summary_lines


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    parser.add_argument("--inputs", type=int, default=1000, help="how many inputs to try")
    parser.add_argument("--seed", type=int, default=None, help="hypothesis seed (repeatable)")
    parser.add_argument(
        "--first",
        type=int,
        default=1,
        help="check from this input on (the ones before are made, not run)",
    )
    parser.add_argument("--batch", type=int, default=200, help="inputs per ingest")
    parser.add_argument("--keep", type=Path, default=Path("test-artifacts/fuzz"))
    parser.add_argument("--report", type=Path, default=None, help="write the figures as JSON")
    args = parser.parse_args()
    started = f"{datetime.now(UTC):%Y-%m-%d %H:%M:%S} UTC"
    command = {
        "inputs_asked": args.inputs,
        "seed": args.seed,
        "first": args.first,
        "started": started,
    }

    def report(tally: Tally) -> None:
        if args.report is not None:
            figures = {**command, **tally.as_dict()}
            args.report.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")

    def progress(tally: Tally) -> None:  # after every batch: a run stopped early keeps its figures
        _progress(tally)
        report(tally)

    with tempfile.TemporaryDirectory(prefix="studdraw-fuzz-") as scratch:
        harness = Harness(Path(scratch), args.keep, args.batch, progress=progress)
        tally = run(harness, args.inputs, args.seed, args.first)
    for line in summary_lines(tally):
        print(line)
    report(tally)
    failed = tally.crashes or tally.hangs or tally.hands_lost or tally.internal_errors
    return 1 if failed or tally.miscounted else 0


def _progress(tally: Tally) -> None:
    figures = tally.as_dict()
    print(
        f"{figures['inputs']} inputs, {figures['crashes']} crashes, {figures['hangs_over_2s']} "
        f"hangs, {figures['hands_lost']} hands lost, {figures['internal_errors']} internal errors, "
        f"{figures['inputs_miscounted']} miscounted",
        flush=True,
    )


if __name__ == "__main__":
    sys.exit(main())
