"""Data quality: the rules engine's violations and the rejected hands by room and code, the raw
text of each reject, and the hands counted as unsupported, so nothing read is out of sight.
Violations come in two origins, shown apart: play that broke the rules, and defects of the
export (the room printed something impossible)."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from studdraw.dashboard import store, ui
from studdraw.dashboard.render import literal, replay_url
from studdraw.dashboard.store import StoreRef
from studdraw.parsers.problems import Code
from studdraw.pipeline.analytics import quality

EXAMPLES = 200
SEVERITY_COLOURS = alt.Scale(domain=["error", "warning"], range=["#d93025", "#f0a202"])


def render() -> None:
    ref = ui.start_page(
        "Data quality",
        "What the rules engine flagged in stored hands, and the hands that were not stored.",
    )
    counts = store.read(ref, quality.quality_counts)
    rejected, unsupported_hands = store.count(ref, "rejects"), store.count(ref, "unsupported")
    cols = st.columns(6)
    cols[0].metric("Hands breaking the rules", f"{counts['play']:,}")
    cols[1].metric("Hands with export defects", f"{counts['export']:,}")
    cols[2].metric("Hands with warnings", f"{counts['warned']:,}")
    cols[3].metric("Violations", f"{counts['violations']:,}")
    cols[4].metric("Rejected hands", _count(rejected))
    cols[5].metric("Unsupported hands", _count(unsupported_hands))

    violations, rejects, unsupported = st.tabs(
        [
            f"Violations ({counts['violations']:,})",
            f"Rejects ({_count(rejected)})",
            f"Unsupported ({_count(unsupported_hands)})",
        ]
    )
    with violations:
        _violations(ref)
    missing = "The store, as opened, has no `{}` table."
    with rejects:
        if rejected is None:
            st.info(missing.format("rejects"))
        else:
            _rejects(ref)
    with unsupported:
        if unsupported_hands is None:
            st.info(missing.format("unsupported"))
        else:
            _unsupported(ref)


def _count(rows: int | None) -> str:
    return "n/a" if rows is None else f"{rows:,}"


def _violations(ref: StoreRef) -> None:
    frame = store.read(ref, quality.violations_by_code)
    if frame.is_empty():
        st.success("The rules engine found nothing wrong with any stored hand.")
        return
    titles = {str(code): code.headline for code in Code}
    origin = {str(code): str(code.origin) for code in Code}
    frame = frame.with_columns(
        origin=pl.col("code").replace_strict(origin, default=None, return_dtype=pl.String),
        title=pl.col("code").replace_strict(titles, default=None, return_dtype=pl.String),
    ).sort("origin", "violations", descending=[True, True])
    chart = (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            y=alt.Y("code:N", sort="-x", title=None, axis=alt.Axis(labelOverlap=False)),
            x=alt.X("sum(violations):Q", title="violations", axis=alt.Axis(tickMinStep=1)),
            color=alt.Color("severity:N", scale=SEVERITY_COLOURS),
            tooltip=[
                "room:N",
                "code:N",
                "origin:N",
                "title:N",
                "severity:N",
                "violations:Q",
                "hands:Q",
            ],
        )
        .properties(height=alt.Step(24))
    )
    left, right = st.columns([2, 3])
    left.altair_chart(chart, width="stretch")
    right.dataframe(
        frame.select("origin", "room", "code", "severity", "violations", "hands", "title"),
        hide_index=True,
    )
    code = st.selectbox(
        "Hands flagged with",
        frame.get_column("code").unique(maintain_order=True).to_list(),
        format_func=lambda value: f"{value} — {titles.get(value, '')}",
        key="quality-code",
    )
    hands = store.read(ref, quality.violation_examples, code, EXAMPLES)
    st.dataframe(
        hands.with_columns(
            replay=pl.col("hand_id").map_elements(replay_url, return_dtype=pl.String)
        ).drop("hand_id"),
        hide_index=True,
        column_config={
            "replay": st.column_config.LinkColumn("replay", display_text="open ▶"),
            "message": st.column_config.TextColumn(width="large"),
        },
    )


def _rejects(ref: StoreRef) -> None:
    frame = store.read(ref, quality.rejects_by_kind)
    if frame.is_empty():
        st.success("Every hand of a supported room was parsed and stored.")
        return
    chart = (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            y=alt.Y("room:N", title=None),
            x=alt.X("hands:Q", title="rejected hands", axis=alt.Axis(tickMinStep=1)),
            color=alt.Color("kind:N", title="kind"),
            tooltip=["room:N", "kind:N", "hands:Q"],
        )
        .properties(height=alt.Step(36))
    )
    left, right = st.columns([2, 3])
    left.altair_chart(chart, width="stretch")
    reasons = store.read(ref, quality.reject_reasons, EXAMPLES)
    right.dataframe(reasons, hide_index=True)
    listing = store.read(ref, quality.latest_rejects, EXAMPLES)
    labels = {
        row["id"]: f"{row['room']} #{row['room_hand_id'] or '?'} · {row['kind']} · "
        f"{row['source_path']}:{row['source_line']}"
        for row in listing.iter_rows(named=True)
    }
    chosen = st.selectbox(
        f"Raw text of a reject (latest {len(labels)})",
        list(labels),
        format_func=lambda value: labels[value],
        key="quality-reject",
    )
    reject = store.read(ref, quality.reject_text, chosen)
    where = ""
    if reject["error_line"] is not None:
        offset = reject["error_line"] - reject["source_line"] + 1
        where = f" (line {offset} of the hand, line {reject['error_line']} of the file)"
    st.error(f"{literal(reject['reason'])}{where}")
    st.code(reject["raw_text"], language=None, line_numbers=True)


def _unsupported(ref: StoreRef) -> None:
    frame = store.read(ref, quality.unsupported_by_reason, EXAMPLES)
    if frame.is_empty():
        st.success("No hand was left out as unsupported.")
        return
    st.dataframe(
        frame, hide_index=True, column_config={"reason": st.column_config.TextColumn(width="large")}
    )
    files = store.read(ref, quality.latest_unsupported, EXAMPLES)
    st.caption("Where to find them (unsupported hands are counted, not stored):")
    st.dataframe(files, hide_index=True)


if __name__ == "__main__":
    render()
