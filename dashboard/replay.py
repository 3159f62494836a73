"""One stored hand, street by street: what the replayer page draws.

The store keeps everything a replay needs (`actions` holds every event in order, `streets` and
`player_streets` the replay's state after each betting round, `pots` the awards), so the
replayer reads one hand's rows and never re-runs the rules engine. A hand is a few dozen rows,
so building its steps in Python is cheap; nothing here loops over hands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import polars as pl

from studdraw.parsers.model import Game
from studdraw.pipeline.analytics import hands

from . import store
from .render import money
from .store import StoreRef

SHOWDOWN_KINDS = frozenset({"show", "muck", "collect"})
"""Events drawn on the final "Showdown" step rather than on their street."""

SHOWDOWN = "Showdown"

_HAND_TABLES = ("hand_players", "actions", "streets", "player_streets", "pots", "violations")


@dataclass(frozen=True, slots=True)
class Hand:
    """A stored hand's rows, table by table."""

    header: dict[str, Any]
    seats: pl.DataFrame  # the players dealt in
    all_seats: pl.DataFrame  # every seat, as the room listed them
    actions: pl.DataFrame
    streets: pl.DataFrame
    player_streets: pl.DataFrame
    pots: pl.DataFrame
    violations: pl.DataFrame

    @property
    def steps(self) -> list[str]:
        """The replay's steps: each street the hand reached, then the showdown and awards."""
        return [*self.streets.get_column("name").to_list(), SHOWDOWN]

    @property
    def is_stud(self) -> bool:
        """Stud deals cards face up and face down; draw games deal every card down."""
        return bool(Game(self.header["game"]).is_stud)

    def money(self, amount: int) -> str:
        return money(amount, self.header["scale"], self.header["currency"])


def load_header(ref: StoreRef, hand_id: int) -> dict[str, Any] | None:
    """The `hands` row of this `hands.hand_id`, or None when the store has no such hand."""
    header = store.read(ref, hands.hand_rows, hand_id, "hands")
    return None if header.is_empty() else header.row(0, named=True)


def load_hand(ref: StoreRef, hand_id: int) -> Hand | None:
    """The hand with this `hands.hand_id`, or None when the store has no such hand."""
    header = load_header(ref, hand_id)
    if header is None:
        return None
    frames = {table: store.read(ref, hands.hand_rows, hand_id, table) for table in _HAND_TABLES}
    return Hand(
        header=header,
        seats=frames["hand_players"].filter(pl.col("dealt_in")),
        all_seats=frames["hand_players"],
        actions=frames["actions"],
        streets=frames["streets"],
        player_streets=frames["player_streets"],
        pots=frames["pots"],
        violations=frames["violations"],
    )


@dataclass(frozen=True, slots=True)
class SeatView:
    """A player as the table looked at the end of a step."""

    seat: int
    name: str
    position: str | None
    is_hero: bool
    cards: list[str | None]
    up: list[bool]
    stack: int  # behind, after what the player put in up to this step
    put_in: int  # on this street (the whole hand on the showdown step)
    actions: list[str]
    folded: bool
    all_in: bool
    net: int | None  # on the showdown step only
    won: bool
    drawn: int | None  # draw games: cards exchanged in the draw that opened the street


_WAGERS = frozenset({"ante", "small_blind", "big_blind", "post", "dead", "bring_in", "call", "bet",
                     "raise", "complete"})  # fmt: skip
"""Events that put chips in the pot (an uncalled return takes some back)."""
_DEALT = frozenset({"deal", "discard", "draw", "stand_pat"})
"""A player's own events that give them the cards of a street."""
_DONE = _WAGERS | {"fold", "check", "discard", "stand_pat"}
"""What a seat box lists as the player's doings on the street."""


