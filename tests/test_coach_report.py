"""`studdraw report`: the coach's report is one HTML page holding, as the analytics say them, the
player's stats per game (with samples), results per currency (never added across currencies),
the leaks with their charts and example hands; each example's PHH reads back to the very hand
the store holds; the page loads nothing from outside and shows a hostile name as text. And the
errors: an unknown player (with the close names), an empty store, an --out that cannot be
written, no hand left by the filters, Ctrl-C (no partial file)."""

from __future__ import annotations

import base64
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from studdraw.cli.commands import app
from studdraw.parsers.model import Game, HandText, SourceRef, Tournament
from studdraw.parsers.rooms.phh import PHH
from studdraw.pipeline import analytics, coach
from studdraw.pipeline.analytics import Filters
from studdraw.pipeline.analytics.currency import currency_label
from studdraw.pipeline.coach.charts import WIDTH, range_bar
from studdraw.pipeline.export import records_from_store
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from studdraw.pipeline.notes import Kind, Target, notes_path, set_note
from studdraw.pipeline.synth import SynthOptions, render, synthesize
from studdraw.pipeline.words import money_text
from tests.pipeline.test_phh_roundtrip import facts

runner = CliRunner()
HOSTILE = "<img src=x onerror=alert(1)> **bold** & \"quoted\" 'x'"
"""The hero's name: HTML, Markdown, an entity and both quotes."""
CHIPS_START = datetime(2026, 3, 9, 20, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hostile-named hero at full-ring stud for dollars and at a 2-7 triple draw
    tournament for chips (two currencies, cash and tournament), written as PokerStars prints
    them and imported; one example-worthy hand carries a note."""
    folder = tmp_path_factory.mktemp("coach")
    runs = [
        SynthOptions(game=Game.STUD, hands=500, seed=41, hero=HOSTILE, min_players=7),
        SynthOptions(
            game=Game.TD27,
            hands=160,
            seed=42,
            hero=HOSTILE,
            start=CHIPS_START,
            currency="CHIPS",
            tournament=Tournament("991122", 500, 50, "USD", "Level III"),
        ),
    ]
    for number, options in enumerate(runs):
        texts = [render(record, "pokerstars") for record in synthesize(options)]
        (folder / f"h{number}.txt").write_text("\n\n\n".join(texts) + "\n", encoding="utf-8")
    db = folder / "coach.duckdb"
    summary = ingest([folder], IngestOptions(db, workers=1))
    assert summary.stored == 660, summary
    return db


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def walk(self) -> list[Node]:
        found = [self]
        for child in self.children:
            if isinstance(child, Node):
                found += child.walk()
        return found

    def find(self, tag: str | None = None, **attrs: str) -> list[Node]:
        return [
            node
            for node in self.walk()
            if (tag is None or node.tag == tag)
            and all(
                value in node.attrs.get(name.rstrip("_").replace("_", "-"), "").split()
                if name == "class_"
                else node.attrs.get(name.replace("_", "-")) == value
                for name, value in attrs.items()
            )
        ]


VOID = {"meta", "br", "hr", "img", "input", "link", "col", "source", "wbr"}


class TreeBuilder(HTMLParser):
    """A document tree from html.parser (entities decoded, as a browser decodes them)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {name: value or "" for name, value in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {name: value or "" for name, value in attrs}))

    def handle_endtag(self, tag: str) -> None:
        assert self.stack[-1].tag == tag, (tag, [node.tag for node in self.stack])
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parsed(path: Path) -> Node:
    builder = TreeBuilder()
    builder.feed(path.read_text(encoding="utf-8"))
    builder.close()
    assert builder.stack == [builder.root], "unclosed elements"
    return builder.root


def report(store: Path, out: Path, *extra: str, player: str = HOSTILE) -> Node:
    result = runner.invoke(
        app, ["report", "--player", player, "--db", str(store), "--out", str(out), *extra]
    )
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.output
    return parsed(out)


@pytest.fixture(scope="module")
def page(store: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Node, Path]:
    con = analytics.open_store(store)
    first = analytics.leaks(con, Filters(player=HOSTILE))
    con.close()
    assert first.height, "the synthesised hero has no leak: the test proves nothing"
    # A note on the first leak's first example hand, which the page must show (escaped).
    hand = first["example_room_hand_ids"][0][0]
    set_note(notes_path(store), Target(Kind.HAND, "pokerstars", hand), "<u>study</u> this")
    out = tmp_path_factory.mktemp("page") / "report.html"
    return report(store, out), out


