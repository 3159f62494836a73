"""The `studdraw` command line.

Each command is a thin shell over one stage's public functions; the contract of every command's
output (columns, JSON keys, exit codes) is stable, because scripts and later stages build on it.

A command imports its stage when it runs, never at module level: `studdraw --help` or parsing
one file must not load DuckDB, polars, pyarrow or the analytics (tests/test_cli_imports.py).
Only what the options' annotations name (typer reads them) is imported up front, and it is light.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from studdraw.parsers.model import Game, Outcome, ParsedHand, Structure
from studdraw.pipeline.console import console
from studdraw.pipeline.ingest_settings import DEFAULT_BATCH, DEFAULT_TASK_BYTES, Engine

if TYPE_CHECKING:
    import duckdb
    from rich.console import Console
    from rich.table import Table

    from studdraw.pipeline import analytics
    from studdraw.pipeline.rules.house import HouseRules


class Kind(StrEnum):
    CASH = "cash"
    TOURNAMENT = "tournament"


class TableSize(StrEnum):
    HEADS_UP = "heads-up"
    SHORT_HANDED = "short-handed"
    FULL_RING = "full ring"


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
        self.problem(path, error.strerror or str(error))

    def problem(self, path: Path, reason: str) -> None:
        from rich.markup import escape

        from studdraw.parsers.files import display_path

        self.count += 1
        self.console.print(f"[red]error:[/red] cannot read {escape(display_path(path))}: {reason}")


def iter_parsed(paths: list[Path], unreadable: UnreadableFiles) -> Iterator[ParsedHand]:
    """Every hand (and stray text) of every file under `paths`, parsed, in a stable order; a
    file with nothing to read, or no room's hand, is said so on stderr."""
    from rich.markup import escape

    from studdraw.parsers.files import discover_files, display_path
    from studdraw.parsers.reader import open_history, parse_hand
    from studdraw.pipeline.progress import file_progress

    files = list(discover_files(paths, unreadable.problem))
    with file_progress(files, unreadable.console) as advance:
        for path in files:
            try:
                history = open_history(path)
                note = history.note
                if note:
                    shown = escape(display_path(path))
                    unreadable.console.print(f"[yellow]note:[/yellow] {shown}: {note}")
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
    from studdraw.parsers.serialize import parsed_hand_to_dict

    stderr = console(stderr=True)
    unreadable = UnreadableFiles(stderr)
    counts: Counter[tuple[str, str, Outcome]] = Counter()
    warnings: Counter[tuple[str, str]] = Counter()
    strays = 0
    out = sys.stdout
    for parsed in iter_parsed(paths, unreadable):
        source = parsed.hand.source
        if jsonl:
            out.write(json.dumps(parsed_hand_to_dict(parsed), ensure_ascii=False) + "\n")
        elif parsed.problem is not None and parsed.outcome in (Outcome.ERROR, Outcome.STRAY):
            stderr.print(
                f"{source.path}:{parsed.problem.line}: {parsed.problem.message}",
                markup=False,
                highlight=False,
            )
        if parsed.outcome is Outcome.STRAY:
            strays += 1
            continue
        game = str(parsed.record.game) if parsed.record else _label(parsed)
        site = parsed.hand.site or "unknown"
        counts[(site, game, parsed.outcome)] += 1
        if parsed.record:
            warnings[(site, game)] += len(parsed.record.findings)
    if not jsonl:
        table = _summary_table(counts, warnings)
        table.caption = stray_caption(strays)
        console().print(table)
    if unreadable.count:
        raise typer.Exit(code=1)


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


