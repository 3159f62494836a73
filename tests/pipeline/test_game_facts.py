"""A game's facts come from its `GameSpec` alone: the analytics, the PHH exporter and the
dashboard derive their game lists from the spec table, so a new game costs a spec entry (and
its `Game` member with its kind), never an edit of their code."""

from __future__ import annotations

import pytest

from studdraw.dashboard.render import GAME_NAMES
from studdraw.parsers.model import Game, GameKind
from studdraw.parsers.phh.vocabulary import SPEC_VARIANTS
from studdraw.pipeline.analytics import cards, features
from studdraw.pipeline.analytics.registry import STAT_GROUPS, STATS
from studdraw.pipeline.phh import HAND_SIZE, variant_code
from studdraw.pipeline.rules.showdown import EVALUATORS
from studdraw.pipeline.rules.specs import GAME_SPECS, GameSpec, games_where


@pytest.mark.parametrize(("code", "variant"), sorted(SPEC_VARIANTS.items()))
def test_the_phh_spec_codes_are_the_ones_built_from_the_game_specs(
    code: str, variant: tuple[Game, object]
) -> None:
    game, structure = variant
    assert variant_code(game, structure) == code  # type: ignore[arg-type]


def test_phh_codes_name_one_game_each() -> None:
    assert len({spec.phh for spec in GAME_SPECS.values()}) == len(GAME_SPECS)


@pytest.mark.parametrize("game", list(Game))
def test_a_spec_is_consistent_with_its_game(game: Game) -> None:
    spec = GAME_SPECS[game]
    assert spec.game is game and spec.kind is game.kind
    assert (spec.kind is GameKind.STUD) == game.is_stud == (spec.bring_in is not None)
    assert "all" in spec.stat_groups and spec.kind.value in spec.stat_groups
    assert 2 < spec.short_handed < spec.max_players
    assert (spec.made is None) == (spec.bad is None)
    if spec.made is not None and spec.bad is not None:
        assert spec.kind is GameKind.DRAW
        assert len(spec.made) == len(spec.bad) == spec.hand_size
        evaluate = EVALUATORS[spec.best]
        assert (evaluate(spec.made) or 0) >= (evaluate(spec.bad) or 0)


def test_the_lists_the_analytics_read_are_the_specs() -> None:
    def of(test: object) -> set[str]:
        return {g.value for g, spec in GAME_SPECS.items() if test(spec)}  # type: ignore[operator]

    assert set(features.STUD_GAMES) == of(lambda s: s.kind is GameKind.STUD)
    assert set(features.DRAW_GAMES) == of(lambda s: s.kind is GameKind.DRAW)
    assert set(features.STUD_GAMES) | set(features.DRAW_GAMES) == {g.value for g in Game}
    assert set(features.LOW_DRAW_GAMES) == set(cards.MADE) == set(cards.BAD)
    assert set(features.LOW_DRAW_GAMES) < set(features.DRAW_GAMES)
    assert set(features.SPLIT_GAMES) == of(lambda s: s.split_low is not None)
    assert set(HAND_SIZE) == {Game(g) for g in features.DRAW_GAMES}
    assert set(STAT_GROUPS) == {g.value for g in Game}


def test_every_stat_group_is_a_group_some_game_counts_in() -> None:
    groups = {group for spec in GAME_SPECS.values() for group in spec.stat_groups}
    assert {stat.group for stat in STATS} == groups


def test_the_dashboard_names_each_game_from_its_spec() -> None:
    assert {g.value: spec.title for g, spec in GAME_SPECS.items()} == GAME_NAMES
    assert len(set(GAME_NAMES.values())) == len(GAME_NAMES)


@pytest.mark.parametrize(
    ("games", "sql"),
    [(("razz",), "= 'razz'"), (("stud", "razz"), "IN ('stud', 'razz')")],
)
def test_is_game_is_valid_sql_for_one_game_and_for_more(games: tuple[str, ...], sql: str) -> None:
    assert features.is_game(games) == sql


def test_games_where_keeps_the_table_order() -> None:
    def every(spec: GameSpec) -> bool:
        return spec is not None

    assert games_where(every) == tuple(g.value for g in GAME_SPECS)


def test_the_rows_fingerprint_covers_the_game_facts_they_are_derived_from() -> None:
    """A spec's change that changes the derived rows changes `source.VERSION`'s inputs: the
    per-game SQL (table sizes, razz's and hi/lo's conditions, hand sizes) and the made and bad
    hands, so kept rows of other definitions are rebuilt."""
    assert features.TABLE_SIZE_SQL in features.FEATURES_SQL
    assert f"game {features.is_game(features.A5_STUD_GAMES)}" in features.FEATURES_SQL
    assert f"game {features.is_game(features.SPLIT_GAMES)}" in features.FEATURES_SQL
    assert all(cards.HAND_SIZE_SQL in sql for sql in cards.CARDS_SQL[:2])
