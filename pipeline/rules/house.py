"""House rules: what differs from room to room and rulebook to rulebook, read from
house_rules.toml.

Each room's profile is learned from the real corpus (the notes in the TOML name the evidence);
the rulebooks' variants (../shared/rules) are profiles a user can choose by name
(`studdraw validate --rules casinos-austria`). A room without a profile gets `default`, whose
values are the common rules with the uncertain ones relaxed, so an unknown room is never flagged
for following a rule we have not seen.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any, Final, Literal, get_args

TieBreak = Literal["seat", "suit", "any"]
HeadsUpCap = Literal["never", "last_round", "two_left"]
BringInSize = Literal["stakes", "ante", "half", "ante_to_small_bet"]
OddChip = Literal["high", "any"]
ShowdownOrder = Literal["last_aggressor", "last_aggressor_clockwise"]
BringInTieBreak = Literal["suit", "seat"]

_FILE: Final = "house_rules.toml"


@dataclass(frozen=True, slots=True)
class HouseRules:
    """One profile.

    max_raises: raises allowed after the opening bet in fixed and spread limit (the bet plus this
        many raises caps the round); in triple draw the big blind is the opening bet of round 1.
    heads_up_cap: when the cap is lifted for two players: "never"; "last_round", on the last
        betting round once only two players are left (Casinos Austria); "two_left", on any round
        as soon as only two players are left, a round that becomes heads-up midway included.
    first_actor_tie_break: how stud breaks a tie between equal boards for first to act: "seat"
        (the first dealt, i.e. the lowest seat number, first), "suit" (the board whose highest
        card has the highest suit in `bring_in_suits`), or "any" (not known: any tied player).
    bring_in_suits: suit order from lowest to highest for the bring-in tie-break.
    bring_in_tie_break: how equal door cards choose the bring-in: "suit" (the lowest suit in
        `bring_in_suits` pays) or "seat" (the first dealt, the lowest seat number, pays).
    bring_in_size: what the bring-in must be: "stakes" (the stakes' bring-in exactly),
        "ante" (the ante), "half" (half the small bet, rounded down), "ante_to_small_bet" (any
        amount from the ante up to, not including, the small bet). A bring-in is never below
        the ante nor as large as the small bet (that is a completion).
    half_bet_reopens: in fixed and spread limit, an all-in raise of at least half a bet
        reopens the betting for players who already acted (a smaller one never does).
    burn_cards: one card is burnt before each deal and each draw; None when not known, which
        relaxes the deck checks to what holds either way.
    rake_percent: the most the room rakes, as a percentage of the pot; None when not known.
    uncalled_returned: the room returns an uncalled bet on its own line; a room that does not
        pays it back inside the winner's collect, so a missing return is not an error there.
    odd_chip: who gets the odd chip of a split hi/lo pot: "high" (the rulebooks' rule) or
        "any" (the room has been seen giving it to the low half).
    dead_blinds: a player may post a dead or missing blind (returning, or a new player posting
        out of position); where not, such a post is a blind out of position.
    showdown_order: who shows first at a showdown, per game kind (as `max_players`):
        "last_aggressor" (the last to bet or raise on the last betting round), or
        "last_aggressor_clockwise" (the same, else the first left of the button, and the others
        clockwise); a kind left out is not checked.
    prints_show_order: the room's exports print the shows in the order they were made, so a
        profile's `showdown_order` can be checked on its hands (read from the room's own
        profile, whichever profile judges the hand).
    tournament_forced: the forced bets a room's tournament structure fixes at every level, as
        a fraction of the level's unit (draw: the big blind, the small bet in fixed limit; stud:
        the small bet): ("small_blind", 1/2), ("ante", 1/5), ... Empty where not known: the
        header's sizes, else those most players posted, stand.
    max_players: the most players a game kind ("stud", "draw") deals in; a kind not named
        keeps each game's own limit (`GameSpec.max_players`).
    """

    name: str
    max_raises: int
    heads_up_cap: HeadsUpCap
    first_actor_tie_break: TieBreak
    bring_in_suits: str
    bring_in_tie_break: BringInTieBreak
    bring_in_size: BringInSize
    half_bet_reopens: bool
    burn_cards: bool | None
    rake_percent: Fraction | None
    uncalled_returned: bool
    odd_chip: OddChip
    dead_blinds: bool
    max_players: tuple[tuple[str, int], ...]
    source: str
    tournament_forced: tuple[tuple[str, Fraction], ...] = ()
    showdown_order: tuple[tuple[str, ShowdownOrder], ...] = ()
    prints_show_order: bool = False

    def showdown_order_of(self, kind: str) -> ShowdownOrder | None:
        """The profile's showdown order for a game of `kind`, None when unchecked."""
        return next((order for named, order in self.showdown_order if named == kind), None)

    def players_allowed(self, kind: str, default: int) -> int:
        """The most players a game of `kind` deals in under this profile (`default`: the
        game's own limit)."""
        for named, limit in self.max_players:
            if named == kind:
                return limit
        return default


