"""The reports on a store: `stats`, `leaks`, `tournaments`, and the coach's report `report` (an
HTML page of the first two, with example hands)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from studdraw.cli.console import console
from studdraw.cli.filtering import DoubtfulOption, FilterOptions, with_filters
from studdraw.cli.shared import WaitOption, opened_store, written_aside
from studdraw.pipeline.words import plural

if TYPE_CHECKING:
    import duckdb

    from studdraw.pipeline import analytics


StoreOption = Annotated[
    Path, typer.Option("--db", help="DuckDB store, or a folder holding its Parquet dataset.")
]
JsonOption = Annotated[
    bool, typer.Option("--json", help="Print JSON records (one object per row) on stdout.")
]


@with_filters
def stats(
    *,
    db: StoreOption = Path("studdraw.duckdb"),
    player: Annotated[str | None, typer.Option(help="Only this player (all stats).")] = None,
    chosen: FilterOptions,
    json_output: JsonOption = False,
    wait: WaitOption = 60.0,
) -> None:
    """Player statistics per game and currency (definitions: docs/stats.md): every stat of one
    player (with the time played and the money and hands per hour), or a summary line per
    player, game and currency. Money is never added across
    currencies (tournament chips and play money are currencies of their own). Exits 1 when
    no player has the --player name or no hand the --currency, 2 when the store is missing,
    busy past --wait or cannot be read."""
    from studdraw.pipeline import analytics
    from studdraw.pipeline.analytics import report as analytics_report

    con = _open_report(db, player, wait, chosen.currency_code)
    filters = chosen.filters(con, player)
    frame = analytics.player_stats(con, filters)
    if player is not None:
        rates = analytics.hourly(con, filters, by_game=True)
        frame = analytics_report.with_rates(frame, rates)
    if json_output:
        sys.stdout.write(frame.write_json() + "\n")
        return
    if player is not None:
        console().print(analytics_report.player_table(frame, player))
    else:
        console().print(analytics_report.players_table(frame))
    _doubtful_note(con, filters)


@with_filters
def leaks(
    *,
    player: Annotated[str, typer.Option(help="The player to report on.", show_default=False)],
    db: StoreOption = Path("studdraw.duckdb"),
    chosen: FilterOptions,
    json_output: JsonOption = False,
    wait: WaitOption = 60.0,
) -> None:
    """A player's leaks: stats outside a solid player's reference range (full-ring tables) or
    far from the pool of the same table size and currency, ranked by severity and money at
    stake (big bets per 100 hands), with a 95% interval; says when the sample is too small.
    Exits 1 when no player has the --player name or no hand the --currency, 2 when the store
    is missing, busy past --wait or cannot be read."""
    from studdraw.pipeline import analytics
    from studdraw.pipeline.analytics import report as analytics_report

    con = _open_report(db, player, wait, chosen.currency_code)
    filters = chosen.filters(con, player)
    checked = analytics.assess(con, filters)
    found = checked.filter(checked["verdict"] == "leak")
    if json_output:
        sys.stdout.write(found.write_json() + "\n")
        return
    if found.height:
        console().print(analytics_report.leaks_table(found, player))
    console().print(analytics_report.verdict_note(checked, analytics.MIN_OPPORTUNITIES))
    _doubtful_note(con, filters)


@with_filters
def report(
    *,
    player: Annotated[str, typer.Option(help="The player to report on.", show_default=False)],
    out: Annotated[
        Path, typer.Option(help="The HTML file to write (e.g. report.html).", show_default=False)
    ],
    db: StoreOption = Path("studdraw.duckdb"),
    chosen: FilterOptions,
    wait: WaitOption = 60.0,
) -> None:
    """A coach's report on a player, to send to a student: one self-contained HTML file (no
    network: styles, charts and hands all inside) of the player's stats per game with their
    samples, results per currency, the leaks (as `leaks` finds them) charted against their
    reference ranges, and each leak's example hands as text and as PHH to replay. Written
    aside and renamed once whole. Exits 1 when no player has the --player name, no hand the
    --currency or the filters, or --out cannot be written; 2 when the store is missing, busy
    past --wait or cannot be read; 130 on Ctrl-C (nothing written)."""
    from studdraw.cli.progress import progress
    from studdraw.pipeline import coach

    stderr = console(stderr=True)
    _writable(out)
    con = _open_report(db, player, wait, chosen.currency_code)
    filters = chosen.filters(con, player)
    try:
        with progress(stderr, "report: stats and leaks"):
            analysis = coach.analyse(con, filters)
        if not analysis.hands:
            stderr.print(
                f"[red]error:[/red] no hands of {escape(repr(player))} match the filters; "
                f"nothing written to {escape(str(out))}",
                highlight=False,
            )
            _doubtful_note(con, filters)
            raise typer.Exit(code=1)
        examples = analysis.example_ids
        with (
            written_aside(out) as aside,
            progress(stderr, "report: example hands", total=len(examples)) as tracker,
        ):
            page = coach.render(coach.gather(con, db, analysis, tracker.hands))
            aside.write_text(page, encoding="utf-8", newline="\n")
    except OSError as error:
        stderr.print(f"[red]error:[/red] cannot write {escape(str(out))}: {escape(str(error))}")
        raise typer.Exit(code=1) from None
    except KeyboardInterrupt:
        stderr.print(f"[yellow]interrupted:[/yellow] nothing written to {escape(str(out))}")
        raise typer.Exit(code=130) from None
    leaks_found = analysis.checked.filter(analysis.checked["verdict"] == "leak").height
    stderr.print(
        f"wrote {out}: {plural(analysis.hands, 'hand')}, {plural(leaks_found, 'leak')}, "
        f"{plural(len(examples), 'example hand')}",
        markup=False,
        highlight=False,
    )


def _writable(out: Path) -> None:
    """Exit 1 with one line when `out` cannot be written (a folder, a missing or read-only
    folder), before any work."""
    import os

    parent = out.absolute().parent
    problem = (
        f"{out} is a folder; give the HTML file's path"
        if out.is_dir()
        else f"the folder {parent} does not exist"
        if not parent.is_dir()
        else f"the folder {parent} is not writable"
        if not os.access(parent, os.W_OK)
        else f"{out} is not writable"
        if out.exists() and not os.access(out, os.W_OK)
        else None
    )
    if problem is not None:
        console(stderr=True).print(
            f"[red]error:[/red] cannot write {escape(str(out))}: {escape(problem)}",
            highlight=False,
        )
        raise typer.Exit(code=1)


def tournaments(
    *,
    db: StoreOption = Path("studdraw.duckdb"),
    player: Annotated[str | None, typer.Option(help="Only this player.")] = None,
    include_doubtful: DoubtfulOption = False,
    json_output: JsonOption = False,
    wait: WaitOption = 60.0,
) -> None:
    """Tournament results per player and buy-in currency: tournaments played, results known
    (from the hands' finishing lines and the rooms' summary files), cost, winnings, ROI and
    in-the-money share; with --json and --player, one record per tournament. Exits 1 when no
    player has the --player name, 2 when the store is missing, busy past --wait or cannot be
    read."""
    from studdraw.pipeline import analytics
    from studdraw.pipeline.analytics import report as analytics_report

    con = _open_report(db, player, wait)
    filters = analytics.Filters(player=player, include_doubtful=include_doubtful)
    if json_output:
        frame = (
            analytics.tournament_results(con, filters)
            if player
            else analytics.tournament_summary(con, filters)
        )
        sys.stdout.write(frame.write_json() + "\n")
        return
    console().print(analytics_report.tournaments_table(analytics.tournament_summary(con, filters)))


def _open_report(
    db: Path, player: str | None, wait: float, currency: str | None = None
) -> duckdb.DuckDBPyConnection:
    """The store a report reads, once it is known to hold the player and the currency asked
    for (if any)."""
    from studdraw.pipeline import analytics

    con = opened_store(analytics.open_store, db, wait)
    if player is not None:
        _known_player(con, player)
    if currency is not None:
        _known_currency(con, currency.upper())
    return con


def _known_currency(con: duckdb.DuckDBPyConnection, currency: str) -> None:
    """Exit 1 naming the store's currencies when it holds no hand of `currency`."""
    held = [
        code for (code,) in con.sql("SELECT DISTINCT currency FROM hands ORDER BY 1").fetchall()
    ]
    if currency in held:
        return
    console(stderr=True).print(
        f"[red]error:[/red] no hands in {escape(currency)}; the store holds "
        + (", ".join(held) or "no hands"),
        highlight=False,
    )
    raise typer.Exit(code=1)


