"""The words behind every violation code, read from the packaged `codes.toml` (so an installed
wheel has them): one section per code for `studdraw validate --explain CODE` and the dashboard,
and docs/violations.md written whole from the same text (`markdown()`; a test keeps the file
equal to it).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from .codes import Code, Family
from .house import all_house_rules

_FILE: Final = "codes.toml"

FAMILY_MEANING: Final = {
    Family.PLAY: "the play broke the rules of the game or the room",
    Family.EXPORT: "the room printed something impossible: a defect of the export",
}

PREFIXES: Final = (
    ("STR", "the structure of the hand: streets in order, forced bets in place, seats"),
    ("ORD", "the order of play: who acts, posts, brings in, opens a street or draws"),
    ("SIZ", "bet sizes for the street, the stakes and the betting structure"),
    ("CAP", "the raise cap"),
    ("CRD", "cards: duplicates, deals, draws, shows, the deck count"),
    ("MNY", "money: stacks, pots, uncalled bets, collects, rake"),
    ("SHW", "the showdown: the award against the best hands"),
    ("TXT", "the text of the export: lines the room's reader does not know or cannot place"),
    ("PRS", "parsing (reported by `studdraw validate`)"),
)


@dataclass(frozen=True, slots=True)
class Explanation:
    """What a code means, why it matters, and a minimal hand that triggers it."""

    code: Code
    meaning: str
    why: str
    example: str
    hand: str


@dataclass(frozen=True, slots=True)
class Unchecked:
    """A rule of the rulebooks that a hand history cannot show, and why."""

    rule: str
    source: str
    reason: str


@cache
def _data() -> dict[str, Any]:
    text = resources.files(__package__).joinpath(_FILE).read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def explanations() -> dict[Code, Explanation]:
    """Every code's text, in the order of the `Code` enum; a code without text (or text
    without a code) is an error of the package, raised at once."""
    entries: dict[str, dict[str, str]] = _data()["code"]
    missing = [code for code in Code if code not in entries]
    unknown = [name for name in entries if name not in Code.__members__]
    if missing or unknown:
        raise ValueError(f"{_FILE}: no text for {missing}, text for unknown codes {unknown}")
    return {
        code: Explanation(
            code,
            entries[code]["meaning"],
            entries[code]["why"],
            entries[code]["example"],
            entries[code]["hand"],
        )
        for code in Code
    }


def unchecked() -> list[Unchecked]:
    """The rulebooks' rules no export can prove or disprove."""
    return [
        Unchecked(item["rule"], item["source"], item["reason"]) for item in _data()["unchecked"]
    ]


def heading(code: Code) -> str:
    return f"{code} — {code.headline}"


def body(code: Code) -> str:
    """A code's section without its heading: the facts, then the hand that triggers it."""
    text = explanations()[code]
    return (
        f"- **Severity:** {code.severity}\n"
        f"- **Family:** {code.family} ({FAMILY_MEANING[code.family]})\n"
        f"- **Meaning:** {text.meaning}\n"
        f"- **Why it matters:** {text.why}\n"
        f"- **Example:** {text.example}\n\n"
        f"```text\n{text.hand}```\n"
    )


def section(code: Code) -> str:
    """A code's whole section, as in docs/violations.md."""
    return f"## {heading(code)}\n\n{body(code)}"


def parse_code(text: str) -> Code | None:
    """A code typed by a user (any case), or None when there is no such code."""
    return Code.__members__.get(text.strip().upper())


_INTRO = """# Violation codes

<!-- Generated from pipeline/rules/codes.py and codes.toml by
studdraw.pipeline.rules.explain.markdown(); edit those, not this file. -->

The rules engine (`studdraw.pipeline.rules`) replays every hand and reports what breaks the rules
as data: a `Violation(code, severity, street, event_index, line, message)`, never an exception.
Codes are stable and grouped by prefix, like ruff's rule codes; `studdraw validate --explain
CODE` prints a code's section.

| prefix | what it checks |
|---|---|
{prefixes}

Every code belongs to one of two families, shown apart by `studdraw validate` and the dashboard's
Data quality page:

| family | meaning |
|---|---|
{families}

Severity `error` means the sequence is impossible under the rules of the game and the room;
`warning` means some room allows it, or it cannot be checked from what the export shows.
Room-dependent rules come from the house-rules profiles in `pipeline/rules/house_rules.toml`
(learnt from the corpus in `../shared/corpus`, or taken from a rulebook); a user chooses one with
`--rules NAME`. Forced bets and bet sizes are checked against the stakes: the header's where the
room prints them, else the room's stake table (`pipeline/rules/stakes.toml`), else the size most
players posted (`studdraw.pipeline.rules.stakes`).

Each section ends with a minimal PokerStars hand that triggers the code. The test
`tests/pipeline/test_rules_docs.py` parses every one of them with the PokerStars room and
asserts that the documented code fires. A hand may trigger other codes too, as consequences of
the same mistake.

"""

_PROFILE_COLUMNS: Final = (
    "profile",
    "raises after the bet",
    "cap lifted for two",
    "tied boards open",
    "bring-in",
    "bring-in tie",
    "burn cards",
    "rake",
    "odd chip",
    "dead blinds",
    "most players",
    "source",
)

_UNCHECKED = """## Rules an export cannot show

The rulebooks in `../shared/rules` hold rules that no hand history can prove or disprove; the
engine does not check them, for the reason given.

| rule | rulebook | why it is not checked |
|---|---|---|
{rows}
"""


def _profiles() -> str:
    """The house-rules profiles as a table: what each one says and where it comes from."""
    heads_up = {"never": "no", "last_round": "last round", "two_left": "as soon as two are left"}
    burns = {None: "unknown", True: "yes", False: "no"}
    lines = [
        "## House-rules profiles\n",
        "Rooms get their own profile (by the hand's room) unless `--rules NAME` chooses one.\n",
        "| " + " | ".join(_PROFILE_COLUMNS) + " |",
        "|" + "---|" * len(_PROFILE_COLUMNS),
    ]
    for name, rules in all_house_rules().items():
        rake = "unknown" if rules.rake_percent is None else f"{rules.rake_percent}%"
        players = ", ".join(f"{family} {limit}" for family, limit in rules.max_players)
        cells = (
            f"`{name}`",
            str(rules.max_raises),
            heads_up[rules.heads_up_cap],
            rules.first_actor_tie_break,
            rules.bring_in_size,
            rules.bring_in_tie_break,
            burns[rules.burn_cards],
            rake,
            rules.odd_chip,
            "yes" if rules.dead_blinds else "no",
            players or "the game's",
            rules.source or "the room's exports (`house_rules.toml` cites them)",
        )
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n\n"


def markdown() -> str:
    """docs/violations.md."""
    prefixes = "\n".join(f"| `{prefix}` | {what} |" for prefix, what in PREFIXES)
    families = "\n".join(f"| `{family}` | {FAMILY_MEANING[family]} |" for family in Family)
    parts = [_INTRO.format(prefixes=prefixes, families=families)]
    parts.extend(section(code) + "\n" for code in Code)
    parts.append(_profiles())
    rows = "\n".join(f"| {u.rule} | {u.source} | {u.reason} |" for u in unchecked())
    parts.append(_UNCHECKED.format(rows=rows))
    return "".join(parts)
