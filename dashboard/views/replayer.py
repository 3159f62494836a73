"""Hand replayer: one hand street by street, with its cards, actions, pot, draws, showdown,
awards, and the rules engine's violations on the events they concern.

A hand is chosen by player and day, by the room's hand id, or by the `?hand=ID` query parameter
(`hands.hand_id`) through which the other pages link here; the choice is written back to the
query parameter so the address always names the hand on screen.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from html import escape
from typing import Any
from zoneinfo import ZoneInfo

import polars as pl
import streamlit as st

from studdraw.dashboard import downloads, replay, store, ui
from studdraw.dashboard.hand_text import hand_text
from studdraw.dashboard.notes import hand_notes, tagged_hand
from studdraw.dashboard.render import (
    card_text,
    cards,
    code_link,
    game_label,
    literal,
    money,
)
from studdraw.dashboard.replay import Hand, SeatView, position_name
from studdraw.dashboard.store import StoreRef
from studdraw.pipeline.analytics import hands
from studdraw.pipeline.words import plural, stakes_text

HANDS_PER_DAY = 1000


def render() -> None:
    ref = ui.start_page(
        "Hand replayer",
        "Step through a hand street by street: cards, actions, pot, draws, showdown and the "
        "rules engine's findings.",
    )
    if ui.empty_store(ref):
        return
    zone = ui.time_zone_setting("replay")
    hand_id = _choose_hand(ref)
    if hand_id is None:
        return
    hand = replay.load_hand(ref, hand_id)
    if hand is None:
        st.warning(f"The store has no hand {hand_id}.")
        return
    _neighbours(ref, hand)
    _header(hand, zone)
    hand_notes(ref, hand)
    downloads.one_hand(
        ref, hand_id, file_name=f"{hand.header['room']}-{hand.header['room_hand_id']}.phh"
    )
    steps = hand.steps
    st.session_state.setdefault(f"replay-step-{hand_id}", steps[0])
    name = st.segmented_control("Street", steps, required=True, key=f"replay-step-{hand_id}")
    step = steps.index(name or steps[0])
    low, high = replay.pot_at(hand, step)
    flagged = replay.step_violations(hand, step)
    events = replay.step_events(hand, step)
    shown = _action_by_action(events, key=f"replay-action-{hand_id}-{step}")
    if st.session_state.get("replay-by-action") and st.toggle(
        "Autoplay", key="replay-autoplay", help="Show the next event every few seconds."
    ):
        st.session_state[_FRESH] = True
        st.fragment(_play, run_every=PLAY_SECONDS)(hand, step, shown)
    if shown < events.height:
        high = replay.pot_after(events, shown, low)
    board = replay.board_at(hand, step, shown)
    st.html(
        f'<div class="sd-pot">Pot {escape(hand.money(low))} → {escape(hand.money(high))}</div>'
        + (f'<div class="sd-board">Board {cards(board)}</div>' if board else "")
        + _seats_html(hand, replay.seat_views(hand, step, shown))
    )
    st.subheader(steps[step][:1].upper() + steps[step][1:])
    st.html(_events_html(hand, events.head(shown), flagged))
    if step == len(steps) - 1:
        _awards(hand)
    _violations(hand, flagged)
    _as_text(hand)


def _action_by_action(events: pl.DataFrame, key: str) -> int:
    """How many of the step's events to show: all, or one more at each click of the slider."""
    if not st.toggle("Action by action", key="replay-by-action") or events.height < 2:
        return events.height
    st.session_state.setdefault(key, 1)
    shown: int = st.slider("Events shown", 1, events.height, key=key)
    return shown


PLAY_SECONDS = 1.5  # autoplay's pause between two events
_FRESH = "replay-play-fresh"  # set by each run of the whole page, cleared by autoplay's first tick


