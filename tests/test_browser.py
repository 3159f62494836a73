"""The dashboard in a real browser: `studdraw dashboard` serves a store of synthesised hands,
headless Chromium (Debian's, never a downloaded one) loads every page, the test checks what is
visible and saves a screenshot of each page under test-artifacts/."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from studdraw.parsers.model import Game
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from studdraw.pipeline.synth import NAME_POOL, SynthOptions, render, synthesize
from tests.conftest import CORPUS, REPO_ROOT, corpus_file
from tests.dashboard_support import BROKEN_HAND, build_store, hand_id_of
from tests.hostile_text_support import build_hostile_store
from tests.mixed_support import build_mixed_store

pytestmark = pytest.mark.browser

# Every assertion waits for what it expects to appear; on a loaded machine a cold page may take
# many seconds, so the wait is long (it ends as soon as the content is there).
expect.set_options(timeout=60_000)

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = REPO_ROOT / "test-artifacts"
STARTUP_SECONDS = 60
WIDTH = 1400


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def _wait_healthy(url: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"studdraw dashboard exited with {server.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(f"the dashboard did not answer at {url} in {STARTUP_SECONDS} s")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_store(tmp_path_factory.mktemp("browser"))


@pytest.fixture(scope="module")
def server(store: Path) -> Iterator[str]:
    """The base URL of `studdraw dashboard` running on the store, stopped afterwards."""
    with serve(store) as url:
        yield url


@contextmanager
def serve(store: Path) -> Iterator[str]:
    """`studdraw dashboard` on a store, in a subprocess, while the block runs."""
    port = _free_port()
    studdraw = Path(sys.executable).with_name("studdraw")
    command = [str(studdraw), "dashboard", "--db", str(store), "--port", str(port)]
    log = (store.parent / "server.log").open("wb")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=os.environ)
    url = f"http://localhost:{port}"
    try:
        _wait_healthy(url, process)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip(f"no {CHROMIUM}: `make test` installs Debian's chromium")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": WIDTH, "height": 1000})
    yield context.new_page()
    context.close()


def settle(page: Page) -> None:
    """Wait until Streamlit has finished running the page: no running indicator, no skeleton
    placeholders, no script still loading (tables and charts load theirs on first use), twice
    with a pause between (a rerun can start right after the first)."""
    for _ in range(2):
        page.wait_for_load_state("networkidle")
        page.wait_for_function(
            "!document.querySelector('[data-testid=stStatusWidget]') && "
            "!document.querySelector('[data-testid=stSkeleton]') && "
            "!document.querySelector('[data-testid=stSpinner]')",
            timeout=60_000,
        )
        page.wait_for_timeout(600)


def visit(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("[data-testid=stMain]")
    settle(page)


def screenshot(page: Page, name: str, width: int = WIDTH) -> None:
    """The whole page, however long: Streamlit scrolls inside its main block, so the viewport is
    stretched to the content's height first."""
    ARTIFACTS.mkdir(exist_ok=True)
    height = page.evaluate("document.querySelector('[data-testid=stMain]').scrollHeight")
    page.set_viewport_size({"width": width, "height": min(int(height) + 40, 8000)})
    page.wait_for_timeout(500)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def heading(page: Page, text: str) -> None:
    expect(page.get_by_role("heading", name=text, exact=True).first).to_be_visible()


def test_overview(server: str, page: Page) -> None:
    visit(page, server)
    heading(page, "Overview")
    main = page.get_by_test_id("stMain")
    expect(main.get_by_text("Hands stored")).to_be_visible()
    expect(page.get_by_test_id("stMetricValue").first).to_have_text("122")
    expect(page.locator(".vega-embed").first).to_be_visible()
    expect(page.get_by_test_id("stDataFrame")).to_have_count(3)
    screenshot(page, "overview")


def test_sessions(server: str, page: Page) -> None:
    visit(page, f"{server}/sessions")
    heading(page, "Sessions of Hero")
    expect(page.locator(".vega-embed").first).to_be_visible()
    expect(page.get_by_test_id("stDataFrame")).to_have_count(1)
    expect(page.get_by_test_id("stMetricLabel").filter(has_text="Hands / hour")).to_be_visible()
    screenshot(page, "sessions")
    page.get_by_role("radio", name="Date", exact=True).click()
    settle(page)
    expect(page.locator(".vega-embed").first).to_contain_text("date (UTC)")
    screenshot(page, "sessions-by-date")