@app.command()
def validate(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Hand-history files or folders, searched recursively.", show_default=False
        ),
    ] = None,
    jsonl: Annotated[
        bool, typer.Option("--jsonl", help="One JSON object per violation on stdout.")
    ] = False,
    rules: RulesOption = None,
    explain: Annotated[
        str | None,
        typer.Option(
            "--explain",
            metavar="CODE",
            help="Print what a violation code means, why it matters and a hand that shows it.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Replay hands through the rules engine; print each violation as `file:line: CODE message`
    (warnings and defects of the export marked) and a summary per file. Exits 1 if any
    error-severity violation (or unreadable file), 2 on a wrong option."""
    stderr = console(stderr=True)
    if explain is not None:
        from studdraw.pipeline.rules.explain import parse_code, section

        code = parse_code(explain)
        if code is None:
            stderr.print(f"[red]error:[/red] no violation code {explain!r}", markup=False)
            raise typer.Exit(code=2)
        sys.stdout.write(section(code))
        return
    if not paths:
        stderr.print("[red]error:[/red] give hand-history files or folders, or --explain CODE")
        raise typer.Exit(code=2)
    from studdraw.pipeline.rules.validate import Validation

    profile = chosen_rules(rules)
    unreadable = UnreadableFiles(stderr)
    validation = Validation(jsonl=jsonl, rules=profile)
    strays: list[ParsedHand] = []
    hands = _without_strays(iter_parsed(paths, unreadable), strays, jsonl)
    for line, is_summary in validation.lines(hands):
        if is_summary and jsonl:
            stderr.print(line, markup=False, highlight=False)
        else:
            sys.stdout.write(line + "\n")
    total = validation.total.summary()
    if jsonl:
        stderr.print(total, markup=False, highlight=False)
    else:
        sys.stdout.write(total + "\n")
    if strays:
        stderr.print(stray_caption(len(strays)))
    if validation.failed or unreadable.count:
        raise typer.Exit(code=1)


def stray_caption(count: int) -> str:
    texts = "stray text" if count == 1 else "stray texts"
    return f"{count} {texts} (text that starts no room's hand; not counted as hands)"


def _without_strays(
    parsed: Iterator[ParsedHand], strays: list[ParsedHand], jsonl: bool
) -> Iterator[ParsedHand]:
    """The hands for the validation; each stray text is printed as a finding of its own (a
    warning at its line: it is no hand, so neither replayed nor counted as one)."""
    for item in parsed:
        if item.outcome is not Outcome.STRAY:
            yield item
            continue
        strays.append(item)
        problem = item.problem
        message = problem.message if problem else "stray text"
        source = item.hand.source
        if jsonl:
            record = {
                "source": source.path,
                "line": source.line,
                "code": "STRAY",
                "message": message,
            }
            sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
        else:
            sys.stdout.write(f"{source.path}:{source.line}: STRAY [warning] {message}\n")


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
    rules: RulesOption = None,
    watch: Annotated[
        bool,
        typer.Option(
            "--watch",
            help="Keep watching PATH and import hands as the poker client writes them, until "
            "Ctrl-C (local engine).",
        ),
    ] = False,
    settle: Annotated[
        float,
        typer.Option(
            help="With --watch: seconds a file caught in the middle of a hand may stay "
            "unchanged before it is imported anyway.",
            min=0.0,
        ),
    ] = 30.0,
) -> None:
    """Import hand histories into the store: parse, replay, normalize, write (idempotent).
    Exits 1 if a file could not be read, 2 if the database is busy or incompatible (or the
    Dask engine cannot start)."""
    from studdraw.pipeline.store.ingest import IngestOptions
    from studdraw.pipeline.store.report import run_ingest
    from studdraw.pipeline.store.watch import run_watch

    if scheduler is not None and engine is not Engine.DASK:
        console(stderr=True).print("[red]error:[/red] --scheduler needs --engine dask")
        raise typer.Exit(code=2)
    chosen_rules(rules)
    if watch:
        if engine is not Engine.LOCAL or parquet is not None or json_output:
            console(stderr=True).print(
                "[red]error:[/red] --watch runs the local engine into the DuckDB store only"
            )
            raise typer.Exit(code=2)
        code = run_watch(
            paths, IngestOptions(db, None, workers or 1, batch_size, wait, rules), settle
        )
        if code:
            raise typer.Exit(code=code)
        return
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
        rules=rules,
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
    from studdraw.pipeline.synth import DEFAULT_START, SynthOptions, render, synthesize

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
    _check_store(db, write=False)
    from studdraw.dashboard.launch import serve

    serve(db, port, address)


StoreOption = Annotated[
    Path, typer.Option("--db", help="DuckDB store, or a folder holding its Parquet dataset.")
]
JsonOption = Annotated[
    bool, typer.Option("--json", help="Print JSON records (one object per row) on stdout.")
]


CurrencyOption = Annotated[
    str | None,
    typer.Option(help="Only hands of this currency: USD, EUR, GBP, PLAY (play money), CHIPS."),
]
KindOption = Annotated[Kind | None, typer.Option(help="Only cash games or only tournaments.")]
TableSizeOption = Annotated[TableSize | None, typer.Option(help="Only tables of this size.")]
DoubtfulOption = Annotated[
    bool,
    typer.Option(
        "--include-doubtful",
        help="Count hands with an error-severity violation too (left out by default: their "
        "facts are in doubt).",
    ),
]


def _filters(
    *,
    player: str | None,
    game: Game | None,
    currency: str | None,
    kind: Kind | None,
    table_size: TableSize | None,
    include_doubtful: bool,
) -> analytics.Filters:
    from studdraw.pipeline import analytics

    return analytics.Filters(
        player=player,
        game=str(game) if game else None,
        currency=currency.upper() if currency else None,
        kind=kind.value if kind else None,
        table_size=table_size.value if table_size else None,
        include_doubtful=include_doubtful,
    )


@app.command()
def stats(
    *,
    db: StoreOption = Path("studdraw.duckdb"),
    player: Annotated[str | None, typer.Option(help="Only this player (all stats).")] = None,
    game: Annotated[Game | None, typer.Option(help="Only this game.")] = None,
    currency: CurrencyOption = None,
    kind: KindOption = None,
    table_size: TableSizeOption = None,
    include_doubtful: DoubtfulOption = False,
    json_output: JsonOption = False,
) -> None:
    """Player statistics per game and currency (definitions: docs/stats.md): every stat of one
    player, or a summary line per player, game and currency. Money is never added across
    currencies (tournament chips and play money are currencies of their own)."""
    from studdraw.pipeline import analytics
    from studdraw.pipeline.analytics import report as analytics_report

    con = _open_analytics(db)
    _known_player(con, player)
    filters = _filters(
        player=player,
        game=game,
        currency=currency,
        kind=kind,
        table_size=table_size,
        include_doubtful=include_doubtful,
    )
    frame = analytics.player_stats(con, filters)
    if json_output:
        sys.stdout.write(frame.write_json() + "\n")
        return
    if player is not None:
        console().print(analytics_report.player_table(frame, player))
    else:
        console().print(analytics_report.players_table(frame))
    _doubtful_note(con, filters)


@app.command()
def leaks(
    *,
    player: Annotated[str, typer.Option(help="The player to report on.", show_default=False)],
    db: StoreOption = Path("studdraw.duckdb"),
    game: Annotated[Game | None, typer.Option(help="Only this game.")] = None,
    currency: CurrencyOption = None,
    kind: KindOption = None,
    table_size: TableSizeOption = None,
    include_doubtful: DoubtfulOption = False,
    json_output: JsonOption = False,
) -> None:
    """A player's leaks: stats outside a solid player's reference range (full-ring tables) or
    far from the pool of the same table size and currency, ranked by severity and money at
    stake (big bets per 100 hands), with a 95% interval; says when the sample is too small."""
    from studdraw.pipeline import analytics
    from studdraw.pipeline.analytics import report as analytics_report

    con = _open_analytics(db)
    _known_player(con, player)
    filters = _filters(
        player=player,
        game=game,
        currency=currency,
        kind=kind,
        table_size=table_size,
        include_doubtful=include_doubtful,
    )
    checked = analytics.assess(con, filters)
    found = checked.filter(checked["verdict"] == "leak")
    if json_output:
        sys.stdout.write(found.write_json() + "\n")
        return
    if found.height:
        console().print(analytics_report.leaks_table(found, player))
    console().print(analytics_report.verdict_note(checked, analytics.MIN_OPPORTUNITIES))
    _doubtful_note(con, filters)


@app.command()
def tournaments(
    *,
    db: StoreOption = Path("studdraw.duckdb"),
    player: Annotated[str | None, typer.Option(help="Only this player.")] = None,
    include_doubtful: DoubtfulOption = False,
    json_output: JsonOption = False,
) -> None:
    """Tournament results per player and buy-in currency: tournaments played, results known
    (from the hands' finishing lines and the rooms' summary files), cost, winnings, ROI and
    in-the-money share; with --json and --player, one record per tournament."""
    from studdraw.pipeline import analytics
    from studdraw.pipeline.analytics import report as analytics_report

    con = _open_analytics(db)
    _known_player(con, player)
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


def _known_player(con: duckdb.DuckDBPyConnection, player: str | None) -> None:
    """Exit 1 with the nearest names when the store has no player of that name."""
    if player is None:
        return
    import difflib

    from studdraw.pipeline import analytics

    names = analytics.player_names(con)
    if player in names:
        return
    same = [name for name in names if name.casefold() == player.casefold()]
    close = same or difflib.get_close_matches(player, names, n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(repr(name) for name in close)}?" if close else ""
    console(stderr=True).print(
        f"[red]error:[/red] no player named {player!r}{hint}", markup=True, highlight=False
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
            f"{left_out} hands with rule errors (facts in doubt) left out; "
            "--include-doubtful counts them."
        )


@app.command()
def prepare(
    db: Annotated[Path, typer.Option("--db", help="DuckDB store.")] = Path("studdraw.duckdb"),
) -> None:
    """Keep the analytics' per-hand rows in the store, so stats and the dashboard stay fast on
    big stores (idempotent: afterwards only new hands are derived)."""
    import duckdb

    from studdraw.pipeline import analytics
    from studdraw.pipeline.progress import count_progress
    from studdraw.pipeline.store.db import one_line

    _check_store(db, write=True)
    if not db.is_file():
        console(stderr=True).print(f"[red]error:[/red] no DuckDB store at {db}")
        raise typer.Exit(code=2)
    with ExitStack() as stack:
        bars: list[Callable[[int], None]] = []

        def start(total: int) -> None:
            bars.append(stack.enter_context(count_progress("hands", total, console(stderr=True))))

        def chunk(hands: int) -> None:
            for advance in bars:
                advance(hands)

        try:
            done = analytics.prepare(db, on_start=start, on_chunk=chunk)
        except duckdb.Error as error:
            console(stderr=True).print(f"[red]error:[/red] cannot prepare {db}: {one_line(error)}")
            raise typer.Exit(code=2) from None
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
        int | None,
        typer.Option(
            help="Processes formatting a store's hands (default: the number of cores; an export "
            "too small to pay for starting them stays in this one); 1: this one.",
            min=1,
        ),
    ] = None,
) -> None:
    """Write hands as PHH, the open Poker Hand History format (docs/phh.md): from the store,
    or from files parsed now. Exits 1 if a file could not be read or the output written, 2 if
    the store is missing or a filter is malformed."""
    import duckdb

    from studdraw.pipeline import export as exporter

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
        hands = exporter.texts_from_store(db, ids, workers or os.cpu_count() or 1)
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
    import duckdb

    from studdraw.pipeline import analytics
    from studdraw.pipeline.store.db import one_line

    _check_store(db, write=False)
    try:
        return analytics.open_store(db)
    except (OSError, duckdb.Error) as error:
        console(stderr=True).print(f"[red]error:[/red] cannot open {db}: {one_line(error)}")
        raise typer.Exit(code=2) from None


def _check_store(db: Path, *, write: bool) -> None:
    """Exit 2 with one line when `db` cannot be a store (a folder, another kind of file, not
    writable), before DuckDB would answer with a traceback."""
    from rich.markup import escape

    from studdraw.pipeline.store.db import StoreOpenError, check_store_path

    try:
        check_store_path(db, write=write)
    except StoreOpenError as error:
        console(stderr=True).print(f"[red]error:[/red] {escape(str(error))}")
        raise typer.Exit(code=2) from None


def _label(parsed: ParsedHand) -> str:
    problem = parsed.problem
    if problem is not None and problem.game_label:
        return problem.game_label
    return "?"


def _summary_table(
    counts: Counter[tuple[str, str, Outcome]], warnings: Counter[tuple[str, str]]
) -> Table:
    """Hands per site and game by outcome, and the parse warnings (lines read as unknown,
    codes in studdraw.parsers.findings) of the parsed ones."""
    from rich.table import Table

    table = Table(title="Hands per site and game")
    for column in ("site", "game", "hands", "parsed", "unsupported", "errors", "warnings"):
        table.add_column(column, justify="left" if column in ("site", "game") else "right")
    groups = sorted({(site, game) for site, game, _ in counts})
    totals = Counter[Outcome]()
    for site, game in groups:
        row = {outcome: counts[(site, game, outcome)] for outcome in Outcome}
        totals.update(row)
        cells = (*_columns(row), warnings[(site, game)])
        table.add_row(site, game, *(str(n) for n in cells))
    table.add_section()
    table.add_row("total", "", *(str(n) for n in (*_columns(totals), warnings.total())))
    return table


def _columns(row: dict[Outcome, int] | Counter[Outcome]) -> tuple[int, int, int, int]:
    parsed, unsupported, errors = row[Outcome.PARSED], row[Outcome.UNSUPPORTED], row[Outcome.ERROR]
    return parsed + unsupported + errors, parsed, unsupported, errors


def main() -> None:
    app()
