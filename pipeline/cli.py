"""The `studdraw` command line.

Each command is a thin shell over one stage's public functions; the contract of every command's
output (columns, JSON keys, exit codes) is stable, because scripts and later stages build on it.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import duckdb
import typer
from rich.console import Console
from rich.table import Table

from studdraw.parsers.files import discover_files
from studdraw.parsers.model import Game, Outcome, ParsedHand, Structure
from studdraw.parsers.reader import open_history, parse_hand
from studdraw.parsers.serialize import parsed_hand_to_dict
from studdraw.pipeline import analytics
from studdraw.pipeline.analytics import report as analytics_report
from studdraw.pipeline.console import console
from studdraw.pipeline.progress import file_progress
from studdraw.pipeline.rules.validate import Validation
from studdraw.pipeline.store.ingest import DEFAULT_BATCH, DEFAULT_TASK_BYTES
from studdraw.pipeline.store.report import Engine, run_ingest
from studdraw.pipeline.synth import DEFAULT_START, SynthOptions, render, synthesize

app = typer.Typer(
    name="studdraw",
    help="Parse, validate, store and analyse stud and triple-draw hand histories.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def studdraw() -> None:
    """Parse, validate, store and analyse stud and triple-draw hand histories."""


PathsArgument = Annotated[
    list[Path],
    typer.Argument(help="Hand-history files or folders, searched recursively.", show_default=False),
]


class UnreadableFiles:
    """Files that could not be read: reported on stderr, and the command exits non-zero."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.count = 0

    def report(self, path: Path, error: OSError) -> None:
        self.count += 1
        self.console.print(f"[red]error:[/red] cannot read {path}: {error.strerror or error}")


def iter_parsed(paths: list[Path], unreadable: UnreadableFiles) -> Iterator[ParsedHand]:
    """Every hand of every file under `paths`, parsed, in a stable order."""
    files = list(discover_files(paths))
    with file_progress(files, unreadable.console) as advance:
        for path in files:
            try:
                history = open_history(path)
                for hand in history.hand_texts():
                    yield parse_hand(hand)
            except OSError as error:
                unreadable.report(path, error)
            advance(path)


@app.command()
def parse(
    paths: PathsArgument,
    jsonl: Annotated[
        bool, typer.Option("--jsonl", help="One JSON object per hand on stdout.")
    ] = False,
) -> None:
    """Parse hand histories and summarise them per site and game (or print them as JSON)."""
    stderr = console(stderr=True)
    unreadable = UnreadableFiles(stderr)
    counts: Counter[tuple[str, str, Outcome]] = Counter()
    out = sys.stdout
    for parsed in iter_parsed(paths, unreadable):
        if jsonl:
            out.write(json.dumps(parsed_hand_to_dict(parsed), ensure_ascii=False) + "\n")
        game = str(parsed.record.game) if parsed.record else _label(parsed)
        counts[(parsed.hand.site or "unknown", game, parsed.outcome)] += 1
    if not jsonl:
        console().print(_summary_table(counts))
    if unreadable.count:
        raise typer.Exit(code=1)


@app.command()
def validate(
    paths: PathsArgument,
    jsonl: Annotated[
        bool, typer.Option("--jsonl", help="One JSON object per violation on stdout.")
    ] = False,
) -> None:
    """Replay hands through the rules engine; print each violation as `file:line: CODE message`
    and a summary per file. Exits 1 if any error-severity violation (or unreadable file)."""
    stderr = console(stderr=True)
    unreadable = UnreadableFiles(stderr)
    validation = Validation(jsonl=jsonl)
    for line, is_summary in validation.lines(iter_parsed(paths, unreadable)):
        if is_summary and jsonl:
            stderr.print(line, markup=False, highlight=False)
        else:
            sys.stdout.write(line + "\n")
    if validation.failed or unreadable.count:
        raise typer.Exit(code=1)


