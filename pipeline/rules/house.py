"""House rules: what differs from room to room, read from house_rules.toml.

Each profile is learned from the real corpus (the notes in the TOML name the evidence). A site
without a profile gets `default`, whose values are the common rules with the uncertain ones
relaxed, so an unknown room is never flagged for following a rule we have not seen.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any, Final, Literal

TieBreak = Literal["seat", "any"]

_FILE: Final = "house_rules.toml"


@dataclass(frozen=True, slots=True)
class HouseRules:
    """One room's profile.

    max_raises: raises allowed after the opening bet in fixed and spread limit (the bet plus this
        many raises caps the round); in triple draw the big blind is the opening bet of round 1.
    heads_up_uncapped: the cap is lifted when a betting round starts with two players.
    first_actor_tie_break: how stud breaks a tie between equal boards for first to act: "seat"
        (lowest seat number first), or "any" (not known: any of the tied players may open).
    bring_in_suits: suit order from lowest to highest for the bring-in tie-break.
    half_bet_reopens: in fixed and spread limit, an all-in raise of at least half a bet
        reopens the betting for players who already acted (a smaller one never does).
    burn_cards: one card is burnt before each deal and each draw; None when not known, which
        relaxes the deck checks to what holds either way.
    rake_percent: the most the room rakes, as a percentage of the pot; None when not known.
    uncalled_returned: the room returns an uncalled bet on its own line; a room that does not
        pays it back inside the winner's collect, so a missing return is not an error there.
    """

    name: str
    max_raises: int
    heads_up_uncapped: bool
    first_actor_tie_break: TieBreak
    bring_in_suits: str
    half_bet_reopens: bool
    burn_cards: bool | None
    rake_percent: Fraction | None
    uncalled_returned: bool


def _profile(name: str, values: dict[str, Any]) -> HouseRules:
    tie_break = values["first_actor_tie_break"]
    if tie_break not in ("seat", "any"):
        raise ValueError(f"house rules {name}: unknown first_actor_tie_break {tie_break!r}")
    suits = values["bring_in_suits"]
    if sorted(suits) != sorted("cdhs"):
        raise ValueError(f"house rules {name}: bring_in_suits must order c, d, h, s")
    rake = values.get("rake_percent")
    return HouseRules(
        name=name,
        max_raises=int(values["max_raises"]),
        heads_up_uncapped=bool(values["heads_up_uncapped"]),
        first_actor_tie_break=tie_break,
        bring_in_suits=suits,
        half_bet_reopens=bool(values["half_bet_reopens"]),
        burn_cards=values.get("burn_cards"),
        rake_percent=None if rake is None else Fraction(str(rake)),
        uncalled_returned=bool(values["uncalled_returned"]),
    )


@cache
def all_house_rules() -> dict[str, HouseRules]:
    """Every profile in the data file, by site name; `default` fills keys a site leaves out."""
    text = resources.files(__package__).joinpath(_FILE).read_text(encoding="utf-8")
    data = tomllib.loads(text)
    default = data["default"]
    return {name: _profile(name, {**default, **values}) for name, values in data.items()}


def house_rules_for(site: str) -> HouseRules:
    """The profile of a site (the HandRecord's `site`), or the default profile."""
    profiles = all_house_rules()
    return profiles.get(site, profiles["default"])
