"""The dashboard's replayer under Streamlit's AppTest, against a store of synthesised hands.

Each test opens the real entry point (app.py, with its st.navigation) on the replayer and checks
what it shows against the store itself (tests/dashboard_support.py): cards, actions, seats and
stacks step by step, violations in the room's money, notes, tags and the hand's own text.
"""

from __future__ import annotations

import shutil
from html import escape
from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from studdraw.dashboard import replay
from studdraw.dashboard.launch import ENV_VAR
from studdraw.dashboard.store import StoreRef
from studdraw.dashboard.views import page
from studdraw.pipeline import identities
from studdraw.pipeline.notes import Kind, annotated, notes_path
from tests.dashboard_support import APP, BROKEN_HAND, DRAW_HAND, TIMEOUT, Facts, html, open_page


def test_replayer_shows_cards_actions_and_violations(app: AppTest, facts: Facts) -> None:
    open_page(app, "replayer", hand=str(facts.broken_id))
    assert f"hand #{BROKEN_HAND}" in app.markdown[0].value
    drawn = html(app)
    # The hero's three 3rd-street cards, the two hole cards marked face down.
    for code in facts.broken_cards[:3]:
        assert f'title="{code}"' in drawn
    assert drawn.count("sd-card sd-") >= 9
    assert "sd-back" in drawn  # opponents' hole cards
    assert "brings in for $0.05" in drawn
    # SIZ014 happens on 3rd street: flagged on its event, linked to its section.
    assert "sd-flagged" in drawn
    assert "violation_codes?code=SIZ014#siz014--all-in-with-chips-behind" in drawn
    assert "Carol is marked all-in" in drawn
    for code in facts.broken_codes:
        assert f">{code}</a>" in drawn
    assert app.subheader[-1].value == f"Violations ({facts.broken_violations})"


def test_replayer_steps_to_the_showdown(app: AppTest, facts: Facts) -> None:
    open_page(app, "replayer", hand=str(facts.broken_id))
    steps = app.get("button_group")[1]
    steps.set_value("Showdown").run()
    assert not app.exception
    drawn = html(app)
    assert "collects" in drawn
    assert "sd-winner" in drawn
    pots, results = app.dataframe[0].value, app.dataframe[1].value
    assert list(pots["pot"])[:1] == ["main"]
    assert "a (b) c" in set(results["name"])


def test_replayer_shows_the_draws(app: AppTest, facts: Facts) -> None:
    open_page(app, "replayer", hand=str(facts.draw_id))
    assert app.get("button_group")[1].options == [
        "predraw", "first draw", "second draw", "third draw", "Showdown"
    ]  # fmt: skip
    app.get("button_group")[1].set_value("first draw").run()
    drawn = html(app)
    # Alice throws K♣ K♠ and draws 4♠ 8♦; Cara's two cards stay hidden.
    assert "Alice</span><span>discards 2</span>" in drawn
    assert 'title="Kc"' in drawn and 'title="4s"' in drawn and 'title="8d"' in drawn
    assert "Cara</span><span>discards 2</span>" in drawn
    assert drawn.count(">drew 2<") == 2
    assert "Pot $0.45 → $0.65" in drawn


def test_replayer_finds_a_hand_by_room_id(app: AppTest, facts: Facts) -> None:
    open_page(app, "replayer")
    app.get("button_group")[0].set_value("By room hand id").run()
    app.text_input(key="replay-room-id").input(BROKEN_HAND).run()
    assert not app.exception
    assert f"hand #{BROKEN_HAND}" in app.markdown[0].value


def test_replayer_defaults_to_the_heros_latest_day(app: AppTest, facts: Facts) -> None:
    open_page(app, "replayer")
    assert app.selectbox(key="replay-player").value == "Hero"
    assert app.date_input(key="replay-day").value == facts.last_hero_day
    assert "★ Hero" in html(app)
    assert "sd-hero" in html(app)


def test_replayer_prints_raises_as_the_room_did(app: AppTest, facts: Facts) -> None:
    open_page(app, "replayer", hand=str(facts.broken_id))
    # "a (b) c: raises $0.10 to $0.20" over Mr: [X] y's completion to $0.10.
    assert "a (b) c</span><span>raises $0.10 to $0.20</span>" in html(app)


def test_replayer_steps_action_by_action(app: AppTest, facts: Facts) -> None:
    open_page(app, "replayer", hand=str(facts.broken_id))
    every = html(app).count('class="sd-event')
    app.toggle(key="replay-by-action").set_value(True).run()
    assert not app.exception
    assert html(app).count('class="sd-event') < every
    slider = app.slider[0]
    slider.set_value(slider.max).run()
    assert html(app).count('class="sd-event') == every


def seats(app: AppTest) -> str:
    """The seat boxes the replayer drew (the block with the pot), without the events."""
    return next(block for block in (e.proto.body for e in app.get("html")) if "sd-table" in block)


