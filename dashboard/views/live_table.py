"""Live table: the table of the newest hand imported, every seat with the stats a HUD shows for
the game (and the hands and chances behind each figure), the player's notes and tags beside it.

While `studdraw ingest --watch` imports the hands a room writes, the sidebar's *Follow new
hands* runs the page again whenever the store changes (follow.py), so the page moves to each new
hand, and to a new table, within the check interval. The store is only read: the figures come
from `analytics.live_tables` and `analytics.live_table`, the notes from the notes file.
"""

from __future__ import annotations

from html import escape
from typing import Any

import streamlit as st

from studdraw.dashboard import store, ui
from studdraw.dashboard.notes import notes_file, player_note_editor
from studdraw.dashboard.render import GAME_NAMES, game_label, literal
from studdraw.dashboard.replay import position_name
from studdraw.dashboard.store import StoreRef
from studdraw.parsers.model import Game
from studdraw.parsers.rooms import BY_NAME as ROOMS
from studdraw.pipeline import notes
from studdraw.pipeline.analytics import LiveTable, currency_label, live
from studdraw.pipeline.analytics.registry import BY_NAME
from studdraw.pipeline.notes import Kind
from studdraw.pipeline.rules.specs import GAME_SPECS
from studdraw.pipeline.words import money_text, plural, stakes_text, units_text

NEWEST = "newest"
# The table picker's first choice: whichever table the newest hand imported is at (the page
# moves with the play). A comment, not a docstring: Streamlit's "magic" prints bare strings.


def render() -> None:
    ref = ui.start_page(
        "Live table",
        "The table of the newest hand imported, each player with the stats a HUD shows for the "
        "game and the hands behind every figure. With *Follow new hands* on, the page moves with "
        "`studdraw ingest --watch`.",
    )
    if ui.empty_store(ref):
        return
    zone = ui.time_zone_setting("live")
    hand_id = _pick_table(ref)
    include_doubtful = st.sidebar.toggle(
        "Include hands with rule errors",
        key="live-doubtful",
        help="A hand with an error-severity violation has facts in doubt: left out of the "
        "players' stats unless included here.",
    )
    table = store.read(ref, live.live_table, hand_id, include_doubtful=include_doubtful)
    if table is None:
        st.warning(f"The store has no hand {hand_id}.")
        return
    _header(table, zone)
    seats = st.container()
    player_note_editor(ref, table.hand["room"], table.seats.get_column("name").to_list())
    found = notes.annotated(notes_file(ref), kind=Kind.PLAYER)
    marks = {a.target.key: a for a in found if a.target.room == table.hand["room"]}
    with seats:
        st.html(_seats_html(table, marks))


def _pick_table(ref: StoreRef) -> int:
    """The sidebar's table: the newest (by default, following the play) or one of the other
    tables played around then; the newest hand of that table."""
    tables = store.read(ref, live.live_tables)
    rows = {NEWEST: tables.row(0, named=True)}
    for row in tables.iter_rows(named=True):
        rows[f"{row['room']}\x00{row['table_name']}\x00{row['tournament_id'] or ''}"] = row

    def label(key: str) -> str:
        row = rows[key]
        if key == NEWEST:  # never named: the newest changes while the page is open
            return "The newest table (follows the play)"
        return f"{row['table_name']} · {_room_title(row['room'])} · {GAME_NAMES.get(row['game'])}"

    chosen: str = st.sidebar.selectbox(
        "Table",
        list(rows),
        format_func=label,
        key="live-table",
        help="The newest follows the play: a new table replaces it as soon as its first hand is "
        "imported. The others are the tables with a hand in the half hour before the newest.",
    )
    hand_id: int = rows.get(chosen, rows[NEWEST])["hand_id"]
    return hand_id


def _room_title(room: str) -> str:
    known = ROOMS.get(room)
    return (known.title if known is not None else None) or room


