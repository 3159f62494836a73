"""The room-neutral hand record: the contract between the rooms' readers and the pipeline.

Every room turns one hand text into a `HandRecord`; everything downstream (rules engine,
store, analytics, dashboard) reads only this. Money is exact: integers of the smallest unit of
the hand's currency, with `HandRecord.scale` units per whole currency unit. Cards are two-letter
strings ("As", "Td"); a card the export does not reveal is `None` and stays unknown.

The records are values: once built, nothing changes them (`dataclasses.replace` makes a changed
copy), and they compare and hash by value. They are not declared frozen: this module is
compiled (setup.py), and a compiled frozen dataclass sets each field through
`object.__setattr__`, which made parsing slower than the interpreter's plain classes. Compiled
and unfrozen, the rules engine and normalize read their fields directly, and `Event`, made ~30
times a hand, is built by a compiled `__init__`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Final, cast

from studdraw.parsers.problems import Code, Problem

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

RANKS: Final = "23456789TJQKA"
SUITS: Final = "cdhs"

Card = str
"""A known card: rank from RANKS then suit from SUITS, e.g. "As", "Td"."""


class _Value:
    """The base of the records' classes: each is pickled as its class and its fields in order,
    so that it is remade through its `__init__` (which `Event`'s compiled one needs), and a
    compiled build and the pure-Python one read each other's pickles."""

    __slots__ = ()

    def __reduce__(self) -> tuple[type[_Value], tuple[object, ...]]:
        record = cast("DataclassInstance", self)
        return type(self), tuple(getattr(self, part.name) for part in fields(record))


class GameKind(StrEnum):
    """Which kind of game: stud (antes, a bring-in, cards dealt up and down) or draw (blinds,
    hidden hands, draws). The readers, the rules engine and the house rules branch on this."""

    STUD = "stud"
    DRAW = "draw"


class Game(StrEnum):
    """The games in scope; the value is the stable game id used in the store and the CLI.

    Every other fact of a game is its `GameSpec` (`studdraw.pipeline.rules.specs`); the readers,
    below the pipeline, need only its kind and, in stud, which cards each street deals face up
    (`STUD_DEALS`), written here once (the spec reads them from here)."""

    STUD = "stud"
    STUD8 = "stud8"
    RAZZ = "razz"
    TD27 = "td27"
    TDA5 = "tda5"
    BADUGI = "badugi"
    SD27 = "sd27"
    DRAW5 = "draw5"
    STUD5 = "stud5"
    SDA5 = "sda5"
    RAZZ27 = "razz27"
    BADACEY = "badacey"
    BADEUCEY = "badeucey"
    DRAWMAHA = "drawmaha"

    @property
    def kind(self) -> GameKind:
        return GameKind.STUD if self in _STUD_GAMES else GameKind.DRAW

    @property
    def is_stud(self) -> bool:
        return self in _STUD_GAMES

    @property
    def is_draw(self) -> bool:
        return self not in _STUD_GAMES


_SEVEN_CARDS: Final = ((False, False, True), (True,), (True,), (True,), (False,))
STUD_DEALS: Final[dict[Game, tuple[tuple[bool, ...], ...]]] = {
    Game.STUD: _SEVEN_CARDS,
    Game.STUD8: _SEVEN_CARDS,
    Game.RAZZ: _SEVEN_CARDS,
    Game.RAZZ27: _SEVEN_CARDS,
    Game.STUD5: ((False, True), (True,), (True,), (True,)),
}
"""Each stud game's streets, as the cards each deals, True for face up: seven-card stud's 3rd
street two down and the door, 4th to 6th one up, 7th one down; five-card stud's 2nd street one
down and the door, 3rd to 5th one up. A street is named by the cards a player then holds ("3rd
street"), so the first street's size says the number of the first street."""

_STUD_GAMES: Final = frozenset(STUD_DEALS)
"""The stud games, every other game is a draw game. A set, not a tuple of `Game.X`: each member
looked up through the enum class costs more than the test, and parsing a hand asks a few dozen
times."""


def stud_street(game: Game, number: int) -> int:
    """The index of the betting round of the stud street a room names by `number` (its cards
    held: 3 for "3rd street"); -1 or past the last when the game has no such street."""
    return number - len(STUD_DEALS[game][0])


class Structure(StrEnum):
    """A betting structure; what each allows is data (`pipeline/rules/structures.py`)."""

    FIXED = "fixed"
    POT = "pot"
    HALF_POT = "half_pot"
    NO = "no"
    SPREAD = "spread"


class EventKind(StrEnum):
    """What an event does. Amount semantics are documented on `Event`."""

    # forced bets
    ANTE = "ante"
    SMALL_BLIND = "small_blind"
    BIG_BLIND = "big_blind"
    POST = "post"  # any other live posted blind (post to play, returning player's big blind)
    DEAD = "dead"  # dead money posted (a dead small blind); not part of anyone's bet
    BRING_IN = "bring_in"
    # betting actions
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    COMPLETE = "complete"
    # cards
    DEAL = "deal"  # cards dealt to a player; `up` tells which were dealt face up
    COMMUNITY = "community"  # cards dealt face up to the board: drawmaha's flop, turn and
    # river, or stud's single shared river card when the deck runs short
    DISCARD = "discard"  # `count` cards thrown; `cards` when the export shows them
    DRAW = "draw"  # replacement cards received (may be unknown)
    STAND_PAT = "stand_pat"
    RESHUFFLE = "reshuffle"  # the dealer reshuffled the discards into the stub (draw games)
    # street structure and room announcements
    STREET = "street"  # a new betting round begins; `street` is its index
    CAPPED = "capped"  # the room announced that betting is capped
    OPEN_PAIR = "open_pair"  # the room announced that a double bet is allowed on 4th street
    # showdown and money out
    SHOW = "show"
    MUCK = "muck"
    UNCALLED = "uncalled"  # `amount` returned to `player`
    COLLECT = "collect"  # `amount` won from `pot`
    # table life (kept for the replayer, ignored by the rules)
    SIT_OUT = "sit_out"
    SIT_IN = "sit_in"
    JOIN = "join"
    LEAVE = "leave"
    CHAT = "chat"
    NOTE = "note"  # any other informational line the room printed

    @property
    def is_forced(self) -> bool:
        return self in _FORCED

    @property
    def is_betting(self) -> bool:
        return self in _BETTING

    @property
    def puts_in(self) -> bool:
        """A forced bet or a wager: chips the player puts in (one test where a loop over a
        hand's events would ask both of the above)."""
        return self in _PUTS_IN


_FORCED: Final = frozenset(
    {
        EventKind.ANTE,
        EventKind.SMALL_BLIND,
        EventKind.BIG_BLIND,
        EventKind.POST,
        EventKind.DEAD,
        EventKind.BRING_IN,
    }
)
_BETTING: Final = frozenset(
    {
        EventKind.FOLD,
        EventKind.CHECK,
        EventKind.CALL,
        EventKind.BET,
        EventKind.RAISE,
        EventKind.COMPLETE,
    }
)
_PUTS_IN: Final = _FORCED | _BETTING


@dataclass(init=False, slots=True, unsafe_hash=True)
class Event(_Value):
    """One line of the hand, in the order the room printed it.

    amount: chips the player puts in with this event (forced bets, call, bet, raise, complete),
        gets back (uncalled) or wins (collect); 0 otherwise. Antes and dead posts are dead
        money; blinds, posts and the bring-in count toward the player's bet on the street.
    to: for bet, raise, complete, call and bring-in: the player's total contribution on this
        street after the event, as the room states it or as its reader derived it.
    street: index of the betting round in play (stud: 0 = 3rd street .. 4 = 7th street;
        draw: 0 = before the first draw .. 3 = after the third draw).
    cards / up: the cards of a deal, show, muck, discard or draw; `up[i]` tells whether
        `cards[i]` was dealt face up (stud). Unknown cards are None.
    count: number of cards discarded or drawn when the cards themselves are hidden.
    pot: for collect, which pot: "main", "side1", "side2", ..., with ":hi"/":lo" for split halves.
    run: in a hand run twice (`HandRecord.runs`), the run a draw, a show or a collect belongs
        to (1, 2, ...); 0 for what every run shares (the betting, the discards, a pat hand shown
        once, a collect the room did not attribute to a run).
    """

    kind: EventKind
    line: int
    street: int = 0
    player: str | None = None
    amount: int = 0
    to: int | None = None
    all_in: bool = False
    cards: tuple[Card | None, ...] = ()
    up: tuple[bool, ...] = ()
    count: int | None = None
    pot: str | None = None
    text: str | None = None
    run: int = 0

    def __init__(  # noqa: PLR0917 (the fields, in order)
        self,
        kind: EventKind,
        line: int,
        street: int = 0,
        player: str | None = None,
        amount: int = 0,
        to: int | None = None,
        all_in: bool = False,
        cards: tuple[Card | None, ...] = (),
        up: tuple[bool, ...] = (),
        count: int | None = None,
        pot: str | None = None,
        text: str | None = None,
        run: int = 0,
    ) -> None:
        self.kind = kind
        self.line = line
        self.street = street
        self.player = player
        self.amount = amount
        self.to = to
        self.all_in = all_in
        self.cards = cards
        self.up = up
        self.count = count
        self.pot = pot
        self.text = text
        self.run = run


@dataclass(slots=True, unsafe_hash=True)
class Seat(_Value):
    seat: int
    player: str
    stack: int
    sitting_out: bool = False


@dataclass(slots=True, unsafe_hash=True)
class Stakes(_Value):
    """Bet sizes in the hand's smallest unit; 0 where the game has no such bet."""

    small_bet: int
    big_bet: int
    ante: int = 0
    bring_in: int = 0
    small_blind: int = 0
    big_blind: int = 0


@dataclass(slots=True, unsafe_hash=True)
class Tournament(_Value):
    tournament_id: str
    buy_in: int | None = None  # in the buy-in currency's smallest unit (cents), fee excluded
    fee: int | None = None
    currency: str | None = None
    level: str | None = None


@dataclass(slots=True, unsafe_hash=True)
class SourceRef(_Value):
    """Where a hand came from: the file, the byte offset of its first line, and that line."""

    path: str
    offset: int
    line: int


@dataclass(slots=True, unsafe_hash=True)
class Claim(_Value):
    """What a hand's summary says about the money, to be held against the play: with `player`,
    what the player won in all (0 for a seat line that says the player folded, lost or mucked),
    or with `net`, the player's net result (won less put in, as OnGame's "net: +$1.47");
    without, the size of the pot `pot` ("main", "side1", ...) as the summary splits the total.
    `line` is the summary line that says it."""

    line: int
    amount: int
    player: str | None = None
    pot: str | None = None
    net: bool = False


@dataclass(slots=True)
class HandRecord(_Value):
    room: str
    room_hand_id: str
    game: Game
    structure: Structure
    currency: str  # ISO code for cash ("USD", "EUR"), "PLAY" for play money, "CHIPS" in tournaments
    scale: int  # smallest units per whole currency unit: 100 for cents, 1 for tournament chips
    stakes: Stakes
    started_at: datetime  # UTC, time-zone aware
    room_time: (
        str  # the time exactly as the room printed it, with its zone ("2009/11/26 10:08:43 ET")
    )
    table: str
    seats: list[Seat]
    events: list[Event]
    source: SourceRef
    max_seats: int | None = None
    button: int | None = None  # seat number of the button (draw games)
    tournament: Tournament | None = None
    mixed: str | None = None  # the mixed-game rotation the hand belongs to ("8-Game", "HORSE")
    hero: str | None = None
    total_pot: int | None = None  # the whole pot before rake, as the room reported it
    rake: int | None = None  # as reported; rooms that print the pot after rake are converted
    notes: list[str] = field(default_factory=list)  # oddities the room's reader tolerated
    problems: list[Problem] = field(default_factory=list)  # the reader's warnings (TXT001)
    claims: list[Claim] = field(default_factory=list)  # the summary's word on winners and pots
    runs: int = 1  # how many times the board or the draw was run (2: run twice, `Event.run`)

    @property
    def players(self) -> list[str]:
        return [seat.player for seat in self.seats]


@dataclass(slots=True, unsafe_hash=True)
class HandText(_Value):
    """One hand's raw text as cut from a file, with its position for every later message."""

    text: str
    source: SourceRef
    room: str | None  # the room that recognised the file, None if no room did
    problem: Problem | None = None
    """Why the text cannot be read as it stands (FIL002: a line or a hand over the splitter's
    length bound, kept as an excerpt): the hand is a reject with this problem, never parsed."""
    stray: bool = False
    """Text that starts no room's hand (before a file's first hand, or a whole file that holds
    none): a problem with its line (FIL001), never counted as a hand."""


class Outcome(StrEnum):
    PARSED = "parsed"
    UNSUPPORTED = "unsupported"  # a game or hand kind outside scope (hold'em, five-card stud, ...)
    ERROR = "error"  # a hand of a supported game that could not be read (truncated, corrupted)
    STRAY = "stray"  # text that starts no room's hand: a problem of the file, not a hand


_OUTCOMES: Final = {Code.UNS001: Outcome.UNSUPPORTED, Code.FIL001: Outcome.STRAY}


@dataclass(slots=True, unsafe_hash=True)
class ParsedHand(_Value):
    """The result of parsing one hand text: a record, or the problem that stopped it, never
    both. game_label: the room's own name for the game of a hand that did not become a record,
    when known (an unsupported game is counted under it)."""

    hand: HandText
    room_hand_id: str | None
    record: HandRecord | None = None
    problem: Problem | None = None
    game_label: str | None = None

    @property
    def outcome(self) -> Outcome:
        """What became of the text, by its problem's code: unsupported (UNS001), stray text
        (FIL001), any other an error."""
        if self.problem is None:
            return Outcome.PARSED
        return _OUTCOMES.get(self.problem.code, Outcome.ERROR)
