"""The hand synthesiser: random legal hands from the rules engine, rendered as a room's export.

Hands come from `rules.random_hand`, which drives the engine with random legal actions (folds,
calls, raises to the cap, all-ins and side pots, split pots, the stud community card, draw-game
reshuffles). The synthesiser then gives them what a real history has: player names drawn from a
pool with a hero seated in every hand, unique hand ids, times that advance hand by hand with
breaks between sessions, and table names; and renders them in the room's text format.

Everything derives from the seed, so the same arguments always give the same file; and every
hand parses and validates clean, which makes synth + parse + validate a round-trip test of the
whole front end.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Final

from studdraw.parsers.model import Game, HandRecord, Seat, SourceRef, Structure, Tournament
from studdraw.parsers.render import RENDERERS, fulltilt, ipoker, kingsclub, pokerstars
from studdraw.pipeline.rules import random_hand
from studdraw.pipeline.rules.house import house_rules_for

GAMES_DEALT: Final[dict[str, frozenset[Game]]] = {
    "pokerstars": frozenset(pokerstars.GAME_LABELS),
    "fulltilt": frozenset(fulltilt.GAME_LABELS),
    "ipoker": frozenset(ipoker.GAME_NAMES),
    "kingsclub": frozenset(kingsclub.GAME_LABELS),
}
"""The games each room's format names (its renderer's labels, its reader's table): PokerStars
deals no five-card stud, iPoker's exports in the corpus only stud; KingsClub's include 2-7 razz,
A-5 single draw, badacey, badeucey and drawmaha (which no other room deals)."""
STRUCTURES_DEALT: Final[dict[str, frozenset[Structure]]] = {
    "pokerstars": frozenset(pokerstars.LIMIT_LABELS),
    "fulltilt": frozenset(fulltilt.LIMIT_LABELS),
    "ipoker": frozenset(ipoker.LIMITS),
    "kingsclub": frozenset(kingsclub.LIMIT_LABELS),
}
"""The betting structures each room's format names (its renderer's labels): none prints
half-pot limit (Merge's), Full Tilt, iPoker and KingsClub no spread limit."""
CURRENCIES: Final = {"kingsclub": frozenset({"USD", "CHIPS"})}
"""The currencies a room's format can write, where not every one (KingsClub prints none: its
cash tables are dollars)."""
FIRST_HAND_ID: Final = {
    "pokerstars": "24",
    "fulltilt": "41",
    "ipoker": "53",
    "kingsclub": "67",
}  # room id prefixes
NAME_POOL: Final = (
    "AceOfClubs",
    "BringInBob",
    "ChipLeader77",
    "DeuceSeven",
    "EightOrBetter",
    "FifthStreet",
    "GinRazz",
    "HighLowHal",
    "IronBadugi",
    "JackOfAll",
    "KingLow",
    "LuckyDraw",
    "MuckMaster",
    "NutLow",
    "OpenPair",
    "PatHand",
    "QuadQueens",
    "RiverRat",
    "SnowJob",
    "ThirdStreet",
    "UpCardUma",
    "VelvetRazz",
    "WheelDeal",
    "XDoorCard",
    "YoYoStud",
    "ZeroChips",
)
TABLE_NAMES: Final = ("Aludra", "Bellatrix", "Capella", "Diphda", "Electra", "Fomalhaut")
DEFAULT_START: Final = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class SynthOptions:
    room: str = "pokerstars"
    game: Game = Game.STUD
    structure: Structure = Structure.FIXED
    hands: int = 100
    min_players: int = 2
    max_players: int = 8
    seed: int = 0
    hero: str = "Hero"
    start: datetime = DEFAULT_START
    session_hands: int = 0  # hands per session (0: one session); sessions are hours apart
    currency: str = "USD"  # an ISO code, PLAY (play money) or CHIPS (with `tournament`)
    tournament: Tournament | None = None  # tournament hands: chips, no rake

    @property
    def scale(self) -> int:
        """Play money and tournament chips come in whole units; currencies in cents."""
        return 1 if self.currency in ("PLAY", "CHIPS") else 100


def synthesize(options: SynthOptions) -> Iterator[HandRecord]:
    """`options.hands` random legal hands with names, ids and times, deterministic for a seed."""
    if options.room not in RENDERERS:
        raise ValueError(f"no renderer for {options.room!r}; choose from {sorted(RENDERERS)}")
    if options.game not in GAMES_DEALT[options.room]:
        raise ValueError(f"{options.room} deals no {options.game}")
    if options.currency not in CURRENCIES.get(options.room, {options.currency}):
        raise ValueError(f"{options.room} writes no {options.currency} amounts")
    if options.structure not in STRUCTURES_DEALT[options.room]:
        raise ValueError(f"{options.room} deals no {options.structure} limit")
    if not 2 <= options.min_players <= options.max_players <= 8:
        raise ValueError("players must be within 2 to 8, the smaller first")
    rng = random.Random(options.seed)
    if (options.currency == "CHIPS") != (options.tournament is not None):
        raise ValueError("tournament hands, and only they, are played for CHIPS")
    rules = house_rules_for(options.room)
    if options.tournament is not None:
        rules = replace(rules, rake_percent=None)
    when = options.start
    table = rng.choice(TABLE_NAMES)
    for number in range(options.hands):
        if options.session_hands and number and number % options.session_hands == 0:
            when += timedelta(hours=rng.uniform(2, 20))
            table = rng.choice(TABLE_NAMES)
        expressible = RENDERERS[options.room].holds  # a hand the format cannot hold is dealt again
        while True:
            players = rng.randint(options.min_players, options.max_players)
            record = random_hand(options.game, options.structure, players, rng, rules)
            if expressible(record):
                break
        names = _names(rng, len(record.seats), options.hero)
        yield _dress(record, names, options, number, when=when, table=table)
        when += timedelta(seconds=rng.randint(25, 150))


def render(record: HandRecord, room: str) -> str:
    return RENDERERS[room].render(record, record.hero)


def _hand_id(options: SynthOptions, number: int) -> str:
    """Unique per room, game, seed and hand number (seeds below 10**6, files below 10**7
    hands), so synthesised files of any mix of games can share one store."""
    game = list(Game).index(options.game)
    return f"{FIRST_HAND_ID[options.room]}{game}{options.seed % 10**6:06d}{number:07d}"


def _names(rng: random.Random, count: int, hero: str) -> list[str]:
    """`count` distinct names, the hero's among them at a random seat."""
    pool = [name for name in NAME_POOL if name != hero]
    names = rng.sample(pool, count - 1)
    names.insert(rng.randrange(count), hero)
    return names


def _dress(
    record: HandRecord,
    names: list[str],
    options: SynthOptions,
    number: int,
    *,
    when: datetime,
    table: str,
) -> HandRecord:
    """The generator's hand with real names, id, time, table and hero."""
    rename = {seat.player: name for seat, name in zip(record.seats, names, strict=True)}
    seats = [Seat(s.seat, rename[s.player], s.stack, s.sitting_out) for s in record.seats]
    events = [
        replace(e, player=rename.get(e.player, e.player)) if e.player else e for e in record.events
    ]
    hand_id = _hand_id(options, number)
    return replace(
        record,
        room=options.room,
        room_hand_id=hand_id,
        started_at=when,
        room_time="",
        table=f"{table} {options.seed % 97 + 1}",
        seats=seats,
        events=events,
        hero=options.hero,
        source=SourceRef("<synth>", 0, 1),
        currency=options.currency,
        scale=options.scale,
        tournament=options.tournament,
    )