def _header(table: LiveTable, zone: str) -> None:
    hand = table.hand
    st.subheader(f"{literal(hand['table_name'])} · {_room_title(hand['room'])}")
    seated = table.seats.filter(table.seats.get_column("dealt_in")).height
    parts = [
        f"**{game_label(hand['game'], hand['structure'])}**",
        f"stakes {stakes_text(hand)}",
        f"tournament {literal(hand['tournament_id'])}"
        if hand["tournament_id"] is not None
        else f"cash game in {currency_label(hand['currency'])}",
        f"hand #{literal(hand['room_hand_id'])} at "
        + ui.local_time(hand["started_at"], zone, "%Y-%m-%d %H:%M:%S"),
        f"{seated:,} of {plural(hand['max_seats'], 'seat')} dealt in"
        if hand["max_seats"]
        else f"{plural(seated, 'player')} dealt in",
    ]
    if hand["tournament_level"]:
        parts.insert(3, f"level {literal(hand['tournament_level'])}")
    st.markdown(" · ".join(parts))
    where = f"{_room_title(hand['room'])}, {game_label(hand['game'], hand['structure'])}"
    st.caption(
        f"Each player's figures are their hands at {where}, in {currency_label(hand['currency'])} "
        "(a name is an account of one room; money never adds across currencies). Beside each "
        "figure: the hands or chances it is counted over."
    )


def _pct(value: float | None, count: int) -> str:
    if value is None or not count:
        return '<span class="sd-hud-none">–</span>'
    return f"{value:.1%}"


def _seats_html(table: LiveTable, marks: dict[str, notes.Annotation]) -> str:
    hand = table.hand
    kind = GAME_SPECS[Game(hand["game"])].kind.value
    dealt = table.seats.filter(table.seats.get_column("dealt_in")).height
    boxes = [
        _seat_html(
            hand, row, kind=kind, dealt=dealt, stats=table.stats, mark=marks.get(row["name"])
        )
        for row in table.seats.iter_rows(named=True)
    ]
    return f'<div class="sd-hud">{"".join(boxes)}</div>'


def _seat_html(
    hand: dict[str, Any],
    row: dict[str, Any],
    *,
    kind: str,
    dealt: int,
    stats: tuple[str, ...],
    mark: notes.Annotation | None,
) -> str:
    classes = ["sd-hud-seat"]
    if row["is_hero"]:
        classes.append("sd-hero")
    if not row["dealt_in"]:
        classes.append("sd-out")
    position = position_name(row["position"], dealt, stud=kind == "stud")
    flags = '<span class="sd-tag">hero</span>' if row["is_hero"] else ""
    if row["sitting_out"] or not row["dealt_in"]:
        flags += '<span class="sd-tag">sitting out</span>'
    head = (
        f'<div class="sd-seat-head"><span class="sd-name" title="{escape(row["name"])}">'
        f"{escape(row['name'])}{flags}</span>"
        f'<span class="sd-pos">seat {row["seat"]}{f" · {escape(position)}" if position else ""}'
        "</span></div>"
    )
    stack = units_text(row["stack"], hand["scale"], hand["currency"])
    hands = row["hands"]
    if hands:
        money = money_text(row["net"], hand["currency"], signed=True)
        signed = "sd-net-pos" if row["net"] > 0 else "sd-net-neg" if row["net"] < 0 else ""
        volume = (
            f'<b>{plural(hands, "hand")}</b> · net <span class="{signed}">{escape(money)}</span>'
            f" · {row['bb_per_100']:+.2f} BB/100"
        )
    else:
        volume = "<b>no hands yet</b> in this game here"
    lines = [
        f'<tr><td>{escape(BY_NAME[name].title((hand["game"],)))}</td><td class="sd-hud-value">'
        f"{_pct(row[name], row[f'{name}_n'])}</td>"
        f'<td class="sd-hud-n" title="counted over {plural(row[f"{name}_n"], "chance")}">'
        f"of {row[f'{name}_n']:,}</td></tr>"
        for name in stats
    ]
    af = '<span class="sd-hud-none">–</span>' if row["af"] is None else f"{row['af']:.2f}"
    lines.append(
        f'<tr><td>aggression factor</td><td class="sd-hud-value">{af}</td>'
        f'<td class="sd-hud-n" title="bets, raises and completions over calls, of '
        f'{plural(row["af_n"], "action")}">of {row["af_n"]:,}</td></tr>'
    )
    return (
        f'<div class="{" ".join(classes)}">{head}'
        f'<div class="sd-hud-line">stack {escape(stack)}</div>'
        f'<div class="sd-hud-line">{volume}</div>'
        f'<table class="sd-hud-stats">{"".join(lines)}</table>'
        f"{_note_html(mark)}</div>"
    )


def _note_html(mark: notes.Annotation | None) -> str:
    if mark is None:
        return ""
    tags = "".join(f'<span class="sd-tag sd-note-tag">{escape(word)}</span>' for word in mark.tags)
    text = f'<div class="sd-hud-text">{escape(mark.note)}</div>' if mark.note else ""
    return f'<div class="sd-hud-note">{tags}{text}</div>'


if __name__ == "__main__":
    render()
