"""A room grammar's line terminals, compiled into the line classifier of its reader.

Each room's `.lark` file declares one terminal per line kind, in the order the classifier tries
them (the first kind whose pattern matches the whole line wins), built from the shared pieces of
`common.lark`. The pieces name the parts a handler reads (`player`, `amount`, `cards`, ...), and
the same part name serves every kind. Python's `re` forbids one group name twice in a pattern,
so the classifier is the alternation of the kinds' patterns with their groups made
non-capturing (which also makes it faster: capture groups cost), and the line is then matched by
its kind's own pattern, whose groups the handler reads by their plain names.

Which kinds the reader may check once per run when they repeat is read from the grammar's
rules too (`repeating_kinds`), so nothing about the grammar is kept by hand outside it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from lark import Lark, Tree
from lark.grammar import NonTerminal, Terminal

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
        """The syntax of a built Lark parser: its terminals in declaration order."""
        kinds = [(t.name, t.pattern.to_regexp()) for t in lark.terminals]
        return cls(kinds, repeating_kinds(lark))

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
