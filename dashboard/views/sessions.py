"""Sessions: a player's results hand by hand (cumulative net or big bets, with the all-in
adjusted line) with the session boundaries marked, and the table of sessions."""

from __future__ import annotations

from dataclasses import replace

import altair as alt
import polars as pl
import streamlit as st

from studdraw.dashboard import downloads, store, ui
from studdraw.dashboard.render import GAME_NAMES, literal, replay_url
from studdraw.dashboard.store import Results, StoreRef
from studdraw.pipeline.analytics import (
    SESSION_GAP_MINUTES,
    Filters,
    currency_label,
    hourly_of_sessions,
    money_text,
    per_hour,
)
from studdraw.pipeline.words import duration_text, plural

# Points drawn per line: a million-hand graph is thinned to this (every session's first and
# last hand kept), which the eye cannot tell apart and the browser draws at once. (A comment, not
# a docstring: Streamlit's "magic" would print a bare string of a page script.)
MAX_POINTS = 2500

SESSION_COLUMNS = (
    "session", "start", "minutes", "games", "stakes", "rooms", "kind", "money", "hands",
    "net_text", "bb_per_100", "hands_per_hour", "net_per_hour_text", "best", "best_text", "worst",
    "worst_text",
)  # fmt: skip

AXES = ("Hands played", "Date")
# The graph's x axis: the hands in order, or the time they were played (in the user's zone).

UNITS = {
    "Big bets": ("cumulative_big_bets", "allin_cumulative_big_bets"),
    "Money": ("cumulative_net", "allin_cumulative_net"),
}


def render() -> None:
    ref = ui.start_page(
        "Sessions",
        f"Results hand by hand; a session ends after {SESSION_GAP_MINUTES} minutes without a hand. "
        "Money is shown per currency: dollars, euros, play money and tournament chips never add.",
    )
    if ui.empty_store(ref):
        return
    player = ui.player_picker(ref, "sessions-player")
    filters = ui.filters_sidebar(ref, "sessions", player)
    table = store.sessions(ref, filters)
    if table.is_empty():
        st.info(f"No hands of {literal(player)} match the filters.")
        return
    currency = _currency_picker(table, filters)
    results = store.results(ref, replace(filters, currency=currency), MAX_POINTS)
    if results is None:
        st.info(f"No hands of {literal(player)} in {currency_label(currency)} match the filters.")
        return
    _summary(results, table.filter(pl.col("currency") == currency), currency)
    ui.doubtful_note(ref, filters)
    left, right = st.columns(2)
    unit = left.segmented_control("Show", list(UNITS), default="Big bets", required=True)
    axis = right.segmented_control(
        "Along",
        AXES,
        default=AXES[0],
        required=True,
        key="sessions-axis",
        help="Hands played: one step per hand. Date: the time each hand was played, in your "
        "time zone (the line is flat between sessions).",
    )
    chart = _chart(results, unit, currency, by_date=axis == "Date", zone=filters.time_zone)
    st.altair_chart(chart, width="stretch")
    st.caption(
        "All-in adjusted: where the player was all-in before the last card, the line counts the "
        "pot share the hand was worth at that moment instead of what the cards later made of it."
    )
    st.subheader(f"Sessions of {literal(player)}")
    _totals(table)
    picked = _table(table, filters.time_zone)
    if picked is not None:
        _session_hands(ref, filters, picked)
    downloads.filtered_hands(ref, filters, key="sessions-phhs")


def _currency_picker(table: pl.DataFrame, filters: Filters) -> str:
    """The currency the graph and the headline figures are in: the filter's, or a choice among
    the player's currencies (most hands first)."""
    hands = table.group_by("currency").agg(pl.col("hands").sum()).sort("hands", descending=True)
    currencies: list[str] = hands.get_column("currency").to_list()
    if filters.currency is not None or len(currencies) == 1:
        return currencies[0]
    chosen: str = st.segmented_control(
        "Money",
        currencies,
        default=currencies[0],
        format_func=currency_label,
        required=True,
        key="sessions-money",
        help="Each currency has its own results: cash and tournament chips never add.",
    )
    return chosen


