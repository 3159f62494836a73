"""The evaluator-based facts (made and bad draw hands, all-in equity), the reference ranges, the
stats documentation, and `studdraw stats / leaks / prepare`."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from studdraw.cli.commands import app
from studdraw.pipeline.analytics import STATS, equities, reference_ranges
from studdraw.pipeline.analytics.cards import BAD, MADE
from studdraw.pipeline.analytics.equities import AllIn, expected_net, expected_nets
from studdraw.pipeline.evaluators import badugi, low27, low_a5
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from tests.pipeline.store_support import forget_analytics

HANDS = Path(__file__).parent / "analytics_hands"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "stats.md"
runner = CliRunner()


@pytest.mark.parametrize(
    ("game", "cards", "made", "bad"),
    [
        ("td27", "Ts 9c 8d 7s 5h", True, False),  # the worst ten-low
        ("td27", "Js 4c 3d 7s 2h", False, False),  # a jack-low is not made, not bad
        ("td27", "Ks Qc Jd Ts 8h", False, False),  # the worst king-low is not a snow
        ("td27", "As 4c 3d 7s 2h", False, True),  # aces are high in 2-7
        ("td27", "6s 5c 4d 3s 2h", False, True),  # a straight
        ("td27", "8s 5s 4s 3s 2s", False, True),  # a flush
        ("td27", "Ks Kc 5d 3s 2h", False, True),  # a pair
        ("tda5", "Ts 9c 8d 7s 6h", True, False),  # straights do not count in A-5
        ("tda5", "5s 4c 3d 2s Ah", True, False),
        ("tda5", "Ks Qc Jd Ts 9h", False, False),
        ("tda5", "2s 2c 5d 3s Ah", False, True),
        ("badugi", "Kc Qd Jh Ts", True, False),  # any four-card badugi is made
        ("badugi", "Ac 2c 3h 4s", False, True),  # a three-card hand is a snow
    ],
)
def test_made_and_bad_hands(game: str, cards: str, made: bool, bad: bool) -> None:
    value = {"td27": low27, "tda5": low_a5, "badugi": badugi}[game]
    hand = cards.split()
    assert (value(hand) >= value(MADE[game])) is made
    assert (value(hand) < value(BAD[game])) is bad


def spot(street: int, hands: dict[str, str], pots: list[tuple[int, str]], game: str) -> AllIn:
    return AllIn(
        hand_id=1,
        game=game,
        street=street,
        hands={name: tuple(cards.split()) for name, cards in hands.items()},
        invested=dict.fromkeys(hands, 10),
        dead=frozenset(),
        pots=tuple((amount, tuple(names.split())) for amount, names in pots),
        seed=-12345,
    )


def test_equity_of_a_locked_hand() -> None:
    # stud, 6th street: quad aces against a pair; nothing the deck holds changes the winner
    locked = spot(3, {"a": "As Ac Ad Ah 2c 3d", "b": "Ks Kc 7d 8h 9c 4d"}, [(20, "a b")], "stud")
    assert expected_net(locked) == {"a": 10.0, "b": -10.0}


def test_exact_and_sampled_equity_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    # stud hi/lo, 6th street, three ways: a made low, a big pair, a flush draw
    three = spot(
        3,
        {"a": "Ac 2d 3h 5s 8c Kd", "b": "Ks Kh Qd Qc 9s 9h", "c": "Js Ts 7s 6s 2s 4h"},
        [(30, "a b c")],
        "stud8",
    )
    exact = expected_net(three)
    assert sum(exact.values()) == pytest.approx(0.0)  # 30 in, 30 out
    monkeypatch.setattr(equities, "EXACT_RUNOUTS", 0)
    sampled = expected_net(three)
    assert sampled == expected_net(three)  # seeded by the spot's seed
    for player, value in exact.items():
        assert sampled[player] == pytest.approx(value, abs=30 * 0.1)


def test_side_pots_only_go_to_their_players() -> None:
    # razz, 6th street: `short` (all-in) can only win the main pot
    side = spot(
        3,
        {"short": "As 2c 3d 4h 5c Kd", "b": "Ks Qc Jd Th 9c 9d", "c": "Qs Jc Td 8h 8c 7d"},
        [(30, "short b c"), (40, "b c")],
        "razz",
    )
    nets = expected_net(side)
    assert nets["short"] == pytest.approx(30 - 10)  # the wheel is the nuts
    assert nets["b"] + nets["c"] == pytest.approx(40 - 20)


def test_spots_computed_together_as_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # the result of a spot depends on its cards and seed only: not on its hand id, nor on the
    # spots beside it (an import's workers and `prepare` compute different groups of spots)
    monkeypatch.setattr(equities, "ROWS_PER_PASS", 700)  # several passes over the pots
    spots = [
        spot(3, {"a": "As Ac Ad Ah 2c 3d", "b": "Ks Kc 7d 8h 9c 4d"}, [(20, "a b")], "stud"),
        spot(1, {"a": "Ac 2d 3h 5s", "b": "Ks Kh Qd Qc"}, [(20, "a b")], "stud8"),
        spot(
            3,
            {"short": "As 2c 3d 4h 5c Kd", "b": "Ks Qc Jd Th 9c 9d", "c": "Qs Jc Td 8h 8c 7d"},
            [(30, "short b c"), (40, "b c")],
            "razz",
        ),
        spot(0, {"a": "2c 2d 9h", "b": "Ks Kh 3d", "c": "7s 8s 9s"}, [(30, "a b c")], "stud"),
    ]
    alone = [expected_net(one) for one in spots]
    assert expected_nets(spots) == alone
    assert expected_nets(spots[::-1]) == alone[::-1]
    renumbered = [dataclasses.replace(one, hand_id=one.hand_id + 99) for one in spots]
    assert expected_nets(renumbered) == alone
    reseeded = expected_nets([dataclasses.replace(one, seed=7) for one in spots])
    assert reseeded[3] != alone[3]  # 3rd street, three ways: sampled, by the seed


def test_reference_ranges_are_sound() -> None:
    ranges = reference_ranges()
    assert {game for game, _ in ranges} == {"stud", "stud8", "razz", "td27", "tda5", "badugi"}
    for reference in ranges.values():
        assert 0 <= reference.low <= reference.high <= 1, reference
        assert reference.source and len(reference.reasoning) > 40, reference


def test_every_stat_is_documented() -> None:
    text = DOCS.read_text(encoding="utf-8")
    headings = re.findall(r"^#### (.*)$", text, flags=re.MULTILINE)
    documented = {name for line in headings for name in re.findall(r"`([a-z0-9_<>]+)`", line)}
    families = {re.sub(r"_\d$", "_<n>", stat.name) for stat in STATS}
    assert families | {"af_<n>"} <= documented


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("cli") / "cli.duckdb"
    ingest([HANDS], IngestOptions(db, workers=1))
    return db


def test_stats_command(store: Path) -> None:
    table = runner.invoke(app, ["stats", "--db", str(store)])
    assert table.exit_code == 0, table.output
    assert "Ann" in table.stdout and "VPIP" in table.stdout
    one = runner.invoke(app, ["stats", "--db", str(store), "--player", "Ann", "--game", "td27"])
    assert one.exit_code == 0, one.output
    assert "raise first in" in one.stdout and "steal" not in one.stdout
    records = json.loads(
        runner.invoke(app, ["stats", "--db", str(store), "--player", "Ben", "--json"]).stdout
    )
    assert {row["game"] for row in records} == {"stud", "razz", "stud8", "td27"}
    stud = next(row for row in records if row["game"] == "stud")
    assert (stud["bring_in_complete"], stud["bring_in_complete_n"]) == (0.5, 2)
    assert stud["net"] == "-0.1200"  # exact decimal text


def test_leaks_command(store: Path) -> None:
    result = runner.invoke(app, ["leaks", "--db", str(store), "--player", "Ann", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == []  # seven hands: no stat has 20 opportunities
    missing = runner.invoke(app, ["leaks", "--db", str(store) + ".nope", "--player", "Ann"])
    assert missing.exit_code == 2


def test_prepare_command(store: Path, tmp_path: Path) -> None:
    db = tmp_path / "copy.duckdb"
    db.write_bytes(store.read_bytes())
    kept = runner.invoke(app, ["prepare", "--db", str(db)])
    assert kept.exit_code == 0 and "derived 0 hands" in kept.stdout  # the import kept them
    forget_analytics(db)  # as an earlier studdraw's import left it
    first = runner.invoke(app, ["prepare", "--db", str(db)])
    assert first.exit_code == 0 and "derived 7 hands" in first.stdout
    again = runner.invoke(app, ["prepare", "--db", str(db)])
    assert "derived 0 hands" in again.stdout
