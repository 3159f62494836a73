"""`studdraw validate`: the rules engine as a linter over hand-history files.

Each violation becomes one line, `file:line: CODE message` (warnings and defects of the export
marked), or one JSON object with --jsonl; each file ends with a summary line that counts the two
families apart: play that broke the rules, and defects of the export. A hand that cannot be
parsed is reported as PRS001 with the parser's message and line; hands of games outside scope
are only counted. `rules` replays every hand under one house-rules profile instead of its room's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from studdraw.parsers.model import Outcome, ParsedHand
from studdraw.parsers.reader import describe_failure

from .codes import Code, Family, Violation, from_finding
from .house import HouseRules
from .replay import replay


def check_hand(parsed: ParsedHand, rules: HouseRules | None = None) -> list[Violation]:
    """The violations of one parsed hand: its reader's findings (TXT...) then the replay's; for
    a hand that failed to parse, its parse error (TXT... when the reader gave it a code, else
    PRS001); none for an unsupported hand."""
    record = parsed.record
    if record is not None:
        found = [from_finding(finding) for finding in record.findings]
        try:
            return found + replay(record, rules).violations
        except Exception as error:  # an engine bug must not stop the run: report it as data
            message = f"the rules engine failed on this hand ({describe_failure(error)})"
            crash = Violation(
                Code.PRS001, Code.PRS001.severity, None, None, record.source.line, message
            )
            return [*found, crash]
    problem = parsed.problem
    if problem is None or problem.outcome is not Outcome.ERROR:
        return []
    code = Code.PRS001 if problem.code is None else Code[problem.code]
    return [Violation(code, code.severity, None, None, problem.line, problem.message)]


def lint_line(source: str, violation: Violation) -> str:
    marker = " [warning]" if violation.severity == "warning" else ""
    if violation.code.family is Family.EXPORT:
        marker += " [export]"
    return f"{source}:{violation.line}: {violation.code}{marker} {violation.message}"


def json_line(source: str, room_hand_id: str | None, violation: Violation) -> str:
    return json.dumps(
        {
            "source": source,
            "line": violation.line,
            "room_hand_id": room_hand_id,
            "code": violation.code,
            "severity": violation.severity,
            "family": violation.code.family,
            "street": violation.street,
            "message": violation.message,
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
    invalid: int = 0
    errors: int = 0
    export_errors: int = 0
    warnings: int = 0

    def add(self, other: FileTally) -> None:
        """Add another file's counts (the total over every file)."""
        for name in (
            "hands",
            "replayed",
            "unsupported",
            "unparsed",
            "invalid",
            "errors",
            "export_errors",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.warnings += other.warnings

    def summary(self) -> str:
        play = self.errors - self.export_errors
        return (
            f"{self.source}: {self.hands} hands, {self.replayed} replayed "
            f"({self.invalid} with errors), {self.unparsed} unparsable, "
            f"{self.unsupported} unsupported; {self.errors} errors ({play} play, "
            f"{self.export_errors} export), {self.warnings} warnings"
        )


@dataclass(slots=True)
class Validation:
    """Output lines for a stream of parsed hands, in file order; `failed` once any error-severity
    violation was reported (the command's exit status)."""

    jsonl: bool = False
    rules: HouseRules | None = None
    failed: bool = False
    total: FileTally = field(default_factory=lambda: FileTally("total"))

    def lines(self, hands: Iterable[ParsedHand]) -> Iterator[tuple[str, bool]]:
        """(line, is_summary) pairs: the violations of each hand, and a summary after each file."""
        tally: FileTally | None = None
        for parsed in hands:
            source = parsed.hand.source.path
            if tally is None or tally.source != source:
                if tally is not None:
                    self.total.add(tally)
                    yield tally.summary(), True
                tally = FileTally(source)
            violations = self._count(tally, parsed)
            for violation in violations:
                if self.jsonl:
                    yield json_line(source, parsed.room_hand_id, violation), False
                else:
                    yield lint_line(source, violation), False
        if tally is not None:
            self.total.add(tally)
            yield tally.summary(), True

    def _count(self, tally: FileTally, parsed: ParsedHand) -> list[Violation]:
        tally.hands += 1
        if parsed.outcome is Outcome.UNSUPPORTED:
            tally.unsupported += 1
            return []
        violations = check_hand(parsed, self.rules)
        if parsed.outcome is Outcome.ERROR:
            tally.unparsed += 1
        else:
            tally.replayed += 1
        errors = sum(1 for v in violations if v.severity == "error")
        tally.errors += errors
        tally.export_errors += sum(
            1 for v in violations if v.severity == "error" and v.code.family is Family.EXPORT
        )
        tally.warnings += len(violations) - errors
        if errors:
            self.failed = True
            tally.invalid += parsed.outcome is Outcome.PARSED
        return violations
