"""`studdraw validate`: the rules engine as a linter over hand-history files.

Each problem becomes one line, `file:line: CODE message` (warnings, and origins other than
play, marked), or one JSON object with --jsonl; each file ends with a summary line that counts
the origins apart: play that broke the rules, defects of the export, and studdraw's own
failures. A hand that cannot be parsed is reported with its parse problem (TXT..., FIL002,
PRS001, INT001), a text that starts no room's hand with FIL001; hands of games outside scope
are only counted. `rules` replays every hand under one house-rules profile instead of its room's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from studdraw.parsers.model import Outcome, ParsedHand
from studdraw.parsers.problems import Code, Origin, Problem, Severity, Stage
from studdraw.parsers.reader import describe_failure

from .house import HouseRules
from .replay import replay


def check_hand(parsed: ParsedHand, rules: HouseRules | None = None) -> list[Problem]:
    """The problems of one parsed hand: its reader's warnings (TXT001) then the replay's; for a
    text that did not become a record, the problem that stopped it; none for an unsupported
    hand (counted, not listed)."""
    record = parsed.record
    if record is not None:
        found = list(record.problems)
        try:
            return found + replay(record, rules).problems
        except Exception as error:  # an engine bug must not stop the run: report it as data
            message = f"the rules engine failed on this hand ({describe_failure(error)})"
            source = record.source
            return [*found, Problem(Code.INT001, Stage.REPLAY, source.path, source.line, message)]
    problem = parsed.problem
    if problem is None or parsed.outcome is Outcome.UNSUPPORTED:
        return []
    return [problem]


def lint_line(source: str, problem: Problem) -> str:
    marker = " [warning]" if problem.severity is Severity.WARNING else ""
    if problem.origin is not Origin.PLAY:
        marker += f" [{problem.origin}]"
    return f"{source}:{problem.line}: {problem.code}{marker} {problem.message}"


def json_line(source: str, room_hand_id: str | None, problem: Problem) -> str:
    return json.dumps(
        {
            "source": source,
            "line": problem.line,
            "room_hand_id": room_hand_id,
            "code": problem.code,
            "severity": problem.severity,
            "origin": problem.origin,
            "stage": problem.stage,
            "street": problem.street,
            "message": problem.message,
        },
        ensure_ascii=False,
    )


@dataclass(slots=True)
class FileTally:
    """Counts for one file's summary line."""

    source: str
    hands: int = 0
    replayed: int = 0
    unsupported: int = 0
    unparsed: int = 0
    strays: int = 0  # texts that start no room's hand: no hands, each one FIL001 warning
    invalid: int = 0
    errors: int = 0
    export_errors: int = 0
    internal_errors: int = 0
    warnings: int = 0

    def add(self, other: FileTally) -> None:
        """Add another file's counts (the total over every file)."""
        for name in (
            "hands",
            "replayed",
            "unsupported",
            "unparsed",
            "strays",
            "invalid",
            "errors",
            "export_errors",
            "internal_errors",
            "warnings",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def summary(self) -> str:
        play = self.errors - self.export_errors - self.internal_errors
        internal = f", {self.internal_errors} internal" if self.internal_errors else ""
        return (
            f"{self.source}: {self.hands} hands, {self.replayed} replayed "
            f"({self.invalid} with errors), {self.unparsed} unparsable, "
            f"{self.unsupported} unsupported; {self.errors} errors ({play} play, "
            f"{self.export_errors} export{internal}), {self.warnings} warnings"
        )


@dataclass(slots=True)
class Validation:
    """Output lines for a stream of parsed hands, in file order; `failed` once any error-severity
    problem was reported (the command's exit status)."""

    jsonl: bool = False
    rules: HouseRules | None = None
    failed: bool = False
    total: FileTally = field(default_factory=lambda: FileTally("total"))

    def lines(self, hands: Iterable[ParsedHand]) -> Iterator[tuple[str, bool]]:
        """(line, is_summary) pairs: the problems of each hand, and a summary after each file."""
        tally: FileTally | None = None
        for parsed in hands:
            source = parsed.hand.source.path
            if tally is None or tally.source != source:
                if tally is not None:
                    self.total.add(tally)
                    yield tally.summary(), True
                tally = FileTally(source)
            for problem in self._count(tally, parsed):
                if self.jsonl:
                    yield json_line(source, parsed.room_hand_id, problem), False
                else:
                    yield lint_line(source, problem), False
        if tally is not None:
            self.total.add(tally)
            yield tally.summary(), True

    def _count(self, tally: FileTally, parsed: ParsedHand) -> list[Problem]:
        outcome = parsed.outcome
        if outcome is Outcome.STRAY:  # no hand: only its problem counts
            tally.strays += 1
        else:
            tally.hands += 1
        if outcome is Outcome.UNSUPPORTED:
            tally.unsupported += 1
            return []
        problems = check_hand(parsed, self.rules)
        if outcome is Outcome.ERROR:
            tally.unparsed += 1
        elif outcome is Outcome.PARSED:
            tally.replayed += 1
        errors = [p for p in problems if p.severity is Severity.ERROR]
        tally.errors += len(errors)
        tally.export_errors += sum(1 for p in errors if p.origin is Origin.EXPORT)
        tally.internal_errors += sum(1 for p in errors if p.origin is Origin.INTERNAL)
        tally.warnings += len(problems) - len(errors)
        if errors:
            self.failed = True
            tally.invalid += outcome is Outcome.PARSED
        return problems
