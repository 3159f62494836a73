"""Stored hands downloaded as PHH, the open Poker Hand History format (docs/phh.md): the hands
behind the sidebar's filters (a session among them), behind a leak, or the replayer's hand.

Each page calls one function with one line. The file is built only when the button is clicked
(Streamlit runs the callable then, on its own thread), with the page's store connection, by
the exporter `studdraw export` uses.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

import duckdb
import streamlit as st

from studdraw.dashboard import store
from studdraw.pipeline.analytics import Filters
from studdraw.pipeline.analytics.stats import filtered_hand_ids
from studdraw.pipeline.export import records_from_store
from studdraw.pipeline.phh import dumps, dumps_all

MAX_HANDS: Final = 50_000
"""A download holds at most this many hands (the newest by store id)."""
MIME: Final = "application/toml"


def phhs_bytes(con: duckdb.DuckDBPyConnection, hand_ids: Sequence[int]) -> bytes:
    """The hands as the UTF-8 text of one .phhs file."""
    return "".join(dumps_all(records_from_store(con, list(hand_ids)))).encode()


def phh_bytes(con: duckdb.DuckDBPyConnection, hand_id: int) -> bytes:
    """One hand as the UTF-8 text of a .phh file (empty if the store has no such hand)."""
    found = records_from_store(con, [hand_id])
    return "".join(dumps(record, violations) for record, violations in found).encode()


def filtered_hands(ref: store.StoreRef, filters: Filters, *, key: str) -> None:
    """A button for the hands the filters select as one .phhs file."""

    def build() -> bytes:
        with store.connection(ref) as con:
            return phhs_bytes(con, filtered_hand_ids(con, filters, MAX_HANDS))

    name = "-".join(str(part) for part in (filters.player, filters.game, filters.session) if part)
    _button("Download these hands (.phhs)", build, f"{name or 'hands'}.phhs", key)


def listed_hands(
    ref: store.StoreRef, hand_ids: Sequence[int], *, label: str, file_name: str, key: str
) -> None:
    """A button for the listed hands as one .phhs file."""
    chosen = sorted(set(hand_ids))[-MAX_HANDS:]

    def build() -> bytes:
        with store.connection(ref) as con:
            return phhs_bytes(con, chosen)

    _button(label, build, file_name, key)


def one_hand(ref: store.StoreRef, hand_id: int, *, file_name: str) -> None:
    """A button for one hand as a .phh file."""

    def build() -> bytes:
        with store.connection(ref) as con:
            return phh_bytes(con, hand_id)

    _button("Download as PHH", build, file_name, f"phh-{hand_id}")


def _button(label: str, build: Callable[[], bytes], file_name: str, key: str) -> None:
    st.download_button(label, build, file_name=file_name, mime=MIME, on_click="ignore", key=key)