def _play(hand: Hand, step: int, shown: int) -> None:
    """Autoplay's tick (a fragment run every `PLAY_SECONDS`): the next event, then the next
    street, until the hand ends. The run of the whole page that draws it only starts the clock."""
    if st.session_state.pop(_FRESH, False):
        st.caption("Playing: the next event every few seconds.")
        return
    hand_id = hand.header["hand_id"]
    found = replay.next_position(hand, step, shown)
    if found is None:
        st.session_state["replay-autoplay"] = False
    else:
        st.session_state[f"replay-step-{hand_id}"] = hand.steps[found[0]]
        st.session_state[f"replay-action-{hand_id}-{found[0]}"] = max(found[1], 1)
    st.rerun(scope="app")


def _neighbours(ref: StoreRef, hand: Hand) -> None:
    """Previous and next hand of the player being followed (the picker's player, or the
    hand's hero), in time order across days."""
    player = st.session_state.get("replay-player") or hand.header["hero"]
    if player is None:
        return
    found = {side: _neighbour(ref, player, hand.header, side) for side in ("previous", "next")}
    left, middle, right = st.columns([1, 3, 1])
    left.button(
        "◀ Previous hand",
        disabled=found["previous"] is None,
        on_click=_go_to,
        args=(ref, found["previous"], player),
        key="replay-previous",
    )
    middle.caption(f"Hands of {literal(player)}, in time order.")
    right.button(
        "Next hand ▶",
        disabled=found["next"] is None,
        on_click=_go_to,
        args=(ref, found["next"], player),
        key="replay-next",
    )


# Where the next or previous hand is looked for first (zone maps on `hands.started_at` keep it
# cheap on millions of hands); the whole history only when the window holds none. (A comment:
# Streamlit's "magic" would print a bare string of a page script.)
NEIGHBOUR_WINDOW = timedelta(days=1)


def _neighbour(ref: StoreRef, player: str, header: dict[str, Any], side: str) -> int | None:
    """The player's hand just before (`previous`) or after (`next`) this one in time."""
    at, hand_id = header["started_at"], header["hand_id"]
    for window in (NEIGHBOUR_WINDOW, None):
        neighbour: int | None = store.read(
            ref,
            hands.neighbour_hand,
            player,
            at,
            hand_id,
            before=side == "previous",
            window=window,
        )
        if neighbour is not None:
            return neighbour
    return None


def _go_to(ref: StoreRef, hand_id: int | None, player: str) -> None:
    """Button callback: show `hand_id`, with the pickers on its player and day."""
    if hand_id is None:
        return
    st.query_params["hand"] = str(hand_id)
    day = store.read(ref, hands.hand_day, hand_id, _zone())
    st.session_state["replay-player"] = player
    st.session_state["replay-day"] = day
    st.session_state["replay-pick"] = hand_id
    header = replay.load_header(ref, hand_id)
    if header is not None:  # the room hand id box names the hand on screen, not the one before
        st.session_state["replay-room-id"] = header["room_hand_id"]


def _zone() -> str:
    zone: str = st.session_state.get(ui.TIME_ZONE_STATE, "UTC")
    return zone


def _as_text(hand: Hand) -> None:
    """The hand as text in the room's format, with a copy button."""
    with st.expander("Copy the hand as text"):
        if st.toggle("Show the hand's text", key=f"replay-text-{hand.header['hand_id']}"):
            found = hand_text(hand.header, hand.all_seats, hand.actions)
            st.caption(literal(found.origin))
            st.code(found.text, language=None)


def _query_hand() -> int | None:
    value = st.query_params.get("hand")
    # ASCII digits only ("²" is a digit to isdigit, not to int), and an id a BIGINT can hold.
    if not (value and value.isascii() and value.isdigit()) or len(value) > 18:
        return None
    return int(value)


def _set_query_hand(key: str) -> None:
    """Widget callback: the hand picked in widget `key` becomes the page's `?hand=`."""
    value = st.session_state.get(key)
    if value is None:
        st.query_params.pop("hand", None)
    else:
        st.query_params["hand"] = str(value)


