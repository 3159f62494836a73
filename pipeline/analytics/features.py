"""The per-hand, per-player facts every statistic is counted from, derived in SQL.

One row per player dealt into a hand (`hand_players.dealt_in`), for the hands whose id lies in
[$lo, $hi]. Each statistic of docs/stats.md is `count_if(action) / count_if(opportunity)` over
these rows, so the expensive part (window functions over `actions`) runs once per hand, when the
rows are built, never per page view. The card-based facts that need the evaluators (breaking a
made hand, snowing, all-in equity) are computed in Python (`cards.py`) and joined in from two
registered frames, `_cards` and `_allin`.

The SQL only ever interpolates names fixed in this module; every value is a bound parameter.
"""

from __future__ import annotations

from typing import Final

from studdraw.parsers.model import Game, GameKind
from studdraw.pipeline.rules.specs import GAME_SPECS, games_where

STUD_GAMES: Final = games_where(lambda spec: spec.kind is GameKind.STUD)
DRAW_GAMES: Final = games_where(lambda spec: spec.kind is GameKind.DRAW)
LOW_DRAW_GAMES: Final = games_where(lambda spec: spec.made is not None)
"""The draw games with a made hand (`GameSpec.made`) to stand pat on, to break or to snow with."""
A5_STUD_GAMES: Final = games_where(
    lambda spec: spec.kind is GameKind.STUD and spec.best == "low_a5"
)
"""The stud games the lowest hand wins, aces low (razz): a low door card is the strong one."""
LOW27_STUD_GAMES: Final = games_where(
    lambda spec: spec.kind is GameKind.STUD and spec.best == "low27"
)
"""The stud games the lowest hand wins, aces high (2-7 razz): the deuce is the strongest door,
the ace the weakest."""
SPLIT_GAMES: Final = games_where(lambda spec: spec.split_low is not None)
"""The games whose pot splits high and low (stud hi/lo): a main pot share is counted."""
LOW8_GAMES: Final = games_where(lambda spec: spec.split_low == "low8")
"""The games with an eight-or-better low half: three low cards start a hand."""


def is_game(games: tuple[str, ...]) -> str:
    """SQL testing a `game` column against `games`: `= 'razz'` for one, `IN (...)` for more."""
    return f"= '{games[0]}'" if len(games) == 1 else f"IN {games}"


STREETS: Final = range(max(len(spec.streets) for spec in GAME_SPECS.values()))
"""Betting rounds by index (seven-card stud's five); each game's spec names them
(`StreetSpec.label`: stud 0 = 3rd street, drawmaha 1 = the flop)."""
STREET_ACTS: Final = ("bet", "raise", "call", "fold")
"""Per-street frequencies: the action kinds looked for on each street (also the column prefixes)."""
DRAW_ROUNDS: Final = range(
    1, 1 + max(sum(street.draw for street in spec.streets) for spec in GAME_SPECS.values())
)
"""The draw rounds a game may have, numbered from 1 (triple draw's three)."""
CAP_AGGRESSIONS: Final = 4
"""A completion (or bet) and three raises: the usual fixed-limit cap; a re-raise opportunity
needs fewer aggressive actions than this before the player's decision."""

TABLE_SIZES: Final = ("heads-up", "short-handed", "full ring")

