"""The `studdraw` command line's commands (`app`), run by `studdraw.cli.main`.

Each command is a thin shell over one stage's public functions; the contract of every command's
output (columns, JSON keys, exit codes) is stable, because scripts and later stages build on it.
The commands live in modules by what they work on: hand-history files (`hands`), the store
(`storage`), the reports on a store (`reports`); `shared` holds what several of them use.

A command imports its stage when it runs, never at module level: `studdraw --help` or parsing
one file must not load DuckDB, polars, pyarrow or the analytics (tests/test_cli_imports.py).
Only what the options' annotations name (typer reads them) is imported up front, and it is light;
every module here is imported to start the command line, so each keeps to that.
"""

from __future__ import annotations

import typer

from studdraw.cli import annotate, hands, identity, reports, storage

HELP = (
    "Parse, validate, store and analyse hand histories of fourteen stud and draw games: "
    "seven-card stud, stud hi/lo, razz, five-card stud, 2-7 razz, 2-7 triple draw, A-5 triple "
    "draw, badugi, 2-7 single draw, five-card draw, A-5 single draw, badacey, badeucey and "
    "drawmaha."
)
"""Written out, not built from `GAME_SPECS`: importing the spec table loads the rules engine,
which `studdraw --help` must not (tests/test_cli_imports.py); tests/test_cli_first_hour.py
holds it to the table (every game's title, and their number)."""

app = typer.Typer(
    name="studdraw",
    help=HELP,
    no_args_is_help=True,
    add_completion=False,
)


@app.callback(help=HELP)
def studdraw() -> None:
    """The command line's root: its help is `HELP`."""


# The commands, in the order `studdraw --help` lists them.
for command in (
    hands.parse,
    hands.validate,
    storage.ingest,
    hands.synth,
    storage.dashboard,
    reports.stats,
    reports.leaks,
    reports.report,
    reports.tournaments,
    storage.prepare,
    storage.export,
    annotate.note,
    annotate.tag,
):
    app.command()(command)
app.command("notes")(annotate.list_notes)
app.add_typer(identity.app)