def _choice(name: str, values: dict[str, Any], key: str, allowed: Any) -> Any:
    value = values[key]
    if value not in get_args(allowed):
        raise ValueError(f"house rules {name}: {key} must be one of {get_args(allowed)}")
    return value


_KEYS: Final = frozenset(
    {
        "source",
        "max_raises",
        "heads_up_cap",
        "first_actor_tie_break",
        "bring_in_suits",
        "bring_in_tie_break",
        "bring_in_size",
        "half_bet_reopens",
        "burn_cards",
        "rake_percent",
        "uncalled_returned",
        "odd_chip",
        "dead_blinds",
        "max_players",
        "tournament_forced",
        "showdown_order",
        "prints_show_order",
    }
)
_TOURNAMENT_FORCED: Final = frozenset({"ante", "bring_in", "small_blind"})


def _profile(name: str, values: dict[str, Any]) -> HouseRules:
    unknown = sorted(set(values) - _KEYS)
    if unknown:
        raise ValueError(f"house rules {name}: unknown keys {unknown}")
    suits = values["bring_in_suits"]
    if sorted(suits) != sorted("cdhs"):
        raise ValueError(f"house rules {name}: bring_in_suits must order c, d, h, s")
    rake = values.get("rake_percent")
    return HouseRules(
        name=name,
        max_raises=int(values["max_raises"]),
        heads_up_cap=_choice(name, values, "heads_up_cap", HeadsUpCap),
        first_actor_tie_break=_choice(name, values, "first_actor_tie_break", TieBreak),
        bring_in_suits=suits,
        bring_in_tie_break=_choice(name, values, "bring_in_tie_break", BringInTieBreak),
        bring_in_size=_choice(name, values, "bring_in_size", BringInSize),
        half_bet_reopens=bool(values["half_bet_reopens"]),
        burn_cards=values.get("burn_cards"),
        rake_percent=None if rake is None else Fraction(str(rake)),
        uncalled_returned=bool(values["uncalled_returned"]),
        odd_chip=_choice(name, values, "odd_chip", OddChip),
        dead_blinds=bool(values["dead_blinds"]),
        max_players=tuple(sorted((str(k), int(v)) for k, v in values["max_players"].items())),
        source=str(values.get("source", "")),
        tournament_forced=_fractions(name, values.get("tournament_forced", {})),
        showdown_order=_showdown_orders(name, values.get("showdown_order", {})),
        prints_show_order=bool(values.get("prints_show_order", False)),
    )


def _showdown_orders(name: str, values: dict[str, Any]) -> tuple[tuple[str, ShowdownOrder], ...]:
    orders = []
    for kind, order in sorted(values.items()):
        if kind not in ("stud", "draw") or order not in get_args(ShowdownOrder):
            raise ValueError(f"house rules {name}: showdown_order {kind} = {order!r}")
        orders.append((str(kind), order))
    return tuple(orders)


def _fractions(name: str, values: dict[str, Any]) -> tuple[tuple[str, Fraction], ...]:
    unknown = sorted(set(values) - _TOURNAMENT_FORCED)
    if unknown:
        raise ValueError(f"house rules {name}: tournament_forced names {unknown}")
    return tuple(sorted((str(key), Fraction(str(value))) for key, value in values.items()))


@cache
def all_house_rules() -> dict[str, HouseRules]:
    """Every profile in the data file, by name (a room's `HandRecord.room`, or a rulebook's
    name); `default` fills keys a profile leaves out."""
    text = resources.files(__package__).joinpath(_FILE).read_text(encoding="utf-8")
    data = tomllib.loads(text)
    default = data["default"]
    return {
        # A profile's source is its own: a room's is its exports, cited in the file.
        name: _profile(name, {**default, **_legacy(values), "source": values.get("source", "")})
        for name, values in data.items()
    }


def _legacy(values: dict[str, Any]) -> dict[str, Any]:
    """A profile with the first form of a key renamed: `heads_up_uncapped` (a bool)."""
    if "heads_up_uncapped" not in values:
        return values
    renamed = {key: value for key, value in values.items() if key != "heads_up_uncapped"}
    renamed.setdefault("heads_up_cap", "two_left" if values["heads_up_uncapped"] else "never")
    return renamed


def percent_text(percent: Fraction) -> str:
    """A percentage as people write it: 5 -> "5%", 3/2 -> "1.5%" (the profiles' values have a
    finite decimal form)."""
    if percent.denominator == 1:
        return f"{percent.numerator}%"
    return f"{float(percent):g}%"


def house_rules_for(room: str) -> HouseRules:
    """The profile of a room (the HandRecord's `room`), or the default profile."""
    profiles = all_house_rules()
    return profiles.get(room, profiles["default"])


def house_rules_named(name: str) -> HouseRules:
    """A profile a user chose by name; ValueError naming the choices when there is none."""
    profiles = all_house_rules()
    if name not in profiles:
        raise ValueError(f"no house-rules profile {name!r}; choose one of {', '.join(profiles)}")
    return profiles[name]
