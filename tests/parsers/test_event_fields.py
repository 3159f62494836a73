"""The `Event` field list is written out more than once for the compiled build's sake (mypyc makes
a direct call of a written-out `__init__` and of `HandBuilder.add` cheap, a `**fields` call not):
these tests hold every copy to the dataclass's own fields, so a field added in one place and
forgotten in another fails here, not in a store."""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable

from studdraw.parsers.builder import HandBuilder
from studdraw.parsers.model import Event
from studdraw.parsers.phh.play import Play

FIELDS = [(f.name, f.default) for f in dataclasses.fields(Event)]


def parameters(function: Callable[..., object]) -> list[tuple[str, object]]:
    """A function's parameters after `self`, with their defaults (`MISSING` where none)."""
    signature = inspect.signature(function)
    return [
        (p.name, dataclasses.MISSING if p.default is inspect.Parameter.empty else p.default)
        for p in signature.parameters.values()
        if p.name != "self"
    ]


def test_the_written_out_init_takes_the_fields_in_order() -> None:
    assert parameters(Event.__init__) == FIELDS


def test_the_builder_passes_every_field_but_the_street_in_play() -> None:
    assert sorted(parameters(HandBuilder.add)) == sorted(
        (name, default) for name, default in FIELDS if name != "street"
    )


def test_the_phh_reader_names_only_fields_with_their_defaults() -> None:
    defaults = dict(FIELDS)
    taken = dict(parameters(Play._add))
    assert set(taken) <= set(defaults), set(taken) - set(defaults)
    # `street=None` means the street in play; the others default as the fields do.
    optional = [n for n, v in taken.items() if v is not dataclasses.MISSING and n != "street"]
    assert {n: taken[n] for n in optional} == {n: defaults[n] for n in optional}