def test_player_stats(server: str, page: Page) -> None:
    visit(page, f"{server}/player_stats")
    heading(page, "Player stats")
    expect(page.get_by_test_id("stDataFrame")).to_have_count(1)
    expect(page.get_by_text("Preflop / 3rd street")).to_be_visible()
    screenshot(page, "player_stats")


def test_leaks(server: str, page: Page) -> None:
    visit(page, f"{server}/leaks")
    heading(page, "Leaks")
    expect(page.get_by_text("The hands behind")).to_be_visible()
    expect(page.get_by_test_id("stDataFrame")).to_have_count(3)  # one in "Every stat checked"
    expect(page.get_by_text("Typical hands:")).to_be_visible()
    screenshot(page, "leaks")


def test_replayer_steps_to_the_showdown_and_links_a_code(
    server: str, store: Path, page: Page
) -> None:
    hand_id = hand_id_of(store, BROKEN_HAND)
    visit(page, f"{server}/replayer?hand={hand_id}")
    expect(page.get_by_text(f"pokerstars hand #{BROKEN_HAND}")).to_be_visible()
    expect(page.locator(".sd-seat")).to_have_count(3)
    expect(page.locator(".sd-seat .sd-card.sd-red").first).to_be_visible()
    expect(page.locator(".sd-event.sd-flagged").first).to_contain_text("SIZ014")
    screenshot(page, "replayer")
    page.get_by_role("radio", name="Showdown").click()
    settle(page)
    expect(page.get_by_text("Pots and awards")).to_be_visible()
    expect(page.locator(".sd-seat.sd-winner").first).to_be_visible()
    expect(page.get_by_test_id("stDataFrame")).to_have_count(2)
    screenshot(page, "replayer-showdown")
    page.locator("a.sd-code", has_text="SIZ014").first.click()
    page.wait_for_url("**/violation_codes?code=SIZ014*")
    settle(page)
    heading(page, "SIZ014 — All-in with chips behind")
    expect(page.get_by_text("Why it matters").first).to_be_visible()
    screenshot(page, "violation_codes")


def test_replayer_action_by_action_shows_only_what_happened_and_plays(
    server: str, store: Path, page: Page
) -> None:
    """Action by action, one event shown (an ante): no seat holds a card yet and no seat says
    it raised or called; autoplay then deals and bets by itself, one event at a time."""
    hand_id = hand_id_of(store, BROKEN_HAND)
    visit(page, f"{server}/replayer?hand={hand_id}")
    page.get_by_text("Action by action", exact=True).click()
    settle(page)
    seats = page.locator(".sd-seat")
    events = page.locator(".sd-events").first.locator(".sd-event")  # (then the violations)
    expect(seats).to_have_count(3)
    expect(events).to_have_count(1)
    expect(page.locator(".sd-seat .sd-card")).to_have_count(0)
    expect(page.locator(".sd-table")).not_to_contain_text("raise")
    expect(page.locator(".sd-table")).not_to_contain_text("call")
    screenshot(page, "replayer-first-event")
    page.get_by_text("Autoplay", exact=True).click()
    # The three deals come by themselves (events 4 to 6): cards appear, no click needed.
    expect(page.locator(".sd-seat .sd-card").first).to_be_visible(timeout=60_000)
    expect(events).not_to_have_count(1)
    page.get_by_text("Autoplay", exact=True).click()
    settle(page)
    screenshot(page, "replayer-autoplay")


def test_data_quality(server: str, page: Page) -> None:
    visit(page, f"{server}/data_quality")
    heading(page, "Data quality")
    expect(page.get_by_role("tab", name="Violations (15)")).to_be_visible()
    expect(page.locator(".vega-embed").first).to_be_visible()
    expect(page.get_by_test_id("stDataFrame")).to_have_count(5)  # in all three tabs
    screenshot(page, "data_quality")
    page.get_by_role("tab", name="Rejects (1)").click()
    settle(page)
    expect(page.get_by_text("PokerStars Hand #230000000010").first).to_be_visible()
    screenshot(page, "data_quality-rejects")


PAGES = (
    "overview", "live_table", "sessions", "player_stats", "leaks", "tournaments", "replayer",
    "data_quality", "violation_codes",
)  # fmt: skip


