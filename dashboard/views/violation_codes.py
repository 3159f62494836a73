"""Violation codes: the catalogue the replayer and the data quality page link to.

A link names a code (`?code=SIZ001`) and the anchor of its section in docs/violations.md; the
page shows that section under the same name ("SIZ001 — Wrong bet size") and, running from a
checkout, its full text (meaning, why it matters, a minimal hand that triggers it), then the
whole catalogue.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlencode

import polars as pl
import streamlit as st

from studdraw.dashboard import ui
from studdraw.dashboard.render import code_anchor
from studdraw.pipeline.rules.codes import CODES

DOCS = Path(__file__).resolve().parents[2] / "docs" / "violations.md"


def _sections() -> dict[str, str]:
    """The body of each code's section in docs/violations.md; empty outside a checkout."""
    if not DOCS.is_file():
        return {}
    text = DOCS.read_text(encoding="utf-8")
    parts = re.split(r"^## ([A-Z]{3}\d{3}) — .*$", text, flags=re.MULTILINE)
    return {code: body.strip() for code, body in zip(parts[1::2], parts[2::2], strict=True)}


def render() -> None:
    ui.start_page(
        "Violation codes",
        "What the rules engine reports: stable codes, grouped by family (docs/violations.md).",
    )
    wanted = st.query_params.get("code")
    code = wanted if wanted in CODES else None
    chosen = st.selectbox(
        "Code",
        list(CODES),
        index=list(CODES).index(code) if code else None,
        format_func=lambda value: f"{value} — {CODES[value].title}",
        placeholder="Pick a code to read about it",
    )
    if chosen:
        info = CODES[chosen]
        st.subheader(f"{chosen} — {info.title}", anchor=code_anchor(chosen))
        body = _sections().get(chosen)
        if body:
            st.markdown(body)
        else:
            st.caption(f"Severity: {info.severity}")
    st.subheader("All codes")
    catalogue = pl.DataFrame(
        {
            "code": list(CODES),
            "severity": [info.severity for info in CODES.values()],
            "title": [info.title for info in CODES.values()],
            "read": [f"violation_codes?{urlencode({'code': code})}" for code in CODES],
        }
    )
    st.dataframe(
        catalogue,
        hide_index=True,
        column_config={"read": st.column_config.LinkColumn("", display_text="read ▶")},
    )


if __name__ == "__main__":
    render()