def _summary(results: Results, table: pl.DataFrame, currency: str) -> None:
    """The headline figures in one currency, each as wide as its label and value: a row that
    wraps on a narrow window instead of cutting them off."""
    hands, last = results.hands, results.last
    rates = hourly_of_sessions(table).row(0, named=True)
    timed = rates["hours"] > 0
    money = currency_label(currency)
    row = st.container(horizontal=True, gap="medium")
    figures: list[tuple[str, str, str | None]] = [
        ("Hands", f"{hands:,}", None),
        ("Sessions", f"{table.height:,}", None),
        (f"Net won ({money})", money_text(last["cumulative_net"], currency), None),
        (
            "Big bets / 100 hands",
            f"{100 * last['cumulative_big_bets'] / hands:+.2f}",
            "Net in big bets of each hand's stakes, per hundred hands, in this currency only.",
        ),
        (
            "All-in adjusted BB / 100",
            f"{100 * last['allin_cumulative_big_bets'] / hands:+.2f}",
            None,
        ),
        (
            "Time played",
            duration_text(rates["seconds"]),
            "Each session from its first hand to its last (hands at several tables at once "
            "share the time).",
        ),
        ("Hands / hour", f"{rates['hands_per_hour']:,.1f}" if timed else "–", None),
        (
            f"Net won / hour ({money})",
            money_text(rates["net_per_hour"], currency, signed=True) if timed else "–",
            None,
        ),
        ("Big bets / hour", f"{rates['big_bets_per_hour']:+,.2f}" if timed else "–", None),
    ]
    for label, value, note in figures:
        row.metric(label, value, help=note, width="content")


def _wall_time(zone: str) -> pl.Expr:
    """`started_at` as the wall time of `zone`, written as a UTC instant for a Vega "utc"
    scale: the axis then reads the user's zone whatever the browser's."""
    local = pl.col("started_at").dt.convert_time_zone(zone).dt.replace_time_zone(None)
    return local.dt.strftime("%Y-%m-%dT%H:%M:%SZ").alias("when")


def _chart(
    results: Results, unit: str, currency: str, *, by_date: bool, zone: str
) -> alt.LayerChart:
    actual, adjusted = UNITS[unit]
    points = results.points.select(
        "hand_no",
        "session",
        "room_hand_id",
        "game",
        _wall_time(zone),
        pl.col("started_at").dt.convert_time_zone(zone).dt.strftime("%Y-%m-%d %H:%M"),
        pl.col(actual).cast(pl.Float64).alias("result"),
        pl.col(adjusted).cast(pl.Float64).alias("all-in adjusted"),
    )
    lines = points.unpivot(
        ["result", "all-in adjusted"],
        index=["hand_no", "session", "room_hand_id", "game", "when", "started_at"],
        variable_name="line",
        value_name="value",
    )
    starts = results.starts.with_columns(
        _wall_time(zone),
        pl.col("started_at").dt.convert_time_zone(zone).dt.strftime("%Y-%m-%d %H:%M"),
    )
    if by_date:
        axis = alt.X("when:T", title=f"date ({zone})", scale=alt.Scale(type="utc", nice=False))
    else:
        axis = alt.X(
            "hand_no:Q",
            title="hands played",
            scale=alt.Scale(nice=False),
            axis=alt.Axis(format=",d", tickMinStep=1),
        )
    colours = alt.Scale(domain=["result", "all-in adjusted"], range=["#1f6e43", "#e08a00"])
    curve = (
        alt.Chart(lines)
        .mark_line(strokeWidth=2)
        .encode(
            x=axis,
            y=alt.Y(
                "value:Q",
                title=f"cumulative {unit.lower()}"
                + (f" ({currency_label(currency)})" if unit == "Money" else ""),
            ),
            color=alt.Color("line:N", scale=colours, title=None, legend=alt.Legend(orient="top")),
            strokeDash=alt.StrokeDash(
                "line:N",
                scale=alt.Scale(domain=["result", "all-in adjusted"], range=[[1, 0], [5, 3]]),
                legend=None,
            ),
            tooltip=[
                alt.Tooltip("hand_no:Q", title="hand"),
                "session:Q",
                "game:N",
                "room_hand_id:N",
                "line:N",
                alt.Tooltip("started_at:N", title=f"started ({zone})"),
                alt.Tooltip("value:Q", format=",.2f"),
            ],
        )
    )
    boundaries = (
        alt.Chart(starts)
        .mark_rule(color="#9aa1ab", strokeDash=[2, 3])
        .encode(
            x=axis,
            tooltip=["session:Q", alt.Tooltip("started_at:N", title=f"started ({zone})")],
        )
    )
    zero = alt.Chart(pl.DataFrame({"value": [0.0]})).mark_rule(color="#c4c8cf").encode(y="value:Q")
    return alt.LayerChart(layer=[boundaries, zero, curve], height=380)


def _totals(table: pl.DataFrame) -> None:
    """Net per currency over the sessions shown: one figure per currency, never a sum."""
    totals = per_hour(
        table.group_by("currency", "kind").agg(
            pl.col("net").sum(),
            pl.col("hands").sum(),
            pl.col("seconds").sum(),
            pl.col("big_bets").sum(),
        )
    )
    parts = [
        f"{money_text(row['net'], row['currency'], signed=True)} in {row['hands']:,} "
        f"{row['kind']} hands"
        + (
            f" ({duration_text(row['seconds'])}: "
            f"{money_text(row['net_per_hour'], row['currency'], signed=True)} an hour)"
            if row["hours"]
            else ""
        )
        for row in totals.sort("hands", descending=True).iter_rows(named=True)
    ]
    st.caption("Net won: " + " · ".join(parts) + ".")


