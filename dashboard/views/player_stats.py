"""Player stats: every statistic of docs/stats.md per player and game, in a table sortable by
any column, filtered by game, structure, stakes, room, dates and session; and, for stud, how a
player's starting hands fared."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st
from streamlit.elements.lib.column_types import ColumnConfig

from studdraw.dashboard import downloads, store, ui
from studdraw.dashboard.render import GAME_NAMES, literal
from studdraw.pipeline.analytics import Filters, currency_label, money_text, street_title
from studdraw.pipeline.analytics.registry import (
    AGGRESSION,
    BY_NAME,
    DRAW_COUNT_STATS,
    STREET_STATS,
)

RESULTS = ["hands", "net", "big_bets", "bb_per_100", "allin_net", "allin_bb_per_100"]
GROUPS = {
    "Preflop / 3rd street": [
        "vpip",
        "complete_3rd",
        "bring_in_complete",
        "steal",
        "fold_to_steal",
        "reraise_3rd",
        "rfi",
        "three_bet",
    ],
    "Streets": [stat.name for stat in STREET_STATS] + ["fold_to_bet_4th", "fold_to_bet_5th"],
    "Aggression": list(AGGRESSION),
    "Showdown": ["went_to_showdown", "won_at_showdown", "won_without_showdown"],
    "Hi/lo": ["scoop", "three_quarters", "half", "quarter"],
    "Draws": [stat.name for stat in DRAW_COUNT_STATS] + ["breaking", "snowing"],
}
DEFAULT_GROUPS = ["Preflop / 3rd street", "Showdown"]


def heading(name: str, games: list[str]) -> str:
    """A column's heading, naming its street as the specs of `games`, the games with a value in
    it, label it (one column holds every game's rows: drawmaha's "flop" beside triple draw's
    "after draw 1")."""
    if name.startswith("af_"):
        return f"aggression factor, {street_title(int(name[3:]), games)}"
    stat = BY_NAME.get(name)
    return name.replace("_", " ") if stat is None else stat.title(games)


def render() -> None:
    ref = ui.start_page(
        "Player stats",
        "One row per player, game and currency (money never adds across currencies); click a "
        "column to sort. Definitions: docs/stats.md.",
    )
    if ui.empty_store(ref):
        return
    player = ui.player_picker(ref, "stats-player", optional=True)
    filters = ui.filters_sidebar(ref, "stats", player)
    stats = store.player_stats(ref, filters)
    ui.doubtful_note(ref, filters)
    if stats.is_empty():
        st.info("No hands match the filters.")
        return
    left, right = st.columns([3, 1])
    groups = left.multiselect("Statistics", list(GROUPS), default=DEFAULT_GROUPS)
    counts = right.toggle("Opportunities", help="Show how often each stat's chance arose.")
    _table(stats, groups, counts=counts)
    downloads.filtered_hands(ref, filters, key="stats-phhs")
    if player is not None:
        _starting_hands(ref, filters)
        _door_cards(ref, filters)


def _table(stats: pl.DataFrame, groups: list[str], *, counts: bool) -> None:
    shown = [name for group in groups for name in GROUPS[group] if name in stats.columns]
    # Keep the columns that say something: a stat no row had a chance for is all empty.
    shown = [name for name in shown if stats.get_column(name).null_count() < stats.height]
    columns = ["player", "game", "money", *RESULTS]
    config: dict[str, ColumnConfig] = {
        "game": st.column_config.TextColumn(pinned=True),
        "player": st.column_config.TextColumn(pinned=True),
        "money": st.column_config.TextColumn(
            "currency", pinned=True, help="One row per currency: money never adds across them."
        ),
        "net": st.column_config.TextColumn("net won"),
        "big_bets": st.column_config.NumberColumn("big bets", format="%.1f"),
        "bb_per_100": st.column_config.NumberColumn("BB/100", format="%+.2f"),
        "allin_net": st.column_config.TextColumn("all-in adj. net"),
        "allin_bb_per_100": st.column_config.NumberColumn("all-in adj. BB/100", format="%+.2f"),
    }
    for name in shown:
        columns.append(name)
        valued = stats.filter(pl.col(name).is_not_null()).get_column("game")
        title = heading(name, valued.unique(maintain_order=True).to_list())
        if name.startswith("af_"):
            config[name] = st.column_config.NumberColumn(title, format="%.2f")
        else:
            config[name] = st.column_config.NumberColumn(title, format="percent")
        if counts and f"{name}_n" in stats.columns:
            columns.append(f"{name}_n")
            config[f"{name}_n"] = st.column_config.NumberColumn(f"{title} (n)")
    frame = stats.with_columns(
        money=pl.col("currency").map_elements(currency_label, return_dtype=pl.String),
        net=_money_column("net"),
        allin_net=_money_column("allin_net"),
        game=pl.col("game").replace_strict(GAME_NAMES, default=pl.col("game")),
    ).select(columns)
    st.dataframe(
        frame,
        hide_index=True,
        column_config=config,
        placeholder="–",
        height=min(560, 38 + 35 * frame.height),
    )


def _money_column(name: str) -> pl.Expr:
    """A money column written with its row's currency ("$1.25", "-1,500 chips")."""
    return pl.struct(name, "currency").map_elements(
        lambda row: money_text(row[name], row["currency"], signed=True), return_dtype=pl.String
    )


