"""KingsClub: the 2020-2021 exports ("#37581152: Limit Seven Card Stud - 44/88"), cash and
tournament tables of the room's mixed games. Notes on the format are in docs/rooms/kingsclub.md.

The room's habits that shape this module:

- stud prints no marker before 3rd street: the deal, the bring-in and the betting come first,
  and "*** 3RD STREET ***" then opens 4th street, ..., "*** 6TH STREET ***" the 7th (FPDB's
  converter knows an older form whose markers name their own street; both are read);
- calls and raises state the player's street total ("calls 121.16" after "bets 44");
- an uncalled bet is paid back without a line (the summary's nets prove it): the reader adds the
  return, marked as inferred, where the betting round is over (next street, showdown, summary);
- "posts blind 44" is a returning player's live big blind, and a dead small blind of half of it
  goes in unprinted (the nets prove it); a player who missed the small blind pays it dead
  without any line (the summary's net is short by exactly the small blind): the reader adds it;
- an all-in no-limit single draw may be run twice: the hero's draw line names both runs' cards
  ("Hero discards [Th] draws [8c] [Qs]"), each run's hand is shown on its own line ("Run 1: X
  shows"), a hand that is the same in both runs once; the record keeps each run's draws and
  shows apart (`Event.run`), and the collects, which do not say which run they are from, stay
  the hand's (run 0).
"""

from __future__ import annotations

from typing import Any, Final

from studdraw.parsers.builder import (
    HandParseError,
    card_count,
    no_game,
    stud_faces,
)
from studdraw.parsers.model import (
    Claim,
    Event,
    EventKind,
    Game,
    HandRecord,
    HandText,
    Outcome,
    Structure,
    Tournament,
)
from studdraw.parsers.text.line_reader import LineReader
from studdraw.parsers.text.room import TextRoom
from studdraw.parsers.text.tokens import LineToken
from studdraw.parsers.text.verbs import BET, CHECK, FOLD, RAISE_TO, Reads, Verb

GAMES: Final = {
    "Seven Card Stud": Game.STUD,
    "Seven Card Stud Hi-Lo": Game.STUD8,
    "Razz": Game.RAZZ,
    "2-7 Triple Draw": Game.TD27,
    "A-5 Triple Draw": Game.TDA5,
    "Badugi": Game.BADUGI,
    "2-7 Single Draw": Game.SD27,
    "A-5 Single Draw": Game.SDA5,
    "2-7 Razz": Game.RAZZ27,
    "Badacey": Game.BADACEY,
    "Badeucey": Game.BADEUCEY,
    "2-7 Drawmaha": Game.DRAWMAHA,
    "Captain": Game.DRAWMAHA,  # FPDB's converter's name for it too (no corpus hand)
}
"""The room's game label -> the game it deals."""
NOT_READ: Final = {
    "5 Card Draw": "five-card draw as KingsClub prints it is not read yet (no hand to learn from)",
}
"""Labels of the room's stud and draw games that studdraw does not read yet, with why; a game
given a definition moves to GAMES. Any other label (hold'em, Omaha) is out of scope."""
DRAW_AS_DEAL: Final = (
    "a draw printed as a deal after the draw marker (the older export, seen only in a hand run "
    "twice: 'Dealt to Hero: [6h Ks Ks]', the runs' cards unlabelled) is not read"
)
STRUCTURES: Final = {
    "Limit": Structure.FIXED,
    "Fixed Limit": Structure.FIXED,
    "Pot Limit": Structure.POT,
    "No Limit": Structure.NO,
}
STUD_MARKERS: Final = {
    "3RD STREET": 0,
    "4TH STREET": 1,
    "5TH STREET": 2,
    "6TH STREET": 3,
    "7TH STREET": 4,
}
"""Stud markers as named; the reader shifts them by one when 3rd street came unmarked."""
DRAW_STREETS: Final = {"1ST DRAW": 1, "2ND DRAW": 2, "3RD DRAW": 3}
BOARD_STREETS: Final = {"FLOP": (1, "flop"), "TURN": (2, "turn"), "RIVER": (3, "river")}
"""Drawmaha's board markers: the street each opens (the turn's draw may have opened it)."""
BOARD_GAMES: Final = frozenset({Game.DRAWMAHA})
"""The games dealt with a board, whose markers print its cards (and no "1ST BETTING ROUND")."""
DRAW_AFTER: Final = {Game.DRAWMAHA: (1, "turn (its draw, printed before the marker)")}
"""The games whose draw the room prints unmarked after a street's betting, and that street:
drawmaha draws after the flop's betting, and the draw opens the turn."""
FIRST_ROUND: Final = "1ST BETTING ROUND"
"""Printed before the draw games' antes and blinds: the round itself opens with the deal."""
BLINDS: Final = frozenset(kind for kind in EventKind if kind.is_forced) - {EventKind.ANTE}
"""What counts as a player's blind when a missed small blind is inferred (the renderer asks it
too, to know which dead posts the text gives back)."""
_PAID_OUT: Final = frozenset({EventKind.COLLECT, EventKind.UNCALLED})

