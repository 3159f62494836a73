"""What every page shares: the store check, the stylesheet, the player picker and the filters.

Widget options come from small aggregate queries over `hands` (cached per store version), so
a filter bar costs the same on a thousand hands as on a million.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import polars as pl
import streamlit as st

from studdraw.pipeline.analytics import Filters

from . import store
from .render import GAME_NAMES, STRUCTURE_NAMES, stakes, stylesheet
from .store import StoreBusyError, StoreError, StoreRef


def start_page(title: str, caption: str) -> StoreRef:
    """Title the page, add the stylesheet, and return the store (or stop with the reason)."""
    st.html(stylesheet())
    st.title(title)
    st.caption(caption)
    try:
        ref = store.store_ref()
    except StoreBusyError as busy:
        st.info(str(busy), icon=":material/hourglass_top:")
        st.stop()
    except StoreError as error:
        st.error(str(error))
        st.stop()
    st.sidebar.caption(f"Store: `{ref.path}` (read-only)")
    return ref


def empty_store(ref: StoreRef) -> bool:
    """Say so and return True when the store holds no hand yet."""
    if store.scalar(ref, "SELECT count(*) FROM hands"):
        return False
    st.info("The store holds no hands yet: import some with `studdraw ingest PATH --db FILE`.")
    return True


def default_player(ref: StoreRef) -> str | None:
    """The hero of the most hands: the account whose histories were imported."""
    top = store.query(
        ref,
        "SELECT hero FROM hands WHERE hero IS NOT NULL GROUP BY hero "
        "ORDER BY count(*) DESC, hero LIMIT 1",
    )
    return top.item() if top.height else None


def player_names(ref: StoreRef) -> list[str]:
    """The store's players, most hands first (one grouping of `hand_players`: the pickers need
    no more than the names, and every page has one)."""
    players = store.query(
        ref,
        "SELECT name FROM hand_players WHERE dealt_in GROUP BY name ORDER BY count(*) DESC, name",
    )
    names: list[str] = players.get_column("name").to_list()
    return names


def player_picker(ref: StoreRef, key: str, *, optional: bool = False) -> str | None:
    """A player in the sidebar, defaulting to the main hero; `optional`: "All players" first."""
    names = player_names(ref)
    if not names:
        return None
    if optional:
        chosen: str | None = st.sidebar.selectbox(
            "Player", names, index=None, placeholder="All players", key=key
        )
        return chosen
    default = default_player(ref)
    index = names.index(default) if default in names else 0
    return st.sidebar.selectbox("Player", names, index=index, key=key)


def filter_options(ref: StoreRef) -> pl.DataFrame:
    """Every (site, game, structure, stakes) the store holds, with a label for the stakes."""
    return store.query(
        ref,
        "SELECT site, game, structure, small_bet, big_bet, any_value(scale) AS scale, "
        "any_value(currency) AS currency, count(*) AS hands, "
        "CAST(min(timezone('UTC', started_at)) AS DATE) AS first_day, "
        "CAST(max(timezone('UTC', started_at)) AS DATE) AS last_day "
        "FROM hands GROUP BY ALL ORDER BY hands DESC",
    )


def filters_sidebar(ref: StoreRef, key: str, player: str | None) -> Filters:
    """Game, structure, stakes, room, dates and session of `player`, in the sidebar."""
    options = filter_options(ref)
    side = st.sidebar
    side.subheader("Filters")
    game = side.selectbox(
        "Game",
        sorted(options.get_column("game").unique().to_list()),
        index=None,
        format_func=lambda value: GAME_NAMES.get(value, value),
        placeholder="All games",
        key=f"{key}-game",
    )
    structure = side.selectbox(
        "Structure",
        sorted(options.get_column("structure").unique().to_list()),
        index=None,
        format_func=lambda value: STRUCTURE_NAMES.get(value, value),
        placeholder="All structures",
        key=f"{key}-structure",
    )
    if game:
        options = options.filter(pl.col("game") == game)
    labels = {
        row["big_bet"]: stakes(row["small_bet"], row["big_bet"], row["scale"], row["currency"])
        for row in options.sort("big_bet").iter_rows(named=True)
    }
    big_bet = side.selectbox(
        "Stakes",
        list(labels),
        index=None,
        format_func=lambda value: labels[value],
        placeholder="All stakes",
        key=f"{key}-stakes",
    )
    site = side.selectbox(
        "Room",
        sorted(options.get_column("site").unique().to_list()),
        index=None,
        placeholder="All rooms",
        key=f"{key}-site",
    )
    first, last = options.get_column("first_day").min(), options.get_column("last_day").max()
    days = side.date_input(
        "Dates (UTC)",
        value=[],
        min_value=first if isinstance(first, date) else None,
        max_value=last if isinstance(last, date) else None,
        key=f"{key}-dates",
    )
    date_from, date_to = _date_range(days)
    session = None
    if player:
        sessions = store.sessions(ref, Filters(player=player)).iter_rows(named=True)
        labels = {row["session"]: _session_label(row) for row in sessions}
        session = side.selectbox(
            "Session",
            list(labels),
            format_func=labels.__getitem__,
            index=None,
            placeholder="All sessions",
            key=f"{key}-session",
        )
    return Filters(
        player=player,
        game=game,
        structure=structure,
        stakes=big_bet,
        site=site,
        date_from=date_from,
        date_to=date_to,
        session=session,
    )


def _session_label(row: dict[str, Any]) -> str:
    return f"{row['session']} · {row['start']:%Y-%m-%d %H:%M} · {row['hands']} hands"


def _date_range(value: object) -> tuple[date | None, date | None]:
    """The date input's value (nothing, one day while picking, or a range) as two bounds."""
    if isinstance(value, date):
        return value, value
    if isinstance(value, tuple | list):
        days = [day for day in value if isinstance(day, date)]
        if len(days) == 1:
            return days[0], days[0]
        if len(days) == 2:
            return days[0], days[1]
    return None, None