OVERFLOW = """() => {
  const main = document.querySelector('[data-testid=stMain]');
  const limit = main.getBoundingClientRect().right + 1;
  return [...main.querySelectorAll(
      '.vega-embed, [data-testid=stDataFrame], .sd-table, .sd-hud, .sd-hud-seat')]
    .filter(e => e.getBoundingClientRect().right > limit)
    .map(e => e.className || e.dataset.testid);
}"""
"""What runs off the right edge of the page: charts, tables, the replayer's table and the live
table's seats."""
DRAWN = (
    "[data-testid=stDataFrame], .vega-embed, .sd-table, .sd-hud, [data-testid=stMetric], "
    "[data-testid=stAlertContainer]"
)
"""What a page ends with: drawn from the store, or the note that nothing matches."""


@pytest.mark.parametrize("width", [1400, 1024])
def test_every_page_fits_the_window(server: str, browser: Browser, width: int) -> None:
    """Each page at a desktop and a small-laptop width: no chart, table or seat box runs off the
    page (Streamlit scrolls them inside it at most); a screenshot of each page at each width."""
    context = browser.new_context(viewport={"width": width, "height": 1000})
    page = context.new_page()
    try:
        for view in PAGES:
            page.set_viewport_size({"width": width, "height": 1000})
            visit(page, f"{server}/{view}" if view != "overview" else server)
            expect(page.locator(DRAWN).first).to_be_visible()
            settle(page)
            expect(page.get_by_test_id("stException")).to_have_count(0)
            assert page.evaluate(OVERFLOW) == [], (view, width)
            screenshot(page, f"{view}-{width}", width)
    finally:
        context.close()


@pytest.fixture(scope="module")
def beacon() -> Iterator[tuple[str, list[str]]]:
    """A local HTTP server keeping the path of every request it gets (what a page fetches from
    an address a hand file names), and its base URL."""
    asked: list[str] = []

    class Keep(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            asked.append(self.path)
            self.send_response(404)
            self.end_headers()

        def log_message(self, *_args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Keep)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", asked
    server.shutdown()
    server.server_close()


MADE = """([beacon, words]) => [
  ...document.querySelectorAll(`img[src^="${beacon}"], a[href^="${beacon}"]`),
  ...[...document.querySelectorAll('strong, em, del')].filter(e => words.includes(e.textContent)),
].map(e => e.outerHTML)"""
"""What a page made of a payload: an image or link to the beacon, emphasis of a payload word."""


def test_text_from_hand_files_is_shown_as_written(
    beacon: tuple[str, list[str]], tmp_path_factory: pytest.TempPathFactory, page: Page
) -> None:
    """Names, a table name, a stray text, a note, a tag and a person holding Markdown and HTML
    (tests/hostile_text_support.py): every page prints them letter for letter, makes no image,
    link or emphasis of them, and the browser asks their address for nothing."""
    address, asked = beacon
    db, first = build_hostile_store(tmp_path_factory.mktemp("hostile"), address)
    person = f"![person]({address}/person.png)"
    words = ["Hero", *NAME_POOL, "it", "pasted"]
    expected = {  # a page, and texts it prints from the payloads, as written
        "sessions": [f"Sessions of {person}"],
        "live_table": [f"![Bellatrix]({address}/Bellatrix.png) 5"],
        "data_quality": [f"![stray]({address}/stray.png) **pasted**"],
        f"replayer?hand={hand_id_of(db, first)}": [
            f"Hands of {person}, in time order.",
            f"Notes and tags · ![tag]({address}/tag.png)",
        ],
    }
    with serve(db) as url:
        for view in (*PAGES, *expected):
            visit(page, f"{url}/{view}" if view != "overview" else url)
            expect(page.get_by_test_id("stException")).to_have_count(0)
            assert page.evaluate(MADE, [address, words]) == [], view
            text = page.get_by_test_id("stMain").text_content() or ""
            for shown in expected.get(view, []):
                assert shown in text.replace("\u2060", ""), (view, shown)
        page.get_by_text("By tag", exact=True).click()
        settle(page)
        assert page.evaluate(MADE, [address, words]) == []
    assert asked == []


def build_corpus_store(folder: Path) -> Path:
    """The real corpus imported (skipped without it)."""
    corpus_file("cash")
    db = folder / "corpus.duckdb"
    ingest([CORPUS], IngestOptions(db, workers=1))
    return db


@pytest.fixture(scope="module", params=["corpus", "mixed"])
def other_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, str, Path]]:
    """The dashboard on the real corpus, then on the mixed-currency store: (name, URL, store)."""
    folder = tmp_path_factory.mktemp(request.param)
    db = build_corpus_store(folder) if request.param == "corpus" else build_mixed_store(folder)
    with serve(db) as url:
        yield request.param, url, db


