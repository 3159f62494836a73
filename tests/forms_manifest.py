"""The line-form manifests of tests/parsers/forms: reading them, and measuring what the parser of
the day does with each handwritten hand (the manifests' `today` field).

`python -m tests.forms_manifest [ROOM ...]` measures every hand again and rewrites each `today`
line in place (nothing else in the file changes), then prints how many hands read clean."""

from __future__ import annotations

import json
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

from studdraw.parsers.model import ParsedHand
from studdraw.parsers.reader import parse_file
from studdraw.pipeline.rules.validate import check_hand
from tests.parsers.records import net_results

REPO_ROOT = Path(__file__).resolve().parents[1]
FORMS = REPO_ROOT / "tests" / "parsers" / "forms"
CLEAN = "parses, validates clean"

HandKey = tuple[str, str | None]


def rooms() -> list[str]:
    return sorted(path.parent.name for path in FORMS.glob("*/MANIFEST.toml"))


def manifest(room: str) -> list[dict[str, Any]]:
    hands: list[dict[str, Any]] = tomllib.loads((FORMS / room / "MANIFEST.toml").read_text())[
        "hand"
    ]
    return hands


def parsed_hands(room: str) -> dict[HandKey, ParsedHand]:
    """Every hand the parser splits out of the room's folder, by (file name, hand id); a file no
    room recognises yields one entry with the id None."""
    return {
        (path.name, parsed.room_hand_id): parsed
        for path in sorted((FORMS / room).glob("*.txt"))
        for parsed in parse_file(path)
    }


def find(facts: dict[str, Any], parsed: dict[HandKey, ParsedHand]) -> ParsedHand | None:
    return parsed.get((facts["file"], facts["id"])) or parsed.get((facts["file"], None))


def measure(facts: dict[str, Any], parsed: ParsedHand | None) -> str:
    """What the parser does with one hand, in the words of the manifests' `today` field."""
    if parsed is None:
        return "missing: the splitter did not yield this hand"
    if parsed.problem is not None:
        problem = parsed.problem
        return f"{parsed.outcome}: {problem.message} (line {problem.line})"
    record = parsed.record
    assert record is not None
    wrong = [
        f"{name} {got} (want {facts[name]})"
        for name, got in (
            ("game", str(record.game)),
            ("structure", str(record.structure)),
            ("currency", str(record.currency)),
            ("scale", record.scale),
        )
        if got != facts[name]
    ]
    nets = net_results(record)
    if nets != facts["net"]:
        wrong.append(f"nets {nets} (want {facts['net']})")
    errors = sorted({v.code for v in check_hand(parsed) if v.severity == "error"})
    today = "wrong: " + "; ".join(wrong) if wrong else "parses"
    if errors:
        return f"{today} | validate: {', '.join(errors)}"
    return today if wrong else CLEAN


def rewrite_today(room: str) -> tuple[int, int]:
    """Measure the room's hands and rewrite their `today` lines; (hands, hands read clean)."""
    path = FORMS / room / "MANIFEST.toml"
    parsed = parsed_hands(room)
    todays = iter([measure(facts, find(facts, parsed)) for facts in manifest(room)])
    clean = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal clean
        today = next(todays)
        clean += today == CLEAN
        return f"today = {json.dumps(today, ensure_ascii=False)}"

    text, count = re.subn(r"(?m)^today = .*$", replace, path.read_text())
    path.write_text(text)
    return count, clean


def main(argv: list[str]) -> None:
    for room in argv or rooms():
        hands, clean = rewrite_today(room)
        print(f"{room}: {clean} of {hands} hands read clean")


if __name__ == "__main__":
    main(sys.argv[1:])
