"""What every page shares: the store check, the stylesheet, the player picker and the filters.

Widget options come from small aggregate queries over `hands` (cached per store version), so
a filter bar costs the same on a thousand hands as on a million.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

import polars as pl
import streamlit as st

from studdraw.pipeline.analytics import KINDS, TABLE_SIZES, Filters, currency_label, inventory
from studdraw.pipeline.analytics.features import (
    DOOR_RANKS,
    DRAW_GAMES,
    DRAW_POSITIONS,
    POSITIONS,
    START_GROUPS,
    STUD_GAMES,
    STUD_POSITIONS,
    start_groups,
)
from studdraw.pipeline.words import plural, stakes_text

from . import store
from .follow import follow
from .render import GAME_NAMES, STRUCTURE_NAMES, stylesheet
from .store import StoreBusyError, StoreError, StoreRef


def start_page(title: str, caption: str) -> StoreRef:
    """Title the page, add the stylesheet, follow the store when the visit asks to, and return
    the store (or stop with the reason: a followed page comes back when the store can be read)."""
    st.html(stylesheet())
    st.title(title)
    st.caption(caption)
    key = title.lower().replace(" ", "-")
    try:
        ref = store.store_ref()
    except StoreBusyError as busy:
        following = follow(key, None)
        st.info(str(busy) if following else f"{busy} Reload then.", icon=":material/hourglass_top:")
        st.stop()
    except StoreError as error:
        follow(key, None)
        st.error(str(error))
        st.stop()
    follow(key, ref.stamp)
    st.sidebar.caption(f"Store: `{ref.path}` (read-only)")
    return ref


def empty_store(ref: StoreRef) -> bool:
    """Say so and return True when the store holds no hand yet."""
    if store.read(ref, inventory.hand_count):
        return False
    st.info("The store holds no hands yet: import some with `studdraw ingest PATH --db FILE`.")
    return True


def default_player(ref: StoreRef) -> str | None:
    """The hero of the most hands: the account whose histories were imported."""
    return store.read(ref, inventory.main_hero)


def player_names(ref: StoreRef) -> list[str]:
    """The store's players, most hands first (one grouping of `hand_players`: the pickers need
    no more than the names, and every page has one)."""
    return store.read(ref, inventory.names_by_hands)


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
    """Every (room, game, structure, stakes, currency, cash or tournament) the store holds."""
    return store.read(ref, inventory.tables_played)


TIME_ZONE_STATE = "sd-time-zone"
"""Where the user's time zone lives for the whole visit (every page's picker writes it)."""


def time_zone_setting(key: str) -> str:
    """The user's time zone (IANA name) for every date and time shown: a sidebar setting kept
    across pages, starting from the browser's zone (UTC when the browser does not say)."""
    if TIME_ZONE_STATE not in st.session_state:
        browser = st.context.timezone
        st.session_state[TIME_ZONE_STATE] = browser if browser in _zones() else "UTC"
    current: str = st.session_state[TIME_ZONE_STATE]
    zones = _zones()
    chosen: str = st.sidebar.selectbox(
        "Time zone", zones, index=zones.index(current), key=f"{key}-time-zone"
    )
    st.session_state[TIME_ZONE_STATE] = chosen
    return chosen


@st.cache_data(show_spinner=False)
def _zones() -> list[str]:
    return ["UTC", *sorted(available_timezones() - {"UTC"})]


def local_time(moment: datetime | None, zone: str, pattern: str = "%Y-%m-%d %H:%M") -> str:
    """A UTC moment written in the user's time zone, with the zone's abbreviation."""
    if moment is None:
        return ""
    shown = moment.astimezone(ZoneInfo(zone))
    return f"{shown:{pattern}} {shown.tzname()}"