@app.command()
def ingest(
    paths: PathsArgument,
    *,
    db: Annotated[Path, typer.Option(help="DuckDB file (created if missing).")] = Path(
        "studdraw.duckdb"
    ),
    parquet: Annotated[
        Path | None,
        typer.Option(help="Also write a hive-partitioned Parquet dataset in this folder."),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            help="Worker processes (default: the number of cores); 1 runs in-process.", min=1
        ),
    ] = None,
    batch_size: Annotated[
        int, typer.Option(help="Hands per transaction (local engine; Dask: one per task).", min=1)
    ] = DEFAULT_BATCH,
    wait: Annotated[
        float, typer.Option(help="Seconds to wait for another process using the database.")
    ] = 60.0,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the summary as one JSON object on stdout.")
    ] = False,
    engine: Annotated[
        Engine,
        typer.Option(
            help="local: a process pool on this machine; dask: Dask tasks on a cluster "
            "(docs/scaling.md). The store is the same."
        ),
    ] = Engine.LOCAL,
    scheduler: Annotated[
        str | None,
        typer.Option(
            help="With --engine dask: the scheduler, tcp://HOST:PORT (default: a LocalCluster "
            "of --workers processes)."
        ),
    ] = None,
    task_mb: Annotated[
        int, typer.Option(help="With --engine dask: MiB of history text per task.", min=1)
    ] = DEFAULT_TASK_BYTES >> 20,
) -> None:
    """Import hand histories into the store: parse, replay, normalize, write (idempotent).
    Exits 1 if a file could not be read, 2 if the database is busy or incompatible (or the
    Dask engine cannot start)."""
    if scheduler is not None and engine is not Engine.DASK:
        console(stderr=True).print("[red]error:[/red] --scheduler needs --engine dask")
        raise typer.Exit(code=2)
    code = run_ingest(
        paths,
        db=db,
        parquet=parquet,
        workers=workers,
        batch_size=batch_size,
        wait=wait,
        json_output=json_output,
        engine=engine,
        scheduler=scheduler,
        task_bytes=task_mb << 20,
    )
    if code:
        raise typer.Exit(code=code)


@app.command()
def synth(
    game: Annotated[Game, typer.Option(help="The game to deal.")],
    hands: Annotated[int, typer.Option(help="How many hands.", min=1)],
    *,
    site: Annotated[
        str, typer.Option(help="The room whose export format to write.")
    ] = "pokerstars",
    structure: Annotated[Structure, typer.Option(help="Betting structure.")] = Structure.FIXED,
    players: Annotated[
        str, typer.Option(help="Players per hand: a number or a range like 2-8.")
    ] = "2-8",
    seed: Annotated[int, typer.Option(help="Random seed: the same seed gives the same file.")] = 0,
    hero: Annotated[str, typer.Option(help="The player seated in every hand.")] = "Hero",
    session_hands: Annotated[
        int, typer.Option(help="Hands per session; sessions are hours apart (0: one session).")
    ] = 0,
    start: Annotated[
        datetime | None,
        typer.Option(
            help="Time of the first hand, UTC (default 2026-03-02 18:00).",
            formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d"],
        ),
    ] = None,
    out: Annotated[Path | None, typer.Option(help="Write to this file instead of stdout.")] = None,
) -> None:
    """Deal random legal hands with the rules engine and write them as a room's export."""
    low, _, high = players.partition("-")
    try:
        options = SynthOptions(
            site=site,
            game=game,
            structure=structure,
            hands=hands,
            min_players=int(low),
            max_players=int(high or low),
            seed=seed,
            hero=hero,
            session_hands=session_hands,
            start=start.replace(tzinfo=UTC) if start else DEFAULT_START,
        )
        texts = (render(record, site) for record in synthesize(options))
        target = out.open("w", encoding="utf-8") if out else sys.stdout
        try:
            for text in texts:
                target.write(text + "\n\n\n")
        finally:
            if out:
                target.close()
    except ValueError as error:
        console(stderr=True).print(f"[red]error:[/red] {error}")
        raise typer.Exit(code=2) from None


