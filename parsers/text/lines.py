"""A room grammar's line terminals, compiled into the line classifier of its reader.

Each room's `.lark` file declares one terminal per line kind, in the order the classifier tries
them (the first kind whose pattern matches the whole line wins), built from the shared pieces of
`common.lark`. The pieces name the parts a handler reads (`player`, `amount`, `cards`, ...), and
the same part name serves every kind. Python's `re` forbids one group name twice in a pattern,
so the classifier is the alternation of the kinds' patterns with their groups made
non-capturing (which also makes it faster: capture groups cost), and the line is then matched by
its kind's own pattern, whose groups the handler reads by their plain names.

Which kinds the reader may check once per run when they repeat is read from the grammar's
rules too (`repeating_kinds`), and so is how a hand opens (`Opening`: the grammar's `hand_start`
and `hand_id` rules), so nothing about the grammar is kept by hand outside it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from lark import Lark, Tree
from lark.grammar import NonTerminal, Terminal
from lark.lexer import TerminalDef

START: Final = "start"
"""The rule of a hand's lines: its terminals are the line kinds."""
HAND_START: Final = "hand_start"
"""The rule naming the line prefixes that open a hand (terminals of parts, never line kinds)."""
HAND_ID: Final = "hand_id"
"""The rule naming the parts of a hand's first lines whose part `id` is the hand's id."""
STARTS: Final = (START, HAND_START, HAND_ID)
"""Every room grammar's start rules."""
ID_PART: Final = "id"
ID_GROUP: Final = f"(?P<{ID_PART}>"
PLAYER_GROUP: Final = "(?P<player>"
SEAT_KIND: Final = "SEAT"
"""The kind that seats players: its player part defines a name, so it is never pinned."""
_GROUP: Final = re.compile(r"\(\?P<(\w+)>")

Matcher = Callable[[str], "re.Match[str] | None"]


@dataclass(frozen=True, slots=True)
class LineKind:
    """One line kind: its terminal's pattern and the parts (named groups) it has."""

    name: str
    pattern: str  # the terminal's regex
    parts: frozenset[str]
    match: Matcher  # the kind's own pattern, anchored at both ends


class LineSyntax:
    """The line kinds of one grammar, the classifier built from them, and the per-name
    patterns that pin a line's player to a seated name (see `pinned`)."""

    def __init__(self, kinds: Sequence[tuple[str, str]], repeating: Iterable[str]) -> None:
        self.kinds: dict[str, LineKind] = {}
        alternatives = []
        for name, pattern in kinds:
            parts = frozenset(_GROUP.findall(pattern))
            own = re.compile(f"(?:{pattern})$").match
            self.kinds[name] = LineKind(name, pattern, parts, own)
            alternatives.append(f"(?P<{name}>{_GROUP.sub('(?:', pattern)})$")
        self.classifier = re.compile("|".join(alternatives))
        self.matchers = {name: kind.match for name, kind in self.kinds.items()}
        self.parts = {name: kind.parts for name, kind in self.kinds.items()}
        self.with_player_in_order = tuple(
            name
            for name, kind in self.kinds.items()
            if "player" in kind.parts and name != SEAT_KIND
        )
        self.with_player = frozenset(self.with_player_in_order)
        self.repeating = frozenset(repeating)
        self._pinned: dict[tuple[str, str], Matcher] = {}

    @classmethod
    def from_grammar(cls, lark: Lark) -> LineSyntax:
        """The syntax of a built Lark parser: the terminals of its hands' lines (the `start`
        rule's), in declaration order."""
        kinds = rule_terminals(lark, START)
        return cls([(t.name, t.pattern.to_regexp()) for t in kinds], repeating_kinds(lark))

    def pinned(self, kind: str, player: str) -> Matcher:
        """The kind's pattern with its player part fixed to one name. Cached: the same
        players meet the same line kinds all session long."""
        key = (kind, player)
        matcher = self._pinned.get(key)
        if matcher is None:
            if len(self._pinned) > 4096:
                self._pinned.clear()
            source = _pin_player(self.kinds[kind].pattern, player)
            matcher = self._pinned[key] = re.compile(f"(?:{source})$").match
        return matcher


