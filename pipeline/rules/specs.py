"""Game definitions as data (pokerkit's game classes are the model): what each street deals,
whether a draw precedes its betting, which bet unit it uses, who opens it, and how the pot is
won. The replay loop in `state.py` reads only these; it has no per-game branches beyond them.

`GAME_SPECS` is the one table of a game's facts: besides the rules, its name, its PHH code, the
hands the statistics judge (made and bad draw hands), the stat groups it counts in and the table
size that is short-handed. The exporter, the analytics and the dashboard read them from here;
only a game's kind (`Game.kind`) lives below, in the record, for the readers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from studdraw.parsers.model import STUD_DEALS, Game, GameKind


class Opener(StrEnum):
    """Who acts first in a betting round."""

    BRING_IN = "bring_in"  # stud 3rd street: the forced bring-in, chosen by the door cards
    HIGH_BOARD = "high_board"  # the best showing high hand (pairs and high cards only)
    LOW_BOARD = "low_board"  # the lowest showing hand, aces low (razz)
    LOW_BOARD_ACES_HIGH = "low_board_aces_high"  # the lowest showing hand, aces high (2-7 razz)
    LEFT_OF_BIG_BLIND = "left_of_big_blind"  # the first round of a blind game
    LEFT_OF_BUTTON = "left_of_button"  # later rounds of a blind game


class BringIn(StrEnum):
    """Which door card brings in."""

    LOW_CARD = "low_card"  # the lowest card, aces high; suits break ties (lowest suit pays)
    HIGH_CARD = "high_card"  # the highest card, aces low (razz); the highest suit pays
    HIGH_CARD_ACES_HIGH = "high_card_aces_high"  # the highest card, aces high (2-7 razz)


@dataclass(frozen=True, slots=True)
class StreetSpec:
    """One betting round.

    name: the round's id in the rules (the replay's and the rulebooks' word).
    label: the round as the statistics and their pages name it ("3rd street", "after draw 1",
        drawmaha's "flop"): every layer that shows a street reads it from here.
    deal: the cards each player receives when the street starts, True for each card dealt face
        up. Empty for the draw rounds of draw games, where cards come from the draw.
    draw: a draw (discard and replace) precedes the betting.
    big_bet: the round is played for the big bet (else the small bet).
    community: the cards the street deals face up to the board, shared by every player
        (drawmaha's flop 3, turn 1, river 1), after its draw and before its betting; 0 in the
        games without a board (stud's 7th-street community card is `GameSpec.community_street`).
    """

    name: str
    label: str
    deal: tuple[bool, ...]
    draw: bool
    big_bet: bool
    opener: Opener
    community: int = 0


@dataclass(frozen=True, slots=True)
class GameSpec:
    """A whole game.

    best: the evaluator (in `studdraw.pipeline.evaluators`) that ranks hands for the whole pot,
        or for its high half in split games; higher is better. An evaluator of the board
        (`showdown.BOARD_EVALUATORS`: drawmaha's "omaha_high") reads the cards held and the
        board.
    split_low: the evaluator of the low half (None when the pot is not split); a low that does
        not qualify evaluates to None.
    hand_size: cards a player holds at the showdown of a draw game; in stud, the cards dealt.
    community_cards: the board's cards once every street is dealt (the streets' `community`).
    max_discard: most cards one draw may exchange (0 in stud).
    bring_in: how stud chooses the bring-in; None for blind games (draw games).
    open_pair_street: the street on which an open pair allows the big bet (stud's 4th street),
        None where it never does (razz, draw games).
    board: the positions, among a player's cards, of the face-up cards that choose who opens a
        street (stud's door and the three cards after it); empty in draw games.
    community_street: the street whose single card the dealer may deal as one community card
        when the deck cannot serve every player (stud's 7th street); None in draw games.
    kind: stud or draw (`Game.kind`): what house rules name a game by (`HouseRules.max_players`).
    max_players: the most players the game deals in (the rulebooks: stud 8, 2-7 triple draw 6).
    last_street: index of the last betting round.
    draws: how many draw rounds the game has.
    bring_in_street: the round the bring-in opens (stud's 3rd street), -1 in blind games.
    title: the game's name as the dashboard and reports write it.
    phh: the game's part of a PHH variant code (after the structure's letter: "F" + "7S").
    made: the worst hand that counts as made (one to stand pat on, or to break), in the draw
        games the lowest hand wins; None where no hand is "made" (stud, five-card draw).
    bad: below this a hand shown after standing pat is a snow (same games as `made`).
    stat_groups: the groups of statistics that apply to the game (`registry.Stat.group`).
    short_handed: the most seats of a table the statistics call short-handed (above two).
    """

    game: Game
    streets: tuple[StreetSpec, ...]
    best: str
    split_low: str | None
    hand_size: int
    community_cards: int
    max_discard: int
    bring_in: BringIn | None
    open_pair_street: int | None
    board: slice
    community_street: int | None
    kind: GameKind
    max_players: int
    last_street: int
    draws: int
    bring_in_street: int
    title: str
    phh: str
    made: tuple[str, ...] | None
    bad: tuple[str, ...] | None
    stat_groups: tuple[str, ...]
    short_handed: int


def _stud_streets(game: Game, board_opener: Opener) -> tuple[StreetSpec, ...]:
    """The streets `STUD_DEALS` deals, named by the cards held; the first two are played for the
    small bet, the rest for the big bet (seven-card stud: 3rd and 4th; five-card stud: 2nd and
    3rd, as Full Tilt's and iPoker's five-card stud hands bet)."""
    deals = STUD_DEALS[game]
    first = len(deals[0])
    held = range(first, first + len(deals))
    names = [f"{n}{ {2: 'nd', 3: 'rd'}.get(n, 'th') } street" for n in held]
    return tuple(
        StreetSpec(name, name, deal, False, i >= 2, Opener.BRING_IN if i == 0 else board_opener)
        for i, (name, deal) in enumerate(zip(names, deals, strict=True))
    )


DRAW_ROUND_NAMES: Final = ("predraw", "first draw", "second draw", "third draw")
DRAW_ROUND_LABELS: Final = ("before the draw", "after draw 1", "after draw 2", "after draw 3")
"""The rounds of a draw game as the statistics name them; with one draw, the second round is
"after the draw" (there is no draw 2 to tell it from)."""


def _draw_streets(hand_size: int, draws: int) -> tuple[StreetSpec, ...]:
    """The deal's round, then one round after each draw; the later half of the rounds is played
    for the big bet (triple draw: the last two; single draw: the one after the draw)."""
    names = ("predraw", "draw") if draws == 1 else DRAW_ROUND_NAMES
    labels = (DRAW_ROUND_LABELS[0], "after the draw") if draws == 1 else DRAW_ROUND_LABELS
    big_from = (draws + 1) // 2
    return (
        StreetSpec(
            names[0], labels[0], (False,) * hand_size, False, False, Opener.LEFT_OF_BIG_BLIND
        ),
        *(
            StreetSpec(names[i], labels[i], (), True, i >= big_from, Opener.LEFT_OF_BUTTON)
            for i in range(1, draws + 1)
        ),
    )


def _stud(
    game: Game,
    *,
    title: str,
    phh: str,
    best: str,
    split_low: str | None,
    low_game: bool,
    aces_high: bool = False,
    max_players: int = 8,
) -> GameSpec:
    """A stud game: antes, a bring-in, a betting round per street; a six-handed table is
    short-handed (eight-handed when full). Split games count in the stud8 stats too. Seven-card
    stud's last card may be a community card (the deck serves seven cards to eight players but
    not always the river's); five cards each never run a deck out. A low game (`low_game`)
    ranks aces low unless `aces_high` (2-7 razz: the ace is the worst card of a low)."""
    if not low_game:
        opener, bring_in = Opener.HIGH_BOARD, BringIn.LOW_CARD
    elif aces_high:
        opener, bring_in = Opener.LOW_BOARD_ACES_HIGH, BringIn.HIGH_CARD_ACES_HIGH
    else:
        opener, bring_in = Opener.LOW_BOARD, BringIn.HIGH_CARD
    streets = _stud_streets(game, opener)
    first = len(streets[0].deal)
    seven = len(streets) == 5
    return GameSpec(
        game=game,
        streets=streets,
        best=best,
        split_low=split_low,
        hand_size=sum(len(street.deal) for street in streets),
        community_cards=0,
        max_discard=0,
        bring_in=bring_in,
        open_pair_street=None if low_game or not seven else 1,
        board=slice(first - 1, first + 3),  # the door card and the next three up cards
        community_street=len(streets) - 1 if seven else None,
        kind=game.kind,
        max_players=max_players,
        last_street=len(streets) - 1,
        draws=0,
        bring_in_street=0,
        title=title,
        phh=phh,
        made=None,
        bad=None,
        stat_groups=("all", "stud", "stud8") if split_low else ("all", "stud"),
        short_handed=6,
    )


def draw_spec(
    game: Game,
    *,
    title: str,
    phh: str,
    best: str,
    hand_size: int,
    max_players: int,
    draws: int = 3,
    made: tuple[tuple[str, ...], tuple[str, ...]] | None = None,
    split_low: str | None = None,
    streets: tuple[StreetSpec, ...] | None = None,
) -> GameSpec:
    """A draw game: the first round after the deal, then `draws` rounds each opened by a draw
    (triple draw: 3; single draw and five-card draw: 1); `made`: its (made, bad) hands, for the
    games the lowest hand wins; `split_low`: the evaluator of the pot's other half in the split
    draw games (badacey, badeucey: `best` ranks the badugi half); `streets`: rounds other than
    the draw games' usual ones (drawmaha's board). A four-handed table is short-handed
    (six-handed when full)."""
    if streets is None:
        streets = _draw_streets(hand_size, draws)
    return GameSpec(
        game=game,
        streets=streets,
        best=best,
        split_low=split_low,
        hand_size=hand_size,
        community_cards=sum(street.community for street in streets),
        max_discard=hand_size,
        bring_in=None,
        open_pair_street=None,
        board=slice(0, 0),
        community_street=None,
        kind=game.kind,
        max_players=max_players,
        last_street=len(streets) - 1,
        draws=draws,
        bring_in_street=-1,
        title=title,
        phh=phh,
        made=made[0] if made else None,
        bad=made[1] if made else None,
        stat_groups=("all", "draw"),
        short_handed=4,
    )


DRAWMAHA_STREETS: Final = (
    StreetSpec("predraw", "before the flop", (False,) * 5, False, False, Opener.LEFT_OF_BIG_BLIND),
    StreetSpec("flop", "flop", (), False, False, Opener.LEFT_OF_BUTTON, community=3),
    StreetSpec("turn", "turn (after the draw)", (), True, True, Opener.LEFT_OF_BUTTON, community=1),
    StreetSpec("river", "river", (), False, True, Opener.LEFT_OF_BUTTON, community=1),
)
"""Drawmaha's rounds, as KingsClub deals them (cash/KingsClub/Draw/2-7 Drawmaha-FL-*): five
cards and a round for the small bet, the flop and a round for the small bet, the one draw and
the turn, then the river, each for the big bet."""

_LOW27: Final = (("Th", "9c", "8d", "7s", "5h"), ("Kc", "Qd", "Jh", "Ts", "8s"))
"""2-7: made is a ten-low without a pair, straight or flush; bad is worse than every king-low
without one (pairs, straights, flushes and ace-high)."""
_LOW_A5: Final = (("Th", "9c", "8d", "7s", "6h"), ("Kc", "Qd", "Jh", "Ts", "9s"))
"""A-5: made is a ten-low without a pair; bad is a paired hand."""
_BADUGI: Final = (("Kc", "Qd", "Jh", "Ts"), ("Kc", "Qd", "Jh", "Ts"))
"""Badugi: made is any four-card badugi; bad is anything short of one."""

GAME_SPECS: Final[dict[Game, GameSpec]] = {
    Game.STUD: _stud(
        Game.STUD, title="Seven-card stud", phh="7S", best="high", split_low=None, low_game=False
    ),
    Game.STUD8: _stud(
        Game.STUD8, title="Stud hi/lo", phh="7S/8", best="high", split_low="low8", low_game=False
    ),
    Game.RAZZ: _stud(
        Game.RAZZ, title="Razz", phh="R", best="low_a5", split_low=None, low_game=True
    ),
    # Five-card stud (tour/FTP/Stud/5-Stud-*, cash/iPoker/Stud/5-StudL-*): one down card and
    # the door, then three up cards; the low door brings in, the small bet on 2nd and 3rd
    # street. PHH's spec has no code for it (built the same way: "F5S"); the rulebooks in
    # ../shared/rules give no open-pair rule for it, so an open pair changes nothing.
    Game.STUD5: _stud(
        Game.STUD5, title="Five-card stud", phh="5S", best="high", split_low=None,
        low_game=False,
    ),
    # 2-7 razz (KingsClub's "Limit 2-7 Razz"): razz's deal ranked deuce-to-seven, best five of
    # seven; the ace is high, so the highest door card, an ace above a king, brings in
    # (cash/KingsClub/Stud/2-7 Razz-USD-22-44-202101.txt: the ace of hearts brings in against a
    # queen), and the lowest board by 2-7 (pairs worst, aces high) opens the later streets.
    Game.RAZZ27: _stud(
        Game.RAZZ27, title="2-7 razz", phh="2R", best="low27", split_low=None, low_game=True,
        aces_high=True,
    ),
    # deuce-to-seven-triple-draw.de.txt: "at most six players"
    Game.TD27: draw_spec(
        Game.TD27, title="2-7 triple draw", phh="2L3D", best="low27", hand_size=5,
        max_players=6, made=_LOW27,
    ),
    Game.TDA5: draw_spec(
        Game.TDA5, title="A-5 triple draw", phh="A5L3D", best="low_a5", hand_size=5,
        max_players=6, made=_LOW_A5,
    ),
    # Four cards each and three draws: PokerStars and Full Tilt deal badugi to eight
    # (tour/Stars/Draw/LBad-USD-MTT8-201011.txt, cash/FTP/Draw/Badugi-FL-USD-0.10-0.20-201305.*).
    Game.BADUGI: draw_spec(
        Game.BADUGI, title="Badugi", phh="B", best="badugi", hand_size=4, max_players=8,
        made=_BADUGI,
    ),
    # One draw: no rulebook in ../shared/rules; PokerStars seats single draw at 7-max tables
    # (cash/Stars/Draw/2-7 Single Draw-NL-*), and eight players keep a full deck for the draw.
    Game.SD27: draw_spec(
        Game.SD27, title="2-7 single draw", phh="2L1D", best="low27", hand_size=5,
        max_players=8, draws=1, made=_LOW27,
    ),
    # Five-card draw (high) has no made hand: a pair is not "made", and drawing to it is the game.
    Game.DRAW5: draw_spec(
        Game.DRAW5, title="Five-card draw", phh="5CD", best="high", hand_size=5, max_players=8,
        draws=1,
    ),
    # A-5 single draw (KingsClub's "Limit A-5 Single Draw", heads-up in the corpus): A-5 triple
    # draw's hand with one draw, seated like 2-7 single draw.
    Game.SDA5: draw_spec(
        Game.SDA5, title="A-5 single draw", phh="A5L1D", best="low_a5", hand_size=5,
        max_players=8, draws=1, made=_LOW_A5,
    ),
    # The split draw games (KingsClub's "Limit Badacey", "Limit Badeucey"): five cards, three
    # draws, no qualifier on either half. Badacey: the best badugi of four of the five cards
    # (aces low) and the best A-5 low of the five; badeucey: both halves deuce-to-seven, the
    # ace high in the badugi too. Dealt as triple draw, six at most. No made hand: what to
    # stand pat on depends on the half one plays for.
    Game.BADACEY: draw_spec(
        Game.BADACEY, title="Badacey", phh="B/A5L3D", best="badugi", split_low="low_a5",
        hand_size=5, max_players=6,
    ),
    Game.BADEUCEY: draw_spec(
        Game.BADEUCEY, title="Badeucey", phh="B/2L3D", best="badugi27", split_low="low27",
        hand_size=5, max_players=6,
    ),
    # Drawmaha (KingsClub's "Limit 2-7 Drawmaha"): five cards each, a board of five dealt as in
    # hold'em and one draw, after the flop's betting. The pot is split: half to the best
    # Omaha high hand (two of the five held with three of the board), half to the best 2-7 low
    # of the five held (cash/KingsClub/Draw/2-7 Drawmaha-FL-USD-60-120-202108.showdown.txt:
    # 484.50 each). PHH has no code for it (built as the split draw games': "O/2L1D").
    Game.DRAWMAHA: draw_spec(
        Game.DRAWMAHA, title="Drawmaha", phh="O/2L1D", best="omaha_high", split_low="low27",
        hand_size=5, max_players=6, draws=1, streets=DRAWMAHA_STREETS,
    ),
}  # fmt: skip
"""Every game, in the order the dashboard and reports list them."""


def street_label(game: str, street: int) -> str | None:
    """How the statistics name round `street` of `game` (a `Game` value), None when the game has
    no such round (single draw's third round) or is unknown."""
    spec = GAME_SPECS.get(Game(game)) if game in Game.__members__.values() else None
    if spec is None or street >= len(spec.streets):
        return None
    return spec.streets[street].label


def games_where(test: Callable[[GameSpec], bool]) -> tuple[str, ...]:
    """The ids of the games whose spec passes `test`, in table order, as plain strings (what SQL
    and the store's `game` column hold)."""
    return tuple(game.value for game, spec in GAME_SPECS.items() if test(spec))
