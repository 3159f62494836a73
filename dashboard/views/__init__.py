"""The dashboard's pages, one script each, run by Streamlit through st.navigation (app.py)."""

from __future__ import annotations

from pathlib import Path

FOLDER = Path(__file__).parent


def page(name: str) -> str:
    """A page's script by name, as st.navigation, st.page_link and AppTest.switch_page take it
    (an absolute path, so it holds whichever script Streamlit was started on)."""
    return str(FOLDER / f"{name}.py")
