"""What the coach's report says, gathered from a store: the player's stats per game and currency,
the leak report with its example hands (each as text and as PHH), and the results per currency.

Nothing here formats for a page (`page.py` does); every figure is what the analytics return, so
the report says what `studdraw stats` and `studdraw leaks` say for the same filters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Final

import duckdb
import polars as pl

from studdraw.pipeline import analytics, identities
from studdraw.pipeline.analytics.filters import (
    Filters,
    need_player,
    sessions_sql,
    where,
)
from studdraw.pipeline.analytics.leaks import Reference
from studdraw.pipeline.analytics.registry import MONEY
from studdraw.pipeline.analytics.source import run
from studdraw.pipeline.export import file_name, records_from_store
from studdraw.pipeline.hand_text import HandText, records_texts
from studdraw.pipeline.identities import Account, player_condition
from studdraw.pipeline.notes import Annotation, Kind, annotate_phh, annotated, notes_path
from studdraw.pipeline.phh import dumps
from studdraw.pipeline.words import stakes_text

CURVE_POINTS: Final = 400
"""At most this many points of a results curve are drawn (every n-th hand, and the last): a
curve over 50,000 hands says no more with every point, and the file stays small."""


@dataclass(frozen=True, slots=True)
class ExampleHand:
    """A hand that shows a leak: the player's result in it, its text for reading and its PHH
    (with the notes file's words on it, as `studdraw export` writes them) for replaying."""

    hand_id: int
    room: str
    room_hand_id: str
    game: str
    currency: str
    started_at: datetime
    stakes: str
    net: Decimal
    big_bets: float
    text: HandText
    phh: str
    phh_name: str
    note: str
    tags: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Curve:
    """The running net of one currency, hand by hand (thinned to `CURVE_POINTS`): hand numbers
    and totals in currency units, actual and all-in adjusted."""

    currency: str
    hands: int
    numbers: list[int]
    net: list[float]
    allin: list[float]


@dataclass(frozen=True, slots=True)
class CoachReport:
    """Everything the page shows. `stats`: the player's `player_stats` rows (one per game and
    currency); `checked`: `assess` (leaks first); `results`: one row per currency (never added
    across currencies: chips and play money are currencies of their own); `examples`: each
    leak's example hands by store id, each hand once."""

    player: str
    filters: Filters
    store: str
    generated_at: datetime
    stats: pl.DataFrame
    checked: pl.DataFrame
    references: dict[tuple[str, str], Reference]
    results: pl.DataFrame
    curves: list[Curve]
    first_hand: datetime | None
    last_hand: datetime | None
    rooms: list[str]
    examples: dict[int, ExampleHand]
    doubtful: int
    player_notes: list[Annotation]

    @property
    def leaks(self) -> pl.DataFrame:
        return self.checked.filter(pl.col("verdict") == "leak")


@dataclass(frozen=True, slots=True)
class Analysis:
    """The report's figures before its example hands are read (`example_ids` says which)."""

    player: str
    filters: Filters
    stats: pl.DataFrame
    checked: pl.DataFrame
    timeline: pl.DataFrame
    doubtful: int

    @property
    def hands(self) -> int:
        return int(self.stats["hands"].sum()) if self.stats.height else 0

    @property
    def example_ids(self) -> list[int]:
        """Every leak's example hands, each once, in store order."""
        found = self.checked.filter(pl.col("verdict") == "leak")["examples"]
        return sorted({hand for hands in found.to_list() for hand in hands or ()})


def analyse(con: duckdb.DuckDBPyConnection, filters: Filters) -> Analysis:
    """The player's stats, leak report and hands in time order under `filters`."""
    player = need_player(filters, "analyse")
    stats = analytics.player_stats(con, filters).filter(pl.col("player") == player)
    checked = analytics.assess(con, filters)
    timeline = analytics.results_over_time(con, filters)
    doubtful = 0 if filters.include_doubtful else analytics.doubtful_hands(con, filters)
    return Analysis(player, filters, stats, checked, timeline, doubtful)


def gather(
    con: duckdb.DuckDBPyConnection,
    store: Path,
    analysis: Analysis,
    advance: Callable[[int], None] = lambda _: None,
    now: datetime | None = None,
) -> CoachReport:
    """The whole report: `analysis` with its example hands read from the store (`advance`
    called once per hand made) and the notes file's words on the player and those hands."""
    notes = notes_path(store)
    linked = identities.links(notes)
    first, last, rooms = _span(con, analysis.filters)
    return CoachReport(
        player=analysis.player,
        filters=analysis.filters,
        store=str(store),
        generated_at=(now or datetime.now(UTC)).replace(microsecond=0),
        stats=analysis.stats,
        checked=analysis.checked,
        references=analytics.reference_ranges(),
        results=results_per_currency(analysis.stats),
        curves=curves(analysis.timeline),
        first_hand=first,
        last_hand=last,
        rooms=rooms,
        examples=example_hands(con, analysis.player, analysis.example_ids, notes, advance),
        doubtful=analysis.doubtful,
        player_notes=[
            note
            for note in annotated(notes, kind=Kind.PLAYER)
            if identities.player_of(linked, Account(note.target.room, note.target.key))
            == analysis.player
        ],
    )


def _span(
    con: duckdb.DuckDBPyConnection, filters: Filters
) -> tuple[datetime | None, datetime | None, list[str]]:
    """The first and last hand the filters keep (UTC) and the rooms they were played in."""
    condition, params = where(filters)
    sessions = "WITH " + sessions_sql() if filters.session is not None else ""
    row = run(
        con,
        f"{sessions} SELECT min(started_at) AS first, max(started_at) AS last, "
        f"list_sort(list_distinct(list(room))) AS rooms FROM player_hands WHERE {condition}",
        params,
    ).row(0)
    return row[0], row[1], list(row[2] or ())


def results_per_currency(stats: pl.DataFrame) -> pl.DataFrame:
    """One row per currency (and kind: chips are tournaments, the rest cash): hands, net in
    that currency, big bets, big bets per 100 hands, all-in adjusted net and big bets per 100,
    and the games played. Big bets add across games of one currency (each hand's own big bet)."""
    if stats.is_empty():
        return pl.DataFrame(
            schema={
                "currency": pl.String(),
                "kind": pl.String(),
                "hands": pl.Int64(),
                "net": pl.Decimal(18, 4),
                "big_bets": pl.Float64(),
                "bb_per_100": pl.Float64(),
                "allin_net": pl.Float64(),
                "allin_bb_per_100": pl.Float64(),
                "games": pl.List(pl.String()),
            }
        )
    allin_big_bets = pl.col("allin_bb_per_100") * pl.col("hands") / 100
    return (
        stats.group_by("currency", "kind")
        .agg(
            hands=pl.col("hands").sum(),
            net=pl.col("net").sum(),
            big_bets=pl.col("big_bets").sum(),
            allin_net=pl.col("allin_net").sum(),
            allin_big_bets=allin_big_bets.sum(),
            games=pl.col("game").unique().sort(),
        )
        .with_columns(
            bb_per_100=100 * pl.col("big_bets") / pl.col("hands"),
            allin_bb_per_100=100 * pl.col("allin_big_bets") / pl.col("hands"),
        )
        .drop("allin_big_bets")
        .sort(pl.col("hands"), pl.col("currency"), descending=[True, False])
    )


def curves(timeline: pl.DataFrame, points: int = CURVE_POINTS) -> list[Curve]:
    """The running net of each currency in the timeline (most hands first)."""
    found = []
    for (currency,), hands in timeline.group_by("currency", maintain_order=True):
        count = hands.height
        step = max(1, -(-count // points))
        keep = [*range(step - 1, count, step)]
        if not keep or keep[-1] != count - 1:
            keep.append(count - 1)
        picked = hands[keep]
        found.append(
            Curve(
                str(currency),
                count,
                [index + 1 for index in keep],
                [float(value) for value in picked["cumulative_net"].to_list()],
                [float(value or 0) for value in picked["allin_cumulative_net"].to_list()],
            )
        )
    return sorted(found, key=lambda curve: (-curve.hands, curve.currency))


def example_hands(
    con: duckdb.DuckDBPyConnection,
    player: str,
    hand_ids: Sequence[int],
    notes: Path,
    advance: Callable[[int], None] = lambda _: None,
) -> dict[int, ExampleHand]:
    """The hands by store id, each with the player's result, its text (from its file when
    the file still holds it) and its PHH."""
    if not hand_ids:
        return {}
    rows = {
        (row["room"], row["room_hand_id"]): row
        for row in _hand_rows(con, player, sorted(hand_ids)).iter_rows(named=True)
    }
    records = list(records_from_store(con, sorted(row["hand_id"] for row in rows.values())))
    keys = [(record.room, record.room_hand_id) for record, _ in records]
    texts = records_texts(
        [
            (record, rows[key]["content_hash"])
            for (record, _), key in zip(records, keys, strict=True)
        ]
    )
    hand_notes = {
        (note.target.room, note.target.key): note for note in annotated(notes, kind=Kind.HAND)
    }
    found = {}
    for (record, violations), key, text in zip(records, keys, texts, strict=True):
        row = rows[key]
        name = file_name(record)
        [(_, phh)] = annotate_phh([(name, dumps(record, violations))], notes)
        note = hand_notes.get((record.room, record.room_hand_id))
        found[row["hand_id"]] = ExampleHand(
            hand_id=row["hand_id"],
            room=record.room,
            room_hand_id=record.room_hand_id,
            game=row["game"],
            currency=row["currency"],
            started_at=row["started_at"],
            stakes=stakes_text(row),
            net=row["net"],
            big_bets=row["big_bets"],
            text=text,
            phh=phh,
            phh_name=name,
            note=note.note if note else "",
            tags=note.tags if note else (),
        )
        advance(1)
    return found


def _hand_rows(con: duckdb.DuckDBPyConnection, player: str, hand_ids: list[int]) -> pl.DataFrame:
    """Per hand: the player's result (in currency units and big bets), its stakes and the hash
    of its text."""
    return run(
        con,
        f"""SELECT p.*, h.structure, h.small_bet, h.small_blind, h.big_blind, h.content_hash
FROM (
  SELECT hand_id, room, room_hand_id, started_at, game, currency, scale, big_bet,
    {MONEY} AS net, net_bb AS big_bets
  FROM player_hands WHERE {player_condition()} AND hand_id IN (SELECT unnest($ids))
) p JOIN (
  SELECT hand_id, structure, small_bet, small_blind, big_blind, content_hash FROM hands
) h USING (hand_id)
ORDER BY p.hand_id""",
        {"player": player, "ids": hand_ids},
    )
