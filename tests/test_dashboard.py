"""The dashboard's pages under Streamlit's AppTest, against a store of synthesised hands.

Each test opens the real entry point (app.py, with its st.navigation) on one page and checks
what the page shows against the store itself: names, counts, money, the replayer's cards and
violations.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from html import escape
from pathlib import Path
from typing import Any

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from studdraw.dashboard import replay
from studdraw.dashboard.launch import ENV_VAR
from studdraw.dashboard.store import StoreRef
from studdraw.dashboard.views import page
from studdraw.dashboard.views.overview import bin_unit
from studdraw.parsers.problems import Code, Origin
from studdraw.pipeline import identities
from studdraw.pipeline.analytics import money_text
from studdraw.pipeline.notes import Kind, annotated, notes_path
from tests.dashboard_support import BROKEN_HAND, DRAW_HAND, build_store
from tests.mixed_support import build_mixed_store

APP = Path(page("overview")).parents[1] / "app.py"
TIMEOUT = 60


@dataclass(frozen=True)
class Facts:
    """What the store holds, read before the dashboard opens it."""

    db: Path
    hands: int
    players: int
    broken_id: int
    draw_id: int
    broken_codes: frozenset[str]
    broken_violations: int
    broken_cards: tuple[str, ...]
    reject_id: str
    last_hero_day: date
    hero_hands: dict[str, int]  # per game
    hero_net: float  # in currency units
    hero_hand_ids: frozenset[str]


@pytest.fixture(scope="module")
def facts(tmp_path_factory: pytest.TempPathFactory) -> Facts:
    db = build_store(tmp_path_factory.mktemp("dashboard"))
    with duckdb.connect(str(db), read_only=True) as con:

        def one(sql: str, *params: object) -> Any:
            row = con.execute(sql, list(params)).fetchone()
            assert row is not None
            return row[0]

        broken_id = one("SELECT hand_id FROM hands WHERE room_hand_id = ?", BROKEN_HAND)
        codes = con.execute("SELECT code FROM violations WHERE hand_id = ?", [broken_id]).fetchall()
        return Facts(
            db=db,
            hands=one("SELECT count(*) FROM hands"),
            players=one("SELECT count(DISTINCT name) FROM hand_players WHERE dealt_in"),
            broken_id=broken_id,
            draw_id=one("SELECT hand_id FROM hands WHERE room_hand_id = ?", DRAW_HAND),
            broken_codes=frozenset(code for (code,) in codes),
            broken_violations=one("SELECT count(*) FROM violations WHERE hand_id = ?", broken_id),
            broken_cards=tuple(
                one("SELECT cards FROM hand_players WHERE hand_id = ? AND is_hero", broken_id)
            ),
            reject_id=one("SELECT room_hand_id FROM rejects"),
            last_hero_day=one(
                "SELECT CAST(max(timezone('UTC', started_at)) AS DATE) FROM hands "
                "WHERE hero = 'Hero'"
            ),
            hero_hands=dict(
                con.execute(
                    "SELECT game, count(*) FROM hands WHERE hero = 'Hero' GROUP BY game"
                ).fetchall()
            ),
            hero_net=float(
                one("SELECT sum(net_amount) FROM hand_players_money WHERE name = 'Hero'")
            ),
            hero_hand_ids=frozenset(
                hand
                for (hand,) in con.execute(
                    "SELECT room_hand_id FROM hands WHERE hero = 'Hero'"
                ).fetchall()
            ),
        )


@pytest.fixture
def app(facts: Facts, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppTest]:
    monkeypatch.setenv(ENV_VAR, str(facts.db))
    yield AppTest.from_file(APP, default_timeout=TIMEOUT)


def open_page(app: AppTest, name: str, **query: str) -> AppTest:
    """Run the app, switch to page `name` with the query parameters, and check it ran clean."""
    app.run()
    if name != "overview":
        app.switch_page(page(name))
    app.query_params.update(query)
    app.run()
    assert not app.exception, [error.value for error in app.exception]
    return app


def html(app: AppTest) -> str:
    """Everything the page drew with st.html (cards, seats, events)."""
    return "".join(element.proto.body for element in app.get("html"))


def metrics(app: AppTest) -> dict[str, str]:
    return {metric.label: metric.value for metric in app.metric}


def test_overview_counts_what_the_store_holds(app: AppTest, facts: Facts) -> None:
    open_page(app, "overview")
    shown = metrics(app)
    assert shown["Hands stored"] == f"{facts.hands:,}"
    assert shown["Players"] == f"{facts.players:,}"
    assert shown["Rooms / games"] == "1 / 2"
    assert shown["Rejected"] == "1"
    assert shown["Unsupported"] == "2"
    assert shown["Valid hands"] == f"{(facts.hands - 1) / facts.hands:.1%}"
    rooms = app.dataframe[0].value
    assert set(rooms["game"]) == {"Seven-card stud", "2-7 triple draw"}
    assert rooms["hands"].sum() == facts.hands
    players = app.dataframe[1].value
    assert players["name"][0] == "Hero"
    assert players["hands"][0] == sum(facts.hero_hands.values())
    assert players["games"][0] == "Seven-card stud, 2-7 triple draw"
    imports = app.dataframe[2].value
    assert imports["stored"].sum() == facts.hands
    assert set(imports["file"]) == {"stud.txt", "td27.txt", "broken.txt", "td27-showdown.txt"}
    assert len(app.get("vega_lite_chart")) == 1


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


def test_data_quality_lists_violations_rejects_and_unsupported(app: AppTest, facts: Facts) -> None:
    open_page(app, "data_quality")
    shown = metrics(app)
    # The broken hand both breaks the rules (ORD004) and has export defects (SIZ014, MNY002).
    assert shown["Hands breaking the rules"] == "1"
    assert shown["Hands with export defects"] == "1"
    assert shown["Rejected hands"] == "1"
    assert shown["Unsupported hands"] == "2"
    by_code = app.dataframe[0].value
    assert set(by_code["code"]) == facts.broken_codes
    assert all(
        origin == Code[code].origin
        for code, origin in zip(by_code["code"], by_code["origin"], strict=True)
    )
    assert set(by_code["room"]) == {"pokerstars"}
    flagged = app.dataframe[1].value
    assert set(flagged["room_hand_id"]) == {BROKEN_HAND}
    assert flagged["replay"].str.startswith(f"replayer?hand={facts.broken_id}").all()
    assert any(facts.reject_id in block.value for block in app.code)
    unsupported = app.dataframe[-2].value
    assert set(unsupported["label"]) == {"Hold'em No Limit", "td27"}


def test_violation_codes_open_on_the_linked_code(app: AppTest) -> None:
    open_page(app, "violation_codes", code="SIZ014")
    assert app.selectbox[0].value == "SIZ014"
    assert app.subheader[0].value == "SIZ014 — All-in with chips behind"
    assert "**Meaning:**" in app.markdown[0].value
    assert "- **Origin:** export" in app.markdown[0].value
    assert "Carol: calls" in app.markdown[0].value  # the documented example hand
    catalogue = app.dataframe[0].value
    assert len(catalogue) == len(Code)
    assert set(catalogue["origin"]) == {str(origin) for origin in Origin}
    app.selectbox[0].select("CAP001").run()
    assert app.subheader[0].value == "CAP001 — Raise after the cap"


def test_sessions_graph_and_table_of_the_hero(app: AppTest, facts: Facts) -> None:
    open_page(app, "sessions")
    assert app.sidebar.selectbox(key="sessions-player").value == "Hero"
    shown = metrics(app)
    assert shown["Hands"] == str(sum(facts.hero_hands.values()))
    # 40 stud hands a session, then 20 triple-draw hands a session, hours apart.
    assert shown["Sessions"] == "4"
    assert shown["Net won ($ (USD))"] == money_text(Decimal(str(facts.hero_net)), "USD")
    table = app.dataframe[0].value
    assert list(table["hands"]) == [40, 40, 20, 20]
    assert abs(float(table["net"].sum()) - facts.hero_net) < 1e-9
    assert set(table["money"]) == {"$ (USD)"}
    assert len(app.get("vega_lite_chart")) == 1
    app.sidebar.selectbox(key="sessions-session").select(3).run()
    assert metrics(app)["Hands"] == "20"


def test_player_stats_table_filters_by_game_and_player(app: AppTest, facts: Facts) -> None:
    open_page(app, "player_stats")
    everyone = app.dataframe[0].value
    hero = everyone[everyone["player"] == "Hero"]
    assert dict(zip(hero["game"], hero["hands"], strict=True)) == {
        "Seven-card stud": facts.hero_hands["stud"],
        "2-7 triple draw": facts.hero_hands["td27"],
    }
    assert {"vpip", "went_to_showdown"} <= set(everyone.columns)
    app.sidebar.selectbox(key="stats-game").select("td27").run()
    assert set(app.dataframe[0].value["game"]) == {"2-7 triple draw"}
    app.sidebar.selectbox(key="stats-player").select("Hero").run()
    assert not app.exception
    only = app.dataframe[0].value
    assert list(only["player"]) == ["Hero"]
    assert list(only["hands"]) == [facts.hero_hands["td27"]]


def test_player_stats_shows_the_heros_stud_starting_hands(app: AppTest, facts: Facts) -> None:
    open_page(app, "player_stats")
    app.sidebar.selectbox(key="stats-player").select("Hero").run()
    assert app.subheader[0].value == "Stud starting hands of Hero"
    groups = app.dataframe[1].value
    assert groups["dealt"].sum() == facts.hero_hands["stud"]


def test_player_stats_shows_the_heros_door_cards(app: AppTest, facts: Facts) -> None:
    open_page(app, "player_stats")
    app.sidebar.selectbox(key="stats-player").select("Hero").run()
    assert [h.value for h in app.main.subheader] == [
        "Stud starting hands of Hero",
        "Stud door cards of Hero",
    ]
    doors = app.dataframe[2].value
    assert doors["dealt"].sum() == facts.hero_hands["stud"]
    ranks = list(doors["door_rank"])
    assert ranks == sorted(ranks, key="AKQJT98765432".index)  # stud: the ace first
    assert len(set(ranks)) == len(ranks)


def hero_seats(facts: Facts, condition: str) -> int:
    """The hero's seats in hands without rule errors, counted from `hand_players` itself."""
    with duckdb.connect(str(facts.db), read_only=True) as con:
        row = con.execute(
            "SELECT count(*) FROM hand_players JOIN hands USING (hand_id) "
            f"WHERE name = 'Hero' AND dealt_in AND valid AND {condition}"
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_seat_filters_show_for_their_games_on_stats_sessions_and_leaks(
    app: AppTest, facts: Facts
) -> None:
    open_page(app, "player_stats")
    side = app.sidebar
    assert side.selectbox(key="stats-position").options == [
        "Early", "Middle", "Cutoff", "Button", "Small blind", "Big blind", "Bring-in", "Late",
    ]  # fmt: skip
    assert side.selectbox(key="stats-door").options[0] == "A"
    assert "Split pair" in side.selectbox(key="stats-start-group").options
    side.selectbox(key="stats-game").select("td27").run()
    keys = {box.key for box in app.sidebar.selectbox}
    assert "stats-door" not in keys and "stats-start-group" not in keys  # stud only
    assert app.sidebar.selectbox(key="stats-position").options[-1] == "Big blind"
    app.sidebar.selectbox(key="stats-player").select("Hero").run()
    app.sidebar.selectbox(key="stats-position").select("button").run()
    assert not app.exception
    assert list(app.dataframe[0].value["hands"]) == [
        hero_seats(facts, "game = 'td27' AND position = 'BTN'")
    ]
    open_page(app, "sessions")
    app.sidebar.selectbox(key="sessions-position").select("bring-in").run()
    assert metrics(app)["Hands"] == str(hero_seats(facts, "position = 'BI'"))
    open_page(app, "leaks")
    app.sidebar.selectbox(key="leaks-door").select("K").run()
    assert not app.exception
    assert app.dataframe[-1].value["low"].isna().all()  # a seat's sample: the pool judges alone


def test_leaks_rank_the_heros_leaks_with_the_hands_behind(app: AppTest, facts: Facts) -> None:
    open_page(app, "leaks")
    ranked = app.dataframe[0].value
    assert len(ranked) > 0
    assert list(ranked["rank"]) == list(range(1, len(ranked) + 1))
    behind = app.dataframe[1].value
    assert 0 < len(behind) <= 50
    assert set(behind["room_hand_id"]) <= facts.hero_hand_ids
    assert behind["replay"].str.startswith("replayer?hand=").all()
    assert "Typical hands: [#24" in app.markdown[-1].value
    assert "](replayer?hand=" in app.markdown[-1].value


def test_pages_read_a_parquet_dataset(facts: Facts, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, str(facts.db.parent / "parquet"))
    app = open_page(AppTest.from_file(APP, default_timeout=TIMEOUT), "overview")
    assert metrics(app)["Hands stored"] == f"{facts.hands:,}"
    assert any("no import log" in caption.value for caption in app.caption)
    app = open_page(
        AppTest.from_file(APP, default_timeout=TIMEOUT), "replayer", hand=str(facts.broken_id)
    )
    assert "violation_codes?code=SIZ014" in html(app)
    app = open_page(AppTest.from_file(APP, default_timeout=TIMEOUT), "sessions")
    assert metrics(app)["Sessions"] == "4"
    app = open_page(AppTest.from_file(APP, default_timeout=TIMEOUT), "data_quality")
    shown = metrics(app)
    assert (shown["Rejected hands"], shown["Unsupported hands"]) == ("1", "2")
    assert any(facts.reject_id in block.value for block in app.code)


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


@pytest.mark.parametrize(
    ("span", "unit"), [(0, "day"), (120, "day"), (121, "week"), (730, "week"), (731, "month"),
                       (4380, "month"), (4381, "year")],
)  # fmt: skip
def test_time_chart_bins_follow_the_span(span: int, unit: str) -> None:
    assert bin_unit(span) == unit


def test_overview_charts_every_hand(app: AppTest, facts: Facts) -> None:
    # The hand-written hands of 2021 lie years before the synthesised ones of 2026.
    open_page(app, "overview")
    assert any(f"All {facts.hands:,} hands, one bar per month" in c.value for c in app.caption)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_mixed_store(tmp_path_factory.mktemp("mixed-dashboard"))


@pytest.fixture
def mixed_app(mixed: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppTest]:
    monkeypatch.setenv(ENV_VAR, str(mixed))
    yield AppTest.from_file(APP, default_timeout=TIMEOUT)


def test_sessions_show_money_one_currency_at_a_time(mixed_app: AppTest) -> None:
    open_page(mixed_app, "sessions")
    picker = mixed_app.get("button_group")[0]
    assert set(picker.options) == {"$ (USD)", "€ (EUR)", "play money", "tournament chips"}
    for label, currency in (("€ (EUR)", "EUR"), ("tournament chips", "CHIPS")):
        picker.set_value(currency).run()
        assert not mixed_app.exception
        shown = metrics(mixed_app)
        assert shown["Hands"] == "30"
        net = shown[f"Net won ({label})"]
        assert ("€" in net) if currency == "EUR" else net.endswith(" chips")
    table = mixed_app.dataframe[0].value
    first = table[table["session"] == 1]
    assert set(first["currency"]) == {"USD", "CHIPS"}  # one session, two currencies
    totals = next(c.value for c in mixed_app.caption if c.value.startswith("Net won:"))
    for unit in ("$", "€", "play money", "chips"):
        assert unit in totals


def test_player_stats_write_each_currency(mixed_app: AppTest) -> None:
    open_page(mixed_app, "player_stats")
    mixed_app.sidebar.selectbox(key="stats-player").select("Hero").run()
    rows = mixed_app.dataframe[0].value
    assert sorted(rows["money"]) == sorted(["$ (USD)", "€ (EUR)", "play money", "tournament chips"])
    nets = dict(zip(rows["money"], rows["net"], strict=True))
    assert nets["€ (EUR)"].lstrip("+-").startswith("€")
    assert nets["tournament chips"].endswith(" chips")
    assert nets["play money"].endswith(" play money")


def test_leaks_say_when_the_sample_is_too_small(mixed_app: AppTest) -> None:
    open_page(mixed_app, "leaks")
    mixed_app.sidebar.selectbox(key="leaks-currency").select("EUR").run()
    assert not mixed_app.exception
    said = " ".join(block.value for block in mixed_app.info) + " ".join(
        caption.value for caption in mixed_app.caption
    )
    assert "No leak found" not in said
    assert "too few" in said.lower()


def test_stats_leave_out_hands_with_rule_errors_unless_asked(mixed_app: AppTest) -> None:
    open_page(mixed_app, "player_stats")
    players = set(mixed_app.dataframe[0].value["player"])
    assert "Carol" not in players  # she played only the broken hand
    assert any("1 hand with rule errors" in caption.value for caption in mixed_app.caption)
    mixed_app.sidebar.toggle(key="stats-doubtful").set_value(True).run()
    assert "Carol" in set(mixed_app.dataframe[0].value["player"])


def test_tournaments_page_shows_buy_ins_and_chips(mixed_app: AppTest) -> None:
    open_page(mixed_app, "tournaments")
    assert mixed_app.subheader[0].value == "Buy-ins in $ (USD)"
    shown = metrics(mixed_app)
    assert shown["Tournaments"] == "1"
    assert shown["Results known"] == "0"  # no summary file, no finishing line in the hands
    table = mixed_app.dataframe[0].value
    assert list(table["buy_in"]) == ["$3.00"] and list(table["fee"]) == ["$0.30"]
    assert len(mixed_app.get("vega_lite_chart")) == 1  # the chip graph
