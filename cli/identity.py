"""`studdraw identity link|split|list`: which accounts (room and name) are one person, kept in the
notes file beside the store (pipeline/identities.py) and used by every report: a person's
stats, leaks, sessions and tournaments are those of all its accounts."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from studdraw.cli.console import console
from studdraw.cli.shared import WaitOption, opened_store

if TYPE_CHECKING:
    import duckdb

    from studdraw.pipeline.identities import Account

app = typer.Typer(
    name="identity",
    help="Link accounts (ROOM:NAME) into one person, split them again, list the persons.",
    no_args_is_help=True,
)

StoreOption = Annotated[
    Path,
    typer.Option(
        "--db", help="The store whose accounts are linked (DuckDB file or Parquet folder)."
    ),
]
PersonArgument = Annotated[str, typer.Argument(help="The person's name (as reports show it).")]


@app.command()
def link(
    person: PersonArgument,
    accounts: Annotated[
        list[str], typer.Argument(help="Accounts as ROOM:NAME (pokerstars:Hero fulltilt:Hero_ft).")
    ],
    *,
    db: StoreOption = Path("studdraw.duckdb"),
    wait: WaitOption = 60.0,
) -> None:
    """Link accounts to a person (made if new): from then on each counts under the person only,
    in every report. An account linked to another person moves. Exits 1 on an account that is
    not ROOM:NAME or names a room the store holds no hand of; warns (and links) when the store
    holds no hand of the account yet, naming the nearest of its accounts."""
    from studdraw.pipeline import identities, notes
    from studdraw.pipeline.export import open_store

    chosen = _accounts(accounts)
    who = _person(person)
    with opened_store(open_store, db, wait) as con:
        _check(con, chosen)
    path = notes.notes_path(db)
    moved = identities.link(path, who, chosen)
    out = console()
    for account, was in sorted(moved.items()):
        out.print(f"{escape(str(account))} moved from {escape(repr(was))}", highlight=False)
    out.print(
        f"linked {', '.join(escape(str(a)) for a in chosen)} to {escape(repr(who))} "
        f"in {escape(str(path))}",
        highlight=False,
    )


@app.command()
def split(
    person: PersonArgument,
    accounts: Annotated[
        list[str] | None,
        typer.Argument(help="The accounts (ROOM:NAME) to take off; none: every one."),
    ] = None,
    *,
    db: StoreOption = Path("studdraw.duckdb"),
) -> None:
    """Take accounts off a person (all of them when none is named): each counts under its own
    name again. Exits 1 when the person has no such account."""
    from studdraw.pipeline import identities, notes

    chosen = _accounts(accounts or [])
    who = _person(person)
    path = notes.notes_path(db)
    held = identities.persons(identities.links(path)).get(who, [])
    missing = [a for a in chosen if a not in held]
    if not held or missing:
        has = ", ".join(str(a) for a in held) or "no account"
        problem = f"{who!r} holds {has}" + (
            f", not {', '.join(str(a) for a in missing)}" if missing else ""
        )
        console(stderr=True).print(f"[red]error:[/red] {escape(problem)}", highlight=False)
        raise typer.Exit(code=1)
    taken = identities.split(path, who, chosen)
    console().print(
        f"split {', '.join(escape(str(a)) for a in taken)} from {escape(repr(who))}",
        highlight=False,
    )


@app.command("list")
def list_persons(
    *,
    db: StoreOption = Path("studdraw.duckdb"),
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON records.")] = False,
) -> None:
    """The persons and their accounts, by name."""
    from rich.table import Table

    from studdraw.pipeline import identities, notes

    found = identities.persons(identities.links(notes.notes_path(db)))
    if json_output:
        rows = [
            {"person": who, "accounts": [{"room": a.room, "name": a.name} for a in held]}
            for who, held in found.items()
        ]
        sys.stdout.write(json.dumps(rows) + "\n")
        return
    if not found:
        console().print("no accounts linked: every account counts under its name")
        return
    table = Table("person", "accounts")
    for who, held in found.items():
        table.add_row(escape(who), escape(", ".join(str(a) for a in held)))
    console().print(table)


def _accounts(texts: list[str]) -> list[Account]:
    """The ROOM:NAME arguments as accounts, each once; exit 1 on one that is not."""
    from studdraw.pipeline.identities import account

    try:
        return list(dict.fromkeys(account(text) for text in texts))
    except ValueError as error:
        console(stderr=True).print(f"[red]error:[/red] {escape(str(error))}", highlight=False)
        raise typer.Exit(code=1) from None


def _person(text: str) -> str:
    from studdraw.pipeline.identities import person_name

    try:
        return person_name(text)
    except ValueError as error:
        console(stderr=True).print(f"[red]error:[/red] {escape(str(error))}", highlight=False)
        raise typer.Exit(code=1) from None


def _check(con: duckdb.DuckDBPyConnection, accounts: list[Account]) -> None:
    """Exit 1 on an account of a room the store holds no hand of; warn on one the store has no
    hand of, with the nearest names of that room (a typo, or hands not imported yet)."""
    import difflib

    rooms = [
        room for (room,) in con.execute("SELECT DISTINCT room FROM hands ORDER BY 1").fetchall()
    ]
    stderr = console(stderr=True)
    for account in accounts:
        if account.room not in rooms:
            held = ", ".join(rooms) or "no hands"
            stderr.print(
                f"[red]error:[/red] {escape(str(account))}: the store holds no hand of the room "
                f"{escape(repr(account.room))}; it holds {escape(held)}",
                highlight=False,
            )
            raise typer.Exit(code=1)
    for account in accounts:
        names = [
            name
            for (name,) in con.execute(
                "SELECT DISTINCT p.name FROM hand_players p JOIN hands h USING (hand_id) "
                "WHERE h.room = ?",
                [account.room],
            ).fetchall()
        ]
        if account.name in names:
            continue
        same = [name for name in names if name.casefold() == account.name.casefold()]
        close = same or difflib.get_close_matches(account.name, names, n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(repr(name) for name in close)}?" if close else ""
        stderr.print(
            f"[yellow]warning:[/yellow] no hand of {escape(str(account))} in the store "
            f"(linked all the same){escape(hint)}",
            highlight=False,
        )