def _forget_query_hand() -> None:
    st.query_params.pop("hand", None)


def _choose_hand(ref: StoreRef) -> int | None:
    """The hand to show: the query parameter's, or the one picked with the widgets."""
    wanted = _query_hand()
    if wanted is not None and "replay-player" not in st.session_state:
        _start_widgets_at(ref, wanted)
    how = st.segmented_control(
        "Find a hand",
        ["By player and day", "By room hand id", "By tag"],
        default="By player and day",
        required=True,
        key="replay-how",
    )
    if how == "By tag":
        picked = tagged_hand(ref)
        if picked is not None:  # the address names the hand on screen
            st.query_params["hand"] = str(picked)
        return picked if picked is not None else wanted
    picked = _by_room_hand_id(ref) if how == "By room hand id" else _by_player_and_day(ref)
    return wanted if wanted is not None else picked


def _start_widgets_at(ref: StoreRef, hand_id: int) -> None:
    """Open the player and day pickers on the linked hand, so its neighbours are a click away."""
    row = store.read(ref, hands.hand_player_and_day, hand_id, _zone())
    if row is not None:
        st.session_state["replay-player"] = row["player"]
        st.session_state["replay-day"] = row["day"]
        st.session_state["replay-pick"] = hand_id


def _day_bounds(day: date, zone: str) -> tuple[datetime, datetime]:
    """The first moment of `day` in `zone` and of the day after."""
    start = datetime.combine(day, time(), ZoneInfo(zone))
    return start, datetime.combine(day + timedelta(days=1), time(), ZoneInfo(zone))


def _by_player_and_day(ref: StoreRef) -> int | None:
    zone = _zone()
    names = ui.player_names(ref)
    if st.session_state.get("replay-player") not in names:  # new, or linked into a person since
        st.session_state["replay-player"] = ui.default_player(ref) or names[0]
    left, middle, right = st.columns([2, 1, 4])
    player = left.selectbox(
        "Player", names, key="replay-player", on_change=_forget_query_hand, accept_new_options=True
    )
    days = store.read(ref, hands.player_days, player, zone)
    if not days:
        st.info(f"No hands of {literal(player)} in the store.")
        return None
    if st.session_state.get("replay-day") not in days:
        st.session_state["replay-day"] = days[-1]
    day: date = middle.date_input(
        f"Day ({zone})",
        min_value=days[0],
        max_value=days[-1],
        key="replay-day",
        on_change=_forget_query_hand,
    )
    start, end = _day_bounds(day, zone)
    that_day = store.read(
        ref,
        hands.player_hands_between,
        player,
        zone,
        start=start,
        end=end,
        limit=HANDS_PER_DAY,
    )
    labels = {
        row["hand_id"]: (
            f"{row['time']} · {row['room']} #{row['room_hand_id']} · "
            f"{game_label(row['game'], row['structure'])} "
            f"{stakes_text(row)} · "
            f"net {money(row['net'], row['scale'], row['currency'])}"
            + ("" if row["valid"] else " · ⚠ rule errors")
        )
        for row in that_day.iter_rows(named=True)
    }
    if st.session_state.get("replay-pick") not in labels:
        st.session_state["replay-pick"] = next(iter(labels), None)
    picked: int | None = right.selectbox(
        f"Hand ({len(labels):,} that day)",
        list(labels),
        format_func=lambda hand_id: labels[hand_id],
        key="replay-pick",
        on_change=_set_query_hand,
        args=("replay-pick",),
    )
    return picked


