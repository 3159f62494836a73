"""Leaks: a player's statistics that stray from the reference ranges and the player pool,
ranked by the money at stake, with the hands behind each one, linked to the replayer."""

from __future__ import annotations

from dataclasses import replace

import polars as pl
import streamlit as st

from studdraw.dashboard import downloads, store, ui
from studdraw.dashboard.render import GAME_NAMES, replay_url
from studdraw.dashboard.store import StoreRef
from studdraw.pipeline.analytics import Filters

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
    found = store.leaks(ref, filters)
    if found.is_empty():
        st.success(f"No leak found for {player} with these filters.")
        return
    ranked = found.with_row_index("rank", offset=1)
    _table(ranked)
    labels = {
        row["rank"]: f"{row['rank']}. {row['label']} · {GAME_NAMES.get(row['game'], row['game'])}"
        f" · {row['severity']}"
        for row in ranked.iter_rows(named=True)
    }
    rank = st.selectbox("The hands behind", list(labels), format_func=labels.__getitem__)
    _hands_behind(ref, filters, ranked.row(rank - 1, named=True))


def _table(ranked: pl.DataFrame) -> None:
    st.dataframe(
        ranked.select(
            "rank",
            "label",
            pl.col("game").replace_strict(GAME_NAMES, default=pl.col("game")),
            "severity",
            "money_at_stake",
            "direction",
            "value",
            "low",
            "high",
            "pool_mean",
            "z",
            "opportunities",
        ),
        hide_index=True,
        placeholder="–",
        column_config={
            "label": st.column_config.TextColumn("stat"),
            "value": st.column_config.NumberColumn(format="percent"),
            "low": st.column_config.NumberColumn("reference low", format="percent"),
            "high": st.column_config.NumberColumn("reference high", format="percent"),
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


def _hands_behind(ref: StoreRef, filters: Filters, leak: dict[str, object]) -> None:
    stat, game = str(leak["stat"]), str(leak["game"])
    hands = store.hands_behind(ref, replace(filters, game=game), stat, HANDS_BEHIND)
    took = hands.get_column("took").sum() if hands.height else 0
    st.caption(
        f"{leak['label']} in {GAME_NAMES.get(game, game)}: the latest {hands.height} hands where "
        f"the chance arose; {took} of them with the action. Open one in the replayer."
    )
    examples = [int(hand_id) for hand_id in leak["examples"] or []]  # type: ignore[attr-defined]
    downloads.listed_hands(
        ref,
        hands.get_column("hand_id").to_list(),
        label="Download these hands (.phhs)",
        file_name=f"{stat}-{game}.phhs",
        key=f"leak-phhs-{stat}-{game}",
    )
    if examples:
        links = " · ".join(f"[{n}]({replay_url(hand_id)})" for n, hand_id in enumerate(examples, 1))
        st.markdown(f"Typical hands: {links}")
    st.dataframe(
        hands.select(
            pl.col("hand_id").map_elements(replay_url, return_dtype=pl.String).alias("replay"),
            "site",
            "site_hand_id",
            "started_at",
            "took",
            pl.col("net").cast(pl.Float64),
            "big_bets",
        ),
        hide_index=True,
        column_config={
            "replay": st.column_config.LinkColumn("hand", display_text="replay ▶"),
            "started_at": st.column_config.DatetimeColumn(
                "started (UTC)", format="YYYY-MM-DD HH:mm"
            ),
            "took": st.column_config.CheckboxColumn("took the action"),
            "net": st.column_config.NumberColumn(format="%.2f"),
            "big_bets": st.column_config.NumberColumn("big bets", format="%.2f"),
        },
    )


if __name__ == "__main__":
    render()
