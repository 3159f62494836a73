"""The coach's report as one self-contained HTML page: inline CSS, inline SVG charts
(`charts.py`), every example hand's text and PHH inside the page (the PHH also as a download
link with a data: URI), and no address outside it: a Content-Security-Policy forbids the page
to load anything, so it reads the same offline, attached to a mail.

Everything from a store (names, hand texts, notes, rooms, table names) is escaped, attributes
included: a player called `<script>` or `**bold**` is shown as typed, never run or rendered.
Money is written in its own currency (`words.money_text`), never added across currencies.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any, Final

import polars as pl

from studdraw.parsers.model import Game
from studdraw.pipeline.analytics.currency import currency_label
from studdraw.pipeline.analytics.leaks import MIN_OPPORTUNITIES
from studdraw.pipeline.analytics.registry import AGGRESSION, STAT_GROUPS, STATS
from studdraw.pipeline.analytics.report import verdict_note
from studdraw.pipeline.rules.specs import GAME_SPECS, street_label
from studdraw.pipeline.words import money_text, plural

from .charts import range_bar, results_curve
from .gather import CoachReport, ExampleHand

CSP: Final = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
"""Nothing from outside the page: no script, font, image or style but its own."""
MIME: Final = "application/toml"
"""What a .phh file is to a browser (PHH is TOML)."""
STYLE: Final = """
body { font: 15px/1.45 system-ui, sans-serif; color: #1d232a; margin: 0 auto; padding: 1.5em;
  max-width: 1100px; }
