"""Tournaments: what each player paid, where they finished and what they won, and the totals a
player judges tournament play by (tournaments played, ROI, in-the-money share).

What a tournament cost comes from its hands' headers (`hands.tournament_buy_in`, `_fee`,
`_currency`: the buy-in currency's cents). Where a player finished and the prize come from the
room's lines in the hands ("Hero finished the tournament in 3rd place and received $1.60.",
"Hero wins the tournament and receives $2.80 - congratulations!"), kept as `note` events, and
from the room's tournament summary files where imported (`tournament_results` table), which
win when both say. A finish nobody printed stays unknown (None), never a guess; ROI and ITM
count only tournaments whose result is known. Money is per buy-in currency, as everywhere.
"""

from __future__ import annotations

from typing import Final

import duckdb
import polars as pl

from studdraw.pipeline.identities import IDENTITIES, player_condition

from .filters import Filters, sessions_sql, where
from .source import ensure_features, run

FINISH_PATTERN: Final = (
    r"^(.+) (?:finished the tournament in (\d+)(?:st|nd|rd|th) place"
    r"|(wins) the tournament)(?:.* receive[sd]? \D*([\d,]+(?:\.\d+)?))?"
)
"""A room's finishing line: the player, the place (or "wins": first), the prize if any."""
EXACT: Final = pl.Decimal(18, 2)


def _finishes_sql() -> str:
    """Per (room, tournament, player): the place and prize (cents) the hands' notes print."""
    return """finish_notes AS (
  SELECT h.room, h.tournament_id,
    regexp_extract(a.text, $pattern, 1) AS name,
    coalesce(TRY_CAST(nullif(regexp_extract(a.text, $pattern, 2), '') AS INTEGER),
             CASE WHEN regexp_extract(a.text, $pattern, 3) = 'wins' THEN 1 END) AS place,
    CAST(round(TRY_CAST(replace(nullif(regexp_extract(a.text, $pattern, 4), ''), ',', '')
                        AS DECIMAL(18, 2)) * 100) AS BIGINT) AS prize
  FROM actions a JOIN hands h USING (hand_id)
  WHERE a.kind = 'note' AND a.text LIKE '%the tournament%' AND h.tournament_id IS NOT NULL
    AND regexp_matches(a.text, $pattern)
),
finishes AS (
  SELECT room, tournament_id, name, min(place) AS place, max(prize) AS prize
  FROM finish_notes GROUP BY ALL
)"""


