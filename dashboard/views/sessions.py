"""Sessions: a player's results hand by hand (cumulative net or big bets, with the all-in
adjusted line) with the session boundaries marked, and the table of sessions."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from studdraw.dashboard import downloads, store, ui
from studdraw.dashboard.store import Results
from studdraw.pipeline.analytics import SESSION_GAP_MINUTES

# Points drawn per line: a million-hand graph is thinned to this (every session's first and
# last hand kept), which the eye cannot tell apart and the browser draws at once. (A comment, not
# a docstring: Streamlit's "magic" would print a bare string of a page script.)
MAX_POINTS = 2500

UNITS = {
    "Big bets": ("cumulative_big_bets", "allin_cumulative_big_bets"),
    "Money": ("cumulative_net", "allin_cumulative_net"),
}


def render() -> None:
    ref = ui.start_page(
        "Sessions",
        f"Results hand by hand; a session ends after {SESSION_GAP_MINUTES} minutes without a hand.",
    )
    if ui.empty_store(ref):
        return
    player = ui.player_picker(ref, "sessions-player")
    filters = ui.filters_sidebar(ref, "sessions", player)
    results = store.results(ref, filters, MAX_POINTS)
    if results is None:
        st.info(f"No hands of {player} match the filters.")
        return
    table = store.sessions(ref, filters)
    _summary(results, table)
    unit = st.segmented_control("Show", list(UNITS), default="Big bets", required=True)
    st.altair_chart(_chart(results, unit), width="stretch")
    st.caption(
        "All-in adjusted: where the player was all-in before the last card, the line counts the "
        "pot share the hand was worth at that moment instead of what the cards later made of it."
    )
    st.subheader(f"Sessions of {player}")
    _table(table)
    downloads.filtered_hands(ref, filters, key="sessions-phhs")


def _summary(results: Results, table: pl.DataFrame) -> None:
    hands, last = results.hands, results.last
    cols = st.columns(5)
    cols[0].metric("Hands", f"{hands:,}")
    cols[1].metric("Sessions", f"{table.height:,}")
    cols[2].metric("Net won", f"{float(last['cumulative_net']):,.2f}")
    cols[3].metric(
        "Big bets / 100 hands",
        f"{100 * last['cumulative_big_bets'] / hands:+.2f}",
        help="Net in big bets of each hand's stakes, per hundred hands.",
    )
    cols[4].metric(
        "All-in adjusted BB / 100",
        f"{100 * last['allin_cumulative_big_bets'] / hands:+.2f}",
    )


def _chart(results: Results, unit: str) -> alt.LayerChart:
    actual, adjusted = UNITS[unit]
    points = results.points.select(
        "hand_no",
        "session",
        "site_hand_id",
        "game",
        pl.col("started_at").dt.strftime("%Y-%m-%d %H:%M"),
        pl.col(actual).cast(pl.Float64).alias("result"),
        pl.col(adjusted).cast(pl.Float64).alias("all-in adjusted"),
    )
    lines = points.unpivot(
        ["result", "all-in adjusted"],
        index=["hand_no", "session", "site_hand_id", "game", "started_at"],
        variable_name="line",
        value_name="value",
    )
    starts = results.starts.with_columns(pl.col("started_at").dt.strftime("%Y-%m-%d %H:%M"))
    axis = alt.X("hand_no:Q", title="hands played", scale=alt.Scale(nice=False))
    colours = alt.Scale(domain=["result", "all-in adjusted"], range=["#1f6e43", "#e08a00"])
    curve = (
        alt.Chart(lines)
        .mark_line(strokeWidth=2)
        .encode(
            x=axis,
            y=alt.Y("value:Q", title=f"cumulative {unit.lower()}"),
            color=alt.Color("line:N", scale=colours, title=None, legend=alt.Legend(orient="top")),
            strokeDash=alt.StrokeDash(
                "line:N",
                scale=alt.Scale(domain=["result", "all-in adjusted"], range=[[1, 0], [5, 3]]),
                legend=None,
            ),
            tooltip=[
                alt.Tooltip("hand_no:Q", title="hand"),
                "session:Q",
                "started_at:N",
                "game:N",
                "site_hand_id:N",
                "line:N",
                alt.Tooltip("value:Q", format=",.2f"),
            ],
        )
    )
    boundaries = (
        alt.Chart(starts)
        .mark_rule(color="#9aa1ab", strokeDash=[2, 3])
        .encode(
            x=axis,
            tooltip=["session:Q", alt.Tooltip("started_at:N", title="started")],
        )
    )
    zero = alt.Chart(pl.DataFrame({"value": [0.0]})).mark_rule(color="#c4c8cf").encode(y="value:Q")
    return alt.LayerChart(layer=[boundaries, zero, curve], height=380)


def _table(table: pl.DataFrame) -> None:
    st.dataframe(
        table.with_columns(
            pl.col("net").cast(pl.Float64),
            bb_per_100=100 * pl.col("big_bets") / pl.col("hands"),
            minutes=(pl.col("end") - pl.col("start")).dt.total_minutes(),
        ),
        hide_index=True,
        column_config={
            "start": st.column_config.DatetimeColumn("start (UTC)", format="YYYY-MM-DD HH:mm"),
            "end": st.column_config.DatetimeColumn("end (UTC)", format="YYYY-MM-DD HH:mm"),
            "net": st.column_config.NumberColumn(format="%.2f"),
            "big_bets": st.column_config.NumberColumn("big bets", format="%.2f"),
            "bb_per_100": st.column_config.NumberColumn("BB / 100", format="%+.2f"),
        },
    )


if __name__ == "__main__":
    render()