def _known_player(con: duckdb.DuckDBPyConnection, player: str) -> None:
    """Exit 1 with the nearest names when the store has no player of that name."""
    import difflib

    from studdraw.pipeline import analytics

    names = analytics.player_names(con)
    if player in names:
        return
    if not names:
        console(stderr=True).print(
            "[red]error:[/red] the store holds no hands yet; import some with "
            "`studdraw ingest PATH --db STORE`",
            highlight=False,
        )
        raise typer.Exit(code=1)
    same = [name for name in names if name.casefold() == player.casefold()]
    close = same or difflib.get_close_matches(player, names, n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(repr(name) for name in close)}?" if close else ""
    console(stderr=True).print(
        f"[red]error:[/red] no player named {escape(repr(player))}{escape(hint)}", highlight=False
    )
    raise typer.Exit(code=1)


def _doubtful_note(con: duckdb.DuckDBPyConnection, filters: analytics.Filters) -> None:
    """Say how many hands the default left out for their rule errors."""
    if filters.include_doubtful:
        return
    from studdraw.pipeline import analytics

    left_out = analytics.doubtful_hands(con, filters)
    if left_out:
        console(stderr=True).print(
            f"{plural(left_out, 'hand')} with rule errors (facts in doubt) left out; "
            "--include-doubtful counts them.",
            markup=False,
            highlight=False,
        )