VERBS: Final = {
    "folds": FOLD,
    "checks": CHECK,
    "calls": Verb(EventKind.CALL, Reads.TOTAL_TO),  # "calls 121.16": the street total
    "bets": BET,  # on 3rd street over the bring-in, the base reads it as the completion
    "raises to": RAISE_TO,
    **{
        verb: Verb(EventKind.BRING_IN)
        for verb in ("brings in for", "brings-in for", "brings in low for", "brings-in low for")
    },
}
POSTS: Final = {
    "ante": EventKind.ANTE,
    "the small blind": EventKind.SMALL_BLIND,
    "the big blind": EventKind.BIG_BLIND,
    "blind": EventKind.POST,  # a returning player's big blind, with a dead small blind: on_post
    "straddle": EventKind.POST,
}


class KingsClubReader(LineReader):
    verbs = VERBS
    posts = POSTS
    draw_streets = DRAW_STREETS
    games = GAMES
    limit_blind = True  # a limit draw game's big blind is the small bet
    not_read = NOT_READ
    structures = STRUCTURES
    time_formats = ("%Y-%m-%d %H:%M:%S",)
    zone = "ET"  # the room prints no zone; FPDB's converter reads its times as Eastern time

    def begin(self, hand: HandText) -> None:
        super().begin(hand)
        self._marker_shift = 0  # 1 when 3rd street was dealt before any marker
        self._summary = False
        self._dealt = False  # the first deal has been read
        self._nets: dict[str, int] = {}  # the summary's net of each player
        self._label = ""  # the room's game label, for the reason of an unsupported deal

    # --- header and seats -------------------------------------------------------------------
    def on_header(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        b.room_hand_id = found("id") or ""
        label = self._label = found("game") or ""
        b.game = self.read_game(label, token.number)
        b.structure = self.read_structure(found("limit") or "", token.number, label)
        b.header_stakes(self.amount(token, "small"), self.amount(token, "big"), self.limit_blind)

    def on_time(self, token: LineToken) -> None:
        b = self.b
        b.room_time = token.field("time") or ""
        self.read_time(b.room_time, None, token.number)

    def on_table(self, token: LineToken) -> None:
        found = token.field
        b = self.b
        if found("tid"):
            b.tournament = Tournament(found("tid") or "")
            b.currency = "CHIPS"
        elif found("play"):
            b.currency = "PLAY"
        b.table = found("tournament_table") or found("table") or ""
        b.max_seats = int(found("max") or 0) or None
        b.button = int(found("button") or 0) or None

    def on_seat(self, token: LineToken) -> None:
        """A seat line in the summary (a player without a net result) repeats the roster: the
        player neither won nor lost (a net `Claim`, held against the collects)."""
        if not self._summary:
            super().on_seat(token)
            return
        self.b.claims.append(Claim(token.number, 0, self.player(token), net=True))

    def on_summary_seat(self, token: LineToken) -> None:
        """The summary's "Seat 1: X (2,079.98) -66.32": the stack after the hand and the net,
        which the replay recomputes from the events; the net also proves an unprinted dead
        small blind (`start`)."""
        net = token.field("net") or "+0"
        amount = self.b.money(net[1:], token.number)
        player, amount = self.player(token), -amount if net.startswith("-") else amount
        self._nets[player] = amount
        self.b.claims.append(Claim(token.number, amount, player, net=True))

    def start(self, _: list[Any]) -> HandRecord:
        self._add_missed_small_blinds()
        return super().start(_)

    def _add_missed_small_blinds(self) -> None:
        """A draw-game player whose summary net is short of the events' by exactly the small
        blind, and who posted no blind, paid a missed small blind dead, unprinted: corpus hand
        #3516416 (NL-2-7-SD-...missed.sb.txt), Player0 raises to 500, folded to, nets +875 =
        1,350 won - 100 ante - 250 (the raise less its uncalled 250) - 125. The dead post goes
        in after the blinds, before the deal, on the player's ante line, marked as inferred."""
        b = self.b
        if b.game is None or not b.game.is_draw or not self._nets:
            return
        small = b.small_blind or b.big_blind // 2
        nets = {seat.player: 0 for seat in b.seats}
        blinds: set[str] = set()  # players who posted a blind (live or dead)
        for event in b.events:
            player, kind = event.player, event.kind
            if player is None or player not in nets:  # not seated: the replay's ORD006
                continue
            if kind.puts_in:
                nets[player] -= event.amount
                if kind in BLINDS:
                    blinds.add(player)
            elif kind in _PAID_OUT:
                nets[player] += event.amount
        deal = next((i for i, e in enumerate(b.events) if not e.kind.is_forced), None)
        if deal is None:
            return  # the forced bets run to the end: no deal to put the post before
        for player, net in nets.items():
            printed = self._nets.get(player)
            if printed is None or player in blinds or net - printed != small:
                continue
            line = next(
                (e.line for e in b.events if e.player == player and e.kind is EventKind.ANTE),
                b.events[deal].line,
            )
            b.events.insert(
                deal,
                Event(
                    EventKind.DEAD,
                    line,
                    0,
                    player,
                    amount=small,
                    text="inferred: a missed small blind, unprinted (the summary's net)",
                ),
            )
            deal += 1

    def on_post(self, token: LineToken) -> None:
        """ "Player1: posts blind 44": a live big blind of 44 and, unprinted, a dead small blind
        (the table's small blind, else half the big blind): FPDB's regression hand #39879543
        nets it (Player1 -77 = ante 11 + 44 + 22)."""
        super().on_post(token)
        if token.field("post") != "blind":
            return
        b = self.b
        small = [e.amount for e in b.events if e.kind is EventKind.SMALL_BLIND]
        dead = max(small, default=b.big_blind // 2)
        b.add(EventKind.DEAD, token.number, self.player(token), amount=dead)

    # --- streets ----------------------------------------------------------------------------
    def on_street(self, token: LineToken) -> None:
        self.infer_uncalled(token.number)
        b = self.b
        if b.game is None:
            raise no_game(token.number)
        name = token.field("street") or ""
        if b.game.is_draw:
            if name != FIRST_ROUND:
                super().on_street(token)
            return
        index = STUD_MARKERS.get(name)
        if index is None:
            raise HandParseError(f"{name} is not a street of {b.game}", token.number)
        index += self._marker_shift
        if index > 4:
            raise HandParseError(f"{name} after an unmarked 3rd street", token.number)
        b.new_stud_street(index, token.number)

    def on_board(self, token: LineToken) -> None:
        """Drawmaha's "*** TURN *** [6h Qd 2h] [3d]": the street (unless its draw opened it)
        and its board cards; the board so far must be the one dealt."""
        self.infer_uncalled(token.number)
        b, line = self.b, token.number
        index, name = BOARD_STREETS[token.field("board") or ""]
        if b.game not in BOARD_GAMES:
            raise HandParseError(f"a board ({name}) in {b.game}", line)
        board = [c for e in b.events if e.kind is EventKind.COMMUNITY for c in e.cards]
        shown = self.cards(token)
        new = self.cards(token, "new") if token.field("new") is not None else shown
        if new is not shown and list(shown) != board:
            raise HandParseError(
                f"the {name} repeats the board as {' '.join(map(str, shown))}, "
                f"not {' '.join(map(str, board))}",
                line,
            )
        if b.street != index:
            b.new_street(index, line, name)
        b.add(EventKind.COMMUNITY, line, cards=new, up=(True,) * len(new))

    def on_run_shows(self, token: LineToken) -> None:
        """ "Run 2: Player4 shows [...]": one run's hand of a pot run twice."""
        self.infer_uncalled(token.number)
        run = int(token.field("run") or 0)
        self.b.add(
            EventKind.SHOW, token.number, self.player(token), cards=self.cards(token), run=run
        )

    def on_round(self, token: LineToken) -> None:
        """ "*** 2ND BETTING ROUND ***": the draw's marker before it opened the round."""

    def on_dealt(self, token: LineToken) -> None:
        """ "Dealt to X: [X X 2s]": hidden cards print as X. The first deal opens the first
        round (no marker precedes it but the draw games' "1ST BETTING ROUND", printed before
        the forced bets); the hero is the player whose first cards are known."""
        b = self.b
        if b.game is None:
            raise no_game(token.number)
        player, line = self.player(token), token.number
        cards = self.cards(token)
        if self._dealt and b.game.is_draw and b.street > 0:
            # "Dealt to Hero: [6h Ks Ks]" after "*** 1ST DRAW ***" (#3857875, run twice)
            raise HandParseError(DRAW_AS_DEAL, line, Outcome.UNSUPPORTED, game_label=self._label)
        if not self._dealt:
            self._dealt = True
            if not any(e.kind is EventKind.STREET for e in b.events):
                self._marker_shift = 1
                if b.game.is_stud:
                    b.new_stud_street(0, line)
                else:
                    b.new_street(0, line, "deal")
        if b.game.is_draw:
            if None not in cards:
                b.hero = player
            b.add(EventKind.DEAL, line, player, cards=cards, up=(False,) * len(cards))
            return
        up = stud_faces(b.game, b.street, len(cards), line)
        if b.street == 0 and None not in cards:
            b.hero = player
        b.add(EventKind.DEAL, line, player, cards=cards, up=up)

    # --- draws ------------------------------------------------------------------------------
    def _unmarked_draw(self, line: int) -> None:
        """A-5 single draw prints no marker before its draw (cash/KingsClub/Draw/A5-1-Draw-...:
        "Hero discards [Tc Ks Qc] draws [7s 3h 3s]" right after the first round's call): the
        first draw line of the deal's round opens the draw round, its marker inferred."""
        b = self.b
        if b.game is None or not b.game.is_draw or not self._dealt:
            return
        after, name = DRAW_AFTER.get(b.game, (0, "draw (inferred: no marker printed)"))
        if b.street == after:
            self.infer_uncalled(line)
            b.new_street(after + 1, line, name)

    def on_stand_pat(self, token: LineToken) -> None:
        self._unmarked_draw(token.number)
        super().on_stand_pat(token)

    def on_discard(self, token: LineToken) -> None:
        """The hero's draw: "Hero discards [Ts Jh] draws [3c 6c]"; run twice, each run's cards
        in turn ("draws [8c] [Qs]": 8c in run 1, Qs in run 2)."""
        b = self.b
        player, line = self.player(token), token.number
        self._unmarked_draw(line)
        thrown = self.cards(token)
        b.add(EventKind.DISCARD, line, player, count=len(thrown), cards=thrown)
        runs = [self.cards(token, "new")]
        if token.field("run_cards") is not None:
            runs.append(self.cards(token, "run_cards"))
        for run, drawn in enumerate(runs, 1 if len(runs) > 1 else 0):
            b.add(EventKind.DRAW, line, player, cards=drawn, up=(False,) * len(drawn), run=run)

    def on_drawn(self, token: LineToken) -> None:
        """Another player's draw: "Player0 draws 2" (cards thrown and taken, both hidden)."""
        b = self.b
        player, line = self.player(token), token.number
        self._unmarked_draw(line)
        count = card_count(token.field("count") or "0", line)
        b.add(EventKind.DISCARD, line, player, count=count)
        b.add(EventKind.DRAW, line, player, count=count, cards=(None,) * count, up=(False,) * count)

    # --- summary ----------------------------------------------------------------------------
    def on_summary(self, token: LineToken) -> None:
        self._summary = True
        self.infer_uncalled(token.number)

    def on_shows(self, token: LineToken) -> None:
        self.infer_uncalled(token.number)
        super().on_shows(token)

    def on_rake(self, token: LineToken) -> None:
        self.b.rake = self.amount(token, "rake")


class KingsClub(TextRoom):
    name = "kingsclub"
    title = "KingsClub"
    grammar_file = "kingsclub.lark"
    reader_class = KingsClubReader