@app.command()
def dashboard(
    db: Annotated[
        Path, typer.Option(help="The store: a DuckDB file or a Parquet dataset folder.")
    ] = Path("studdraw.duckdb"),
    port: Annotated[int, typer.Option(help="Port to serve on.", min=1, max=65535)] = 8501,
    address: Annotated[
        str, typer.Option(help="Address to listen on (0.0.0.0 for every interface).")
    ] = "localhost",
) -> None:
    """Serve the Streamlit dashboard on a store, read-only, until interrupted.
    Exits 2 if the store does not exist."""
    if not db.exists():
        console(stderr=True).print(
            f"[red]error:[/red] {db} does not exist; build it with `studdraw ingest PATH --db {db}`"
        )
        raise typer.Exit(code=2)
    from studdraw.dashboard.launch import serve  # noqa: PLC0415 - Streamlit only loads here

    serve(db, port, address)


StoreOption = Annotated[
    Path, typer.Option("--db", help="DuckDB store, or a folder holding its Parquet dataset.")
]
JsonOption = Annotated[
    bool, typer.Option("--json", help="Print JSON records (one object per row) on stdout.")
]


@app.command()
def stats(
    db: StoreOption = Path("studdraw.duckdb"),
    player: Annotated[str | None, typer.Option(help="Only this player (all stats).")] = None,
    game: Annotated[Game | None, typer.Option(help="Only this game.")] = None,
    json_output: JsonOption = False,
) -> None:
    """Player statistics per game (definitions: docs/stats.md): every stat of one player, or a
    summary line per player and game."""
    filters = analytics.Filters(player=player, game=str(game) if game else None)
    frame = analytics.player_stats(_open_analytics(db), filters)
    if json_output:
        sys.stdout.write(frame.write_json() + "\n")
    elif player is not None:
        console().print(analytics_report.player_table(frame, player))
    else:
        console().print(analytics_report.players_table(frame))


@app.command()
def leaks(
    player: Annotated[str, typer.Option(help="The player to report on.", show_default=False)],
    db: StoreOption = Path("studdraw.duckdb"),
    json_output: JsonOption = False,
) -> None:
    """A player's leaks: stats outside a solid player's reference range or far from the pool,
    ranked by severity and money at stake (big bets per 100 hands)."""
    frame = analytics.leaks(_open_analytics(db), analytics.Filters(player=player))
    if json_output:
        sys.stdout.write(frame.write_json() + "\n")
    else:
        console().print(analytics_report.leaks_table(frame, player))


@app.command()
def prepare(
    db: Annotated[Path, typer.Option("--db", help="DuckDB store.")] = Path("studdraw.duckdb"),
) -> None:
    """Keep the analytics' per-hand rows in the store, so stats and the dashboard stay fast on
    big stores (idempotent: afterwards only new hands are derived)."""
    if not db.is_file():
        console(stderr=True).print(f"[red]error:[/red] no DuckDB store at {db}")
        raise typer.Exit(code=2)
    done = analytics.prepare(db)
    console().print(
        f"derived {done.derived_hands} hands; rows cover hand ids up to {done.covered_through}"
        + (" (rebuilt: the definitions changed)" if done.rebuilt else "")
    )


class ExportFormat(StrEnum):
    PHH = "phh"
    PHHS = "phhs"


