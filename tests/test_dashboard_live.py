"""The live table page and the sessions page's rates per hour and graph by date, under
Streamlit's AppTest, against the dashboard tests' store (tests/dashboard_support.py), checked
against counts and times read from the store itself."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from datetime import timedelta
from itertools import pairwise
from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from studdraw.dashboard.launch import ENV_VAR
from studdraw.pipeline.analytics import SESSION_GAP_MINUTES
from studdraw.pipeline.notes import Kind, Target, notes_path, set_note, tag
from studdraw.pipeline.words import money_text
from tests.dashboard_support import APP, TIMEOUT, build_store, html, metrics, open_page


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_store(tmp_path_factory.mktemp("dashboard-live"))


@pytest.fixture
def app(db: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppTest]:
    monkeypatch.setenv(ENV_VAR, str(db))
    yield AppTest.from_file(APP, default_timeout=TIMEOUT)


def _newest(db: Path) -> tuple[str, str, list[tuple[str, int]]]:
    """The newest hand's table and game, and each seated name with its valid hands of that
    game, structure and currency in that room."""
    with duckdb.connect(str(db), read_only=True) as con:
        row = con.execute(
            "SELECT hand_id, table_name, game, room, structure, currency FROM hands "
            "ORDER BY hand_id DESC LIMIT 1"
        ).fetchone()
        assert row is not None
        hand_id, table, game, room, structure, currency = row
        seated = con.execute(
            "SELECT s.name, (SELECT count(*) FROM hand_players p JOIN hands h USING (hand_id) "
            "WHERE p.name = s.name AND p.dealt_in AND h.valid AND h.room = ? AND h.game = ? "
            "AND h.structure = ? AND h.currency = ?) FROM hand_players s WHERE s.hand_id = ? "
            "ORDER BY s.seat",
            [room, game, structure, currency, hand_id],
        ).fetchall()
    return table, game, [(name, int(hands)) for name, hands in seated]


def _seat_boxes(app: AppTest) -> list[str]:
    drawn = html(app)
    return re.findall(r'<div class="sd-hud-seat[^"]*">(.*?)</table>', drawn)


def test_the_live_table_shows_every_seat_with_its_hands_and_stats(app: AppTest, db: Path) -> None:
    table, game, seated = _newest(db)
    assert game == "td27"  # the store's last file
    open_page(app, "live_table")
    assert app.subheader[0].value == f"{table} · PokerStars"
    assert "2-7 triple draw, limit" in app.markdown[0].value
    boxes = _seat_boxes(app)
    assert len(boxes) == len(seated)
    for box, (name, hands) in zip(boxes, seated, strict=True):
        assert f'title="{name}"' in box
        assert (f"<b>{hands:,} hand" if hands else "no hands yet") in box
        assert "raise first in" in box  # a draw game's HUD
        assert "3rd-street" not in box
        assert re.search(r"VPIP</td><td[^>]*>[\d.]+%</td><td[^>]*>of " + f"{hands:,}<", box)
    assert "hands_seen" not in html(app) and "vpip_n" not in html(app)


def test_a_players_note_and_tags_sit_beside_them(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "store.duckdb"
    shutil.copy(db, copy)
    monkeypatch.setenv(ENV_VAR, str(copy))
    _, _, seated = _newest(copy)
    first, second = seated[0][0], seated[1][0]
    set_note(notes_path(copy), Target(Kind.PLAYER, "pokerstars", first), "bluffs the river")
    tag(notes_path(copy), Target(Kind.PLAYER, "pokerstars", first), ["aggro"])
    tag(notes_path(copy), Target(Kind.PLAYER, "everleaf", second), ["elsewhere"])
    app = AppTest.from_file(APP, default_timeout=TIMEOUT)
    open_page(app, "live_table")
    drawn = html(app)
    boxes = drawn.split('<div class="sd-hud-seat')[1:]
    assert "bluffs the river" in boxes[0] and ">aggro<" in boxes[0]
    assert "elsewhere" not in drawn  # a note on a name at another room is another account's
    # Written from the page, the note shows beside the player in the same run.
    app.selectbox(key="notes-live-player").select(second).run()
    key = f"notes-player-pokerstars-{second}"
    app.text_area(key=f"{key}-note").input("slow-plays big hands").run()
    app.button(key=f"{key}-save").click().run()
    assert not app.exception
    boxes = html(app).split('<div class="sd-hud-seat')[1:]
    assert "slow-plays big hands" in boxes[1]


def test_the_sessions_page_gives_money_and_hands_per_hour(app: AppTest, db: Path) -> None:
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute(
            "SELECT h.started_at, p.net, h.scale FROM hand_players p JOIN hands h "
            "USING (hand_id) WHERE p.name = 'Hero' AND p.dealt_in AND h.valid "
            "ORDER BY h.started_at, h.hand_id"
        ).fetchall()
    gap = timedelta(minutes=SESSION_GAP_MINUTES)
    steps = [b - a for (a, _, _), (b, _, _) in pairwise(rows)]
    seconds = sum(step.total_seconds() for step in steps if step < gap)
    net = sum(net / scale for _, net, scale in rows)
    open_page(app, "sessions")
    shown = metrics(app)
    minutes = round(seconds / 60)
    assert shown["Time played"] == f"{minutes // 60} h {minutes % 60:02d} min"
    assert shown["Hands / hour"] == f"{len(rows) / (seconds / 3600):,.1f}"
    assert shown["Net won / hour ($ (USD))"] == money_text(
        net / (seconds / 3600), "USD", signed=True
    )
    table = app.dataframe[0].value
    assert table["hands_per_hour"].notna().all()
    assert all(text.startswith(("+$", "-$", "$")) for text in table["net_per_hour_text"])


def test_the_results_graph_runs_by_hands_or_by_date(app: AppTest) -> None:
    open_page(app, "sessions")

    def x_axis() -> dict[str, object]:
        spec = json.loads(app.get("vega_lite_chart")[0].proto.spec)
        encoding: dict[str, object] = spec["layer"][2]["encoding"]["x"]
        return encoding

    assert x_axis()["field"] == "hand_no"
    along = next(group for group in app.get("button_group") if group.label == "Along")
    along.set_value("Date").run()
    assert not app.exception
    axis = x_axis()
    assert (axis["field"], axis["type"], axis["title"]) == ("when", "temporal", "date (UTC)")
