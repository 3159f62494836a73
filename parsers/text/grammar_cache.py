"""A room's Lark parser and line syntax, built once per machine and then loaded from a cache.

Building a room's LALR parser from its grammar takes Lark tens of milliseconds, which every
process paid for the first hand of each room: most of `studdraw parse` on a small file, and
again in every worker of an import (issue 15). Lark can save what it built and load it back
(`cache=`, which checks that the file was built from the same grammar and options); the line
syntax, which is read from the grammar's rules that a loaded parser no longer has, is saved
beside it, and so is the room's opening (its hand start and hand id patterns), apart: every
process reads every room's opening to sniff its first file, and only some rooms' parsers.
Where and how: `studdraw.parsers.cache`. The names carry a digest of the room's
grammar and the grammars it imports, the line syntax's code and module path, and the Lark
version: code that moved to another package names new files rather than meeting pickles of
classes it no longer has. Lark reads back a parser file that another process is still writing
as damaged and builds instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

import lark as lark_package
from lark import Lark
from lark.lexer import Lexer

from studdraw.parsers import cache
from studdraw.parsers.text import lines
from studdraw.parsers.text.lines import STARTS, LineSyntax, Opening

COMMON: Final = Path(__file__).with_name("common.lark")
"""The shared pieces of every room grammar's line terminals."""


def load_parser(grammar: Path, lexer: type[Lexer]) -> tuple[Lark, LineSyntax, Opening]:
    """The room's LALR parser, its line syntax and its opening, from the cache when it holds
    them."""
    folder = cache.cache_folder("grammars")
    if folder is None:
        return _built(grammar, lexer, None)
    stem = _stem(folder, grammar)
    loaded, opening = cache.load(stem.with_suffix(".syntax")), load_opening(grammar)
    if isinstance(loaded, LineSyntax) and opening is not None:
        # Lark loads its file, or builds from the grammar when the file is missing or damaged.
        return _open(grammar, lexer, stem.with_suffix(".lark")), loaded, opening
    # No syntax saved: build the parser from the grammar (a parser loaded from a file has no
    # rules to read the syntax from), let Lark save it, and save the syntax and opening beside.
    try:
        folder.mkdir(parents=True, exist_ok=True)
        stem.with_suffix(".lark").unlink(missing_ok=True)
    except OSError:
        return _built(grammar, lexer, None)
    parser, syntax, opening = _built(grammar, lexer, stem.with_suffix(".lark"))
    cache.save(stem.with_suffix(".syntax"), syntax)
    cache.save(stem.with_suffix(".opening"), opening)
    return parser, syntax, opening


def load_opening(grammar: Path) -> Opening | None:
    """The room's opening from the cache, or None when it is not there (`load_parser` builds
    and saves it)."""
    folder = cache.cache_folder("grammars")
    loaded = None if folder is None else cache.load(_stem(folder, grammar).with_suffix(".opening"))
    return loaded if isinstance(loaded, Opening) else None


def _stem(folder: Path, grammar: Path) -> Path:
    return folder / f"{grammar.stem}-{grammar_digest(grammar)}"


def _built(
    grammar: Path, lexer: type[Lexer], saved: Path | None
) -> tuple[Lark, LineSyntax, Opening]:
    parser = _open(grammar, lexer, saved)
    return parser, LineSyntax.from_grammar(parser), Opening.from_grammar(parser)


def _open(grammar: Path, lexer: type[Lexer], saved: Path | None) -> Lark:
    """Lark's parser; with a `saved` file, Lark loads it when it was built from this very
    grammar and these options, and otherwise builds and (re)writes it, ignoring errors. A room
    grammar's `%import common (...)` finds the shared pieces beside this module (before Lark's
    own grammars of that name)."""
    return Lark.open(
        str(grammar),
        parser="lalr",
        lexer=lexer,
        start=list(STARTS),
        import_paths=[str(COMMON.parent)],
        cache=str(saved) if saved else False,
    )


def grammar_digest(grammar: Path) -> str:
    """What the saved parser and syntax are built from: the grammars (the room's, every `.lark`
    beside it, which it may import, and the shared pieces), the code that reads the syntax and
    where it lives (a pickled `LineSyntax` names its module), Lark's version."""
    sources = (grammar, *sorted(grammar.parent.glob("*.lark")), COMMON, Path(lines.__file__))
    return cache.digest(sources, LineSyntax.__module__, lark_package.__version__)
