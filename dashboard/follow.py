"""Following an import as trackers do: while `studdraw ingest --watch` (or any import) grows the
store, the open page shows the new hands without a reload.

A sidebar fragment wakes every few seconds and compares the store's stamp (the modification
time of its files: a `stat`, no DuckDB connection, so it never holds the file an importer needs)
with the stamp the page was drawn from. When the store has changed and no import holds it any
more, the whole page runs again: the caches are keyed by the stamp, so it reads the new hands and
every widget keeps its value. A page drawn while the store was busy or missing checks the same
way until it can be read.

On by default: a player reviewing a live session keeps the dashboard open next to the tables and
expects the hand count and results to move as hands end, as a tracker's live reports do. An
unchanged store costs one `stat` per check and never reruns the page, so following is cheap to
leave on; it is switched off for a long read of a page that should not redraw while it is read.
"""

from __future__ import annotations

import os
from pathlib import Path

import streamlit as st

from . import store
from .launch import ENV_VAR

FOLLOW_STATE = "sd-follow"
"""Whether the visit follows new hands (every page's toggle writes it)."""
SECONDS_STATE = "sd-follow-seconds"
"""How often the visit checks the store, in seconds (every page's picker writes it)."""
INTERVALS = (2, 5, 10, 30, 60)
"""The choices of check interval: bounded, so no visit polls faster than every 2 s."""
DEFAULT_SECONDS = 5


def follow_setting(key: str) -> int | None:
    """The sidebar's "Follow new hands" toggle and its interval, kept across pages: the
    seconds between checks, None when off."""
    state = st.session_state
    state.setdefault(FOLLOW_STATE, True)
    state.setdefault(SECONDS_STATE, DEFAULT_SECONDS)
    side = st.sidebar
    following: bool = side.toggle(
        "Follow new hands",
        value=state[FOLLOW_STATE],
        key=f"{key}-follow",
        help="While an import (`studdraw ingest --watch`) adds hands, the page shows them "
        "without a reload. Off: the page stays as drawn until you reload it.",
    )
    state[FOLLOW_STATE] = following
    if not following:
        return None
    seconds: int = side.select_slider(
        "Check for new hands every (s)",
        options=INTERVALS,
        value=state[SECONDS_STATE],
        key=f"{key}-follow-seconds",
    )
    state[SECONDS_STATE] = seconds
    return seconds


def follow(key: str, shown: int | None) -> bool:
    """Follow the store when the visit asks to: `shown` is the stamp the page was drawn from,
    None when the page could not read the store (busy, missing). Whether it follows."""
    seconds = follow_setting(key)
    value = os.environ.get(ENV_VAR)
    if seconds is None or not value:
        return False
    with st.sidebar:
        st.fragment(_check, run_every=seconds)(str(Path(value).resolve()), shown)
    return True


def _check(path: str, shown: int | None) -> None:
    """Run the whole page again when the store changed since it was drawn and can be read."""
    try:
        stamp = store.stamp_of(Path(path))
    except OSError:
        return  # not there yet: an import creates it
    if stamp == shown:
        return
    try:
        store.probe(Path(path))
    except store.StoreError:
        return  # an import still holds it: check again on the next wake
    st.rerun()
