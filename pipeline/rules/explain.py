"""The words behind every problem code, read from the catalogue's packaged `problems.toml`
beside `studdraw.parsers.problems` (so an installed wheel has them): one section per code for
`studdraw validate --explain CODE` and the dashboard, and docs/violations.md written whole from
the same text with the house-rules profiles and the rules no export can show (`markdown()`;
`make docs` writes it, and a test fails when the file differs).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from studdraw.parsers.problems import Code, Origin

from .house import all_house_rules, percent_text

_CATALOGUE: Final = ("studdraw.parsers", "problems.toml")
_UNCHECKED_FILE: Final = "unchecked.toml"

ORIGIN_MEANING: Final = {
    Origin.PLAY: "the play broke the rules of the game or the room",
    Origin.EXPORT: "the room printed something impossible: a defect of the export",
    Origin.SCOPE: "outside what studdraw reads (a game, a room, text that is no hand): counted",
    Origin.INTERNAL: "studdraw failed on the hand: its bug to report, not the hand's",
}

PREFIXES: Final = (
    ("STR", "replay", "the structure of the hand: streets in order, forced bets in place, seats"),
    ("ORD", "replay", "the order of play: who acts, posts, brings in, opens a street or draws"),
    ("SIZ", "replay", "bet sizes for the street, the stakes and the betting structure"),
    ("CAP", "replay", "the raise cap"),
    ("CRD", "replay", "cards: duplicates, deals, draws, shows, the deck count"),
    ("MNY", "replay", "money: stacks, pots, uncalled bets, collects, rake"),
    ("SHW", "replay", "the showdown: the award against the best hands"),
    ("TXT", "parse", "the text of a hand: lines the room's reader does not know or cannot place"),
    ("PRS", "parse", "a hand the room's reader cannot read, for a cause no other code names"),
    ("PHH", "parse", "a PHH file's stated result (winnings, finishing stacks) against its play"),
    ("FIL", "read", "the file around the hands: text that starts no hand, text too long to read"),
    ("UNS", "read, parse", "what studdraw does not read: a game, a kind of hand, a room"),
    ("IMP", "import", "what the store cannot hold"),
    ("INT", "any", "studdraw itself: a stage that failed on a hand"),
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


def _toml(package: str, name: str) -> dict[str, Any]:
    return tomllib.loads(resources.files(package).joinpath(name).read_text(encoding="utf-8"))


@cache
def explanations() -> dict[Code, Explanation]:
    """Every code's text, in the order of the `Code` enum; a code without text (or text
    without a code) is an error of the package, raised at once. `hand` is empty for the few
    codes no short text triggers (a bug of studdraw, a line of megabytes)."""
    entries: dict[str, dict[str, str]] = _toml(*_CATALOGUE)["code"]
    missing = [code for code in Code if code not in entries]
    unknown = [name for name in entries if name not in Code.__members__]
    if missing or unknown:
        raise ValueError(
            f"{_CATALOGUE[1]}: no text for {missing}, text for unknown codes {unknown}"
        )
    return {
        code: Explanation(
            code,
            entries[code]["meaning"],
            entries[code]["why"],
            entries[code]["example"],
            entries[code].get("hand", ""),
        )
        for code in Code
    }


@cache
def unchecked() -> list[Unchecked]:
    """The rulebooks' rules no export can prove or disprove."""
    items = _toml(__package__, _UNCHECKED_FILE)["unchecked"]
    return [Unchecked(item["rule"], item["source"], item["reason"]) for item in items]


def heading(code: Code) -> str:
    return f"{code} — {code.headline}"


def body(code: Code) -> str:
    """A code's section without its heading: the facts, then the hand that triggers it."""
    text = explanations()[code]
    hand = f"\n```text\n{text.hand}```\n" if text.hand else ""
    return (
        f"- **Severity:** {code.severity}\n"
        f"- **Origin:** {code.origin} ({ORIGIN_MEANING[code.origin]})\n"
        f"- **Meaning:** {text.meaning}\n"
        f"- **Why it matters:** {text.why}\n"
        f"- **Example:** {text.example}\n"
        f"{hand}"
    )


def section(code: Code) -> str:
    """A code's whole section, as in docs/violations.md."""
    return f"## {heading(code)}\n\n{body(code)}"


def parse_code(text: str) -> Code | None:
    """A code typed by a user (any case), or None when there is no such code."""
    return Code.__members__.get(text.strip().upper())


_INTRO = """# Problem codes

<!-- Generated from parsers/problems.py and problems.toml by
studdraw.pipeline.rules.explain.markdown(); edit those, then run `make docs`. -->

Everything studdraw finds wrong in what it reads is a problem, reported as data and never as an
exception: `Problem(code, stage, path, line, message, street, event_index)`
(`studdraw.parsers.problems`), located like a linter message. Its stage says who found it:
`read` (cutting a file into hands), `parse` (the room's reader), `replay` (the rules engine,
which replays every hand and reports what breaks the rules), `import` (the store). Codes are
stable and grouped by prefix, like ruff's rule codes. `studdraw validate` prints them; the store
keeps the problems of stored hands in `violations` and a hand that could not be stored in
`rejects`, with its problem's message and line; `studdraw validate --explain CODE` prints a
code's section.

| prefix | found by | what it checks |
|---|---|---|
{prefixes}

Every code has one origin, shown apart by `studdraw validate` and the dashboard's Data quality
page:

| origin | meaning |
|---|---|
{origins}

Severity `error` means the hand is impossible as printed, under the rules of the game and the
room or as a text (it cannot be read); `warning` means some room allows it, it cannot be checked
from what the export shows, or nothing is lost by it.
Room-dependent rules come from the house-rules profiles in `pipeline/rules/house_rules.toml`
(learnt from the corpus in `../shared/corpus`, or taken from a rulebook); a user chooses one with
`--rules NAME`. Forced bets and bet sizes are checked against the stakes: the header's where the
room prints them, else the room's stake table (`pipeline/rules/stakes.toml`), else the size most
players posted (`studdraw.pipeline.rules.stakes`).

Each section ends with a minimal hand that triggers the code (a PokerStars hand, or the text of
a file), but for the few that no short text can trigger. The test
`tests/pipeline/test_rules_docs.py` reads every one of them as `studdraw validate` does (those of
the import as `studdraw ingest` does, and the others with the case it builds) and asserts that
the documented code fires. A hand may trigger other codes too, as consequences of the same
mistake.

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
        rake = "unknown" if rules.rake_percent is None else percent_text(rules.rake_percent)
        players = ", ".join(f"{kind} {limit}" for kind, limit in rules.max_players)
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
    prefixes = "\n".join(f"| `{prefix}` | {stage} | {what} |" for prefix, stage, what in PREFIXES)
    origins = "\n".join(f"| `{origin}` | {ORIGIN_MEANING[origin]} |" for origin in Origin)
    parts = [_INTRO.format(prefixes=prefixes, origins=origins)]
    parts.extend(section(code) + "\n" for code in Code)
    parts.append(_profiles())
    rows = "\n".join(f"| {u.rule} | {u.source} | {u.reason} |" for u in unchecked())
    parts.append(_UNCHECKED.format(rows=rows))
    return "".join(parts)
