"""The rules engine: replays hands, reports illegal sequences as problems with codes of the
catalogue (studdraw.parsers.problems, docs/violations.md), and generates random legal hands."""

from .core import Phase
from .generate import random_hand, stakes_for
from .house import HouseRules, all_house_rules, house_rules_for
from .replay import replay, start_state
from .result import PlayerResult, PlayerStreet, PotResult, ReplayResult, StreetResult
from .specs import GAME_SPECS, BringIn, GameSpec, Opener, StreetSpec
from .state import HandState, LegalActions

__all__ = [
    "GAME_SPECS",
    "BringIn",
    "GameSpec",
    "HandState",
    "HouseRules",
    "LegalActions",
    "Opener",
    "Phase",
    "PlayerResult",
    "PlayerStreet",
    "PotResult",
    "ReplayResult",
    "StreetResult",
    "StreetSpec",
    "all_house_rules",
    "house_rules_for",
    "random_hand",
    "replay",
    "stakes_for",
    "start_state",
]
