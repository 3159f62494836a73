"""What a page or a command asks for: the `Filters` of the shared analytics interface, and their
translation into a parameterised SQL condition over the per-hand rows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Final
from zoneinfo import ZoneInfo

from studdraw.pipeline.identities import player_condition

from .features import DOOR_RANKS, POSITIONS, START_GROUPS, TABLE_SIZES

SESSION_GAP_MINUTES: Final = 30
"""A gap of this many minutes or more between a player's consecutive hands ends a session."""


KINDS: Final = ("cash", "tournament")


@dataclass(frozen=True, slots=True)
class Filters:
    """Every field optional; None = no restriction. Dates are inclusive days of `time_zone` (an
    IANA name); `stakes` is the big bet in the hand's smallest unit; `currency` a `hands.currency`
    code (`USD`, `EUR`, `PLAY`, `CHIPS`, ...); `kind` cash or tournament; `table_size` one of
    `TABLE_SIZES`; `session` is a session number of `player` (see `sessions()`), so it needs
    `player`. The seat's facts: `position` one of `POSITIONS` (`DRAW_POSITIONS` apply to draw
    games, `STUD_POSITIONS` to stud), `door` the rank of the stud door card (`DOOR_RANKS`),
    `start_group` a stud starting-hand group (`START_GROUPS`); each keeps the rows of the seats
    that had it, so a player's figures count the hands they played from there and the pool's
    every player's. Hands with an error-severity violation (facts in doubt) count only with
    `include_doubtful`."""

    player: str | None = None
    game: str | None = None
    structure: str | None = None
    stakes: int | None = None
    room: str | None = None
    date_from: date | None = None
    date_to: date | None = None
    session: int | None = None
    currency: str | None = None
    kind: str | None = None
    table_size: str | None = None
    position: str | None = None
    door: str | None = None
    start_group: str | None = None
    include_doubtful: bool = False
    time_zone: str = "UTC"

    def __post_init__(self) -> None:
        if self.kind is not None and self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {self.kind!r}")
        if self.table_size is not None and self.table_size not in TABLE_SIZES:
            raise ValueError(
                f"table_size must be one of {', '.join(TABLE_SIZES)}, not {self.table_size!r}"
            )
        for name, allowed in _SEAT_FACTS.items():
            value = getattr(self, name)
            if value is not None and value not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
        ZoneInfo(self.time_zone)  # an unknown zone fails here, not in a query

    @property
    def by_seat(self) -> bool:
        """Whether a seat's fact (position, door card, starting hand) is asked for: the
        rollups sum over every seat, so only the per-hand rows can answer."""
        return any(getattr(self, name) is not None for name in _SEAT_FACTS)

    @property
    def needs_hands(self) -> bool:
        """Whether the filters need the per-hand rows: rollups have no sessions and seat facts
        and keep UTC days only."""
        dated = self.date_from is not None or self.date_to is not None
        return self.session is not None or self.by_seat or (dated and self.time_zone != "UTC")


_SEAT_FACTS: Final = {"position": POSITIONS, "door": DOOR_RANKS, "start_group": START_GROUPS}
"""The filters on a seat's facts and the values each may take."""


def sessions_sql() -> str:
    """A CTE numbering the sessions of the player bound to `$player` over ALL their hands (any
    game, room or date, every account of a person), so a session number means the same
    whatever else is filtered."""
    return f"""sessions_of_player AS (
  SELECT hand_id, sum(new_session::INTEGER) OVER (ORDER BY started_at, hand_id)::BIGINT AS session
  FROM (
    SELECT hand_id, started_at,
      coalesce(started_at - lag(started_at) OVER (ORDER BY started_at, hand_id)
               >= INTERVAL {SESSION_GAP_MINUTES} MINUTES, true) AS new_session
    FROM player_hands WHERE {player_condition()}
  )
)"""


def where(
    filters: Filters, *, with_player: bool = True, by_day: bool = False
) -> tuple[str, dict[str, object]]:
    """The SQL condition on `player_hands` rows (alias-free column names) and its parameters.
    The player is a person (every account linked to it) or a name (its accounts linked to
    nobody): `identities.player_condition`. `with_player=False` drops the player condition (the
    pool a player is compared with).
    `by_day=True` filters rollup rows (dates on their `day`; no session: rollups have none).
    A session filter refers to the CTE of `sessions_sql()`, which the query must include."""
    clauses = ["true"]
    params: dict[str, object] = {}
    if with_player and filters.player is not None:
        clauses.append(player_condition())
        params["player"] = filters.player
    for column in ("game", "structure", "room", "currency", "table_size"):
        value = getattr(filters, column)
        if value is not None:
            clauses.append(f"{column} = ${column}")
            params[column] = value
    if filters.kind is not None:
        clauses.append("tournament" if filters.kind == "tournament" else "NOT tournament")
    if not filters.include_doubtful:
        clauses.append("valid")
    if filters.stakes is not None:
        clauses.append("big_bet = $stakes")
        params["stakes"] = filters.stakes
    if by_day:
        if filters.needs_hands:
            raise ValueError(
                "rollup rows have no sessions and only UTC days: filter the per-hand rows"
            )
        if filters.date_from is not None:
            clauses.append("day >= CAST($date_from AS DATE)")
            params["date_from"] = filters.date_from.isoformat()
        if filters.date_to is not None:
            clauses.append("day <= CAST($date_to AS DATE)")
            params["date_to"] = filters.date_to.isoformat()
        return " AND ".join(clauses), params
    zone = ZoneInfo(filters.time_zone)
    if filters.date_from is not None:
        clauses.append("started_at >= $date_from")
        params["date_from"] = datetime.combine(filters.date_from, time(), zone)
    if filters.date_to is not None:
        clauses.append("started_at < $date_to")
        params["date_to"] = datetime.combine(filters.date_to + timedelta(days=1), time(), zone)
    if filters.session is not None:
        if filters.player is None:
            raise ValueError("a session filter needs a player: session numbers are per player")
        clauses.append(
            "hand_id IN (SELECT hand_id FROM sessions_of_player WHERE session = $session)"
        )
        params["session"] = filters.session
        params["player"] = filters.player
    for column, test in (
        ("position", "position_group = $position"),
        ("door", "door[1] = $door"),
        ("start_group", "start_group = $start_group"),
    ):
        value = getattr(filters, column)
        if value is not None:
            clauses.append(test)
            params[column] = value
    return " AND ".join(clauses), params


def need_player(filters: Filters, function: str) -> str:
    if filters.player is None:
        raise ValueError(f"{function}() needs filters.player")
    return filters.player
