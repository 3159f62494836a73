"""A room's Lark parser and line syntax, built once per machine and then loaded from a cache.

Building a room's LALR parser from its grammar takes Lark tens of milliseconds, which every
process paid for the first hand of each room: most of `studdraw parse` on a small file, and
again in every worker of an import (issue 15). Lark can save what it built and load it back
(`cache=`, which checks that the file was built from the same grammar and options); the line
syntax, which is read from the grammar's rules that a loaded parser no longer has, is saved
beside it.

The cache lives in the user's cache folder (`$XDG_CACHE_HOME/studdraw` or `~/.cache/studdraw`;
`STUDDRAW_CACHE_DIR` names another, and an empty value turns it off), never in a shared temp
folder, because what it holds is unpickled. Its file names carry a digest of everything the
saved objects derive from (the room's grammar and the grammars it imports, the line syntax's
code, the Lark and Python versions), so an edit to any of them builds afresh. The syntax is
written whole under a temporary name and renamed into place; Lark reads back a parser file
that another process is still writing as damaged and builds instead. A cache that cannot be
read or written costs time, never an error.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import uuid
from pathlib import Path
from typing import Any

import lark as lark_package
from lark import Lark
from lark.lexer import Lexer

from studdraw.parsers.dialects import lines
from studdraw.parsers.dialects.lines import LineSyntax

CACHE_DIR_ENV = "STUDDRAW_CACHE_DIR"


def cache_folder() -> Path | None:
    """Where built grammars are kept, or None when caching is off."""
    named = os.environ.get(CACHE_DIR_ENV)
    if named is not None:
        return Path(named) / "grammars" if named else None
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "studdraw" / "grammars"


def load_parser(
    grammar: Path, lexer: type[Lexer], transformer: Any, syntax: LineSyntax | None
) -> tuple[Lark, LineSyntax]:
    """The room's LALR parser (calling `transformer` inline) and its line syntax (the one
    given, when the room already has it), from the cache when it holds them."""
    folder = cache_folder()
    if folder is None:
        parser = _open(grammar, lexer, transformer, None)
        return parser, syntax or LineSyntax.from_grammar(parser)
    stem = folder / f"{grammar.stem}-{grammar_digest(grammar)}"
    parser_file, syntax_file = stem.with_suffix(".lark"), stem.with_suffix(".syntax")
    if syntax is None:
        syntax = _load_syntax(syntax_file)
    if syntax is not None:
        # Lark loads its file, or builds from the grammar when the file is missing or damaged.
        return _open(grammar, lexer, transformer, parser_file), syntax
    # No syntax saved: build the parser from the grammar (a parser loaded from a file has no
    # rules to read the syntax from), let Lark save it, and save the syntax beside it.
    try:
        folder.mkdir(parents=True, exist_ok=True)
        parser_file.unlink(missing_ok=True)
    except OSError:
        parser = _open(grammar, lexer, transformer, None)
        return parser, LineSyntax.from_grammar(parser)
    parser = _open(grammar, lexer, transformer, parser_file)
    syntax = LineSyntax.from_grammar(parser)
    _save_syntax(syntax_file, syntax)
    return parser, syntax


def _open(grammar: Path, lexer: type[Lexer], transformer: Any, cache: Path | None) -> Lark:
    """Lark's parser; with a `cache` file, Lark loads it when it was built from this very
    grammar and these options, and otherwise builds and (re)writes it, ignoring errors."""
    return Lark.open(
        str(grammar),
        parser="lalr",
        lexer=lexer,
        transformer=transformer,
        cache=str(cache) if cache else False,
    )


def _save_syntax(path: Path, syntax: LineSyntax) -> None:
    """Written whole under a temporary name, then renamed into place."""
    partial = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}")
    try:
        partial.write_bytes(pickle.dumps(syntax, protocol=pickle.HIGHEST_PROTOCOL))
        partial.replace(path)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        partial.unlink(missing_ok=True)


def _load_syntax(path: Path) -> LineSyntax | None:
    """The saved syntax, or None when there is none that can be read."""
    try:
        syntax = pickle.loads(path.read_bytes())  # the user's own cache folder, never a shared one
    except Exception:  # missing, damaged, or saved by other code: built again, never an error
        return None
    return syntax if isinstance(syntax, LineSyntax) else None


def grammar_digest(grammar: Path) -> str:
    """What the saved parser and syntax are built from: the grammars (the room's and every
    `.lark` beside it, which it may import), the code that reads the syntax, the versions."""
    digest = hashlib.sha256()
    for path in (grammar, *sorted(grammar.parent.glob("*.lark")), Path(lines.__file__)):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    digest.update(f"{lark_package.__version__} {sys.version}".encode())
    return digest.hexdigest()[:20]