h1 { font-size: 1.6em; margin-bottom: .2em; } h2 { margin-top: 2em; border-bottom: 1px solid
  #ccd; padding-bottom: .2em; } h3 { margin: 1.4em 0 .4em; }
.meta, .note, .origin, footer { color: #55606b; }
nav ol { columns: 2; } nav a, a { color: #1a5fb4; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: .4em 0 1em; }
th, td { border-bottom: 1px solid #e3e6ea; padding: .25em .6em; text-align: left;
  vertical-align: top; }
th { min-width: 4em; } td.num { white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.n { color: #6c7680; font-size: .9em; }
.gain { color: #1b7f3b; } .loss { color: #b3261e; }
article.leak, article.hand { border: 1px solid #dde1e6; border-radius: 6px; padding: .6em 1em;
  margin: 1em 0; }
.badge { display: inline-block; border-radius: 4px; padding: 0 .45em; font-size: .85em;
  color: #fff; background: #6c7680; }
.badge.major { background: #b3261e; } .badge.moderate { background: #c26a00; }
.badge.minor { background: #6c7680; }
pre { background: #f5f6f8; padding: .6em; font-size: 13px; white-space: pre-wrap;
  overflow-wrap: anywhere; }
svg.chart { display: block; max-width: 100%; height: auto; font-size: 11px; }
svg text { fill: #3b444d; } svg .legend { fill: #55606b; }
svg .band { fill: #cfe8d5; } svg .pool-band { fill: #e3e6ea; }
svg .bar { fill: #6c7680; } svg .bar.major { fill: #b3261e; } svg .bar.moderate { fill: #c26a00; }
svg .whisker line { stroke: #1d232a; stroke-width: 1.5; }
svg .pool { stroke: #1d232a; stroke-dasharray: 4 3; }
svg .axis { stroke: #8a939c; } svg .zero { stroke: #b8bec5; stroke-dasharray: 2 3; }
svg polyline { fill: none; stroke-width: 1.6; } svg .net { stroke: #1a5fb4; }
svg .allin { stroke: #c26a00; stroke-dasharray: 5 3; }
@media print { nav { display: none; } details { display: block; } article { break-inside: avoid; } }
"""


def _e(value: object) -> str:
    """Text from anywhere, escaped for an element's content or a quoted attribute."""
    return escape(str(value), quote=True)


def _pct(value: object) -> str:
    return "-" if value is None else f"{float(str(value)):.1%}"


def _num(value: object, places: int = 2, *, signed: bool = False) -> str:
    if value is None:
        return "-"
    return f"{float(str(value)):{'+' if signed else ''},.{places}f}"


def _money(value: object, currency: str) -> str:
    """A signed amount in its currency, coloured by its sign."""
    if value is None:
        return "-"
    text = money_text(value, currency, signed=True)  # type: ignore[arg-type]
    sign = "gain" if text.startswith("+") else "loss" if text.startswith("-") else ""
    return f'<span class="{sign}">{_e(text)}</span>'


def game_title(game: str) -> str:
    try:
        return GAME_SPECS[Game(game)].title
    except ValueError:
        return game


def _table(head: Sequence[str], rows: Iterable[Sequence[str]], numeric: Sequence[int] = ()) -> str:
    """A table of already escaped cells; `numeric` columns right-aligned."""
    cells = "".join(
        f'<th class="num">{h}</th>' if i in numeric else f"<th>{h}</th>" for i, h in enumerate(head)
    )
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="num">{c}</td>' if i in numeric else f"<td>{c}</td>"
            for i, c in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    table = f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"
    return f'<div class="scroll">{table}</div>'


def render(report: CoachReport) -> str:
    """The whole page."""
    sections = [
        ("results", "Results per currency", _results(report)),
        ("stats", "Statistics per game", _stats(report)),
        ("leaks", "Leaks", _leaks(report)),
        ("judged", "Every stat judged", _judged(report)),
        ("hands", "Example hands", _hands(report)),
    ]
    toc = "".join(f'<li><a href="#{key}">{_e(title)}</a></li>' for key, title, _ in sections)
    body = "".join(
        f'<section id="{key}"><h2>{_e(title)}</h2>{content}</section>'
        for key, title, content in sections
    )
    name = _e(report.player)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_e(CSP)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Coach's report: {name}</title><style>{STYLE}</style></head><body>"
        f'<header><h1>Coach\'s report: <span class="player">{name}</span></h1>'
        f"{_header(report)}</header><nav><ol>{toc}</ol></nav>{body}"
        f"<footer><p>{_footer(report)}</p></footer></body></html>\n"
    )


def _header(report: CoachReport) -> str:
    hands = int(report.stats["hands"].sum()) if report.stats.height else 0
    played = ""
    if report.first_hand is not None and report.last_hand is not None:
        played = (
            f" from {report.first_hand:%Y-%m-%d %H:%M} to {report.last_hand:%Y-%m-%d %H:%M} UTC"
        )
    rooms = ", ".join(_e(room) for room in report.rooms)
    lines = [
        f"{_e(plural(hands, 'hand'))}{played}" + (f", in {rooms}" if rooms else "") + ".",
        f"Filters: {_e(_filters_text(report))}.",
        f"Written {report.generated_at:%Y-%m-%d %H:%M} UTC from the store {_e(report.store)}.",
    ]
    if report.doubtful:
        lines.append(
            f"{_e(plural(report.doubtful, 'hand'))} with rule errors (facts in doubt) left out; "
            "<code>--include-doubtful</code> counts them."
        )
    for note in report.player_notes:
        words = _e(note.note) + (f" [{_e(', '.join(note.tags))}]" if note.tags else "")
        lines.append(f"Note on this player at {_e(note.target.room)}: {words}")
    return "".join(f'<p class="meta">{line}</p>' for line in lines)


def _filters_text(report: CoachReport) -> str:
    f = report.filters
    parts = []
    if f.game:
        parts.append(game_title(f.game))
    if f.currency:
        parts.append(currency_label(f.currency))
    if f.room:
        parts.append(f"room {f.room}")
    if f.kind:
        parts.append(f"{f.kind} only")
    if f.table_size:
        parts.append(f"{f.table_size} tables")
    if f.date_from:
        parts.append(f"from {f.date_from.isoformat()}")
    if f.date_to:
        parts.append(f"to {f.date_to.isoformat()}")
    if f.position:
        parts.append(f"{f.position} position")
    if f.door:
        parts.append(f"door card {f.door}")
    if f.start_group:
        parts.append(f"starting hand {f.start_group}")
    if f.include_doubtful:
        parts.append("hands with rule errors included")
    return ", ".join(parts) or "none (every hand of the player)"


def _footer(report: CoachReport) -> str:
    return (
        "Made by <code>studdraw report</code>. Definitions of every stat: docs/stats.md; money "
        "at stake is big bets per 100 hands riding on the spots, not a promised saving. Amounts "
        "are in each hand's own currency and never added across currencies. Each example "
        "hand's PHH (the open Poker Hand History format) replays in any PHH viewer."
    )


def _results(report: CoachReport) -> str:
    if report.results.is_empty():
        return '<p class="note">No hands match the filters.</p>'
    rows = []
    for row in report.results.iter_rows(named=True):
        currency = row["currency"]
        rows.append(
            [
                _e(currency_label(currency)),
                _e(row["kind"]),
                _e(", ".join(game_title(game) for game in row["games"])),
                f"{row['hands']:,}",
                _money(row["net"], currency),
                _num(row["big_bets"], signed=True),
                _num(row["bb_per_100"], signed=True),
                _money(row["allin_net"], currency),
                _num(row["allin_bb_per_100"], signed=True),
            ]
        )
    head = [
        "money", "kind", "games", "hands", "net won", "big bets", "big bets / 100",
        "all-in adjusted net", "all-in adjusted / 100",
    ]  # fmt: skip
    table = _table(head, rows, numeric=range(3, 9))
    charts = "".join(
        f"<h3>{_e(currency_label(curve.currency))}: hand by hand</h3>{results_curve(curve)}"
        '<p class="note">Solid: net won; dashed: all-in adjusted (the equity share of the pot '
        "where the player was all-in before the last card with every hand known).</p>"
        for curve in report.curves
    )
    return table + charts


def _stats(report: CoachReport) -> str:
    """One table per game: a column per currency played, each stat with its opportunities."""
    if report.stats.is_empty():
        return '<p class="note">No hands match the filters.</p>'
    out = []
    for game in sorted({row["game"] for row in report.stats.iter_rows(named=True)}):
        columns = report.stats.filter(pl.col("game") == game).to_dicts()
        head = ["", *(_e(currency_label(row["currency"])) for row in columns)]
        lines: list[list[str]] = [
            ["hands", *(f"{row['hands']:,}" for row in columns)],
            ["net won", *(_money(row["net"], row["currency"]) for row in columns)],
            ["big bets / 100 hands", *(_num(row["bb_per_100"], signed=True) for row in columns)],
            [
                "all-in adjusted big bets / 100",
                *(_num(row["allin_bb_per_100"], signed=True) for row in columns),
            ],
        ]
        for stat in STATS:
            if stat.group not in STAT_GROUPS.get(game, ()):
                continue
            if not any(row[f"{stat.name}_n"] for row in columns):
                continue
            lines.append(
                [_e(stat.title((game,))), *(_stat_cell(stat.name, game, row) for row in columns)]
            )
        for name in AGGRESSION:
            where = street_label(game, int(name[-1]))
            if where is None or all(row[name] is None for row in columns):
                continue
            lines.append([_e(f"aggression factor, {where}"), *(_num(row[name]) for row in columns)])
        out.append(
            f'<h3 id="stats-{_e(game)}">{_e(game_title(game))}</h3>'
            + _table(head, lines, numeric=range(1, len(head)))
        )
    return (
        '<p class="note">Each frequency with its sample in brackets: the spots where it could '
        "happen.</p>" + "".join(out)
    )


def _stat_cell(stat: str, game: str, row: dict[str, Any]) -> str:
    spots = row[f"{stat}_n"] or 0
    if not spots:
        return "-"
    return (
        f'<span data-stat="{_e(stat)}" data-game="{_e(game)}" '
        f'data-currency="{_e(row["currency"])}" data-spots="{spots}">{_pct(row[stat])}</span> '
        f'<span class="n">({spots:,})</span>'
    )


def _verdict_note(report: CoachReport) -> str:
    return verdict_note(report.checked, MIN_OPPORTUNITIES)


def _leaks(report: CoachReport) -> str:
    out = [f'<p class="verdict">{_e(_verdict_note(report))}</p>']
    for number, row in enumerate(report.leaks.iter_rows(named=True), 1):
        out.append(_leak(report, number, row))
    return "".join(out)


def _leak(report: CoachReport, number: int, row: dict[str, Any]) -> str:
    currency = row["currency"]
    title = f"{row['label']} {row['direction']}"
    where = f"{game_title(row['game'])}, {currency_label(currency)}, {row['table_size']} tables"
    reference = (row["low"], row["high"]) if row["low"] is not None else None
    pool = (row["pool_mean"], row["pool_sd"]) if row["pool_mean"] is not None else None
    ci = (row["ci_low"], row["ci_high"]) if row["ci_low"] is not None else None
    chart = range_bar(
        label=row["label"],
        value=row["value"],
        ci=ci,
        reference=reference,
        pool=pool,
        severity=row["severity"],
    )
    facts = [
        f"The player: {_pct(row['value'])} (95% interval {_pct(row['ci_low'])}-"
        f"{_pct(row['ci_high'])}) over {row['opportunities']:,} spots, "
        f"{_num(row['opportunities_per_100'], 1)} per 100 hands.",
        (
            f"A solid player's range: {_pct(row['low'])}-{_pct(row['high'])}."
            if reference
            else "No reference range for this table size: judged against the pool only."
        ),
    ]
    if pool is not None:
        facts.append(
            f"The pool: {_pct(row['pool_mean'])} on average over "
            f"{plural(row['pool_players'], 'player')}"
            + (f", the player {_num(row['z'])} standard deviations away." if row["z"] else ".")
        )
    if row["money_at_stake"] is not None:
        facts.append(
            f"Money at stake: {_num(row['money_at_stake'])} big bets per 100 hands "
            f"(the pool's result difference {_num(row['result_difference'], signed=True)} big "
            "bets a spot)."
        )
    known = report.references.get((row["game"], row["stat"]))
    if known is not None and reference:
        facts.append(f"Why this range: {known.reasoning} ({known.source})")
    examples = [report.examples[hand] for hand in row["examples"] or () if hand in report.examples]
    listed = "".join(
        f'<li><a href="#hand-{hand.hand_id}">{_e(hand.room)} #{_e(hand.room_hand_id)}</a> '
        f"{hand.started_at:%Y-%m-%d %H:%M} UTC, {_e(hand.stakes)}: {_money(hand.net, currency)} "
        f'<span class="n">({_num(hand.big_bets, signed=True)} big bets)</span></li>'
        for hand in examples
    )
    shown = (
        f"<h4>Example hands (where the player did what the leak says, costliest first)</h4>"
        f'<ol class="examples">{listed}</ol>'
        if examples
        else '<p class="note">No example hand.</p>'
    )
    return (
        f'<article class="leak" id="leak-{number}" data-stat="{_e(row["stat"])}" '
        f'data-game="{_e(row["game"])}" data-currency="{_e(currency)}">'
        f'<h3>{number}. {_e(title)} <span class="badge {_e(row["severity"])}">'
        f'{_e(row["severity"])}</span></h3><p class="meta">{_e(where)}</p>{chart}'
        f"<ul>{''.join(f'<li>{_e(fact)}</li>' for fact in facts)}</ul>{shown}</article>"
    )


def _judged(report: CoachReport) -> str:
    rest = report.checked.filter(pl.col("verdict") != "leak")
    if rest.is_empty():
        return '<p class="note">No other stat to judge.</p>'
    rows = [
        [
            _e(row["label"]),
            _e(game_title(row["game"])),
            _e(currency_label(row["currency"])),
            _e(row["table_size"]),
            _pct(row["value"]),
            f"{_pct(row['ci_low'])}-{_pct(row['ci_high'])}" if row["ci_low"] is not None else "-",
            f"{_pct(row['low'])}-{_pct(row['high'])}" if row["low"] is not None else "-",
            _pct(row["pool_mean"]),
            f"{row['opportunities']:,}",
            _e(row["verdict"]),
        ]
        for row in rest.iter_rows(named=True)
    ]
    head = [
        "stat", "game", "money", "table", "value", "95% interval", "range", "pool",
        "spots", "verdict",
    ]  # fmt: skip
    return _table(head, rows, numeric=(4, 7, 8))


def _hands(report: CoachReport) -> str:
    if not report.examples:
        return '<p class="note">No leak, so no example hand.</p>'
    shows: dict[int, list[str]] = {}
    for number, row in enumerate(report.leaks.iter_rows(named=True), 1):
        for hand in row["examples"] or ():
            shows.setdefault(hand, []).append(
                f'<a href="#leak-{number}">{number}. {_e(row["label"])} {_e(row["direction"])}</a>'
            )
    return "".join(_hand(hand, shows.get(hand.hand_id, [])) for hand in report.examples.values())


def _hand(hand: ExampleHand, leaks: list[str]) -> str:
    encoded = base64.b64encode(hand.phh.encode("utf-8")).decode("ascii")
    note = ""
    if hand.note or hand.tags:
        tags = f" [{_e(', '.join(hand.tags))}]" if hand.tags else ""
        note = f'<p class="note">Note: {_e(hand.note)}{tags}</p>'
    return (
        f'<article class="hand" id="hand-{hand.hand_id}" data-room="{_e(hand.room)}" '
        f'data-room-hand-id="{_e(hand.room_hand_id)}">'
        f"<h3>{_e(game_title(hand.game))} {_e(hand.stakes)}: {_e(hand.room)} "
        f"#{_e(hand.room_hand_id)}</h3>"
        f'<p class="meta">{hand.started_at:%Y-%m-%d %H:%M} UTC; the player '
        f"{_money(hand.net, hand.currency)} ({_num(hand.big_bets, signed=True)} big bets). "
        f"Shows: {', '.join(leaks)}.</p>{note}"
        f'<pre class="hand-text">{_e(hand.text.text)}</pre>'
        f'<p class="origin">{_e(hand.text.origin)}</p>'
        f'<p><a class="phh-download" download="{_e(hand.phh_name)}" '
        f'href="data:{MIME};charset=utf-8;base64,{encoded}">Download the hand as PHH '
        f"({_e(hand.phh_name)})</a> to replay it.</p>"
        f'<details><summary>The PHH text</summary><pre class="phh">{_e(hand.phh)}</pre></details>'
        "</article>"
    )