def test_every_page_runs_clean(other_server: tuple[str, str, Path], page: Page) -> None:
    name, url, _ = other_server
    for view in PAGES:
        visit(page, f"{url}/{view}" if view != "overview" else url)
        # Every page ends with something drawn from the store: a table, a chart or the hand.
        expect(
            page.locator(
                "[data-testid=stDataFrame], .vega-embed, .sd-table, .sd-hud, [data-testid=stMetric]"
            ).first
        ).to_be_visible(timeout=60_000)
        settle(page)
        expect(page.get_by_test_id("stException")).to_have_count(0)
        screenshot(page, f"{name}-{view}")


def test_money_is_shown_per_currency(other_server: tuple[str, str, Path], page: Page) -> None:
    name, url, _ = other_server
    visit(page, f"{url}/sessions")
    money = page.get_by_role("radiogroup").filter(has_text="tournament chips").first
    expect(money).to_be_visible()
    for label in ("$ (USD)", "€ (EUR)", "play money", "tournament chips"):
        expect(money.get_by_text(label, exact=True)).to_be_visible()
    money.get_by_text("€ (EUR)", exact=True).click()
    settle(page)
    expect(
        page.get_by_test_id("stMetricLabel").filter(has_text="Net won (€ (EUR))")
    ).to_be_visible()
    expect(page.get_by_test_id("stMetricValue").filter(has_text="€").first).to_be_visible()
    screenshot(page, f"{name}-sessions-euros")


def test_replayer_prints_amounts_as_the_room(
    other_server: tuple[str, str, Path], page: Page
) -> None:
    name, url, db = other_server
    if name != "corpus":
        pytest.skip("the printed raise is checked on the real corpus")
    # PokerStars 35874081088: "MasterTrini1: raises $0.04 to $0.08".
    hand_id = hand_id_of(db, "35874081088")
    visit(page, f"{url}/replayer?hand={hand_id}")
    raise_line = page.locator(".sd-event", has_text="raises").filter(has_text="MasterTrini1")
    expect(raise_line).to_contain_text("raises $0.04 to $0.08")
    screenshot(page, f"{name}-replayer-raise")