def _table(table: pl.DataFrame, zone: str) -> dict[str, object] | None:
    """The sessions, one row per session and currency; a selected row's hands follow."""
    shown = per_hour(table).with_columns(
        start=pl.col("start").dt.convert_time_zone(zone),
        end=pl.col("end").dt.convert_time_zone(zone),
        games=pl.col("games")
        .list.eval(pl.element().replace_strict(GAME_NAMES, default=pl.element()))
        .list.join(", "),
        rooms=pl.col("rooms").list.join(", "),
        stakes=pl.col("stakes").list.join(", "),
        money=pl.col("currency").map_elements(currency_label, return_dtype=pl.String),
        net_text=pl.struct("net", "currency").map_elements(
            lambda row: money_text(row["net"], row["currency"], signed=True),
            return_dtype=pl.String,
        ),
        bb_per_100=100 * pl.col("big_bets") / pl.col("hands"),
        net_per_hour_text=pl.struct("net_per_hour", "currency").map_elements(
            lambda row: (
                money_text(row["net_per_hour"], row["currency"], signed=True)
                if row["net_per_hour"] is not None
                else "–"
            ),
            return_dtype=pl.String,
        ),
        minutes=(pl.col("end") - pl.col("start")).dt.total_minutes(),
        best=pl.col("best_hand").map_elements(replay_url, return_dtype=pl.String),
        worst=pl.col("worst_hand").map_elements(replay_url, return_dtype=pl.String),
        best_text=pl.struct("best_net", "currency").map_elements(
            lambda row: money_text(row["best_net"], row["currency"], signed=True),
            return_dtype=pl.String,
        ),
        worst_text=pl.struct("worst_net", "currency").map_elements(
            lambda row: money_text(row["worst_net"], row["currency"], signed=True),
            return_dtype=pl.String,
        ),
    )
    event = st.dataframe(
        shown,
        hide_index=True,
        key="sessions-table",
        on_select="rerun",
        selection_mode="single-row",
        column_order=SESSION_COLUMNS,
        column_config={
            "start": st.column_config.DatetimeColumn(f"start ({zone})", format="YYYY-MM-DD HH:mm"),
            "kind": "cash / tournament",
            "money": "currency",
            "net_text": st.column_config.TextColumn("net won"),
            "bb_per_100": st.column_config.NumberColumn("BB / 100", format="%+.2f"),
            "hands_per_hour": st.column_config.NumberColumn("hands / hour", format="%.1f"),
            "net_per_hour_text": st.column_config.TextColumn("net won / hour"),
            "best": st.column_config.LinkColumn("biggest win", display_text="replay ▶"),
            "best_text": "won",
            "worst": st.column_config.LinkColumn("biggest loss", display_text="replay ▶"),
            "worst_text": "lost",
        },
    )
    st.caption("Select a session's row to list its hands.")
    rows = event.selection.rows if event is not None else []
    return table.row(rows[0], named=True) if rows else None


def _session_hands(ref: StoreRef, filters: Filters, session: dict[str, object]) -> None:
    """The hands of one session in one currency, each linked to the replayer."""
    number, currency = int(str(session["session"])), str(session["currency"])
    hands = store.session_hands(ref, replace(filters, session=number, currency=currency))
    st.subheader(f"Session {number}: {plural(hands.height, 'hand')} in {currency_label(currency)}")
    st.dataframe(
        hands.with_columns(
            replay=pl.col("hand_id").map_elements(replay_url, return_dtype=pl.String),
            started_at=pl.col("started_at").dt.convert_time_zone(filters.time_zone),
            game=pl.col("game").replace_strict(GAME_NAMES, default=pl.col("game")),
            net=pl.col("net").map_elements(
                lambda value: money_text(value, currency, signed=True), return_dtype=pl.String
            ),
        ),
        hide_index=True,
        column_order=["replay", "started_at", "room_hand_id", "game", "net", "big_bets"],
        column_config={
            "replay": st.column_config.LinkColumn("hand", display_text="replay ▶"),
            "started_at": st.column_config.DatetimeColumn(
                f"started ({filters.time_zone})", format="YYYY-MM-DD HH:mm:ss"
            ),
            "room_hand_id": "room hand id",
            "big_bets": st.column_config.NumberColumn("big bets", format="%+.2f"),
        },
    )


if __name__ == "__main__":
    render()