def test_the_stats_are_the_analytics_own_with_their_samples(
    store: Path, page: tuple[Node, Path]
) -> None:
    root, _ = page
    con = analytics.open_store(store)
    stats = analytics.player_stats(con, Filters(player=HOSTILE))
    shown = {
        (cell.attrs["data-stat"], cell.attrs["data-game"], cell.attrs["data-currency"]): (
            cell.text(),
            int(cell.attrs["data-spots"]),
        )
        for cell in root.find("span")
        if "data-stat" in cell.attrs
    }
    expected = {}
    for row in stats.iter_rows(named=True):
        for stat in analytics.STATS:
            spots = row[f"{stat.name}_n"]
            if spots and (stat.name, row["game"], row["currency"]) in shown:
                expected[(stat.name, row["game"], row["currency"])] = (
                    f"{row[stat.name]:.1%}",
                    spots,
                )
    assert {key[1:] for key in shown} == {("stud", "USD"), ("td27", "CHIPS")}
    assert shown == expected
    assert ("vpip", "stud", "USD") in shown and ("complete_3rd", "stud", "USD") in shown
    assert not any(key[0] == "complete_3rd" for key in shown if key[1] == "td27")
    section = root.find(id="stats")[0].text()
    assert "Seven-card stud" in section and "2-7 triple draw" in section


def test_results_are_per_currency_never_added(store: Path, page: tuple[Node, Path]) -> None:
    root, _ = page
    con = analytics.open_store(store)
    stats = analytics.player_stats(con, Filters(player=HOSTILE))
    rows = root.find(id="results")[0].find("tbody")[0].find("tr")
    cells = [[cell.text() for cell in row.find("td")] for row in rows]
    assert [row[0] for row in cells] == [currency_label("USD"), currency_label("CHIPS")]
    for row, currency in zip(cells, ("USD", "CHIPS"), strict=True):
        mine = stats.filter(pl.col("currency") == currency)
        assert row[3] == f"{int(mine['hands'].sum()):,}"
        assert row[4] == money_text(mine["net"].sum(), currency, signed=True)
    assert cells[1][1] == "tournament" and cells[1][4].endswith(" chips")
    assert len(root.find("svg", class_="curve")) == 2  # one graph per currency


def test_each_leak_is_charted_with_its_examples(store: Path, page: tuple[Node, Path]) -> None:
    root, _ = page
    con = analytics.open_store(store)
    found = analytics.leaks(con, Filters(player=HOSTILE))
    articles = root.find("article", class_="leak")
    assert [a.attrs["data-stat"] for a in articles] == found["stat"].to_list()
    hands = {a.attrs["id"]: a for a in root.find("article", class_="hand")}
    for article, row in zip(articles, found.iter_rows(named=True), strict=True):
        chart = article.find("svg", class_="range")
        assert len(chart) == 1 and chart[0].find("rect", class_="bar")
        if row["low"] is not None:  # full ring: the reference range is the band
            band = chart[0].find("rect", class_="band")[0]
            left = float(band.attrs["x"])
            assert abs(left - (16 + (WIDTH - 32) * row["low"])) < 0.2
        links = [a.attrs["href"] for a in article.find("a")]
        assert links == [f"#hand-{hand}" for hand in row["examples"]]
        for link, room_hand_id in zip(links, row["example_room_hand_ids"], strict=True):
            shown = hands[link[1:]]
            assert shown.attrs["data-room-hand-id"] == room_hand_id
            assert f"#{room_hand_id}" in shown.find("pre", class_="hand-text")[0].text()
    assert "study" in root.text() and "<u>study</u> this" in root.text()


def test_an_example_hand_replays_from_its_phh(store: Path, page: tuple[Node, Path]) -> None:
    root, _ = page
    con = analytics.open_store(store)
    shown = root.find("article", class_="hand")
    assert shown
    ids = [int(article.attrs["id"].removeprefix("hand-")) for article in shown]
    stored = {record.room_hand_id: record for record, _ in records_from_store(con, sorted(ids))}
    assert len(stored) == len(shown)
    for article in shown:
        phh = article.find("pre", class_="phh")[0].text()
        link = article.find("a", class_="phh-download")[0]
        prefix = "data:application/toml;charset=utf-8;base64,"
        assert link.attrs["href"].startswith(prefix)
        assert base64.b64decode(link.attrs["href"].removeprefix(prefix)).decode() == phh
        assert link.attrs["download"].endswith(".phh")
        back = PHH().parse(HandText(phh, SourceRef(link.attrs["download"], 0, 1), "phh"))
        assert back.record is not None, back.problem
        original = stored[article.attrs["data-room-hand-id"]]
        assert back.record.room_hand_id == f"pokerstars:{original.room_hand_id}"
        assert facts(back.record, "pokerstars") == facts(original, "pokerstars")
        assert HOSTILE in article.find("pre", class_="hand-text")[0].text()


def test_the_page_loads_nothing_and_shows_the_name_as_text(page: tuple[Node, Path]) -> None:
    root, out = page
    raw = out.read_text(encoding="utf-8")
    tags = {node.tag for node in root.walk()}
    assert not tags & {"script", "img", "link", "iframe", "object", "embed", "u", "b"}
    for node in root.walk():
        for name, value in node.attrs.items():
            assert not name.startswith("on"), (node.tag, name)
            if name in ("href", "src", "action", "xlink:href"):
                assert value.startswith(("#", "data:")), value
    assert "http://" not in raw and "https://" not in raw and "url(" not in raw
    assert root.find("title")[0].text() == f"Coach's report: {HOSTILE}"
    assert root.find("span", class_="player")[0].text() == HOSTILE
    assert HOSTILE not in raw  # only ever escaped
    csp = root.find("meta", http_equiv="Content-Security-Policy")[0].attrs["content"]
    assert "default-src 'none'" in csp