def test_replayer_seats_show_only_what_has_happened(app: AppTest, facts: Facts) -> None:
    """One event shown (Mr: [X] y's ante): no cards dealt yet, no raise, call or fold, nobody
    else's ante; each later event changes the boxes only when it happens."""
    open_page(app, "replayer", hand=str(facts.broken_id))
    app.toggle(key="replay-by-action").set_value(True).run()
    assert not app.exception
    first = seats(app)
    assert "sd-card" not in first
    assert first.count("no cards") == 3
    assert "ante" in first and "raise" not in first and "call" not in first
    assert first.count("in: $0.00") == 2 and "stack $5.00" in first  # a (b) c has not anted
    app.slider[0].set_value(7).run()  # the antes, the three deals, the bring-in
    dealt = seats(app)
    assert 'title="As"' in dealt and 'title="9c"' in dealt
    assert "raise" not in dealt and "complete" not in dealt
    assert "bring in" in dealt and "stack $0.23" in dealt  # Carol: $0.30 less ante and bring-in


def test_replayer_hides_hole_cards_until_the_showdown(app: AppTest, facts: Facts) -> None:
    """Mr: [X] y's down cards 7d 6s and Carol's 3h 3s are seen only when they show them."""
    open_page(app, "replayer", hand=str(facts.broken_id))
    steps = app.get("button_group")[1]
    steps.set_value("7th street").run()
    before = seats(app)
    assert 'title="Th"' in before  # the community river card
    for hidden in ("7d", "6s", "3h", "3s"):
        assert f'title="{hidden}"' not in before
    assert 'title="As"' in before  # the hero's own hole cards
    steps.set_value("Showdown").run()
    after = seats(app)
    for shown in ("7d", "6s", "3h", "3s"):
        assert f'title="{shown}"' in after


def test_replayer_showdown_stacks_include_the_pots_won(app: AppTest, facts: Facts) -> None:
    open_page(app, "replayer", hand=str(facts.broken_id))
    app.get("button_group")[1].set_value("Showdown").run()
    drawn = seats(app)
    # a (b) c: $5.00 - $0.62 + $0.80; Carol: $0.30 - $0.22 + $0.84; Mr: [X] y lost $0.62.
    assert "stack $5.18" in drawn and "stack $0.92" in drawn and "stack $4.38" in drawn


def test_replayer_writes_problems_in_the_rooms_money(app: AppTest, facts: Facts) -> None:
    open_page(app, "replayer", hand=str(facts.broken_id))
    drawn = html(app)
    for message in (
        "the room's total pot is $1.70, the bets make $1.46",
        "$1.64 collected and $0.06 rake from a pot of $1.46",
        "Carol is marked all-in with $0.08 left",
        "a (b) c collects $0.80 from the side1 pot",
    ):
        assert escape(message) in drawn
    assert "total pot is 170" not in drawn


def test_autoplay_walks_every_event_of_every_step_once(facts: Facts) -> None:
    hand = replay.load_hand(StoreRef(str(facts.db), 0), facts.broken_id)
    assert hand is not None
    walked: list[tuple[int, int]] = []
    position: tuple[int, int] | None = (0, 1)
    while position is not None:
        walked.append(position)
        position = replay.next_position(hand, *position)
    expected = [
        (step, shown)
        for step in range(len(hand.steps))
        for shown in range(1, replay.step_events(hand, step).height + 1)
    ]
    assert walked == expected


def test_replayer_autoplay_starts_on_the_first_event(app: AppTest, facts: Facts) -> None:
    open_page(app, "replayer", hand=str(facts.broken_id))
    app.toggle(key="replay-by-action").set_value(True).run()
    app.toggle(key="replay-autoplay").set_value(True).run()
    assert not app.exception
    assert any("Playing" in caption.value for caption in app.caption)
    assert app.slider[0].value == 1