DRAW_POSITIONS: Final = ("early", "middle", "cutoff", "button", "small blind", "big blind")
"""Draw positions in the order they act before the first draw. With n players dealt in and
`BTN+k` the seat k after the button: the cutoff is the seat before the button (k = n - 1); the
seats between the big blind and the cutoff split in two, the first half (rounded up) early and
the rest middle. Heads-up the button posts the small blind and is `button`; three-handed there
is no cutoff."""
STUD_POSITIONS: Final = ("bring-in", "early", "late")
"""Stud positions on 3rd street, counted from the bring-in (the seat order changes every hand
with the door cards): with n players dealt in, the n - 1 seats acting after the bring-in split
in two, the first half (rounded up) early and the rest late (heads-up: the one seat is
early)."""
POSITIONS: Final = tuple(dict.fromkeys((*DRAW_POSITIONS, *STUD_POSITIONS)))
"""Every `position_group` value; early means among the first to act in both families."""
DOOR_RANKS: Final = tuple("AKQJT98765432")
"""The ranks a stud door card can have (`door[1]`), ten written T as the rooms write it."""
START_GROUPS: Final = (
    "rolled up", "buried pair", "split pair", "three low", "three-flush", "three-straight",
    "other", "paired", *(f"{rank} low" for rank in "A3456789TJQK"),
)  # fmt: skip
"""Every stud starting-hand group (`start_group`), in report order: stud and stud hi/lo by
trips, pairs, three low cards (hi/lo) and draws; razz and 2-7 razz by their highest card
("8 low"), any pair being `paired`."""


def start_groups(game: str) -> tuple[str, ...]:
    """The `START_GROUPS` the hands of `game` fall in, in report order: none outside the stud
    games that deal three cards first (five-card stud deals two)."""
    spec = GAME_SPECS.get(Game(game)) if game in Game.__members__.values() else None
    if spec is None or spec.kind is not GameKind.STUD or spec.hand_size != 7:
        return ()
    if game in A5_STUD_GAMES or game in LOW27_STUD_GAMES:
        lows = "3456789TJQK" if game in A5_STUD_GAMES else "456789TJQKA"
        wanted = {"rolled up", "paired", *(f"{rank} low" for rank in lows)}
    else:
        wanted = {"rolled up", "buried pair", "split pair", "three-flush", "three-straight"}
        wanted |= {"other", *(("three low",) if game in LOW8_GAMES else ())}
    return tuple(group for group in START_GROUPS if group in wanted)


def _short_handed() -> str:
    """SQL: the most seats of a short-handed table for a hand's game (`GameSpec.short_handed`),
    the largest first and the smallest as the default (stud 6, else 4)."""
    sizes = sorted({spec.short_handed for spec in GAME_SPECS.values()}, reverse=True)
    cases = "".join(
        f"WHEN game {is_game(games_where(lambda spec: spec.short_handed == n))} THEN {n} "  # noqa: B023 (called at once)
        for n in sizes[:-1]
    )
    return f"CASE {cases}ELSE {sizes[-1]} END"


_SHORT_HANDED: Final = _short_handed()
"""The most seats of a short-handed table, per game (`GameSpec.short_handed`)."""
TABLE_SIZE_SQL: Final = f"""CASE
    WHEN coalesce(max_seats, players) <= 2 THEN '{TABLE_SIZES[0]}'
    WHEN coalesce(max_seats, players) <= {_SHORT_HANDED}
      THEN '{TABLE_SIZES[1]}'
    ELSE '{TABLE_SIZES[2]}' END"""
"""A hand's table size from the seats the room gives (the players dealt in when it does not):
two seats are heads-up; up to six (stud, eight-handed when full) or four (triple draw, six-handed
when full) short-handed; more a full ring."""


def _position_group() -> str:
    """SQL: the `POSITIONS` group of a row's `position` (`BTN`, `SB`, `BB`, `BTN+k`, `BI`,
    `BI+k`) at a table of `h.players` dealt in, as `DRAW_POSITIONS` and `STUD_POSITIONS` say."""
    k = "TRY_CAST(split_part(hp.position, '+', 2) AS INTEGER)"
    early, middle, cutoff, button, small, big = DRAW_POSITIONS
    bring_in, stud_early, late = STUD_POSITIONS
    return f"""CASE
    WHEN hp.position = 'BI' THEN '{bring_in}'
    WHEN hp.position LIKE 'BI+%' THEN
      CASE WHEN {k} <= h.players // 2 THEN '{stud_early}' ELSE '{late}' END
    WHEN hp.position = 'BTN' THEN '{button}'
    WHEN hp.position = 'SB' THEN '{small}'
    WHEN hp.position = 'BB' THEN '{big}'
    WHEN hp.position LIKE 'BTN+%' THEN
      CASE WHEN {k} = h.players - 1 THEN '{cutoff}'
           WHEN {k} - 2 <= (h.players - 3) // 2 THEN '{early}' ELSE '{middle}' END
  END"""


