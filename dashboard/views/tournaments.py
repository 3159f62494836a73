"""Tournaments: what a player paid, where they finished and what they won, per buy-in currency
(tournaments played, ROI, in-the-money share), the results over tournaments, and one
tournament's chip graph hand by hand."""

from __future__ import annotations

from dataclasses import replace

import altair as alt
import polars as pl
import streamlit as st

from studdraw.dashboard import store, ui
from studdraw.dashboard.render import GAME_NAMES, literal
from studdraw.dashboard.store import StoreRef
from studdraw.pipeline.analytics import currency_label, money_text

TABLE_COLUMNS = (
    "first_hand", "room", "tournament_id", "game", "buy_in", "fee", "place", "prize", "bounty",
    "net", "hands", "chips",
)  # fmt: skip


def render() -> None:
    ref = ui.start_page(
        "Tournaments",
        "Buy-in, fee, finishing place, prize and bounties from the hands and the rooms' "
        "tournament summary files; ROI and in-the-money share over the tournaments whose "
        "result is known. Money per buy-in currency.",
    )
    if ui.empty_store(ref):
        return
    player = ui.player_picker(ref, "tournaments-player")
    if player is None:
        return
    filters = replace(ui.filters_sidebar(ref, "tournaments", player), kind="tournament")
    results = store.tournament_results(ref, filters)
    if results.is_empty():
        st.info(f"No tournament hands of {literal(player)} match the filters.")
        return
    _summary(store.tournament_summary(ref, filters))
    _results_graph(results)
    _table(results, filters.time_zone)
    _chips(ref, player, results)


def _summary(summary: pl.DataFrame) -> None:
    for row in summary.iter_rows(named=True):
        currency = row["currency"] or "?"
        st.subheader(f"Buy-ins in {currency_label(currency)}")
        cols = st.columns(5)
        cols[0].metric("Tournaments", f"{row['tournaments']:,}")
        cols[1].metric("Results known", f"{row['known']:,}")
        cols[2].metric("Net won", money_text(row["net"], currency, signed=True))
        cols[3].metric("ROI", "-" if row["roi"] is None else f"{row['roi']:+.1%}")
        cols[4].metric("In the money", "-" if row["itm"] is None else f"{row['itm']:.1%}")


def _results_graph(results: pl.DataFrame) -> None:
    """Cumulative net over the tournaments with a known result, one line per currency."""
    known = (
        results.filter(pl.col("net").is_not_null())
        .sort("last_hand")
        .with_columns(
            number=pl.int_range(1, pl.len() + 1).over("currency"),
            cumulative=pl.col("net").cast(pl.Float64).cum_sum().over("currency"),
            money=pl.col("currency").map_elements(currency_label, return_dtype=pl.String),
        )
    )
    if known.is_empty():
        st.caption("No finishing place is known yet: import the rooms' tournament summaries.")
        return
    chart = (
        alt.Chart(known.select("number", "cumulative", "money", "tournament_id", "place"))
        .mark_line(point=True)
        .encode(
            x=alt.X(
                "number:Q",
                title="tournaments with a known result",
                axis=alt.Axis(format="d", tickMinStep=1),
            ),
            y=alt.Y("cumulative:Q", title="cumulative net"),
            color=alt.Color("money:N", title="buy-in currency"),
            tooltip=["tournament_id:N", "place:Q", alt.Tooltip("cumulative:Q", format=",.2f")],
        )
        .properties(height=260)
    )
    st.altair_chart(chart, width="stretch")


def _table(results: pl.DataFrame, zone: str) -> None:
    def money(column: str) -> pl.Expr:
        return pl.struct(column, "currency").map_elements(
            lambda row: money_text(row[column], row["currency"] or "?"), return_dtype=pl.String
        )

    st.dataframe(
        results.with_columns(
            first_hand=pl.col("first_hand").dt.convert_time_zone(zone),
            game=pl.col("game").replace_strict(GAME_NAMES, default=pl.col("game")),
            buy_in=money("buy_in"),
            fee=money("fee"),
            prize=money("prize"),
            bounty=money("bounty"),
            net=money("net"),
        ),
        hide_index=True,
        placeholder="–",
        column_order=TABLE_COLUMNS,
        column_config={
            "first_hand": st.column_config.DatetimeColumn(
                f"first hand ({zone})", format="YYYY-MM-DD HH:mm"
            ),
            "room": "room",
            "tournament_id": "tournament",
            "buy_in": "buy-in",
            "chips": st.column_config.NumberColumn("chips won in these hands"),
        },
    )


def _chips(ref: StoreRef, player: str, results: pl.DataFrame) -> None:
    """One tournament's chip count, hand by hand."""
    choices = {
        (row["room"], row["tournament_id"]): f"{row['room']} #{row['tournament_id']} · "
        f"{GAME_NAMES.get(row['game'], row['game'])} · {row['hands']} hands"
        for row in results.iter_rows(named=True)
    }
    picked = st.selectbox(
        "Chip graph of", list(choices), format_func=choices.__getitem__, key="tournament-chips"
    )
    if picked is None:
        return
    chips = store.tournament_chips(ref, player, *picked).with_row_index("hand", offset=1)
    chart = (
        alt.Chart(chips.select("hand", "stack_after", "room_hand_id"))
        .mark_line(point=True)
        .encode(
            x=alt.X("hand:Q", title="hands played", axis=alt.Axis(format="d", tickMinStep=1)),
            y=alt.Y("stack_after:Q", title="chips after the hand"),
            tooltip=["room_hand_id:N", "stack_after:Q"],
        )
        .properties(height=240)
    )
    st.altair_chart(chart, width="stretch")


if __name__ == "__main__":
    render()