def test_replayer_writes_notes_and_tags_beside_the_store(
    facts: Facts, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "store.duckdb"
    shutil.copy(facts.db, db)
    monkeypatch.setenv(ENV_VAR, str(db))
    app = AppTest.from_file(APP, default_timeout=TIMEOUT)
    open_page(app, "replayer", hand=str(facts.broken_id))
    key = f"notes-hand-{facts.broken_id}"
    app.text_area(key=f"{key}-note").input("Carol's all-in call: review").run()
    app.multiselect(key=f"{key}-tags").set_value(["review"]).run()
    app.button(key=f"{key}-save").click().run()
    app.selectbox(key=f"notes-player-{facts.broken_id}").select("Carol").run()
    player = "notes-player-pokerstars-Carol"
    app.text_area(key=f"{player}-note").input("calls too much").run()
    app.button(key=f"{player}-save").click().run()
    assert not app.exception
    found = {(a.target.kind, a.target.key): (a.note, a.tags) for a in annotated(notes_path(db))}
    assert found == {
        (Kind.HAND, BROKEN_HAND): ("Carol's all-in call: review", ("review",)),
        (Kind.PLAYER, "Carol"): ("calls too much", ()),
    }
    with duckdb.connect(str(db), read_only=True) as con:  # the store itself is untouched
        assert con.execute("SELECT count(*) FROM hands").fetchall()[0][0] == facts.hands
    app.run()
    assert any(e.label.startswith("Notes and tags · review") for e in app.expander)
    # The tagged hand is found by its tag, from another hand's page.
    app.query_params["hand"] = str(facts.draw_id)
    app.run()
    assert f"hand #{DRAW_HAND}" in app.markdown[0].value
    app.get("button_group")[0].set_value("By tag").run()
    assert app.selectbox(key="replay-tag").value == "review"
    assert f"hand #{BROKEN_HAND}" in app.markdown[0].value
    assert "review" in app.selectbox(key="replay-tagged").format_func(facts.broken_id)


def test_replayer_links_a_players_account_to_a_person_every_page_then_shows(
    facts: Facts, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "store.duckdb"
    shutil.copy(facts.db, db)
    monkeypatch.setenv(ENV_VAR, str(db))
    with duckdb.connect(str(db), read_only=True) as con:
        hand = con.execute("SELECT min(hand_id) FROM hands WHERE hero = 'Hero'").fetchall()[0][0]
    app = AppTest.from_file(APP, default_timeout=TIMEOUT)
    open_page(app, "replayer", hand=str(hand))
    app.selectbox(key=f"notes-player-{hand}").select("Hero").run()
    key = "identity-pokerstars-Hero"
    app.text_input(key=f"{key}-person").input("Me").run()
    app.button(key=f"{key}-link").click().run()
    assert not app.exception
    assert identities.links(notes_path(db)) == [
        identities.Link("Me", identities.Account("pokerstars", "Hero"))
    ]
    app.switch_page(page("player_stats")).run()
    players = app.sidebar.selectbox(key="stats-player").options
    assert players[0] == "Me" and "Hero" not in players
    everyone = app.dataframe[0].value
    assert "Me" in set(everyone["player"]) and "Hero" not in set(everyone["player"])
    app.switch_page(page("replayer")).run()
    app.selectbox(key=f"notes-player-{hand}").select("Hero").run()
    app.button(key=f"{key}-split").click().run()
    assert not app.exception and identities.links(notes_path(db)) == []


def test_replayer_next_hand_names_it_in_the_room_hand_id_box(app: AppTest, facts: Facts) -> None:
    with duckdb.connect(str(facts.db), read_only=True) as con:
        rows = con.execute(
            "SELECT room_hand_id FROM hands WHERE hero = 'Hero' ORDER BY started_at LIMIT 1"
        ).fetchall()
    first = rows[0][0]
    open_page(app, "replayer")
    app.get("button_group")[0].set_value("By room hand id").run()
    app.text_input(key="replay-room-id").input(first).run()
    assert f"hand #{first}" in app.markdown[0].value
    app.button(key="replay-next").click().run()
    assert not app.exception
    box = app.text_input(key="replay-room-id").value
    assert box != first
    assert f"hand #{box} " in app.markdown[0].value


def test_replayer_moves_to_the_next_and_previous_hand(app: AppTest, facts: Facts) -> None:
    open_page(app, "replayer")
    first = app.query_params.get("hand") or str(app.selectbox(key="replay-pick").value)
    app.button(key="replay-previous").click().run()
    assert not app.exception
    previous = app.query_params["hand"]
    assert previous != first
    app.button(key="replay-next").click().run()
    assert app.query_params["hand"] == first


def test_replayer_names_draw_positions(app: AppTest, facts: Facts) -> None:
    open_page(app, "replayer", hand=str(facts.draw_id))
    drawn = html(app)
    assert " · SB" in drawn and " · BB" in drawn and " · BTN" in drawn
    assert "BTN+" not in drawn


def test_replayer_shows_times_in_the_users_zone(app: AppTest, facts: Facts) -> None:
    open_page(app, "replayer", hand=str(facts.broken_id))
    app.sidebar.selectbox(key="replay-time-zone").select("Asia/Tokyo").run()
    assert not app.exception
    drawn = html(app)
    assert "JST" in drawn and "<b>UTC</b>" in drawn and "<b>Room time</b>" in drawn


def test_replayer_copies_the_hand_as_the_room_wrote_it(app: AppTest, facts: Facts) -> None:
    open_page(app, "replayer", hand=str(facts.broken_id))
    app.toggle(key=f"replay-text-{facts.broken_id}").set_value(True).run()
    assert not app.exception
    text = app.code[-1].value
    assert text.startswith(f"PokerStars Hand #{BROKEN_HAND}:")
    assert "a (b) c: raises $0.10 to $0.20" in text
