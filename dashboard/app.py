"""The Streamlit entry point (`streamlit run`, started by `studdraw dashboard`): page setup
and navigation. Each page is its own script under views/, so AppTest can open any one of them
(not pages/: Streamlit would also serve that folder as pages of its own, bypassing app.py)."""

from __future__ import annotations

import streamlit as st

from studdraw.dashboard.store import page_run
from studdraw.dashboard.views import page

st.set_page_config(page_title="studdraw", page_icon="♠", layout="wide")

navigation = st.navigation(
    {
        "Results": [
            st.Page(page("overview"), title="Overview", icon=":material/dashboard:", default=True),
            st.Page(page("live_table"), title="Live table", icon=":material/table_restaurant:"),
            st.Page(page("sessions"), title="Sessions", icon=":material/show_chart:"),
            st.Page(page("player_stats"), title="Player stats", icon=":material/table_chart:"),
            st.Page(page("leaks"), title="Leaks", icon=":material/troubleshoot:"),
            st.Page(page("tournaments"), title="Tournaments", icon=":material/emoji_events:"),
        ],
        "Hands": [
            st.Page(page("replayer"), title="Hand replayer", icon=":material/playing_cards:"),
            st.Page(page("data_quality"), title="Data quality", icon=":material/rule:"),
            st.Page(page("violation_codes"), title="Problem codes", icon=":material/menu_book:"),
        ],
    }
)
# One store connection at most per run; a page that computes for more than half a second says
# so at its top while it does (Streamlit shows a spinner only past that).
with page_run(), st.spinner(f"Computing the {navigation.title} page from the store…"):
    navigation.run()
