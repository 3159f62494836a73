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

from typing import Final

import typer

from studdraw.cli import annotate, hands, reports, storage
from studdraw.pipeline.rules.specs import GAME_SPECS

_NUMBERS: Final = (
    "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
)  # fmt: skip


def _help() -> str:
    """The top help names the games of the spec table (`GameSpec.title`), nothing by hand."""
    titles = [
        title[0].lower() + title[1:] if title[1:2].islower() else title  # "A-5" stays
        for title in (spec.title for spec in GAME_SPECS.values())
    ]
    count = _NUMBERS[len(titles)] if len(titles) < len(_NUMBERS) else str(len(titles))
    return (
        f"Parse, validate, store and analyse hand histories of {count} stud and draw games: "
        f"{', '.join(titles[:-1])} and {titles[-1]}."
    )


HELP = _help()

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
    reports.tournaments,
    storage.prepare,
    storage.export,
    annotate.note,
    annotate.tag,
):
    app.command()(command)
app.command("notes")(annotate.list_notes)