def _synth(out: Path, hands: int, seed: int, start: str) -> str:
    """`studdraw synth` of stud hands into `out`; the text written."""
    studdraw = Path(sys.executable).with_name("studdraw")
    command = [str(studdraw), "synth", "--game", "stud", "--hands", str(hands)]
    command += ["--seed", str(seed), "--start", start, "--out", str(out)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return out.read_text(encoding="utf-8")


def test_the_open_page_follows_a_watched_import(
    tmp_path_factory: pytest.TempPathFactory, page: Page
) -> None:
    """`studdraw ingest --watch` imports a new file, then hands appended to it; the overview
    open in the browser shows each new count by itself: the page is never reloaded (a flag set
    in the page's window survives)."""
    folder = tmp_path_factory.mktemp("follow")
    studdraw = Path(sys.executable).with_name("studdraw")
    first, incoming = folder / "first", folder / "incoming"
    first.mkdir()
    incoming.mkdir()
    _synth(first / "first.txt", 20, 31, "2026-04-01T18:00")
    db = folder / "store.duckdb"
    subprocess.run(
        [str(studdraw), "ingest", str(first), "--db", str(db), "--workers", "1"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    watch_log = (folder / "watch.log").open("wb")
    with serve(db) as url:
        visit(page, url)
        expect(page.get_by_role("switch", name="Follow new hands")).to_be_checked(timeout=60_000)
        hands = page.get_by_test_id("stMetricValue").first
        expect(hands).to_have_text("20", timeout=120_000)
        page.evaluate("window.sdNotReloaded = true")
        watcher = subprocess.Popen(
            [str(studdraw), "ingest", str(incoming), "--db", str(db), "--watch", "--wait", "120"],
            stdout=watch_log,
            stderr=subprocess.STDOUT,
        )
        try:
            live = incoming / "live.txt"
            live.write_text(_synth(folder / "part1.txt", 30, 32, "2026-04-02T18:00"))
            expect(hands).to_have_text("50", timeout=180_000)
            with live.open("a", encoding="utf-8") as client:  # the client appends a session
                client.write(_synth(folder / "part2.txt", 15, 33, "2026-04-03T18:00"))
            expect(hands).to_have_text("65", timeout=180_000)
            assert page.evaluate("window.sdNotReloaded === true")
            screenshot(page, "overview-followed")
        finally:
            watcher.send_signal(signal.SIGINT)
            try:
                watcher.wait(timeout=60)
            except subprocess.TimeoutExpired:
                watcher.kill()
                watcher.wait()
            watch_log.close()


def _deal(out: Path, game: Game, hands: int, seed: int, start: str) -> tuple[str, str, list[str]]:
    """Synthesised PokerStars hands of `game` written to `out`, as `studdraw synth` writes them:
    the text, the last hand's table and the names seated at it."""
    options = SynthOptions(
        room="pokerstars",
        game=game,
        hands=hands,
        seed=seed,
        start=datetime.fromisoformat(start).replace(tzinfo=UTC),
    )
    records = list(synthesize(options))
    text = "".join(render(record, "pokerstars") + "\n\n\n" for record in records)
    out.write_text(text, encoding="utf-8")
    return text, records[-1].table, [seat.player for seat in records[-1].seats]


def test_the_live_table_follows_a_watched_import(
    tmp_path_factory: pytest.TempPathFactory, page: Page
) -> None:
    """The live table shows the newest hand's table and everyone seated at it; while
    `studdraw ingest --watch` imports hands of another table (another game) appended to a
    watched file, the open page moves to that table and its players by itself, never
    reloaded, with the new game's stats."""
    folder = tmp_path_factory.mktemp("live")
    studdraw = Path(sys.executable).with_name("studdraw")
    first, incoming = folder / "first", folder / "incoming"
    first.mkdir()
    incoming.mkdir()
    _, table, names = _deal(first / "first.txt", Game.STUD, 15, 41, "2026-05-01T18:00")
    db = folder / "store.duckdb"
    subprocess.run(
        [str(studdraw), "ingest", str(first), "--db", str(db), "--workers", "1"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    watch_log = (folder / "watch.log").open("wb")
    seats = page.locator(".sd-hud-seat")
    with serve(db) as url:
        visit(page, f"{url}/live_table")
        heading(page, f"{table} · PokerStars")
        expect(seats).to_have_count(len(names))
        for name in names:
            expect(page.locator(".sd-hud .sd-name", has_text=name).first).to_be_visible()
        expect(page.locator(".sd-hud").first).to_contain_text("3rd-street complete/raise")
        page.evaluate("window.sdNotReloaded = true")
        watcher = subprocess.Popen(
            [str(studdraw), "ingest", str(incoming), "--db", str(db), "--watch", "--wait", "120"],
            stdout=watch_log,
            stderr=subprocess.STDOUT,
        )
        try:
            live = incoming / "live.txt"
            live.write_text(_deal(folder / "part1.txt", Game.STUD, 5, 43, "2026-05-01T18:40")[0])
            text, table, names = _deal(folder / "part2.txt", Game.TD27, 8, 52, "2026-05-01T19:00")
            with live.open("a", encoding="utf-8") as client:  # the room appends new hands
                client.write(text)
            heading_of_new_table = page.get_by_role("heading", name=f"{table} · PokerStars")
            expect(heading_of_new_table.first).to_be_visible(timeout=180_000)
            settle(page)
            expect(seats).to_have_count(len(names))
            for name in names:
                expect(page.locator(".sd-hud .sd-name", has_text=name).first).to_be_visible()
            expect(page.locator(".sd-hud").first).to_contain_text("raise first in")
            assert page.evaluate("window.sdNotReloaded === true")
            screenshot(page, "live_table-followed")
        finally:
            watcher.send_signal(signal.SIGINT)
            try:
                watcher.wait(timeout=60)
            except subprocess.TimeoutExpired:
                watcher.kill()
                watcher.wait()
            watch_log.close()
