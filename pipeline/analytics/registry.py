"""The definitions every count is made of: the registry of stats (each an opportunity and an
action, SQL conditions over the per-hand rows of `player_hands`), money in currency units, and
the rollup that sums the rows per player, game, structure, room, stakes and UTC day.

Every per-player query sums rollup rows, read from the store when `prepare` has kept them there
(a few thousand rows instead of millions) or made on the fly from filtered per-hand rows (a
session filter needs those). docs/stats.md defines each stat.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from studdraw.parsers.model import GameKind
from studdraw.pipeline.rules.specs import GAME_SPECS, street_label

from .features import DRAW_ROUNDS, STREET_ACTS, STREETS

MONEY: Final = (
    "CAST(CAST(net AS DECIMAL(18, 4)) * CAST(1.0 / scale AS DECIMAL(18, 4)) AS DECIMAL(18, 4))"
)
"""A hand's net in currency units, exact (scales are powers of ten up to 10^4)."""
NET: Final = f"CAST(sum({MONEY}) AS DECIMAL(18, 4))"
"""Net won over a group of hands in currency units: every query that uses it groups by
`currency` (tournament chips and play money are currencies of their own), so no sum crosses
currencies or mixes cash with tournaments."""


@dataclass(frozen=True, slots=True)
class Stat:
    """A frequency: hands (or streets) where `action` happened / those where `opportunity`
    arose, both SQL conditions over `player_hands`. `group`: the games it applies to, by the
    stat groups each game counts in (`GameSpec.stat_groups`)."""

    name: str
    label: str
    group: str
    opportunity: str
    action: str
    street: int | None = None

    def title(self, games: Iterable[str]) -> str:
        """The label, naming the street as `games` (`Game` values) do (`street_title`)."""
        if self.street is None:
            return self.label
        return self.label.format(street=street_title(self.street, games))


def street_title(street: int, games: Iterable[str]) -> str:
    """Round `street` as the specs of `games` (`Game` values) label it: one label when
    they agree (every triple draw game's "after draw 1"), else each distinct label in the
    games' order ("after draw 1 / after the draw / flop"), so that a row over several games never
    names a round wrongly for one of them."""
    labels = (street_label(game, street) for game in games)
    return " / ".join(dict.fromkeys(label for label in labels if label is not None))


_DRAW_ROUNDS: Final = max(
    len(spec.streets) for spec in GAME_SPECS.values() if spec.kind is GameKind.DRAW
)
"""The most betting rounds of a draw game: later rounds are stud's only."""


def _street_stats() -> tuple[Stat, ...]:
    return tuple(
        Stat(
            f"{prefix}_{s}",
            f"{prefix} on {{street}}",
            "all" if s < _DRAW_ROUNDS else "stud",
            f"acted_{s}",
            f"{prefix}_{s}",
            s,
        )
        for s in STREETS
        for prefix in STREET_ACTS
    )


def _draw_count_stats() -> tuple[Stat, ...]:
    counts = {
        "pat": ("= 0", "stand pat"),
        "draw1": ("= 1", "draw one"),
        "draw2": ("= 2", "draw two"),
        "draw3": (">= 3", "draw three or more"),
    }
    return tuple(
        Stat(
            f"{kind}_{r}",
            f"{label} on draw {r}",
            "draw",
            f"drawn_{r} IS NOT NULL",
            f"drawn_{r} {test}",
        )
        for r in DRAW_ROUNDS
        for kind, (test, label) in counts.items()
    )


STREET_STATS: Final = _street_stats()
"""The per-street frequencies, street by street (bet, raise, call, fold on each)."""
DRAW_COUNT_STATS: Final = _draw_count_stats()
"""How many cards a player drew, draw round by draw round."""


STATS: Final[tuple[Stat, ...]] = (
    Stat("vpip", "VPIP", "all", "true", "vpip"),
    Stat("complete_3rd", "3rd-street complete/raise", "stud", "stud", "complete_3rd"),
    Stat("bring_in_complete", "bring-in completes", "stud", "bring_in_opp", "bring_in_complete"),
    Stat("steal", "steal attempt", "stud", "steal_opp", "steal"),
    Stat("fold_to_steal", "fold to steal", "stud", "fold_to_steal_opp", "fold_to_steal"),
    Stat("reraise_3rd", "3rd-street re-raise", "stud", "reraise_3rd_opp", "reraise_3rd"),
    Stat("fold_to_bet_4th", "fold to 4th-street bet", "stud", "fold_to_bet_4th_opp",
         "fold_to_bet_4th"),
    Stat("fold_to_bet_5th", "fold to 5th-street bet", "stud", "fold_to_bet_5th_opp",
         "fold_to_bet_5th"),
    *STREET_STATS,
    Stat("went_to_showdown", "went to showdown", "all", "saw_second", "showdown"),
    Stat("won_at_showdown", "won at showdown", "all", "showdown", "showdown_won"),
    Stat("won_without_showdown", "won without showdown", "all", "saw_second",
         "won_without_showdown"),
    Stat("scoop", "scoop (stud hi/lo)", "stud8", "main_share IS NOT NULL", "main_share = 1"),
    Stat("three_quarters", "three quarters (stud hi/lo)", "stud8", "main_share IS NOT NULL",
         "main_share = 0.75"),
    Stat("half", "half (stud hi/lo)", "stud8", "main_share IS NOT NULL", "main_share = 0.5"),
    Stat("quarter", "quarter (stud hi/lo)", "stud8", "main_share IS NOT NULL",
         "main_share = 0.25"),
    Stat("rfi", "raise first in", "draw", "rfi_opp", "rfi"),
    Stat("three_bet", "3-bet", "draw", "three_bet_opp", "three_bet"),
    *DRAW_COUNT_STATS,
    Stat("breaking", "breaking a made hand", "draw", "break_opp", "broke"),
    Stat("snowing", "snowing", "draw", "snow_opp", "snow"),
)  # fmt: skip
"""Every frequency, in report order."""
BY_NAME: Final = {stat.name: stat for stat in STATS}
STAT_GROUPS: Final = {game.value: spec.stat_groups for game, spec in GAME_SPECS.items()}
"""The stat groups that apply to each game (`Stat.group`), from its GameSpec."""
HUD: Final = (
    "vpip", "complete_3rd", "steal", "fold_to_steal", "reraise_3rd", "fold_to_bet_4th", "rfi",
    "three_bet", "pat_1", "breaking", "snowing", "went_to_showdown", "won_at_showdown", "scoop",
)  # fmt: skip
"""The stats a HUD shows beside a seat, in its order; each game shows those of its groups."""