def tournament_results(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """One row per player and tournament whose hands pass the filters (any currency filter
    applies to the chips: use `kind="tournament"`): room, tournament id, buy-in, fee and
    currency, the first and last hand, hands played, chips won over those hands, the finishing
    place and prize (None when not known), bounties (None: no export in the corpus prints
    them), and the net result in the buy-in currency (prize + bounties - buy-in - fee, when
    the finish is known)."""
    ensure_features(con)
    condition, params = where(filters)
    sessions = sessions_sql() + ",\n" if filters.session is not None else ""
    results = _has_table(con, "tournament_results")
    summary_join = (
        """LEFT JOIN tournament_results r
      ON r.room = t.room AND r.tournament_id = t.tournament_id AND r.name = t.name"""
        if results
        else ""
    )
    place = "coalesce(r.place, f.place)" if results else "f.place"
    prize = (
        "CASE WHEN r.place IS NOT NULL THEN coalesce(r.prize, 0) "
        "WHEN f.place IS NOT NULL THEN coalesce(f.prize, 0) END"
        if results
        else "CASE WHEN f.place IS NOT NULL THEN coalesce(f.prize, 0) END"
    )
    bounty = "r.bounty" if results else "CAST(NULL AS BIGINT)"
    buy_in = "coalesce(r.buy_in, t.buy_in)" if results else "t.buy_in"
    fee = "coalesce(r.fee, t.fee)" if results else "t.fee"
    currency = "coalesce(r.currency, t.currency)" if results else "t.currency"
    frame = run(
        con,
        f"""WITH {sessions}{_finishes_sql()},
played AS (
  SELECT room, tournament_id, name, min(started_at) AS first_hand,
    max(started_at) AS last_hand, count(*) AS hands, sum(net)::BIGINT AS chips,
    any_value(tournament_buy_in) AS buy_in, any_value(tournament_fee) AS fee,
    any_value(tournament_currency) AS currency, any_value(game) AS game
  FROM (
    SELECT p.*, h.tournament_id, h.tournament_buy_in, h.tournament_fee, h.tournament_currency
    FROM player_hands p JOIN hands h USING (hand_id)
  )
  WHERE tournament AND {condition}
  GROUP BY room, tournament_id, name
)
SELECT coalesce(i.person, t.name) AS player, t.room, t.tournament_id, t.game,
  {currency} AS currency, {buy_in} AS buy_in, {fee} AS fee, t.first_hand, t.last_hand,
  t.hands, t.chips,
  {place} AS place, {prize} AS prize, {bounty} AS bounty
FROM played t LEFT JOIN finishes f
  ON f.room = t.room AND f.tournament_id = t.tournament_id AND f.name = t.name
{summary_join}
LEFT JOIN {IDENTITIES} i ON i.room = t.room AND i.name = t.name
ORDER BY t.first_hand, t.room, t.tournament_id, t.name""",
        {**params, "pattern": FINISH_PATTERN},
    )
    cents = [pl.col(column) for column in ("buy_in", "fee", "prize", "bounty")]
    return frame.with_columns(
        net=pl.when(pl.col("prize").is_not_null()).then(
            pl.col("prize")
            + pl.col("bounty").fill_null(0)
            - pl.col("buy_in").fill_null(0)
            - pl.col("fee").fill_null(0)
        ),
    ).with_columns(
        *((column.cast(pl.Float64) / 100).cast(EXACT) for column in cents),
        (pl.col("net").cast(pl.Float64) / 100).cast(EXACT),
    )


def tournament_summary(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """Per player and buy-in currency: tournaments played, those whose result is known, what
    they cost (buy-ins and fees), prizes and bounties won, net, ROI (net / cost) and the share
    finished in the money (a prize above zero), over the known results (None without any)."""
    results = tournament_results(con, filters)
    known = pl.col("prize").is_not_null()
    cost = (pl.col("buy_in").fill_null(0) + pl.col("fee").fill_null(0)).filter(known).sum()
    won = (pl.col("prize") + pl.col("bounty").fill_null(0)).filter(known).sum()
    return (
        results.group_by("player", "currency")
        .agg(
            tournaments=pl.len().cast(pl.Int64),
            known=known.sum().cast(pl.Int64),
            cost=cost.cast(EXACT),
            won=won.cast(EXACT),
            net=pl.col("net").sum().cast(EXACT),
            in_the_money=(pl.col("prize") > 0).sum().cast(pl.Int64),
        )
        .with_columns(  # nothing known: no money figure, rather than a zero
            *(pl.when(pl.col("known") > 0).then(pl.col(name)) for name in ("cost", "won", "net"))
        )
        .with_columns(
            roi=pl.when(pl.col("cost") > 0).then(
                pl.col("net").cast(pl.Float64) / pl.col("cost").cast(pl.Float64)
            ),
            itm=pl.when(pl.col("known") > 0).then(pl.col("in_the_money") / pl.col("known")),
        )
        .sort("tournaments", "player", descending=[True, False])
    )


def tournament_chips(
    con: duckdb.DuckDBPyConnection, player: str, room: str, tournament_id: str
) -> pl.DataFrame:
    """The player's chip count hand by hand through one tournament: the stack at the start of
    each hand and after it (the results graph of a tournament)."""
    ensure_features(con)
    return run(
        con,
        f"""SELECT p.hand_id, p.room_hand_id, p.started_at, hp.stack AS stack_before,
  hp.stack + p.net AS stack_after, p.net
FROM player_hands p JOIN hands h USING (hand_id)
JOIN hand_players hp ON hp.hand_id = p.hand_id AND hp.name = p.name
WHERE {player_condition("p.room", "p.name")} AND p.room = $room
  AND h.tournament_id = $tournament
ORDER BY p.started_at, p.hand_id""",
        {"player": player, "room": room, "tournament": tournament_id},
    )


def _has_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    rows = con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [name]
    ).fetchall()
    return bool(rows[0][0])
