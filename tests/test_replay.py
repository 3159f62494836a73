"""The replayer's words for a hand: position names and raise sizes as players read them."""

from __future__ import annotations

import polars as pl
import pytest

from studdraw.dashboard.replay import position_name, raise_sizes


@pytest.mark.parametrize(
    ("position", "players", "stud", "expected"),
    [
        ("BTN", 6, False, "BTN"),
        ("SB", 6, False, "SB"),
        ("BB", 2, False, "BB"),
        ("BTN+3", 6, False, "UTG"),
        ("BTN+4", 6, False, "HJ"),
        ("BTN+5", 6, False, "CO"),
        ("BTN+3", 5, False, "UTG"),
        ("BTN+4", 5, False, "CO"),
        ("BTN+3", 4, False, "CO"),
        ("BTN+4", 8, False, "UTG+1"),
        ("BTN+6", 8, False, "HJ"),
        ("BTN+7", 8, False, "CO"),
        ("BI", 8, True, "bring-in"),
        ("BI+3", 8, True, "BI+3"),
        (None, 8, True, None),
    ],
)
def test_position_names(position: str | None, players: int, stud: bool, expected: str) -> None:
    assert position_name(position, players, stud=stud) == expected


def test_raise_sizes_count_from_the_highest_bet_before() -> None:
    # Stud 3rd street: bring-in 2, completion to 4, raise to 8 (by 4), re-raise to 12 (by 4);
    # 4th street: bet 8, raise to 16 (by 8). Antes are dead money and never count.
    rows = [
        (0, 0, "A", "ante", 1, None),
        (1, 0, "B", "ante", 1, None),
        (2, 0, "A", "bring_in", 2, 2),
        (3, 0, "B", "complete", 4, 4),
        (4, 0, "A", "raise", 6, 8),
        (5, 0, "B", "raise", 8, 12),
        (6, 1, "A", "bet", 8, 8),
        (7, 1, "B", "raise", 16, 16),
    ]
    actions = pl.DataFrame(
        rows, schema=["seq", "street", "actor", "kind", "amount", "to_amount"], orient="row"
    )
    assert raise_sizes(actions) == {4: 4, 5: 4, 7: 8}
