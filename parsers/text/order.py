"""The order of a hand's sections, checked a line at a time from the grammar's LALR table.

A room's rules (header, seats, forced bets, streets, showdown, summary) are the one source of
the order a hand's lines may come in; Lark compiles them into an LALR parse table. Parsing with
Lark costs several Python calls per token and builds a tree nobody reads. But whether a line
kind may come next depends only on the parser's stack of table states, and a room's rules nest
no section in itself (Lark's repetitions are left-recursive), so only a few hundred stacks can
ever occur. `SectionOrder` numbers the stacks it meets and remembers each move, from a stack on
a line kind, that Lark's own parser step (`ParserState.feed_token`) made: once a move is known,
checking a line is one dictionary look-up. A move that fails is never remembered: it is run by
Lark's parser every time, so the error is Lark's own `UnexpectedToken` (its token, its expected
kinds), exactly what plain Lark parsing raises (`tests/parsers/test_section_order.py` compares
both on the corpus and on random hands).
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterable
from typing import Any, Final, Protocol, cast

from lark import Lark, Token
from lark.parsers.lalr_parser_state import ParseConf, ParserState

END: Final = "$END"
"""Lark's name for the end of the input."""
MAX_STACKS: Final = 100_000
"""More parser stacks than this means the rules nest a section in itself: no finite table."""

Stack = tuple[Hashable, ...]


class Kinded(Protocol):
    """A token as Lark's parser reads it: its kind is all that counts."""

    @property
    def type(self) -> str: ...


class SectionOrder:
    """The moves of a room's LALR parser between its stacks, one per line kind, learnt from
    Lark's parser as hands meet them.

    A position is a stack's number; `START` is the empty hand. `step` and `finish` raise Lark's
    `UnexpectedToken` exactly where plain Lark parsing would. Shared by threads: learning a move
    takes a lock, reading the known ones does not.
    """

    START: Final = 0

    def __init__(self, lark: Lark, start: str = "start") -> None:
        table = lark.parser.parser.parser.parse_table
        self._conf: ParseConf[Any] = ParseConf(table, {}, start)
        first: Stack = (self._conf.start_state,)
        self._stacks: list[Stack] = [first]
        self._numbers: dict[Stack, int] = {first: self.START}
        self._moves: list[dict[str, int]] = [{}]
        self._ends: list[bool] = [False]
        self._learning = threading.Lock()

    def step(self, at: int, token: Kinded) -> int:
        """The position after a line of kind `token.type` at position `at`."""
        after = self._moves[at].get(token.type)
        return self._learn(at, token) if after is None else after

    def finish(self, at: int) -> None:
        """Check that a hand may end at position `at`."""
        if not self._ends[at]:
            self._feed(self._stacks[at], Token(END, ""), end=True)
            self._ends[at] = True

    def check(self, tokens: Iterable[Kinded]) -> None:
        """Check a whole hand's line tokens, then its end."""
        at = self.START
        step = self.step
        for token in tokens:
            at = step(at, token)
        self.finish(at)

    @property
    def size(self) -> int:
        """The number of parser stacks met so far."""
        return len(self._stacks)

    def _learn(self, at: int, token: Kinded) -> int:
        """Lark's step from position `at` on `token`, remembered when it succeeds."""
        after = self._feed(self._stacks[at], token)
        with self._learning:
            number = self._numbers.get(after)
            if number is None:
                if len(self._stacks) >= MAX_STACKS:
                    raise ValueError("the grammar's rules nest a section in itself")
                number = self._numbers[after] = len(self._stacks)
                self._stacks.append(after)
                self._moves.append({})
                self._ends.append(False)
            self._moves[at][token.type] = number
        return number

    def _feed(self, stack: Stack, token: Kinded, end: bool = False) -> Stack:
        """Lark's parser step from `stack` on `token`: the stack after it, or Lark's error."""
        values: list[Any] = [None] * (len(stack) - 1)  # Lark's parser keeps a value per shift
        state = ParserState(self._conf, cast(Any, None), list(stack), values)
        state.feed_token(cast(Token, token), end)
        return tuple(state.state_stack)