_BETTING = "'fold', 'check', 'call', 'bet', 'raise', 'complete'"
_VOLUNTARY = "'call', 'bet', 'raise', 'complete'"
_AGGRESSIVE = "'bet', 'raise', 'complete'"


def _street_columns() -> str:
    """Per street: acted (made a betting decision), one flag per action kind, and the counts
    of aggressive actions and calls (for the aggression factor)."""
    parts = []
    for s in STREETS:
        parts.append(f"bool_or(street = {s} AND acted) AS acted_{s}")
        parts.extend(f"bool_or(street = {s} AND did_{kind}) AS {kind}_{s}" for kind in STREET_ACTS)
        parts.append(f"sum(CASE WHEN street = {s} THEN n_agg ELSE 0 END)::INTEGER AS agg_{s}")
        parts.append(f"sum(CASE WHEN street = {s} THEN n_call ELSE 0 END)::INTEGER AS calls_{s}")
    return ",\n    ".join(parts)


def _street_names() -> list[str]:
    return [f"{prefix}_{s}" for s in STREETS for prefix in ("acted", *STREET_ACTS, "agg", "calls")]


def _draw_round_columns() -> str:
    """The cards drawn in each draw round (`drawn_1` ..): the n-th street with a draw, whichever
    street it is (drawmaha's one draw is on the turn, street 2; the other draw games draw on
    streets 1 to 3); only the streets with a draw have a `drawn`."""
    draws = "(list(drawn ORDER BY street) FILTER (WHERE drawn IS NOT NULL))"
    return ",\n      ".join(f"{draws}[{r}] AS drawn_{r}" for r in DRAW_ROUNDS)