def _per_game(frame: pl.DataFrame) -> pl.DataFrame:
    """Rows per game and currency as shown: "Seven-card stud · $ (USD)", net in that money."""
    return frame.with_columns(
        net=_money_column("net"),
        game=pl.col("game").replace_strict(GAME_NAMES, default=pl.col("game"))
        + " · "
        + pl.col("currency").map_elements(currency_label, return_dtype=pl.String),
    ).drop("currency")


def _starting_hands(ref: store.StoreRef, filters: Filters) -> None:
    groups = store.starting_hands(ref, filters)
    if groups.is_empty():
        return
    st.subheader(f"Stud starting hands of {literal(filters.player)}")
    st.caption("Groups of the three 3rd-street cards: how often each was played, and what it won.")
    frame = _per_game(groups)
    chart = (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            y=alt.Y("group:N", sort=None, title=None),
            x=alt.X("big_bets:Q", title="big bets won"),
            color=alt.condition(
                alt.datum.big_bets >= 0, alt.value("#1f6e43"), alt.value("#c8102e")
            ),
            row=alt.Row("game:N", title=None, header=alt.Header(labelAngle=0, labelAlign="left")),
            tooltip=[
                "game:N",
                "group:N",
                "dealt:Q",
                "played:Q",
                alt.Tooltip("big_bets:Q", format=".1f"),
            ],
        )
        .resolve_scale(y="independent")
        .properties(width=360)
    )
    left, right = st.columns([3, 2])
    left.dataframe(
        frame,
        hide_index=True,
        column_config={
            "played_pct": st.column_config.ProgressColumn(
                "played %", min_value=0, max_value=1, format="percent"
            ),
            "net": st.column_config.TextColumn("net won"),
            "big_bets": st.column_config.NumberColumn("big bets", format="%.1f"),
        },
    )
    right.altair_chart(chart)


def _door_cards(ref: store.StoreRef, filters: Filters) -> None:
    """Play and results by the rank of the player's door card: the one 3rd-street card every
    opponent sees, and the one a steal or a defence is judged by."""
    doors = store.door_cards(ref, filters)
    if doors.is_empty():
        return
    st.subheader(f"Stud door cards of {literal(filters.player)}")
    st.caption("By the rank of the up card dealt on 3rd street, strongest first for each game.")
    frame = _per_game(doors)
    st.dataframe(
        frame,
        hide_index=True,
        column_config={
            "door_rank": st.column_config.TextColumn("door card"),
            "played_pct": st.column_config.ProgressColumn(
                "played %", min_value=0, max_value=1, format="percent"
            ),
            "net": st.column_config.TextColumn("net won"),
            "big_bets": st.column_config.NumberColumn("big bets", format="%.1f"),
        },
    )


if __name__ == "__main__":
    render()
