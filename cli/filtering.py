"""The filter options every report shares (`stats`, `leaks`, `report`), defined once: a report
takes them as one `FilterOptions` through `with_filters`, which adds each option to the
command's own, and turns them into the analytics' `Filters` with `FilterOptions.filters`.

The allowed values of the seat facts are written out here, not read from the analytics (which
`studdraw --help` must not import, tests/test_cli_imports.py); tests/test_cli_filters.py holds
them to `analytics.features`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from studdraw.cli.console import console
from studdraw.parsers.model import Game

if TYPE_CHECKING:
    import duckdb

    from studdraw.pipeline import analytics


class Kind(StrEnum):
    CASH = "cash"
    TOURNAMENT = "tournament"


class TableSize(StrEnum):
    HEADS_UP = "heads-up"
    SHORT_HANDED = "short-handed"
    FULL_RING = "full ring"


class Position(StrEnum):
    """`analytics.features.POSITIONS`: draw positions, then stud's."""

    EARLY = "early"
    MIDDLE = "middle"
    CUTOFF = "cutoff"
    BUTTON = "button"
    SMALL_BLIND = "small blind"
    BIG_BLIND = "big blind"
    BRING_IN = "bring-in"
    LATE = "late"


class Door(StrEnum):
    """`analytics.features.DOOR_RANKS`."""

    ACE = "A"
    KING = "K"
    QUEEN = "Q"
    JACK = "J"
    TEN = "T"
    NINE = "9"
    EIGHT = "8"
    SEVEN = "7"
    SIX = "6"
    FIVE = "5"
    FOUR = "4"
    THREE = "3"
    TWO = "2"


class StartGroup(StrEnum):
    """`analytics.features.START_GROUPS`."""

    ROLLED_UP = "rolled up"
    BURIED_PAIR = "buried pair"
    SPLIT_PAIR = "split pair"
    THREE_LOW = "three low"
    THREE_FLUSH = "three-flush"
    THREE_STRAIGHT = "three-straight"
    OTHER = "other"
    PAIRED = "paired"
    A_LOW = "A low"
    LOW_3 = "3 low"
    LOW_4 = "4 low"
    LOW_5 = "5 low"
    LOW_6 = "6 low"
    LOW_7 = "7 low"
    LOW_8 = "8 low"
    LOW_9 = "9 low"
    T_LOW = "T low"
    J_LOW = "J low"
    Q_LOW = "Q low"
    K_LOW = "K low"


DoubtfulOption = Annotated[
    bool,
    typer.Option(
        "--include-doubtful",
        help="Count hands with an error-severity violation too (left out by default: their "
        "facts are in doubt).",
    ),
]
_OPTIONS: dict[str, Any] = {
    "game": Annotated[Game | None, typer.Option(help="Only this game.")],
    "currency": Annotated[
        str | None,
        typer.Option(help="Only hands of this currency: USD, EUR, GBP, PLAY (play money), CHIPS."),
    ],
    "kind": Annotated[Kind | None, typer.Option(help="Only cash games or only tournaments.")],
    "table_size": Annotated[TableSize | None, typer.Option(help="Only tables of this size.")],
    "room": Annotated[str | None, typer.Option(help="Only hands of this room (pokerstars, ...).")],
    "stakes": Annotated[
        str | None,
        typer.Option(
            help="Only these stakes, as the rooms print them: 0.10/0.20 (fixed limit: the bets; "
            "pot and no limit: the blinds), or the big one alone (0.20)."
        ),
    ],
    "since": Annotated[
        datetime | None,
        typer.Option(formats=["%Y-%m-%d"], help="Only hands from this day on (UTC, YYYY-MM-DD)."),
    ],
    "until": Annotated[
        datetime | None,
        typer.Option(formats=["%Y-%m-%d"], help="Only hands up to this day, included (UTC)."),
    ],
    "position": Annotated[
        Position | None,
        typer.Option(
            help="Only the hands played from this position. Draw: early, middle, cutoff, button, "
            "small blind, big blind (counted from the button over the players dealt in); stud: "
            "bring-in, early, late (the first and second half of the seats acting after the "
            "bring-in). Quote the names with a space.",
            show_default=False,
        ),
    ],
    "door": Annotated[
        Door | None,
        typer.Option(
            help="Stud: only the hands whose door card (the first up card) has this rank.",
            case_sensitive=False,
            show_default=False,
        ),
    ],
    "start_group": Annotated[
        StartGroup | None,
        typer.Option(
            help="Stud: only the hands of this starting-hand group (the three 3rd-street cards, "
            "known for the hero): stud and stud hi/lo rolled up to other; razz and 2-7 razz by "
            "the highest card (8 low), any pair being paired.",
            show_default=False,
        ),
    ],
    "include_doubtful": DoubtfulOption,
}
"""Each filter option's type and help, by the `FilterOptions` field it fills."""


