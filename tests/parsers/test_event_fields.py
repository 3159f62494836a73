"""The `Event` field list is written out more than once for the compiled build's sake (mypyc makes
a direct call of a written-out `__init__` and of `HandBuilder.add` cheap, a `**fields` call not):
these tests hold every copy to the dataclass's own fields, so a field added in one place and
forgotten in another fails here, not in a store. They read the sources (with `ast`): a compiled
function has no signature to inspect."""

from __future__ import annotations

import ast
from pathlib import Path

import studdraw.parsers

PARSERS = Path(studdraw.parsers.__file__).parent
NO_DEFAULT = "(none)"


def _functions(module: str, class_name: str) -> dict[str, ast.FunctionDef]:
    tree = ast.parse((PARSERS / module).read_text(encoding="utf-8"))
    found = next(
        node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == class_name
    )
    return {node.name: node for node in found.body if isinstance(node, ast.FunctionDef)}


def _fields() -> list[tuple[str, str]]:
    """The dataclass's fields in order, with their defaults as source text."""
    tree = ast.parse((PARSERS / "model.py").read_text(encoding="utf-8"))
    event = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Event")
    return [
        (node.target.id, NO_DEFAULT if node.value is None else ast.unparse(node.value))
        for node in event.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
    ]


def _parameters(function: ast.FunctionDef) -> list[tuple[str, str]]:
    """A function's parameters after `self`, with their defaults as source text."""
    arguments = function.args
    positional = arguments.posonlyargs + arguments.args
    defaults = [NO_DEFAULT] * (len(positional) - len(arguments.defaults)) + [
        ast.unparse(value) for value in arguments.defaults
    ]
    keyword = [NO_DEFAULT if d is None else ast.unparse(d) for d in arguments.kw_defaults]
    pairs = list(zip((a.arg for a in positional), defaults, strict=True))
    pairs += list(zip((a.arg for a in arguments.kwonlyargs), keyword, strict=True))
    return [pair for pair in pairs if pair[0] != "self"]


def test_the_fields_are_read() -> None:
    names = [name for name, _ in _fields()]
    assert names[:3] == ["kind", "line", "street"]
    assert "run" in names


def test_the_written_out_init_takes_the_fields_in_order() -> None:
    assert _parameters(_functions("model.py", "Event")["__init__"]) == _fields()


def test_the_builder_passes_every_field_but_the_street_in_play() -> None:
    add = _parameters(_functions("builder.py", "HandBuilder")["add"])
    assert sorted(add) == sorted(pair for pair in _fields() if pair[0] != "street")


def test_the_phh_reader_names_only_fields_with_their_defaults() -> None:
    defaults = dict(_fields())
    taken = dict(_parameters(_functions("phh/play.py", "Play")["_add"]))
    assert set(taken) <= set(defaults), set(taken) - set(defaults)
    # `street=None` means the street in play; the others default as the fields do.
    optional = [n for n, v in taken.items() if v != NO_DEFAULT and n != "street"]
    assert {n: taken[n] for n in optional} == {n: defaults[n] for n in optional}