def _by_room_hand_id(ref: StoreRef) -> int | None:
    text = st.text_input("Room hand id", key="replay-room-id", on_change=_forget_query_hand)
    if not text.strip():
        return None
    found = store.read(ref, hands.hands_with_room_id, text.strip().lstrip("#"))
    if found.is_empty():
        st.warning(f"No stored hand has the room hand id {literal(text.strip())}.")
        return None
    if found.height == 1:
        only: int = found.item(0, "hand_id")
        return only
    rooms = {
        row["hand_id"]: f"{row['room']} ({row['game']})" for row in found.iter_rows(named=True)
    }
    picked: int | None = st.selectbox(
        "Room", list(rooms), format_func=lambda hand_id: rooms[hand_id], key="replay-room-room"
    )
    return picked


def _header(hand: Hand, zone: str) -> None:
    head = hand.header
    st.markdown(
        f"#### {head['room']} hand #{literal(head['room_hand_id'])} · "
        f"{game_label(head['game'], head['structure'])} "
        f"{stakes_text(head)}"
        + (f" · tournament {literal(head['tournament_id'])}" if head["tournament_id"] else "")
    )
    if head["valid"]:
        verdict = '<span class="sd-verdict sd-ok">valid</span>'
    else:
        verdict = f'<span class="sd-verdict sd-bad">{plural(head["errors"], "rule error")}</span>'
    if head["warnings"]:
        verdict += f'<span class="sd-verdict sd-warn">{plural(head["warnings"], "warning")}</span>'
    facts = {
        "Table": head["table_name"],
        "Started": ui.local_time(head["started_at"], zone, "%Y-%m-%d %H:%M:%S"),
        "UTC": f"{head['started_at'].astimezone(UTC):%Y-%m-%d %H:%M:%S}",
        "Room time": head["room_time"],
        "Players": str(head["players"]),
        "Pot": hand.money(head["total_pot"]),
        "Rake": hand.money(head["rake"]),
    }
    items = "".join(f"<span><b>{name}</b> {escape(value)}</span>" for name, value in facts.items())
    st.html(f'<div class="sd-facts">{items}{verdict}</div>')
    st.caption(
        f"Source: {literal(head['source_path'])}, line {head['source_line']} · "
        f"store hand id {head['hand_id']}"
    )


def _seats_html(hand: Hand, seats: list[SeatView]) -> str:
    stud = hand.is_stud
    boxes = []
    for seat in seats:
        classes = ["sd-seat"]
        if seat.is_hero:
            classes.append("sd-hero")
        if seat.folded:
            classes.append("sd-folded")
        if seat.won:
            classes.append("sd-winner")
        tags = ""
        if seat.all_in:
            tags += '<span class="sd-tag sd-allin">all-in</span>'
        if seat.folded:
            tags += '<span class="sd-tag sd-fold">folded</span>'
        if seat.drawn is not None:
            drew = "pat" if seat.drawn == 0 else f"drew {seat.drawn}"
            tags += f'<span class="sd-tag">{drew}</span>'
        if seat.net is not None:
            css = "sd-net-pos" if seat.net > 0 else "sd-net-neg" if seat.net < 0 else ""
            sign = "+" if seat.net > 0 else ""
            foot = f'net <span class="{css}">{sign}{escape(hand.money(seat.net))}</span>'
        else:
            did = ", ".join(action.replace("_", " ") for action in seat.actions)
            foot = f"in: {escape(hand.money(seat.put_in))}" + (f" · {escape(did)}" if did else "")
        named = position_name(seat.position, len(seats), stud=stud)
        position = f" · {escape(named)}" if named else ""
        boxes.append(
            f'<div class="{" ".join(classes)}">'
            f'<div class="sd-seat-head"><span class="sd-name">{"★ " if seat.is_hero else ""}'
            f"{escape(seat.name)}</span>"
            f'<span class="sd-pos">seat {seat.seat}{position}{tags}</span></div>'
            f"{cards(seat.cards, seat.up if stud else None)}"
            f'<div class="sd-seat-foot"><span>{foot}</span>'
            f"<span>stack {escape(hand.money(seat.stack))}</span></div></div>"
        )
    return f'<div class="sd-table">{"".join(boxes)}</div>'


