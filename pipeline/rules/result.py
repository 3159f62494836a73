"""What a replay hands to the store: street-by-street states, per-player results, pots and the
problems. Slotted dataclasses built positionally, because one is made per player per street
for every hand of an import."""

from __future__ import annotations

from dataclasses import dataclass

from studdraw.parsers.model import Card, EventKind
from studdraw.parsers.problems import Problem


@dataclass(slots=True)
class PlayerStreet:
    """One player on one street they started in.

    cards/up: the player's cards known at the end of the street (None = not shown), with
        `up[i]` telling whether `cards[i]` lies face up.
    put_in: chips the player put in on the street (antes and blinds count on the first street),
        less any uncalled bet returned on it.
    actions: the player's forced bets and betting actions on the street, in order.
    drawn: draw games: cards exchanged in the draw that opened the street (0 = stood pat),
        None on the first street or when the export does not say.
    """

    player: str
    street: int
    cards: tuple[Card | None, ...]
    up: tuple[bool, ...]
    put_in: int
    actions: tuple[EventKind, ...]
    folded: bool
    all_in: bool
    drawn: int | None


@dataclass(slots=True)
class StreetResult:
    """One betting round: `bets` counts opening bets (0 or 1; a triple-draw big blind is the
    opening bet of round 1), `raises` the raises after it; a stud completion is counted apart in
    `completions`, not as a bet or a raise."""

    street: int
    name: str
    pot_start: int
    pot_end: int
    players_in: int
    bets: int
    raises: int
    completions: int
    first_actor: str | None
    players: list[PlayerStreet]


@dataclass(slots=True)
class PlayerResult:
    """A player's whole hand. `net` = collected - invested; uncalled returns are already taken
    off `invested`. `position`: "BTN", "SB", "BB" or "BTN+k" (k seats after the button) in
    draw games; "BI" or "BI+k" (k seats after the bring-in) in stud; None when unknown."""

    player: str
    seat: int
    position: str | None
    invested: int
    collected: int
    net: int
    showed: bool
    won: bool
    cards: tuple[Card | None, ...]
    up: tuple[bool, ...]


@dataclass(slots=True)
class PotResult:
    """A pot (or one half of a split pot): `amount` is the pot before rake (a half holds half
    of it, the odd chip in the high half), so the amounts of a hand add up to its pot;
    `collected` what its winners took from it as the room reported. `half` is "hi" or "lo" in
    split games (None when the pot is not split, or the halves cannot be told apart because the
    cards are unknown). `run`: in a hand run twice, the run whose share of the pot this is (the
    odd chip in the first run), 0 for a pot not run twice or whose runs were not told apart."""

    name: str
    amount: int
    eligible: tuple[str, ...]
    winners: tuple[str, ...]
    half: str | None
    collected: int
    run: int = 0


@dataclass(slots=True)
class ReplayResult:
    """Everything the replay learnt about a hand. `pot_before[i]` is the pot just before
    `record.events[i]`; `total_pot` and `rake` are computed (rake = pot - collected)."""

    streets: list[StreetResult]
    players: list[PlayerResult]
    pots: list[PotResult]
    total_pot: int
    rake: int
    pot_before: list[int]
    problems: list[Problem]

    @property
    def valid(self) -> bool:
        """No error-severity problem (warnings allowed)."""
        return not any(p.severity == "error" for p in self.problems)
