"""Problem codes: the catalogue the replayer and the data quality page link to.

A link names a code (`?code=SIZ001`) and the anchor of its section in docs/violations.md; the
page shows that section under the same name ("SIZ001 — Wrong bet size") with its full text
(origin, meaning, why it matters, a minimal hand that triggers it), read from the package
(`rules.explain`), so an installed wheel shows it too; then the whole catalogue. (The page
keeps its address, `violation_codes`, so that links into it keep working.)
"""

from __future__ import annotations

from urllib.parse import urlencode

import polars as pl
import streamlit as st

from studdraw.dashboard import ui
from studdraw.dashboard.render import code_anchor
from studdraw.parsers.problems import Code
from studdraw.pipeline.rules.explain import body, heading


def render() -> None:
    ui.start_page(
        "Problem codes",
        "Every problem studdraw reports: stable codes, grouped by prefix (docs/violations.md).",
    )
    wanted = st.query_params.get("code")
    codes = list(Code)
    names = [str(code) for code in codes]
    chosen = st.selectbox(
        "Code",
        names,
        index=names.index(wanted) if wanted in names else None,
        format_func=lambda name: heading(Code[name]),
        placeholder="Pick a code to read about it",
    )
    if chosen:
        st.subheader(heading(Code[chosen]), anchor=code_anchor(chosen))
        st.markdown(body(Code[chosen]))
    st.subheader("All codes")
    catalogue = pl.DataFrame(
        {
            "code": names,
            "origin": [str(code.origin) for code in codes],
            "severity": [code.severity for code in codes],
            "title": [code.headline for code in codes],
            "read": [f"violation_codes?{urlencode({'code': name})}" for name in names],
        }
    )
    st.dataframe(
        catalogue,
        hide_index=True,
        column_config={"read": st.column_config.LinkColumn("", display_text="read ▶")},
    )


if __name__ == "__main__":
    render()
