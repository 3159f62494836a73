"""The bare `re` line parser that the parse and ingest benchmarks measure studdraw against.

Issue 15 sets the speed targets as ratios to this baseline, measured in the same run on the
same file: what a hand-written reader costs when it does the least a reader can do. It knows no
room, builds no model and checks nothing: it reads the file, splits it into lines and gives each
line one tuple, `(kind, *parts)`, from the first of a few compiled patterns that matches (one
per line kind, the kinds every text room prints: action, deal, street, seat, collect, summary,
header, and blank lines; anything else is `("other", line)`). An XML room's line gives a
tuple per element, its tag and its attributes as pairs. Written here, apart from the project's
grammars, on purpose: a faster grammar must not make the baseline faster too.

`matched_share` says how many lines the baseline classed as a kind it knows, so a room whose
lines mostly fall through to "other" (a cheaper path) is seen for what it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

AMOUNT = r"[$€£]?\s*(\d[\d,]*(?:\.\d+)?)"
VERBS = (
    "folds", "checks", "calls", "bets", "raises", "completes", "brings in", "bring in",
    "bring-ins", "bring_in chip", "posts", "ante chip", "antes", "ante", "small blind",
    "big blind", "is all-in", "discards", "discard", "draws", "stands pat", "shows", "mucks",
    "does not show", "changed",
)  # fmt: skip
VERB = "|".join(sorted({form for verb in VERBS for form in (verb, verb.capitalize())}))

# Tried in this order, the most frequent kinds first; each starts with what fails fastest.
TEXT_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "action",
        re.compile(r"(?:Player )?([^:\[]+?) ?:? (" + VERB + r")\b(?:\D*" + AMOUNT + ")?"),
    ),
    (
        "deal",
        re.compile(
            r"(?:Dealt to |Player )?(.+?) ?:? ?(?:Card dealt to a spot |received card: )?"
            r"\[ *([^\]]*?) *\](?: \[([^\]]*)\])?\s*$"
        ),
    ),
    ("street", re.compile(r"\*+ *([^*]+?) *\*+\s*$")),
    ("seat", re.compile(r"Seat[ +](\d+)[^:]*: *(?:(.+?) *\( *)?" + AMOUNT)),
    (
        "collect",
        re.compile(r"(?:Player )?([^:]+?) ?:? (?:collected|wins|won|Hand result)\D*" + AMOUNT),
    ),
    ("summary", re.compile(r"(?:Total pot|Board|Rake|Seat \d+:|Table\b)(.*)")),
    ("header", re.compile(r".*?\b(?:Hand|Game|HandId)\b *(?:#|No *:|ID *:|:)? *#?(\d[\w-]*)")),
)
ELEMENT = re.compile(r"<(/?)([\w:]+)((?:\s+[\w:]+\s*=\s*\"[^\"]*\")*)\s*(/?)>([^<]*)")
ATTRIBUTE = re.compile(r"([\w:]+)\s*=\s*\"([^\"]*)\"")


def text_lines(lines: Iterable[str]) -> tuple[int, int]:
    """Each line to a tuple, by the first kind that matches; (lines, lines of a known kind)."""
    kinds = TEXT_KINDS
    known = total = 0
    out: list[tuple[str | None, ...]] = []
    for line in lines:
        total += 1
        if not line:
            out.append(("blank",))
            known += 1
            continue
        for kind, pattern in kinds:
            found = pattern.match(line)
            if found is not None:
                out.append((kind, *found.groups()))
                known += 1
                break
        else:
            out.append(("other", line))
    return total, known


def xml_lines(lines: Iterable[str]) -> tuple[int, int]:
    """Each element of each line to a tuple (tag, closing, attribute pairs, text)."""
    known = total = 0
    out: list[tuple[object, ...]] = []
    for line in lines:
        total += 1
        found = False
        for element in ELEMENT.finditer(line):
            closing, tag, attributes, _empty, text = element.groups()
            out.append((tag, closing, ATTRIBUTE.findall(attributes), text))
            found = True
        if found:
            known += 1
        else:
            out.append(("other", line))
    return total, known


def read(path: Path, *, xml: bool) -> tuple[int, int]:
    """Read one UTF-8 file line by line as the baseline does; (lines, lines of a known kind)."""
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    return xml_lines(lines) if xml else text_lines(lines)