def hud_stats(game: str) -> tuple[Stat, ...]:
    """The HUD's stats that apply to `game` (a `Game` value), by the game's stat groups."""
    groups = STAT_GROUPS.get(game, ("all",))
    return tuple(BY_NAME[name] for name in HUD if BY_NAME[name].group in groups)


AGGRESSION: Final = tuple(f"af_{s}" for s in STREETS)
"""Aggression factor per street: (bets + raises + completions) / calls."""


KEY: Final = (
    "name", "game", "structure", "room", "big_bet", "currency", "tournament", "table_size",
    "valid", "day",
)  # fmt: skip
"""What a rollup row sums over: every `Filters` field but the session maps onto it."""
KIND: Final = "CASE WHEN tournament THEN 'tournament' ELSE 'cash' END"
"""Cash or tournament, from a rollup or per-hand row's `tournament` flag."""
DAY: Final = "CAST(timezone('UTC', started_at) AS DATE)"
"""A hand's UTC day (a plain cast would use the connection's time zone)."""


def rollup_columns() -> str:
    """SQL select list summing `player_hands` rows per KEY: volume, money, and per stat the
    opportunities (`__n`), actions (`__k`) and the big bets won in each (`__n_bb`, `__k_bb`, for
    the leak report's result differences); per street the aggressive actions and calls."""
    parts = [
        *KEY[:-1], f"{DAY} AS day",
        "count(*) AS hands", "bool_or(is_hero) AS hero",
        "min(started_at) AS first_seen", "max(started_at) AS last_seen",
        f"sum({MONEY}) AS net", "sum(net_bb) AS big_bets",
        "sum(allin_net / scale) AS allin_net",
        "sum(allin_net / nullif(big_bet, 0)) AS allin_big_bets",
    ]  # fmt: skip
    for stat in STATS:
        opportunity = f"({stat.opportunity})"
        action = f"{opportunity} AND coalesce({stat.action}, false)"
        parts += [
            f"count_if({opportunity})::BIGINT AS {stat.name}__n",
            f"count_if({action})::BIGINT AS {stat.name}__k",
            f"coalesce(sum(net_bb) FILTER (WHERE {opportunity}), 0) AS {stat.name}__n_bb",
            f"coalesce(sum(net_bb) FILTER (WHERE {action}), 0) AS {stat.name}__k_bb",
        ]
    for s in STREETS:
        parts += [f"sum(agg_{s})::BIGINT AS agg_{s}", f"sum(calls_{s})::BIGINT AS calls_{s}"]
    return ",\n  ".join(parts)


ROLLUP_COMBINE: Final = {"hero": "bool_or", "first_seen": "min", "last_seen": "max"}
"""How rollup rows of the same key add up (every other column not in KEY: `sum`): what sums the
rows an import adds batch by batch (`source.Upkeep`) into one per key."""


def stat_totals() -> str:
    """SQL select list over rollup rows (grouped by player and game): the columns of
    `player_stats`."""
    parts = [
        "sum(hands)::BIGINT AS hands",
        "CAST(sum(net) AS DECIMAL(18, 4)) AS net",
        "sum(big_bets) AS big_bets",
        "100 * sum(big_bets) / sum(hands) AS bb_per_100",
        "sum(allin_net) AS allin_net",
        "100 * sum(allin_big_bets) / sum(hands) AS allin_bb_per_100",
    ]
    for stat in STATS:
        parts.append(f"sum({stat.name}__n)::BIGINT AS {stat.name}_n")
        parts.append(f"sum({stat.name}__k) / nullif(sum({stat.name}__n), 0) AS {stat.name}")
    for s in STREETS:
        parts.append(f"sum(agg_{s}) / nullif(sum(calls_{s}), 0) AS af_{s}")
    return ",\n  ".join(parts)