FEATURES_SQL: Final = f"""
WITH
h AS (
  SELECT hand_id, room, room_hand_id, game, structure, big_bet, small_bet, ante, bring_in, scale,
         started_at, game IN {STUD_GAMES} AS stud, currency, players,
         tournament_id IS NOT NULL AS tournament, valid, {TABLE_SIZE_SQL} AS table_size
  FROM hands WHERE hand_id BETWEEN $lo AND $hi
),
hp AS (
  SELECT hand_id, name, stack, position, invested, collected, net, won, showed, is_hero
  FROM hand_players WHERE hand_id BETWEEN $lo AND $hi AND dealt_in
),
ps AS (
  SELECT hand_id, name, street, folded, drawn, cards, up, actions,
         CASE WHEN street = 0 THEN list_filter(cards, lambda c, i: up[i])[1] END AS door,
         list_has_any(actions, [{_BETTING}]) AS acted,
         {", ".join(f"list_contains(actions, '{k}') AS did_{k}" for k in STREET_ACTS)},
         len(list_filter(actions, lambda k: k IN ({_AGGRESSIVE}))) AS n_agg,
         len(list_filter(actions, lambda k: k = 'call')) AS n_call
  FROM player_streets WHERE hand_id BETWEEN $lo AND $hi
),
per_street AS (
  SELECT totals.*, first.actions AS actions0, first.cards AS cards0, first.door
  FROM (
    SELECT hand_id, name, max(street) AS last_street, bool_or(folded) AS folded,
      {_draw_round_columns()},
      {_street_columns()}
    FROM ps GROUP BY hand_id, name
  ) totals
  JOIN (SELECT hand_id, name, actions, cards, door FROM ps WHERE street = 0) first
    USING (hand_id, name)
),
left_in AS (
  SELECT hand_id, count(*) FILTER (WHERE NOT folded) AS players_left FROM per_street
  GROUP BY hand_id
),
-- The one rule for a completion (COMPLETION): in stud, the first full bet of 3rd street is a
-- completion however the room prints it (PokerStars writes a bring-in seat's completion as
-- "bets"), as `player_streets.actions` already records it.
-- Betting decisions of the first three rounds, each with what the player faced: voluntary
-- actions (calls, bets, raises, completions), aggressive actions, raises and bets before it
-- on the same street.
completions AS (
  SELECT a.hand_id, a.street, a.seq, a.actor,
    CASE WHEN h.stud AND a.street = 0 AND a.kind = 'bet' THEN 'complete' ELSE a.kind END AS kind
  FROM actions a JOIN h USING (hand_id)
  WHERE a.hand_id BETWEEN $lo AND $hi AND a.street <= 2
    AND a.kind IN ('bring_in', {_BETTING})
),
bets AS (
  SELECT hand_id, street, seq, actor AS name, kind,
    coalesce(sum((kind IN ({_VOLUNTARY}))::INTEGER) OVER prior, 0) AS vol_before,
    coalesce(sum((kind IN ({_AGGRESSIVE}))::INTEGER) OVER prior, 0) AS agg_before,
    coalesce(sum((kind = 'raise')::INTEGER) OVER prior, 0) AS raises_before,
    coalesce(sum((kind = 'bet')::INTEGER) OVER prior, 0) AS bets_before
  FROM completions
  WINDOW prior AS (PARTITION BY hand_id, street ORDER BY seq
                   ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
),
decisions AS (
  SELECT hand_id, name,
    arg_min(kind, seq) FILTER (WHERE street = 0) AS opening_kind,
    arg_min(kind, seq) FILTER (WHERE street = 0 AND kind <> 'bring_in') AS first_kind,
    arg_min(vol_before, seq) FILTER (WHERE street = 0 AND kind <> 'bring_in') AS first_vol_before,
    arg_min(kind, seq) FILTER (WHERE street = 0 AND kind <> 'bring_in' AND vol_before = 1)
      AS kind_vs_first_in,
    arg_min(kind, seq) FILTER (WHERE street = 0 AND kind <> 'bring_in'
                               AND agg_before BETWEEN 1 AND {CAP_AGGRESSIONS - 1})
      AS kind_vs_aggression,
    arg_min(kind, seq) FILTER (WHERE street = 0 AND kind <> 'bring_in' AND raises_before = 1)
      AS kind_vs_raise,
    arg_min(kind, seq) FILTER (WHERE street = 1 AND bets_before = 1 AND raises_before = 0)
      AS kind_vs_bet_1,
    arg_min(kind, seq) FILTER (WHERE street = 2 AND bets_before = 1 AND raises_before = 0)
      AS kind_vs_bet_2
  FROM bets GROUP BY hand_id, name
),
-- Stud: the door card, the seat order from the bring-in (k = 0 for the bring-in), and the
-- door card's strength for stealing (stud, stud8: aces high; razz: the lower the stronger).
doors AS (
  SELECT hand_id, name, door, k,
    CASE WHEN game {is_game(A5_STUD_GAMES)} AND door_rank < 14 THEN 15 - door_rank
         WHEN game {is_game(LOW27_STUD_GAMES)} THEN 15 - door_rank
         ELSE door_rank END AS strength
  FROM (
    SELECT p.hand_id, p.name, p.door, h.game,
      strpos('23456789TJQKA', p.door[1]) + 1 AS door_rank,
      CASE WHEN hp.position = 'BI' THEN 0
           ELSE TRY_CAST(substr(hp.position, 4) AS INTEGER) END AS k
    FROM per_street p JOIN h USING (hand_id) JOIN hp USING (hand_id, name)
    WHERE h.stud
  )
),
steal_spots AS (
  SELECT d.hand_id, d.name, d.door, d.k,
    d.k > 0 AND c.first_vol_before = 0
      AND coalesce(max(d.strength) OVER later, 0) < d.strength AS steal_opp,
    c.first_kind IN ({_AGGRESSIVE}) AS first_in_aggressive
  FROM doors d LEFT JOIN decisions c USING (hand_id, name)
  WINDOW later AS (PARTITION BY d.hand_id ORDER BY d.k DESC
                   ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
),
steals AS (
  SELECT hand_id, bool_or(steal_opp AND first_in_aggressive) AS stolen
  FROM steal_spots GROUP BY hand_id
),
-- Stud hi/lo: the player's share of the main pot at showdown (1 scoop, 3/4, 1/2, 1/4).
main_pot AS (
  SELECT pt.hand_id, unnest(pt.eligible) AS name, pt.half, pt.winners
  FROM pots pt JOIN h USING (hand_id)
  WHERE pt.hand_id BETWEEN $lo AND $hi AND pt.name = 'main' AND h.game {is_game(SPLIT_GAMES)}
),
shares AS (
  SELECT hand_id, name,
    CASE WHEN bool_or(half IS NULL) THEN NULL
         WHEN bool_or(half = 'lo') THEN (hi + lo) / 2 ELSE hi END AS main_share
  FROM (
    SELECT hand_id, name, half,
      sum(CASE WHEN half = 'hi' AND list_contains(winners, name) THEN 1 / len(winners) ELSE 0
          END) OVER whole AS hi,
      sum(CASE WHEN half = 'lo' AND list_contains(winners, name) THEN 1 / len(winners) ELSE 0
          END) OVER whole AS lo
    FROM main_pot WINDOW whole AS (PARTITION BY hand_id, name)
  ) GROUP BY hand_id, name, hi, lo
),
-- Stud: the three 3rd-street cards as ranks (aces high), suits and the door card's rank.
starts AS (
  SELECT p.hand_id, p.name, h.game,
    list_transform(p.cards0, lambda c: strpos('23456789TJQKA', c[1]) + 1) AS r,
    list_transform(p.cards0, lambda c: strpos('A23456789TJQK', c[1])) AS low,
    len(list_distinct(list_transform(p.cards0, lambda c: c[2]))) AS suits,
    strpos('23456789TJQKA', p.door[1]) + 1 AS door_rank
  FROM per_street p JOIN h USING (hand_id)
  WHERE h.stud AND len(p.cards0) = 3 AND list_count(p.cards0) = 3
),
groups AS (
  SELECT hand_id, name,
    CASE
      WHEN len(list_distinct(r)) = 1 THEN 'rolled up'
      WHEN game {is_game(A5_STUD_GAMES)} AND len(list_distinct(r)) = 2 THEN 'paired'
      WHEN game {is_game(A5_STUD_GAMES)} THEN
        substr('A23456789TJQK', list_max(low), 1) || ' low'
      WHEN game {is_game(LOW27_STUD_GAMES)} AND len(list_distinct(r)) = 2 THEN 'paired'
      WHEN game {is_game(LOW27_STUD_GAMES)} THEN
        substr('23456789TJQKA', list_max(r) - 1, 1) || ' low'
      WHEN len(list_distinct(r)) = 2
        AND len(list_filter(r, lambda x: x = door_rank)) = 2 THEN 'split pair'
      WHEN len(list_distinct(r)) = 2 THEN 'buried pair'
      WHEN game {is_game(LOW8_GAMES)} AND list_max(low) <= 8 THEN 'three low'
      WHEN suits = 1 THEN 'three-flush'
      WHEN list_max(r) - list_min(r) <= 4 THEN 'three-straight'
      WHEN list_max(low) - list_min(low) <= 4 THEN 'three-straight'
      ELSE 'other'
    END AS start_group
  FROM starts
)
SELECT
  hp.hand_id, hp.name, h.room, h.room_hand_id, h.game, h.structure, h.small_bet, h.big_bet,
  h.scale, h.started_at, h.stud, h.currency, h.tournament, h.valid, h.table_size, hp.is_hero,
  hp.position,
  {_position_group()} AS position_group,
  hp.invested, hp.collected, hp.net,
  hp.net / nullif(h.big_bet, 0) AS net_bb,
  coalesce(a.allin_net, hp.net) AS allin_net,
  a.allin_net IS NOT NULL AS allin_adjusted,
  -- every game
  list_has_any(p.actions0, [{_VOLUNTARY}]) AS vpip,
  p.last_street >= 1 AS saw_second,
  NOT p.folded AND l.players_left >= 2 AS showdown,
  NOT p.folded AND l.players_left >= 2 AND hp.won AS showdown_won,
  hp.won AND NOT (NOT p.folded AND l.players_left >= 2) AS won_without_showdown,
  {", ".join(f"p.{name}" for name in _street_names())},
  -- stud games
  h.stud AND list_has_any(p.actions0, ['complete', 'raise']) AS complete_3rd,
  coalesce(h.stud AND hp.position = 'BI' AND hp.stack - h.ante > h.bring_in, false)
    AS bring_in_opp,
  coalesce(h.stud AND hp.position = 'BI' AND hp.stack - h.ante > h.bring_in
           AND c.opening_kind = 'complete', false) AS bring_in_complete,
  coalesce(s.steal_opp, false) AS steal_opp,
  coalesce(s.steal_opp AND s.first_in_aggressive, false) AS steal,
  coalesce(st.stolen AND c.kind_vs_first_in IS NOT NULL, false) AS fold_to_steal_opp,
  coalesce(st.stolen AND c.kind_vs_first_in = 'fold', false) AS fold_to_steal,
  h.stud AND c.kind_vs_aggression IS NOT NULL AS reraise_3rd_opp,
  h.stud AND coalesce(c.kind_vs_aggression = 'raise', false) AS reraise_3rd,
  h.stud AND c.kind_vs_bet_1 IS NOT NULL AS fold_to_bet_4th_opp,
  h.stud AND coalesce(c.kind_vs_bet_1 = 'fold', false) AS fold_to_bet_4th,
  h.stud AND c.kind_vs_bet_2 IS NOT NULL AS fold_to_bet_5th_opp,
  h.stud AND coalesce(c.kind_vs_bet_2 = 'fold', false) AS fold_to_bet_5th,
  p.door,
  g.start_group,
  sh.main_share,
  -- draw games
  NOT h.stud AND coalesce(c.first_vol_before = 0, false) AS rfi_opp,
  NOT h.stud AND coalesce(c.first_vol_before = 0 AND c.first_kind IN ('raise', 'bet'), false)
    AS rfi,
  NOT h.stud AND c.kind_vs_raise IS NOT NULL AS three_bet_opp,
  NOT h.stud AND coalesce(c.kind_vs_raise = 'raise', false) AS three_bet,
  p.drawn_1, p.drawn_2, p.drawn_3,
  coalesce((p.drawn_1 = 0 AND (p.drawn_2 IS NOT NULL OR p.drawn_3 IS NOT NULL))
           OR (p.drawn_2 = 0 AND p.drawn_3 IS NOT NULL), false)
    OR coalesce(x.made_opp, false) AS break_opp,
  coalesce((p.drawn_1 = 0 AND (p.drawn_2 > 0 OR p.drawn_3 > 0))
           OR (p.drawn_2 = 0 AND p.drawn_3 > 0), false)
    OR coalesce(x.made_broke, false) AS broke,
  coalesce(x.snow_opp, false) AS snow_opp,
  coalesce(x.snow, false) AS snow
FROM hp
JOIN h USING (hand_id)
JOIN per_street p USING (hand_id, name)
JOIN left_in l USING (hand_id)
LEFT JOIN decisions c USING (hand_id, name)
LEFT JOIN steal_spots s USING (hand_id, name)
LEFT JOIN steals st USING (hand_id)
LEFT JOIN shares sh USING (hand_id, name)
LEFT JOIN groups g USING (hand_id, name)
LEFT JOIN _cards x USING (hand_id, name)
LEFT JOIN _allin a USING (hand_id, name)
"""