@dataclass(frozen=True, slots=True)
class FilterOptions:
    """The filter options as given on the command line."""

    game: Game | None = None
    currency: str | None = None
    kind: Kind | None = None
    table_size: TableSize | None = None
    room: str | None = None
    stakes: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    position: Position | None = None
    door: Door | None = None
    start_group: StartGroup | None = None
    include_doubtful: bool = False

    @property
    def currency_code(self) -> str | None:
        return self.currency.upper() if self.currency else None

    def filters(self, con: duckdb.DuckDBPyConnection, player: str | None) -> analytics.Filters:
        """The analytics' filters for `player`; stakes are looked up in the store (exit 1
        when it holds none such)."""
        from studdraw.pipeline import analytics

        currency = self.currency_code
        return analytics.Filters(
            player=player,
            stakes=_big_bet(con, self.stakes, currency) if self.stakes else None,
            room=self.room.strip().lower() if self.room else None,
            date_from=self.since.date() if self.since else None,
            date_to=self.until.date() if self.until else None,
            game=str(self.game) if self.game else None,
            currency=currency,
            kind=self.kind.value if self.kind else None,
            table_size=self.table_size.value if self.table_size else None,
            position=self.position.value if self.position else None,
            door=self.door.value if self.door else None,
            start_group=self.start_group.value if self.start_group else None,
            include_doubtful=self.include_doubtful,
        )


CHOSEN = "chosen"
"""The parameter of a command that receives its `FilterOptions`."""


def with_filters(command: Callable[..., None]) -> Callable[..., None]:
    """`command` with every filter option in place of its `chosen` parameter: typer reads the
    options from the signature, and the command gets them as one `FilterOptions`."""
    own = list(inspect.signature(command, eval_str=True).parameters.values())
    at = [parameter.name for parameter in own].index(CHOSEN)
    added = [
        inspect.Parameter(
            field.name, inspect.Parameter.KEYWORD_ONLY, default=field.default,
            annotation=_OPTIONS[field.name],
        )
        for field in fields(FilterOptions)
    ]  # fmt: skip
    parameters = [*own[:at], *added, *own[at + 1 :]]

    def run(**given: Any) -> None:
        chosen = FilterOptions(
            **{field.name: given.pop(field.name) for field in fields(FilterOptions)}
        )
        command(**given, chosen=chosen)

    run.__name__ = command.__name__
    run.__qualname__ = command.__qualname__
    run.__module__ = command.__module__
    run.__doc__ = command.__doc__
    run.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    run.__annotations__ = {parameter.name: parameter.annotation for parameter in parameters}
    return run


def _big_bet(con: duckdb.DuckDBPyConnection, asked: str, currency: str | None) -> int:
    """The big bet (smallest units) of the stakes `asked` names; exit 1 naming the store's
    stakes when it holds none such, or asking for --currency when they are of several."""
    from studdraw.pipeline.analytics import inventory

    found = inventory.stakes_matching(con, asked, currency)
    if len({big_bet for _, _, big_bet in found}) == 1:
        return found[0][2]
    if found:
        named = ", ".join(f"{label} ({code})" for code, label, _ in found)
        problem = f"{asked!r} names stakes of several currencies: {named}; add --currency"
    else:
        held = inventory.stakes_held(con, currency)
        problem = f"no hands at stakes {asked!r}; the store holds " + (", ".join(held) or "none")
    console(stderr=True).print(f"[red]error:[/red] {escape(problem)}", highlight=False)
    raise typer.Exit(code=1)