def _events_html(hand: Hand, events: pl.DataFrame, flagged: pl.DataFrame) -> str:
    """The step's events, each violation shown under the event it concerns."""
    by_event: dict[int, list[dict[str, object]]] = {}
    for finding in flagged.filter(pl.col("event_index").is_not_null()).iter_rows(named=True):
        by_event.setdefault(finding["event_index"], []).append(finding)
    rows = []
    sizes = replay.raise_sizes(hand.actions)
    for event in events.iter_rows(named=True):
        text, has_cards = replay.describe(hand, event, sizes.get(event["seq"]))
        findings = by_event.get(event["seq"], [])
        css = "sd-event"
        if findings:
            errors = any(finding["severity"] == "error" for finding in findings)
            css += " sd-flagged" if errors else " sd-flagged sd-flagged-warning"
        shown = cards(event["cards"], event["up"] if hand.is_stud else None) if has_cards else ""
        notes = "".join(
            f'<span class="sd-violation sd-{finding["severity"]}">{code_link(str(finding["code"]))}'
            f" {escape(str(finding['message']))}</span>"
            for finding in findings
        )
        rows.append(
            f'<div class="{css}"><span class="sd-actor">{escape(event["actor"] or "Dealer")}'
            f"</span><span>{escape(text)}</span>{shown}"
            f'<span class="sd-line">line {event["line"]}</span>{notes}</div>'
        )
    if not rows:
        return '<div class="sd-events"><div class="sd-event">Nothing happened here.</div></div>'
    return f'<div class="sd-events">{"".join(rows)}</div>'


def _awards(hand: Hand) -> None:
    """The pots with who could win them and who did, and every player's result."""
    st.subheader("Pots and awards")
    fmt = hand.money
    pots = hand.pots.select(
        pot=pl.when(pl.col("half").is_null())
        .then(pl.col("name"))
        .otherwise(pl.col("name") + " " + pl.col("half")),
        amount=pl.col("amount").map_elements(fmt, return_dtype=pl.String),
        collected=pl.col("collected").map_elements(fmt, return_dtype=pl.String),
        eligible=pl.col("eligible").list.join(", "),
        winners=pl.col("winners").list.join(", "),
    )
    results = hand.seats.select(
        "name",
        cards=pl.col("cards").map_elements(card_text, return_dtype=pl.String),
        invested=pl.col("invested").map_elements(fmt, return_dtype=pl.String),
        collected=pl.col("collected").map_elements(fmt, return_dtype=pl.String),
        net=pl.col("net").map_elements(fmt, return_dtype=pl.String),
    )
    left, right = st.columns([2, 3])
    left.dataframe(pots, hide_index=True)
    right.dataframe(results, hide_index=True)


def _street_name(hand: Hand, street: int | None) -> str:
    if street is None:
        return "whole hand"
    return hand.steps[street] if 0 <= street < len(hand.steps) - 1 else f"street {street}"


def _violations(hand: Hand, flagged: pl.DataFrame) -> None:
    findings = hand.violations
    if findings.is_empty():
        st.success("The rules engine found nothing wrong with this hand.")
        return
    st.subheader(f"Violations ({findings.height})")
    here = set(flagged.get_column("seq").to_list())
    rows = []
    for finding in findings.iter_rows(named=True):
        street = _street_name(hand, finding["street"])
        mark = " ◀ this step" if finding["seq"] in here else ""
        rows.append(
            f'<div class="sd-event sd-{finding["severity"]}">{code_link(finding["code"])}'
            f"<span>{escape(finding['severity'])} · {street} · line {finding['line']}</span>"
            f"<span>{escape(finding['message'])}</span>"
            f'<span class="sd-line">{mark}</span></div>'
        )
    st.html(f'<div class="sd-events">{"".join(rows)}</div>')


if __name__ == "__main__":
    render()