@dataclass(frozen=True, slots=True)
class Opening:
    """How a room's hands open, read from its grammar's `hand_start` and `hand_id` rules: the
    splitter cuts a file where `hand_start` matches at a line's start, and a hand's id is read
    from its first lines by `hand_id` without parsing the hand. Plain patterns, no compiled
    ones: a process loads every room's opening to sniff a file (`grammar_cache`), so it must
    cost next to nothing to load."""

    hand_start: str
    """The alternation of the `hand_start` terminals, their groups made non-capturing (the
    splitters join the hand starts of all rooms into one pattern)."""
    hand_ids: tuple[str, ...]
    """The `hand_id` terminals, each with one group left: its part `id`."""

    @classmethod
    def from_grammar(cls, lark: Lark) -> Opening:
        starts = [t.pattern.to_regexp() for t in rule_terminals(lark, HAND_START)]
        ids = []
        for terminal in rule_terminals(lark, HAND_ID):
            pattern = terminal.pattern.to_regexp()
            if ID_PART not in _GROUP.findall(pattern):
                raise ValueError(f"{terminal.name}, a {HAND_ID} terminal, has no part {ID_PART!r}")
            ids.append(_GROUP.sub(_id_only, pattern))
        if not starts or not ids:
            raise ValueError(f"a room grammar names its {HAND_START} and its {HAND_ID}")
        return cls("|".join(f"(?:{_GROUP.sub('(?:', start)})" for start in starts), tuple(ids))

    def hand_id_pattern(self, first: int = 0) -> str:
        """The alternation of the `hand_id` patterns, their parts numbered apart from `first`
        on (`id0`, `id1`, ...: one pattern cannot name a group twice)."""
        return "|".join(
            f"(?:{pattern.replace(ID_GROUP, f'(?P<{ID_PART}{first + number}>')})"
            for number, pattern in enumerate(self.hand_ids)
        )


def _id_only(group: re.Match[str]) -> str:
    return ID_GROUP if group[1] == ID_PART else "(?:"


def rule_terminals(lark: Lark, rule: str) -> list[TerminalDef]:
    """The terminals a rule reaches (through the rules it names), in declaration order."""
    expansions: dict[str, list[Sequence[Any]]] = {}
    for compiled in lark.rules:
        expansions.setdefault(compiled.origin.name, []).append(compiled.expansion)
    reached: set[str] = set()
    seen: set[str] = set()
    pending = [rule]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        for expansion in expansions.get(name, []):
            for symbol in expansion:
                if symbol.is_term:
                    reached.add(symbol.name)
                else:
                    pending.append(symbol.name)
    return [t for t in lark.terminals if t.name in reached]


def _pin_player(pattern: str, player: str) -> str:
    """Replace the `(?P<player>...)` group of a pattern by the literal name."""
    start = pattern.index(PLAYER_GROUP)
    depth, index, in_class = 0, start, False
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            index += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                break
        index += 1
    return f"{pattern[:start]}(?P<player>{re.escape(player)}){pattern[index + 1 :]}"


def repeating_kinds(lark: Lark) -> set[str]:
    """The line kinds that the grammar's rules only ever repeat: every place a kind appears is
    inside a `*` or `+` whose body reaches it through alternatives alone (`(A | KIND | B)*`,
    `KIND+`). A run of such lines parses the same as one, so the reader checks the order once
    per run; a kind placed singly anywhere (a header, a street marker) is never merged."""
    rules: dict[str, Any] = {str(name): tree for name, _, tree, _ in lark.grammar.rule_defs}
    single: set[str] = set()
    repeated: set[str] = set()
    visited: set[tuple[str, bool]] = set()

    def walk(node: Any, repeat: bool) -> None:
        if isinstance(node, Terminal):
            (repeated if repeat else single).add(node.name)
        elif isinstance(node, NonTerminal):
            if (node.name, repeat) not in visited and node.name in rules:
                visited.add((node.name, repeat))
                walk(rules[node.name], repeat)
        elif isinstance(node, Tree):
            children = node.children
            if node.data == "expansion":
                repeat = repeat and len(children) == 1
            elif node.data == "expr":
                op = str(children[1]) if len(children) == 2 else ""
                repeat = repeat or op in ("*", "+")
                if op not in ("*", "+", "?"):
                    repeat = False
                children = children[:1]
            for child in children:
                walk(child, repeat)

    walk(rules["start"], False)
    return repeated - single
