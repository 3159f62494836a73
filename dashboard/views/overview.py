"""Overview: what the store holds (rooms, games, hands over time, imports) and how clean it is."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from studdraw.dashboard import store, ui
from studdraw.dashboard.render import GAME_NAMES
from studdraw.dashboard.store import StoreRef
from studdraw.dashboard.views import page
from studdraw.pipeline.analytics import inventory
from studdraw.pipeline.words import plural

GAME_ORDER = list(GAME_NAMES)
PLAYERS_SHOWN = 50
IMPORTS_SHOWN = 20
TIME_UNITS = {
    "day": "utcyearmonthdate",
    "week": "utcyearweek",
    "month": "utcyearmonth",
    "year": "utcyear",
}  # a bar spans its bin (bins are dates already in the user's zone: no browser shift)


def render() -> None:
    ref = ui.start_page(
        "Overview", "What the store holds, where it came from, and how clean it is."
    )
    zone = ui.time_zone_setting("overview")
    totals = store.read(ref, inventory.store_totals, zone)
    players = totals["players"]
    rejects, unsupported = store.count(ref, "rejects"), store.count(ref, "unsupported")

    cols = st.columns(6)
    cols[0].metric("Hands stored", f"{totals['hands']:,}")
    cols[1].metric("Players", f"{players:,}")
    cols[2].metric("Rooms / games", f"{totals['rooms']} / {totals['games']}")
    cols[3].metric("Valid hands", f"{totals['valid']:.1%}", help="No error-severity violation.")
    cols[4].metric("Rejected", _count(rejects), help="Hands that could not be parsed (text kept).")
    cols[5].metric("Unsupported", _count(unsupported), help="Other games, cancelled hands.")
    if totals["hands"]:
        st.caption(
            f"Hands from {totals['first_day']} to {totals['last_day']} ({zone}); "
            f"{plural(totals['errors'] or 0, 'rule error')} and "
            f"{plural(totals['warnings'] or 0, 'warning')}."
        )
    st.page_link(
        page("data_quality"), label="Data quality: violations and rejects", icon=":material/rule:"
    )
    if ui.empty_store(ref):
        return

    left, right = st.columns([3, 2])
    with left:
        st.subheader("Hands over time")
        _hands_over_time(ref, zone)
    with right:
        st.subheader("Rooms and games")
        _rooms_and_games(ref, zone)
    st.subheader("Players")
    _players(ref)
    st.subheader("Latest imports")
    _imports(ref, zone)


def _count(rows: int | None) -> str:
    return "n/a" if rows is None else f"{rows:,}"


def bin_unit(span_days: int) -> str:
    """The bar width for a span of days: about 30 to 150 bars, whatever the span."""
    for unit, most in (("day", 120), ("week", 2 * 365), ("month", 12 * 365)):
        if span_days <= most:
            return unit
    return "year"


def _hands_over_time(ref: StoreRef, zone: str) -> None:
    """Hands per bin and game over the store's whole span, in the user's time zone: the bin
    (day, week, month or year) is chosen from the span, so every hand is on the chart."""
    unit = bin_unit(store.read(ref, inventory.span_days))
    frame = store.read(ref, inventory.hands_per_bin, unit, zone)
    chart = (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X(f"{TIME_UNITS[unit]}(bin):T", title=f"{unit} ({zone})"),
            y=alt.Y("hands:Q", title="hands", stack=True),
            color=alt.Color("game:N", sort=GAME_ORDER, title="game"),
            tooltip=[
                alt.Tooltip(f"{TIME_UNITS[unit]}(bin):T", title=unit),
                "game:N",
                alt.Tooltip("hands:Q", format=","),
            ],
        )
        .properties(height=280)
    )
    st.altair_chart(chart, width="stretch")
    st.caption(f"All {int(frame.get_column('hands').sum()):,} hands, one bar per {unit}.")


def _rooms_and_games(ref: StoreRef, zone: str) -> None:
    frame = store.read(ref, inventory.rooms_and_games, zone)
    st.dataframe(
        frame.with_columns(pl.col("game").replace_strict(GAME_NAMES, default=pl.col("game"))),
        hide_index=True,
        column_config={
            "hands": st.column_config.NumberColumn(format="localized"),
            "valid_pct": st.column_config.ProgressColumn(
                "valid %", min_value=0, max_value=100, format="%.1f"
            ),
        },
    )


def _players(ref: StoreRef) -> None:
    """The players of most hands, with where and what they played."""
    players = store.players(ref).sort(["hands", "name"], descending=[True, False])
    shown = players.head(PLAYERS_SHOWN).with_columns(
        pl.col("rooms").list.join(", "),
        pl.col("games")
        .list.eval(pl.element().replace_strict(GAME_NAMES, default=pl.element()))
        .list.join(", "),
    )
    st.dataframe(
        shown,
        hide_index=True,
        column_order=["name", "hero", "hands", "rooms", "games", "first_seen", "last_seen"],
        column_config={
            "hero": st.column_config.CheckboxColumn("hero", help="The account that exported."),
            "hands": st.column_config.NumberColumn(format="localized"),
            "rooms": "rooms",
            "first_seen": st.column_config.DatetimeColumn("first seen", format="YYYY-MM-DD"),
            "last_seen": st.column_config.DatetimeColumn("last seen", format="YYYY-MM-DD"),
        },
    )
    if players.height > PLAYERS_SHOWN:
        st.caption(f"The {PLAYERS_SHOWN} players of most hands, of {players.height:,}.")


def _imports(ref: StoreRef, zone: str) -> None:
    if "imports" not in store.tables(ref):
        st.caption("A Parquet dataset keeps no import log; open the DuckDB file to see it.")
        return
    frame = store.read(ref, inventory.recent_imports, zone, IMPORTS_SHOWN)
    st.dataframe(frame, hide_index=True, column_config={"started": f"started ({zone})"})


if __name__ == "__main__":
    render()