def happened(hand: Hand, step: int, shown: int | None = None) -> pl.DataFrame:
    """The events that have happened once the first `shown` events of step `step` are on screen
    (all of them when `shown` is None): the earlier steps whole, this one up to there."""
    showdown = pl.col("kind").is_in(list(SHOWDOWN_KINDS))
    events = step_events(hand, step)
    partial = shown is not None and shown < events.height
    if partial:
        events = events.head(max(shown or 0, 0))
    if step >= len(hand.steps) - 1:
        return pl.concat([hand.actions.filter(~showdown), events]).sort("seq")
    so_far = hand.actions.filter(~showdown & (pl.col("street") <= step))
    if not partial:
        return so_far
    start = so_far.filter((pl.col("street") < step) | (pl.col("kind") == "street"))
    return pl.concat([start, events]).unique("seq").sort("seq")


def _dealt_at(actions: pl.DataFrame, name: str, street: int) -> int | None:
    """When a player got their cards of a street (the `seq`): their own last deal, discard,
    draw or pat on it, else the street's first deal (a room deals every seat, printing only the
    hero's cards), else the street's marker; None for a street the hand never reached."""
    on_street = actions.filter(pl.col("street") == street)
    own = on_street.filter((pl.col("actor") == name) & pl.col("kind").is_in(list(_DEALT)))
    if own.height:
        return max(_seqs(own))
    for kind in ("deal", "street"):
        found = _seqs(on_street.filter(pl.col("kind") == kind))
        if found:
            return min(found)
    return min(_seqs(on_street), default=None)


def board_at(hand: Hand, step: int, shown: int | None = None) -> list[str | None]:
    """The board's cards dealt once the first `shown` events of step `step` have happened
    (drawmaha's flop, turn and river; stud's community card): what the middle of the table
    shows."""
    dealt = happened(hand, step, shown).filter(pl.col("kind") == "community")
    return [card for found in dealt.get_column("cards").to_list() for card in found or []]


def _seqs(events: pl.DataFrame) -> list[int]:
    found: list[int] = events.get_column("seq").to_list()
    return found


def _cards_now(
    hand: Hand, seen: pl.DataFrame, name: str, street: int
) -> tuple[list[str | None], list[bool]]:
    """A player's cards as the table saw them: the cards of the last street they were dealt,
    with every card that no event so far has shown (a hole card revealed only at the
    showdown) face down and unknown."""
    last = max(_seqs(seen), default=-1)
    rows = hand.player_streets.filter((pl.col("name") == name) & (pl.col("street") <= street))
    cards: list[str | None] = []
    up: list[bool] = []
    for row in rows.sort("street", descending=True).iter_rows(named=True):
        at = _dealt_at(hand.actions, name, row["street"])
        if at is not None and at <= last:
            cards, up = list(row["cards"] or []), list(row["up"] or [])
            break
    mine = seen.filter(
        ((pl.col("actor") == name) & pl.col("kind").is_in(["deal", "draw"]))
        | (pl.col("kind") == "community")
    )
    known = {card for found in mine.get_column("cards").to_list() for card in found or []}
    return [card if card in known else None for card in cards], up