def filters_sidebar(ref: StoreRef, key: str, player: str | None) -> Filters:
    """Game, structure, stakes, room, money (currency, cash or tournament), table size, the
    seat's position, door card and starting hand (each for the games it applies to), dates in
    the user's time zone, session of `player`, and whether hands with rule errors count."""
    options = filter_options(ref)
    side = st.sidebar
    zone = time_zone_setting(key)
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
    kind = side.selectbox(
        "Cash or tournament",
        list(KINDS),
        index=None,
        format_func=str.capitalize,
        placeholder="Cash and tournaments",
        key=f"{key}-kind",
    )
    if game:
        options = options.filter(pl.col("game") == game)
    if kind:
        options = options.filter(pl.col("tournament") == (kind == "tournament"))
    currency = side.selectbox(
        "Currency",
        sorted(options.get_column("currency").unique().to_list()),
        index=None,
        format_func=currency_label,
        placeholder="Every currency (each apart)",
        key=f"{key}-currency",
    )
    if currency:
        options = options.filter(pl.col("currency") == currency)
    labels: dict[int, str] = {}
    for row in options.sort("big_bet", "currency").iter_rows(named=True):
        label = stakes_text(row)
        known = labels.get(row["big_bet"])
        if known is None or label not in known.split(" · "):  # 8 cents and 8 chips share one
            labels[row["big_bet"]] = label if known is None else f"{known} · {label}"
    big_bet = side.selectbox(
        "Stakes",
        list(labels),
        index=None,
        format_func=lambda value: labels[value],
        placeholder="All stakes",
        key=f"{key}-stakes",
    )
    room = side.selectbox(
        "Room",
        sorted(options.get_column("room").unique().to_list()),
        index=None,
        placeholder="All rooms",
        key=f"{key}-room",
    )
    table_size = side.selectbox(
        "Table size",
        list(TABLE_SIZES),
        index=None,
        placeholder="Every table size",
        key=f"{key}-table-size",
        help="Heads-up: two seats; short-handed: up to six (stud) or four (draw); full ring: more.",
    )
    position, door, start_group = _seat_filters(key, options.get_column("game").unique().to_list())
    first, last = options.get_column("first_day").min(), options.get_column("last_day").max()
    days = side.date_input(
        f"Dates ({zone})",
        value=[],
        min_value=first - timedelta(days=1) if isinstance(first, date) else None,
        max_value=last + timedelta(days=1) if isinstance(last, date) else None,
        key=f"{key}-dates",
    )
    date_from, date_to = _date_range(days)
    session = None
    if player:
        labels = {
            row["session"]: _session_label(row, zone)
            for row in store.session_starts(ref, player).iter_rows(named=True)
        }
        session = side.selectbox(
            "Session",
            list(labels),
            format_func=labels.__getitem__,
            index=None,
            placeholder="All sessions",
            key=f"{key}-session",
        )
    include_doubtful = side.toggle(
        "Include hands with rule errors",
        key=f"{key}-doubtful",
        help="A hand with an error-severity violation has facts in doubt (a collect not read, "
        "an impossible action): left out of money and frequencies unless included here.",
    )
    return Filters(
        player=player,
        game=game,
        structure=structure,
        stakes=big_bet,
        room=room,
        date_from=date_from,
        date_to=date_to,
        session=session,
        currency=currency,
        kind=kind,
        table_size=table_size,
        position=position,
        door=door,
        start_group=start_group,
        include_doubtful=include_doubtful,
        time_zone=zone,
    )


def _seat_filters(key: str, games: list[str]) -> tuple[str | None, str | None, str | None]:
    """Position (draw positions with draw games, stud's with stud), door card and starting hand
    (stud games only, the groups of the games shown) in the sidebar: each only when one of
    `games` (those the other filters leave) has it."""
    side = st.sidebar
    stud = any(game in STUD_GAMES for game in games)
    draw = any(game in DRAW_GAMES for game in games)
    families = {*(DRAW_POSITIONS if draw else ()), *(STUD_POSITIONS if stud else ())}
    position = door = start_group = None
    if families:
        position = side.selectbox(
            "Position",
            [name for name in POSITIONS if name in families],
            index=None,
            format_func=str.capitalize,
            placeholder="Every position",
            key=f"{key}-position",
            help="Draw: counted from the button over the players dealt in; the seats between "
            "the big blind and the cutoff are early (the first half) and middle. Stud: from "
            "the bring-in; the seats acting after it are early (the first half) and late.",
        )
    if stud:
        door = side.selectbox(
            "Door card",
            list(DOOR_RANKS),
            index=None,
            placeholder="Every door card",
            key=f"{key}-door",
            help="Stud: the rank of the player's first up card.",
        )
    groups = {group for game in games for group in start_groups(game)}
    if groups:
        start_group = side.selectbox(
            "Starting hand",
            [group for group in START_GROUPS if group in groups],
            index=None,
            format_func=str.capitalize,
            placeholder="Every starting hand",
            key=f"{key}-start-group",
            help="Stud: the three 3rd-street cards, known for the hero (docs/stats.md).",
        )
    return position, door, start_group


def doubtful_note(ref: StoreRef, filters: Filters) -> None:
    """Say how many hands the figures leave out for their rule errors."""
    if filters.include_doubtful:
        return
    left_out = store.doubtful_hands(ref, filters)
    if left_out:
        st.caption(
            f"{plural(left_out, 'hand')} with rule errors (facts in doubt) left out of these "
            "figures; the sidebar's *Include hands with rule errors* counts them."
        )


def _session_label(row: dict[str, Any], zone: str) -> str:
    return f"{row['session']} · {local_time(row['start'], zone)}"


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
