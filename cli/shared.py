"""What several command modules share: the paths argument, the --rules option and the checks
that turn a bad store path or rules profile into one line and exit 2."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from studdraw.cli.console import console

if TYPE_CHECKING:
    from studdraw.pipeline.rules.house import HouseRules


PathsArgument = Annotated[
    list[Path],
    typer.Argument(help="Hand-history files or folders, searched recursively.", show_default=False),
]


RulesOption = Annotated[
    str | None,
    typer.Option(
        "--rules",
        help="Replay every hand under this house-rules profile (a rulebook's, e.g. "
        "casinos-austria, or a room's) instead of its room's; see docs/violations.md.",
        show_default=False,
    ),
]


def chosen_rules(name: str | None) -> HouseRules | None:
    """The profile named by --rules; exits 2 naming the choices when there is none."""
    if name is None:
        return None
    from studdraw.pipeline.rules.house import house_rules_named

    try:
        return house_rules_named(name)
    except ValueError as error:
        console(stderr=True).print(f"[red]error:[/red] {error}", markup=False, highlight=False)
        raise typer.Exit(code=2) from None


def check_store(db: Path, *, write: bool) -> None:
    """Exit 2 with one line when `db` cannot be a store (a folder, another kind of file, not
    writable), before DuckDB would answer with a traceback."""
    from rich.markup import escape

    from studdraw.pipeline.store.db import StoreOpenError, check_store_path

    try:
        check_store_path(db, write=write)
    except StoreOpenError as error:
        console(stderr=True).print(f"[red]error:[/red] {escape(str(error))}")
        raise typer.Exit(code=2) from None