def seat_views(hand: Hand, step: int, shown: int | None = None) -> list[SeatView]:
    """Every dealt-in player once the first `shown` events of step `step` (an index into
    `hand.steps`) have happened, or at the end of the step when `shown` is None: nothing a later
    event does (a fold, a bet, a card dealt or shown) shows before it happens."""
    final = step >= len(hand.steps) - 1
    street = min(step, len(hand.steps) - 2)
    seen = happened(hand, step, shown)
    complete = shown is None or shown >= step_events(hand, step).height
    views = []
    for seat in hand.seats.iter_rows(named=True):
        mine = seen.filter(pl.col("actor") == seat["name"])
        spent = collected = put_in = 0
        actions: list[str] = []
        for event in mine.iter_rows(named=True):
            kind, amount = event["kind"], event["amount"]
            sign = 1 if kind in _WAGERS else -1 if kind == "uncalled" else 0
            spent += sign * amount
            if event["street"] == street:
                put_in += sign * amount
                if kind in _DONE:
                    actions.append(kind)
            if kind == "collect":
                collected += amount
        revealed = mine.filter(pl.col("kind").is_in(["show", "muck"])).height > 0
        if final and (revealed or complete):
            cards, up = list(seat["cards"] or []), list(seat["up"] or [])
        else:
            cards, up = _cards_now(hand, seen, seat["name"], street)
        if final and complete:
            spent, collected = seat["invested"], seat["collected"]
        drawn = None
        if not final:
            row = hand.player_streets.filter(
                (pl.col("name") == seat["name"]) & (pl.col("street") == street)
            )
            at = _dealt_at(hand.actions, seat["name"], street)
            if row.height and at is not None and seen.filter(pl.col("seq") == at).height:
                drawn = row.item(0, "drawn")
        views.append(
            SeatView(
                seat=seat["seat"],
                name=seat["name"],
                position=seat["position"],
                is_hero=seat["is_hero"],
                cards=cards,
                up=up,
                stack=seat["stack"] - spent + collected,
                put_in=spent if final else put_in,
                actions=[] if final else actions,
                folded=mine.filter(pl.col("kind") == "fold").height > 0,
                all_in=bool(mine.get_column("all_in").any()),
                net=collected - spent if final else None,
                won=final and collected > 0,
                drawn=drawn,
            )
        )
    return views


def next_position(hand: Hand, step: int, shown: int) -> tuple[int, int] | None:
    """Where autoplay goes after `shown` events of step `step`: the step's next event, else the
    next step's first event, or None at the end of the hand."""
    if shown < step_events(hand, step).height:
        return step, shown + 1
    if step + 1 < len(hand.steps):
        return step + 1, min(1, step_events(hand, step + 1).height)
    return None


def step_events(hand: Hand, step: int) -> pl.DataFrame:
    """The events drawn on a step: the street's own events without the street marker, or on
    the last step the shows, mucks and collects of the whole hand."""
    actions = hand.actions.filter(pl.col("kind") != "street")
    showdown = pl.col("kind").is_in(list(SHOWDOWN_KINDS))
    if step >= len(hand.steps) - 1:
        return actions.filter(showdown)
    return actions.filter((pl.col("street") == step) & ~showdown)


def step_violations(hand: Hand, step: int) -> pl.DataFrame:
    """The violations of a step: those on its street's events, and on the last step the
    hand-level ones and those on showdown events."""
    events = step_events(hand, step).get_column("seq")
    on_events = pl.col("event_index").is_in(events.to_list())
    if step >= len(hand.steps) - 1:
        return hand.violations.filter(on_events | pl.col("event_index").is_null())
    return hand.violations.filter(
        on_events | (pl.col("street") == step) & pl.col("event_index").is_null()
    )


def pot_at(hand: Hand, step: int) -> tuple[int, int]:
    """The pot when the step began and when it ended."""
    if step >= len(hand.steps) - 1:
        total = hand.header["total_pot"]
        return total, total
    row = hand.streets.row(step, named=True)
    return row["pot_start"], row["pot_end"]


def pot_after(events: pl.DataFrame, shown: int, start: int) -> int:
    """The pot once the first `shown` of a step's events have happened (each event records the
    pot just before it)."""
    if shown <= 0:
        return start
    pot: int = events.item(shown, "pot_before")
    return pot


_VERBS = {
    "ante": "posts the ante",
    "small_blind": "posts the small blind",
    "big_blind": "posts the big blind",
    "post": "posts",
    "dead": "posts dead",
    "bring_in": "brings in for",
    "fold": "folds",
    "check": "checks",
    "call": "calls",
    "bet": "bets",
    "community": "community card",
    "stand_pat": "stands pat",
    "reshuffle": "the dealer reshuffles the discards into the stub",
    "capped": "betting is capped",
    "open_pair": "open pair on 4th street: the big bet is allowed",
    "sit_out": "sits out",
    "sit_in": "sits in",
    "join": "joins the table",
    "leave": "leaves the table",
}


_LIVE = frozenset({"small_blind", "big_blind", "post", "bring_in", "call", "bet", "raise",
                   "complete"})  # fmt: skip
