"""Leaks: a player's statistics that stray from the reference ranges and the player pool,
ranked by the money at stake, with the hands behind each one, linked to the replayer."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import polars as pl
import streamlit as st

from studdraw.dashboard import downloads, store, ui
from studdraw.dashboard.render import GAME_NAMES, literal, replay_url
from studdraw.dashboard.store import StoreRef
from studdraw.pipeline.analytics import (
    MIN_OPPORTUNITIES,
    Filters,
    currency_label,
    money_text,
)
from studdraw.pipeline.analytics.report import verdict_note

HANDS_BEHIND = 50


def render() -> None:
    ref = ui.start_page(
        "Leaks",
        "Where a player's play strays from the reference ranges and from the pool, ranked by "
        "what it costs.",
    )
    if ui.empty_store(ref):
        return
    player = ui.player_picker(ref, "leaks-player")
    if player is None:
        return
    filters = ui.filters_sidebar(ref, "leaks", player)
    checked = store.assess(ref, filters)
    ui.doubtful_note(ref, filters)
    note = verdict_note(checked, MIN_OPPORTUNITIES)
    found = checked.filter(pl.col("verdict") == "leak")
    if found.is_empty():
        st.info(note)
        _checked(checked)
        return
    st.caption(note)
    ranked = found.with_row_index("rank", offset=1)
    _table(ranked)
    labels = {
        row["rank"]: f"{row['rank']}. {row['label']} · {GAME_NAMES.get(row['game'], row['game'])}"
        f" · {currency_label(row['currency'])} · {row['table_size']} · {row['severity']}"
        for row in ranked.iter_rows(named=True)
    }
    rank = st.selectbox("The hands behind", list(labels), format_func=labels.__getitem__)
    _hands_behind(ref, filters, ranked.row(rank - 1, named=True))
    _checked(checked)


def _checked(checked: pl.DataFrame) -> None:
    """Every stat the report looked at, with its interval and verdict."""
    with st.expander(f"Every stat checked ({checked.height})"):
        st.dataframe(
            checked.select(
                "label",
                pl.col("game").replace_strict(GAME_NAMES, default=pl.col("game")),
                pl.col("currency").map_elements(currency_label, return_dtype=pl.String),
                "table_size",
                "verdict",
                "value",
                "ci_low",
                "ci_high",
                "low",
                "high",
                "opportunities",
            ),
            hide_index=True,
            placeholder="–",
            column_config=_PERCENTS | {"label": st.column_config.TextColumn("stat")},
        )


_PERCENTS = {
    "table_size": st.column_config.TextColumn("table size"),
    "value": st.column_config.NumberColumn(format="percent"),
    "ci_low": st.column_config.NumberColumn("95% interval from", format="percent"),
    "ci_high": st.column_config.NumberColumn("to", format="percent"),
    "low": st.column_config.NumberColumn("reference low", format="percent"),
    "high": st.column_config.NumberColumn("reference high", format="percent"),
}


def _table(ranked: pl.DataFrame) -> None:
    st.dataframe(
        ranked.select(
            "rank",
            "label",
            pl.col("game").replace_strict(GAME_NAMES, default=pl.col("game")),
            pl.col("currency").map_elements(currency_label, return_dtype=pl.String),
            "table_size",
            "severity",
            "money_at_stake",
            "direction",
            "value",
            "ci_low",
            "ci_high",
            "low",
            "high",
            "pool_mean",
            "z",
            "opportunities",
            pl.col("example_room_hand_ids").list.join(", ").alias("examples"),
        ),
        hide_index=True,
        placeholder="–",
        column_config=_PERCENTS
        | {
            "label": st.column_config.TextColumn("stat"),
            "examples": st.column_config.TextColumn("example room hand ids"),
            "pool_mean": st.column_config.NumberColumn("pool mean", format="percent"),
            "z": st.column_config.NumberColumn("z vs pool", format="%+.2f"),
            "money_at_stake": st.column_config.ProgressColumn(
                "at stake (BB/100)",
                format="%.1f",
                min_value=0,
                max_value=float(ranked.select(pl.col("money_at_stake").max()).item() or 1),
            ),
        },
    )


def _hands_behind(ref: StoreRef, filters: Filters, leak: dict[str, Any]) -> None:
    stat, game = str(leak["stat"]), str(leak["game"])
    currency = str(leak["currency"])
    narrowed = replace(filters, game=game, currency=currency, table_size=str(leak["table_size"]))
    hands = store.hands_behind(ref, narrowed, stat, HANDS_BEHIND)
    took = hands.get_column("took").sum() if hands.height else 0
    st.caption(
        f"{leak['label']} in {GAME_NAMES.get(game, game)}: the latest {hands.height} hands where "
        f"the chance arose; {took} of them with the action. Open one in the replayer."
    )
    examples = [int(hand_id) for hand_id in leak["examples"] or []]
    downloads.listed_hands(
        ref,
        hands.get_column("hand_id").to_list(),
        label="Download these hands (.phhs)",
        file_name=f"{stat}-{game}.phhs",
        key=f"leak-phhs-{stat}-{game}",
    )
    if examples:
        room_hand_ids = [str(room_hand_id) for room_hand_id in leak["example_room_hand_ids"] or []]
        links = " · ".join(
            f"[#{literal(room_hand_id)}]({replay_url(hand_id)})"
            for hand_id, room_hand_id in zip(examples, room_hand_ids, strict=True)
        )
        st.markdown(f"Typical hands: {links}")
    st.dataframe(
        hands.select(
            pl.col("hand_id").map_elements(replay_url, return_dtype=pl.String).alias("replay"),
            "room",
            "room_hand_id",
            pl.col("started_at").dt.convert_time_zone(filters.time_zone),
            "took",
            pl.col("net").map_elements(
                lambda value: money_text(value, currency, signed=True), return_dtype=pl.String
            ),
            "big_bets",
        ),
        hide_index=True,
        column_config={
            "replay": st.column_config.LinkColumn("hand", display_text="replay ▶"),
            "started_at": st.column_config.DatetimeColumn(
                f"started ({filters.time_zone})", format="YYYY-MM-DD HH:mm"
            ),
            "took": st.column_config.CheckboxColumn("took the action"),
            "net": st.column_config.TextColumn("net won"),
            "big_bets": st.column_config.NumberColumn("big bets", format="%.2f"),
        },
    )


if __name__ == "__main__":
    render()
