"""The dashboard's report pages under Streamlit's AppTest (overview, data quality, violation
codes, sessions, player stats, leaks, tournaments), against a store of synthesised hands and
one of several currencies.

Each test opens the real entry point (app.py, with its st.navigation) on one page and checks
what the page shows against the store itself (tests/dashboard_support.py): names, counts and
money. The replayer's tests are in test_dashboard_replayer.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from studdraw.dashboard.launch import ENV_VAR
from studdraw.dashboard.views.overview import bin_unit
from studdraw.parsers.problems import Code, Origin
from studdraw.pipeline.analytics import money_text
from tests.dashboard_support import APP, BROKEN_HAND, TIMEOUT, Facts, html, metrics, open_page
from tests.mixed_support import build_mixed_store


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
