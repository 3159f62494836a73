"""`build_pots`: the main pot and side pots from what each player put in, table-driven."""

from __future__ import annotations

import pytest

from studdraw.pipeline.rules.showdown import build_pots

CASES = [
    # (invested, folded, all_in, dead) -> pots
    pytest.param((5, 5, 5), (False,) * 3, (False,) * 3, (), [(15, (0, 1, 2))], id="one pot"),
    pytest.param(
        (10, 5, 10),
        (False,) * 3,
        (False, True, False),
        (),
        [(15, (0, 1, 2)), (10, (0, 2))],
        id="a short all-in makes a side pot",
    ),
    pytest.param(
        (7, 5, 5, 15),
        (False, False, False, False),
        (False, True, False, False),
        (2, 0, 0, 0),
        [(22, (0, 1, 2, 3)), (10, (0, 2, 3))],
        id="a dead blind joins the main pot, never a level (OnGame R5-81962116-233)",
    ),
    pytest.param(
        (7, 5, 5),
        (False, False, False),
        (False, True, False),
        (2, 0, 0),
        [(17, (0, 1, 2))],
        id="a dead blind over a short all-in makes no side pot",
    ),
]


@pytest.mark.parametrize(("invested", "folded", "all_in", "dead", "pots"), CASES)
def test_pots(
    invested: tuple[int, ...],
    folded: tuple[bool, ...],
    all_in: tuple[bool, ...],
    dead: tuple[int, ...],
    pots: list[tuple[int, tuple[int, ...]]],
) -> None:
    assert build_pots(invested, folded, all_in, dead) == pots