@app.command()
def export(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Export freshly parsed hands of these files or folders instead of a store.",
            show_default=False,
        ),
    ] = None,
    *,
    format: Annotated[
        ExportFormat, typer.Option("--format", help="phh: one file per hand; phhs: one file.")
    ],
    out: Annotated[
        Path, typer.Option(help="The .phhs file, or the folder of .phh files (created).")
    ],
    db: Annotated[Path, typer.Option(help="Store to read (DuckDB file or Parquet folder).")] = (
        Path("studdraw.duckdb")
    ),
    player: Annotated[
        list[str] | None, typer.Option(help="Hands this player was dealt in (repeatable).")
    ] = None,
    game: Annotated[list[Game] | None, typer.Option(help="Games (repeatable).")] = None,
    room: Annotated[list[str] | None, typer.Option(help="Rooms, e.g. pokerstars.")] = None,
    since: Annotated[
        str | None, typer.Option(help="Hands started at or after this UTC date or time.")
    ] = None,
    until: Annotated[
        str | None,
        typer.Option(help="Hands started before this UTC time, or on or before this date."),
    ] = None,
    hand: Annotated[list[str] | None, typer.Option(help="The rooms' hand ids.")] = None,
    workers: Annotated[
        int, typer.Option(help="Processes formatting a store's hands (1: this one).", min=1)
    ] = 1,
) -> None:
    """Write hands as PHH, the open Poker Hand History format (docs/phh.md): from the store,
    or from files parsed now. Exits 1 if a file could not be read or the output written, 2 if
    the store is missing or a filter is malformed."""
    from studdraw.pipeline import export as exporter  # noqa: PLC0415 (only this command needs it)

    stderr = console(stderr=True)
    try:
        selection = exporter.Selection(
            players=tuple(player or ()),
            games=tuple(str(g) for g in game or ()),
            rooms=tuple(room or ()),
            since=_utc_bound(since, end=False),
            until=_utc_bound(until, end=True),
            hands=tuple(hand or ()),
        )
    except ValueError as error:
        stderr.print(f"[red]error:[/red] {error}", markup=True, highlight=False)
        raise typer.Exit(code=2) from None
    report = exporter.FileExport([], [])
    if paths:
        hands = exporter.named(exporter.records_from_files(paths, selection, report))
    else:
        try:
            with exporter.open_store(db) as con:
                ids = exporter.select_hand_ids(con, selection)
        except (FileNotFoundError, duckdb.Error) as error:
            stderr.print(f"[red]error:[/red] {error}", markup=True, highlight=False)
            raise typer.Exit(code=2) from None
        hands = exporter.texts_from_store(db, ids, workers)
    try:
        count = exporter.write_export(hands, out, format.value)
    except OSError as error:
        stderr.print(f"[red]error:[/red] cannot write {out}: {error}", highlight=False)
        raise typer.Exit(code=1) from None
    reasons = Counter(problem.split(": ", 1)[1] for problem in report.problems)
    for reason, times in sorted(reasons.items()):
        stderr.print(f"not exported: {times} x {reason}", markup=False, highlight=False)
    for failure in report.unreadable:
        stderr.print(f"[red]unreadable:[/red] {failure}", highlight=False)
    stderr.print(f"exported {count} hands to {out}", markup=False, highlight=False)
    if report.unreadable:
        raise typer.Exit(code=1)


def _utc_bound(text: str | None, *, end: bool) -> datetime | None:
    """A --since/--until value: an ISO date or time, UTC unless it names a zone; a bare date
    as --until means the end of that day."""
    if text is None:
        return None
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    if end and len(text) == len("2026-01-31"):
        moment += timedelta(days=1)
    return moment


def _open_analytics(db: Path) -> duckdb.DuckDBPyConnection:
    """The store for a report, or exit 2 with the reason."""
    try:
        return analytics.open_store(db)
    except (OSError, duckdb.Error) as error:
        console(stderr=True).print(f"[red]error:[/red] cannot open {db}: {error}")
        raise typer.Exit(code=2) from None


def _label(parsed: ParsedHand) -> str:
    problem = parsed.problem
    if problem is not None and problem.game_label:
        return problem.game_label
    return "?"


def _summary_table(counts: Counter[tuple[str, str, Outcome]]) -> Table:
    table = Table(title="Hands per site and game")
    for column in ("site", "game", "hands", "parsed", "unsupported", "errors"):
        table.add_column(column, justify="left" if column in ("site", "game") else "right")
    groups = sorted({(site, game) for site, game, _ in counts})
    totals = Counter[Outcome]()
    for site, game in groups:
        row = {outcome: counts[(site, game, outcome)] for outcome in Outcome}
        totals.update(row)
        table.add_row(site, game, *(str(n) for n in _columns(row)))
    table.add_section()
    table.add_row("total", "", *(str(n) for n in _columns(totals)))
    return table


def _columns(row: dict[Outcome, int] | Counter[Outcome]) -> tuple[int, int, int, int]:
    parsed, unsupported, errors = row[Outcome.PARSED], row[Outcome.UNSUPPORTED], row[Outcome.ERROR]
    return parsed + unsupported + errors, parsed, unsupported, errors


def main() -> None:
    app()
