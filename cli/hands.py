"""The commands on hand-history files, which need no store: `parse`, `validate`, `synth`."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from studdraw.cli.console import console
from studdraw.cli.shared import (
    PathsArgument,
    RulesOption,
    chosen_rules,
    existing,
    nothing_found,
    written_aside,
)
from studdraw.parsers.model import Game, Outcome, ParsedHand, Structure

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table


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


def iter_parsed(paths: list[Path], unreadable: UnreadableFiles, label: str) -> Iterator[ParsedHand]:
    """Every hand (and stray text) of every file under `paths`, parsed, in a stable order; a
    file with nothing to read, or no room's hand, is said so on stderr."""
    from rich.markup import escape

    from studdraw.cli.progress import progress
    from studdraw.parsers.files import discover_files, display_path
    from studdraw.parsers.reader import open_history, parse_hand

    existing(paths)
    files = list(discover_files(paths, unreadable.problem))
    if not files and not unreadable.count:
        nothing_found(paths)
    with progress(unreadable.console, label, files=files) as tracker:
        for path in files:
            try:
                history = open_history(path)
                note = history.note
                if note:
                    shown = escape(display_path(path))
                    unreadable.console.print(f"[yellow]note:[/yellow] {shown}: {note}")
                for hand in history.hand_texts():
                    yield parse_hand(hand)
                    tracker.hands()
            except OSError as error:
                unreadable.report(path, error)
            tracker.file(path)


def parse(
    paths: PathsArgument,
    jsonl: Annotated[
        bool, typer.Option("--jsonl", help="One JSON object per hand on stdout.")
    ] = False,
) -> None:
    """Parse hand histories and summarise them per room and game (or print them as JSON).
    Exits 0 when every file was read (whatever its hands), 1 if a file could not be read (or
    does not exist) or no hand-history file was found."""
    from studdraw.parsers.serialize import parsed_hand_to_dict

    stderr = console(stderr=True)
    unreadable = UnreadableFiles(stderr)
    counts: Counter[tuple[str, str, Outcome]] = Counter()
    warnings: Counter[tuple[str, str]] = Counter()
    strays = 0
    out = sys.stdout
    for parsed in iter_parsed(paths, unreadable, "parse"):
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
        room = parsed.hand.room or "unknown"
        counts[(room, game, parsed.outcome)] += 1
        if parsed.record:
            warnings[(room, game)] += len(parsed.record.problems)
    if not jsonl:
        table = _summary_table(counts, warnings)
        table.caption = stray_caption(strays)
        console().print(table)
    if unreadable.count:
        raise typer.Exit(code=1)


def validate(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Hand-history files or folders, searched recursively.", show_default=False
        ),
    ] = None,
    jsonl: Annotated[
        bool, typer.Option("--jsonl", help="One JSON object per problem on stdout.")
    ] = False,
    rules: RulesOption = None,
    explain: Annotated[
        str | None,
        typer.Option(
            "--explain",
            metavar="CODE",
            help="Print what a problem code means, why it matters and a hand that shows it.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Replay hands through the rules engine; print each problem as `file:line: CODE message`
    (warnings and defects of the export marked) and a summary per file. Exits 0 without an
    error, 1 on an error-severity problem, a file that could not be read (or does not exist)
    or no hand-history file found, 2 on a wrong option."""
    stderr = console(stderr=True)
    if explain is not None:
        from studdraw.pipeline.rules.explain import parse_code, section

        code = parse_code(explain)
        if code is None:
            from rich.markup import escape

            stderr.print(f"[red]error:[/red] no problem code {escape(repr(explain))}")
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
    for line, is_summary in validation.lines(iter_parsed(paths, unreadable, "validate")):
        if is_summary and jsonl:
            stderr.print(line, markup=False, highlight=False)
        else:
            sys.stdout.write(line + "\n")
    total = validation.total.summary()
    if jsonl:
        stderr.print(total, markup=False, highlight=False)
    else:
        sys.stdout.write(total + "\n")
    if validation.total.strays:
        stderr.print(stray_caption(validation.total.strays))
    if validation.failed or unreadable.count:
        raise typer.Exit(code=1)


def stray_caption(count: int) -> str:
    texts = "stray text" if count == 1 else "stray texts"
    return f"{count} {texts} (text that starts no room's hand; not counted as hands)"


def synth(
    game: Annotated[Game, typer.Option(help="The game to deal.")],
    hands: Annotated[int, typer.Option(help="How many hands.", min=1)],
    *,
    room: Annotated[
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
    """Deal random legal hands with the rules engine and write them as a room's export (to
    --out: written aside, and given its name once whole). Exits 1 if --out cannot be written,
    2 on a wrong option, 130 on Ctrl-C (nothing written)."""
    from rich.markup import escape

    from studdraw.cli.progress import progress
    from studdraw.pipeline.synth import DEFAULT_START, SynthOptions, render, synthesize
    from studdraw.pipeline.words import plural

    stderr = console(stderr=True)
    low, _, high = players.partition("-")
    try:
        options = SynthOptions(
            room=room,
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
        texts = (render(record, room) for record in synthesize(options))
        if out is None:
            for text in texts:
                sys.stdout.write(text + "\n\n\n")
            return
        if out.is_dir():
            stderr.print(f"[red]error:[/red] cannot write {escape(str(out))}: it is a folder")
            raise typer.Exit(code=1)
        with (
            written_aside(out) as aside,
            aside.open("w", encoding="utf-8") as target,
            progress(stderr, "synth", total=hands) as tracker,
        ):
            for text in texts:
                target.write(text + "\n\n\n")
                tracker.hands()
        stderr.print(f"wrote {plural(hands, 'hand')} of {game.value} to {escape(str(out))}")
    except ValueError as error:
        stderr.print(f"[red]error:[/red] {escape(str(error))}")
        raise typer.Exit(code=2) from None
    except OSError as error:
        reason = error.strerror or str(error)
        stderr.print(f"[red]error:[/red] cannot write {escape(str(out))}: {escape(reason)}")
        raise typer.Exit(code=1) from None
    except KeyboardInterrupt:
        stderr.print(f"[yellow]interrupted:[/yellow] nothing written to {escape(str(out))}")
        raise typer.Exit(code=130) from None


def _label(parsed: ParsedHand) -> str:
    return parsed.game_label or "?"


def _summary_table(
    counts: Counter[tuple[str, str, Outcome]], warnings: Counter[tuple[str, str]]
) -> Table:
    """Hands per room and game by outcome, and the parse warnings (lines read as unknown,
    TXT001) of the parsed ones."""
    from rich.table import Table

    table = Table(title="Hands per room and game")
    for column in ("room", "game", "hands", "parsed", "unsupported", "errors", "warnings"):
        table.add_column(column, justify="left" if column in ("room", "game") else "right")
    groups = sorted({(room, game) for room, game, _ in counts})
    totals = Counter[Outcome]()
    for room, game in groups:
        row = {outcome: counts[(room, game, outcome)] for outcome in Outcome}
        totals.update(row)
        cells = (*_columns(row), warnings[(room, game)])
        table.add_row(room, game, *(str(n) for n in cells))
    table.add_section()
    table.add_row("total", "", *(str(n) for n in (*_columns(totals), warnings.total())))
    return table


def _columns(row: dict[Outcome, int] | Counter[Outcome]) -> tuple[int, int, int, int]:
    parsed, unsupported, errors = row[Outcome.PARSED], row[Outcome.UNSUPPORTED], row[Outcome.ERROR]
    return parsed + unsupported + errors, parsed, unsupported, errors