"""Wagers that count toward a player's bet on the street (antes and dead posts do not)."""


def raise_sizes(actions: pl.DataFrame) -> dict[int, int]:
    """For each raise (by `seq`), how much it raised by: the player's total on the street after
    it less the highest total before it, as rooms print it ("raises $0.04 to $0.08")."""
    sizes: dict[int, int] = {}
    totals: dict[tuple[int, str], int] = {}
    levels: dict[int, int] = {}
    for event in actions.iter_rows(named=True):
        kind, street, actor = event["kind"], event["street"], event["actor"]
        if actor is None or (kind not in _LIVE and kind != "uncalled"):
            continue
        key = (street, actor)
        before = totals.get(key, 0)
        if kind == "uncalled":
            totals[key] = before - event["amount"]
            continue
        after = event["to_amount"] if event["to_amount"] is not None else before + event["amount"]
        level = levels.get(street, 0)
        if kind == "raise":
            sizes[event["seq"]] = after - level
        totals[key] = after
        levels[street] = max(level, after)
    return sizes


def describe(hand: Hand, event: dict[str, Any], raised_by: int | None = None) -> tuple[str, bool]:
    """What an event says, as text, and whether its cards (drawn separately) follow it.
    `raised_by`: for a raise, the size of the raise (`raise_sizes`)."""
    kind, amount = event["kind"], event["amount"]
    fmt = hand.money
    has_cards = bool(event["cards"])
    if kind in ("ante", "small_blind", "big_blind", "post", "dead", "bring_in", "call", "bet"):
        text = f"{_VERBS[kind]} {fmt(amount)}"
    elif kind == "raise":
        to = event["to_amount"]
        if to is None:
            text = f"raises {fmt(amount)}"
        else:
            text = f"raises {fmt(raised_by if raised_by is not None else amount)} to {fmt(to)}"
    elif kind == "complete":
        text = f"completes to {fmt(event['to_amount'] if event['to_amount'] else amount)}"
    elif kind == "deal":
        text = "is dealt"
    elif kind == "community":
        text = "community card" if hand.is_stud else "the board"
    elif kind == "discard":
        count = event["count"] if event["count"] is not None else len(event["cards"] or [])
        text = f"discards {count}"
    elif kind == "draw":
        text = f"draws {len(event['cards'] or []) or event['count'] or ''}".rstrip()
    elif kind in ("show", "muck"):
        text = "shows" if kind == "show" else "mucks"
        if event["text"]:
            text += f" ({event['text']})"
    elif kind == "uncalled":
        text = f"takes back the uncalled {fmt(amount)}"
    elif kind == "collect":
        pot = (event["pot"] or "main").replace(":", " ")
        text = f"collects {fmt(amount)} from the {pot} pot"
    elif kind == "chat":
        text = f"says “{event['text'] or ''}”"
    elif kind == "note":
        text = event["text"] or "note"
    else:
        text = _VERBS.get(kind, kind.replace("_", " "))
    if event["all_in"]:
        text += " and is all-in"
    return text, has_cards


DRAW_EARLY: Final = ("UTG", "UTG+1", "UTG+2", "UTG+3")


def position_name(position: str | None, players: int, *, stud: bool) -> str | None:
    """A seat's position as players name it. Draw games: BTN, SB, BB, then UTG, UTG+1, ... HJ,
    CO in the order of play (`BTN+k` is k seats after the button). Stud has no fixed positions:
    the seat order from the bring-in (`BI`, `BI+k`, k seats after it), which is 3rd street's
    order of play."""
    if position is None or stud or not position.startswith("BTN+"):
        return "bring-in" if position == "BI" else position
    k = int(position[4:])
    if k == 1:
        return "SB"
    if k == 2:
        return "BB"
    before_button = players - k  # 1 = cut-off, 2 = hijack
    if before_button == 1 and players > 3:
        return "CO"
    if before_button == 2 and players > 5:
        return "HJ"
    return DRAW_EARLY[k - 3] if k - 3 < len(DRAW_EARLY) else position