def test_the_filters_narrow_the_report(store: Path, tmp_path: Path) -> None:
    root = report(store, tmp_path / "chips.html", "--currency", "chips", "--game", "td27")
    rows = root.find(id="results")[0].find("tbody")[0].find("tr")
    assert [row.find("td")[0].text() for row in rows] == [currency_label("CHIPS")]
    games = {cell.attrs["data-game"] for cell in root.find("span") if "data-game" in cell.attrs}
    assert games == {"td27"}
    dated = report(store, tmp_path / "dated.html", "--until", "2026-03-05", "--room", "pokerstars")
    rows = dated.find(id="results")[0].find("tbody")[0].find("tr")
    assert [row.find("td")[0].text() for row in rows] == [currency_label("USD")]


def invoke(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["report", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_an_unknown_player_is_named_with_the_close_ones(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    con = analytics.open_store(store)
    other = next(name for name in analytics.player_names(con) if name != HOSTILE)
    code, output = invoke("--player", other[:-1], "--db", str(store), "--out", str(out))
    assert code == 1 and f"did you mean {other!r}" in output, output
    assert not out.exists()


def test_an_empty_store_says_so(tmp_path: Path) -> None:
    db = tmp_path / "empty.duckdb"
    ingest([], IngestOptions(db, workers=1))
    out = tmp_path / "r.html"
    code, output = invoke("--player", "Hero", "--db", str(db), "--out", str(out))
    assert code == 1 and "the store holds no hands yet" in output, output
    assert not out.exists()
    code, output = invoke(
        "--player", "Hero", "--db", str(tmp_path / "none.duckdb"), "--out", str(out)
    )
    assert code == 2 and "no store at" in output, output


def test_an_out_that_cannot_be_written_is_one_line(store: Path, tmp_path: Path) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    cases = {folder: "is a folder", tmp_path / "missing" / "r.html": "does not exist"}
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        cases[locked / "r.html"] = "is not writable"
    for out, why in cases.items():
        code, output = invoke("--player", HOSTILE, "--db", str(store), "--out", str(out))
        lines = output.strip().splitlines()
        assert code == 1 and len(lines) == 1, output
        assert lines[0].startswith("error: cannot write") and why in lines[0], output


def test_no_hand_left_by_the_filters_writes_nothing(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    code, output = invoke(
        "--player", HOSTILE, "--db", str(store), "--out", str(out), "--since", "2030-01-01"
    )
    assert code == 1 and "match the filters; nothing written" in output, output
    assert not out.exists()


def test_ctrl_c_leaves_no_partial_file(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*_: object) -> str:
        raise KeyboardInterrupt

    out = tmp_path / "r.html"
    out.write_text("the last report\n", encoding="utf-8")
    monkeypatch.setattr(coach, "render", interrupted)
    code, output = invoke("--player", HOSTILE, "--db", str(store), "--out", str(out))
    assert code == 130 and "nothing written" in output, output
    assert out.read_text(encoding="utf-8") == "the last report\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["r.html"]


def test_the_range_bar_draws_the_value_the_band_and_the_interval() -> None:
    svg = TreeBuilder()
    svg.feed(
        range_bar(
            label="VPIP <&>",
            value=0.5,
            ci=(0.4, 0.6),
            reference=(0.2, 0.3),
            pool=(0.35, 0.05),
            severity="major",
        )
    )
    root = svg.root
    bar = root.find("rect", class_="bar")[0]
    band = root.find("rect", class_="band")[0]
    span = WIDTH - 32
    assert float(bar.attrs["width"]) == pytest.approx(span * 0.5, abs=0.2)
    assert float(band.attrs["x"]) == pytest.approx(16 + span * 0.2, abs=0.2)
    assert float(band.attrs["width"]) == pytest.approx(span * 0.1, abs=0.2)
    assert "major" in bar.attrs["class"].split()
    assert root.find("title")[0].text() == "VPIP <&>: 50.0%"
    assert "range 20.0%-30.0%" in root.text()


def test_progress_counts_each_example_hand_once(store: Path) -> None:
    con = analytics.open_store(store)
    analysis = coach.analyse(con, Filters(player=HOSTILE))
    counted: list[int] = []
    gathered = coach.gather(con, store, analysis, counted.append)
    assert sum(counted) == len(analysis.example_ids) == len(gathered.examples) > 0
    every = [hand for hands in gathered.leaks["examples"].to_list() for hand in hands]
    assert set(every) == set(gathered.examples) and len(every) >= len(gathered.examples)
