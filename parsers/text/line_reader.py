"""The shared reader of every text room, in the manner of sqlglot's dialects: the handlers of
the line kinds all rooms print alike live here once; a room's module states only how it
differs (its header, its verb and post tables, its streets, its quirks).

A handler `on_kind(token)` serves the line kind `KIND` of the room's grammar and reads the
line's parts by their plain names (`common.lark` lists them): `token.player` (already pinned
to the seat list), `token.field("amount")`, ... A part a room's terminal lacks reads as None,
so one handler serves rooms whose lines say more or less.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar, Final, TypeVar

from studdraw.parsers.builder import (
    HandBuilder,
    HandParseError,
    card_count,
    no_game,
    parse_local_time,
    stud_faces,
    to_utc,
    unsupported,
)
from studdraw.parsers.model import (
    STUD_DEALS,
    Claim,
    EventKind,
    Game,
    HandRecord,
    HandText,
    Outcome,
    Structure,
    stud_street,
)
from studdraw.parsers.problems import Code, Problem, Stage, quoting
from studdraw.parsers.text.classify import LONGEST_LINE, line_token
from studdraw.parsers.text.lines import LineSyntax
from studdraw.parsers.text.tokens import LineToken
from studdraw.parsers.text.verbs import Reads, Verb

T = TypeVar("T")

_DEAD_MONEY: Final = frozenset({EventKind.ANTE, EventKind.DEAD})
"""Forced bets that count toward no player's bet on the street."""
_OVER_BRING_IN: Final = frozenset({EventKind.COMPLETE, EventKind.BET, EventKind.RAISE})
"""The wagers that close stud's bring-in: after one, a bet is no completion."""

# A line "can carry money or cards" when, with the seated names taken out, it holds a digit or
# a bracket: such an unknown line rejects the hand instead of being skipped.
_MONEY_OR_CARDS: Final = re.compile(r"[\d\[\]]")


def lower_keys(table: Mapping[str, T]) -> dict[str, T]:
    """A table of labels as the room prints them, keyed as a reader whose labels read whatever
    their case (`LineReader.any_case`) looks them up: the room's module keeps the printed form,
    which its renderer writes."""
    return {label.lower(): value for label, value in table.items()}


class LineReader:
    """The reader of one room: one `HandBuilder` per parse, reset by `begin`.

    Each line kind `KIND` is handled by a method `on_kind(token)`, run as the line is read
    (`classify.read_lines`), so handlers see the lines in text order. Once every line is read and
    the grammar has accepted their order, `start` (named after the grammar's start rule)
    finishes the record.
    """

    verbs: ClassVar[dict[str, Verb]] = {}
    """Action verb as printed -> what it does and how its amount reads."""
    posts: ClassVar[dict[str, EventKind]] = {}
    """Forced-bet wording as printed (the `post` part) -> its event."""
    stud_streets: ClassVar[dict[str, int]] = {}
    """Stud street marker as printed (the `street` part) -> its betting round in seven-card stud
    (3rd street 0, 2nd street -1): the reader shifts it for a game whose first street differs."""
    draw_streets: ClassVar[dict[str, int]] = {}
    """Draw street marker as printed -> betting round index."""
    counts_known_draws: ClassVar[bool] = False
    """Whether a draw whose cards are shown also states their `count` (Full Tilt's records do,
    as its "is dealt 2 cards" lines for the opponents do)."""
    games: ClassVar[dict[str, Game]] = {}
    """Game label as printed (the header's `game` part) -> the game; a hand of any other label
    deals a game studdraw does not read (`read_game`)."""
    not_read: ClassVar[dict[str, str]] = {}
    """Labels of the room's stud and draw games that studdraw does not read yet -> why: the
    reason such a hand is unsupported with (every other label's is `builder.NOT_READ`)."""
    structures: ClassVar[dict[str, Structure]] = {}
    """Betting structure as printed (the `limit` part) -> the structure."""
    any_case: ClassVar[bool] = False
    """Whether the room's labels read whatever their case (the tables' keys are lower case)."""
    currencies: ClassVar[dict[str, str]] = {}
    """Currency code or sign as printed -> ISO code (or the room's own points); `currency_in`
    takes the first one a text holds, in the table's order."""
    time_formats: ClassVar[tuple[str, ...]] = ()
    """How the room prints a hand's local time (strptime's formats, the most common first)."""
    zone: ClassVar[str] = ""
    """The zone of the times a room prints without one."""
    limit_blind: ClassVar[bool] = False
    """Whether a limit draw game's big blind is the header's small bet (else the posts tell)."""
    summary_won: ClassVar[re.Pattern[str] | None] = None
    """How a summary seat line says what its player won: the part `won` of every match is an
    amount won (hi/lo lines say it per half). None where the summary states no winnings apart
    from the collects it is read into."""
    summary_no_win: ClassVar[re.Pattern[str] | None] = None
    """How a summary seat line says its player won nothing (folded, lost, mucked)."""
    summary_pots: ClassVar[re.Pattern[str] | None] = None
    """How the summary's total splits the pot: every match's parts `pot` (as `pot_name` reads
    it) and `amount`."""

    __deletable__ = ("b",)  # mypyc: a parse drops its builder when it ends (`TextRoom`)

    def __init__(self, room: str) -> None:
        self.room = room  # the name of the room whose hands this reads
        self.b: HandBuilder  # the hand being read, set by `begin`
        self.syntax: LineSyntax
        self.handlers: dict[str, Any] = {}

    def attach(self, syntax: LineSyntax) -> None:
        """Bind the room's line kinds to their handlers; a kind without one is a bug."""
        self.syntax = syntax
        self.handlers = {kind: getattr(self, f"on_{kind.lower()}") for kind in syntax.kinds}

    def begin(self, hand: HandText) -> None:
        self.b = HandBuilder(hand, self.room)

    def start(self, _: list[Any]) -> HandRecord:
        """The finished record (rooms that settle something at the end override this)."""
        return self.b.finish()

    # --- the header: the room's tables ------------------------------------------------------
    def read_game(self, label: str, line: int, shown: str | None = None) -> Game:
        """The game of a label in the room's `games`; any other is unsupported, counted under
        `shown` (the game as the header prints it, when it says more than the label)."""
        key = label.lower() if self.any_case else label
        game = self.games.get(key)
        if game is None:
            raise unsupported(shown or label, line, self.not_read.get(key))
        return game

    def read_structure(self, label: str, line: int, shown: str) -> Structure:
        """The betting structure of a label in the room's `structures`; a game in any other
        structure is one studdraw does not read, counted under `shown`."""
        structure = self.structures.get(label.lower() if self.any_case else label)
        if structure is None:
            raise unsupported(shown, line)
        return structure

    def currency_in(self, text: str) -> str | None:
        """The ISO code of the first currency of the room's `currencies` that `text` holds."""
        return next((iso for printed, iso in self.currencies.items() if printed in text), None)

    def read_time(self, text: str, zone: str | None, line: int) -> None:
        """The hand's start from its local time as printed (read by the room's
        `time_formats`) in `zone`; a time printed without one is in the room's `zone`, and
        the record says so."""
        b = self.b
        if not zone:
            zone = self.zone
            b.notes.append(f"no time zone printed; {zone} assumed")
        try:
            b.started_at = to_utc(parse_local_time(text, self.time_formats), zone)
        except ValueError as error:
            raise HandParseError(str(error), line) from None

    # --- names and unknown lines ------------------------------------------------------------
    def pin(self, token: LineToken) -> str:
        """Set `token.player` to the seated name the line names, and return the line's kind.

        The classifier's guess stands when it is a seated name no other seated name extends.
        Otherwise the line is read again with each seated name it holds pinned in place of the
        player part, longest name first, every kind with a player part in the grammar's order:
        `Dealt to PC [Mittel] [5c]` deals [5c] to "PC [Mittel]" when that name is seated, and
        "A: B folds" is a fold of "A: B", not chat of "A". A name outside the seat list (a
        player joining) stays as read.
        """
        name = token.match["player"]
        b = self.b
        if name is None or (name in b.names and name not in b.prefixes):
            token.player = name
            return token.type
        pinned = self._repin(token)
        if pinned is None:
            token.player = name
            return token.type
        token.type, token.match, token.player = pinned
        token.parts = self.syntax.parts[token.type]
        return token.type

    def _repin(self, text: str) -> tuple[str, re.Match[str], str] | None:
        """The first kind whose pattern matches the line with a seated name as its player."""
        # Longest first, then the earliest in the line: never the order of a set.
        names = sorted(
            (n for n in self.b.names if n in text), key=lambda n: (-len(n), text.find(n), n)
        )
        syntax = self.syntax
        for name in names:
            for kind in syntax.with_player_in_order:
                found = syntax.pinned(kind, name)(text)
                if found is not None:
                    return kind, found, name
        return None

    def unknown_line(self, text: str, number: int) -> LineToken | None:
        """A line the classifier does not know. It may still be a known kind whose player's
        seated name broke the classifier's guess; else it is a problem: a warning, or the
        hand's error when the line could carry money or cards (TXT001, TXT002)."""
        pinned = self._repin(text) if len(text) <= LONGEST_LINE else None
        if pinned is not None:
            kind, found, player = pinned
            token = line_token(kind, text, found, number, self.syntax.parts[kind])
            token.player = player
            return token
        bare = text
        for name in sorted(self.b.names, key=lambda n: (-len(n), n)):  # "Player10" before "Player1"
            bare = bare.replace(name, "")
        if _MONEY_OR_CARDS.search(bare):
            raise HandParseError(quoting(Code.TXT002, text), number, code=Code.TXT002)
        path = self.b.hand.source.path
        self.b.problems.append(
            Problem(Code.TXT001, Stage.PARSE, path, number, quoting(Code.TXT001, text))
        )
        return None

    def player(self, token: LineToken) -> str:
        """The line's player (as pinned, or as printed on a seat line); a kind whose terminal
        has no player part is a grammar bug."""
        player = token.player or token.match["player"]
        if player is None:
            raise HandParseError(f"no player on a {token.type} line", token.number)
        return player

    def amount(self, token: LineToken, part: str = "amount") -> int:
        text = token.match[part]
        if text is None:
            raise HandParseError(f"{token.type} line without its {part}", token.number)
        return self.b.money(text, token.number)

    def cards(self, token: LineToken, part: str = "cards") -> tuple[str | None, ...]:
        text = token.field(part)
        return () if text is None else self.b.cards(text, token.number)

    @staticmethod
    def flag(token: LineToken, part: str) -> bool:
        return bool(token.field(part))

    # --- seats and streets ------------------------------------------------------------------
    def on_seat(self, token: LineToken) -> None:
        """`seat`, `player` and `stack` are required parts of a seat line."""
        found = token.match
        self.b.seat(
            int(found["seat"]),
            found["player"],
            self.b.money(found["stack"], token.number),
            sitting_out="sitting_out" in token.parts and found["sitting_out"] is not None,
            line=token.number,
        )

    def street_index(self, token: LineToken) -> int:
        name = token.match["street"]
        game = self.b.game
        if game is None:
            raise no_game(token.number)
        if game.is_draw:
            index = self.draw_streets.get(name)
        else:  # named by the cards held: seven-card stud's "3RD STREET" is 0, 3 cards held
            shift = self.stud_streets.get(name)
            index = None if shift is None else stud_street(game, shift + 3)
        if index is None or index < 0 or (game.is_stud and index >= len(STUD_DEALS[game])):
            raise HandParseError(f"{name} is not a street of {game}", token.number)
        return index

    def on_street(self, token: LineToken) -> None:
        b = self.b
        b.new_street(self.street_index(token), token.number, token.match["street"])
        if "cards" in token.parts and token.match["cards"]:
            cards = self.cards(token)
            b.add(EventKind.COMMUNITY, token.number, cards=cards, up=(True,) * len(cards))

    def on_dealt(self, token: LineToken) -> None:
        """`Dealt to X [cards]` or `[cards] [new]`: a stud hero's 3rd street is three cards
        in one bracket or "[down down] [door]"; an opponent's, the door card alone (or with its
        down cards hidden, "[X X 8h]"); later streets deal the new card(s). In draw games the
        first deal, then the draws. The hero is the player whose hidden cards are printed."""
        b = self.b
        if b.game is None:
            raise no_game(token.number)
        line, player = token.number, token.player or self.player(token)
        found = token.match
        first = b.cards(found["cards"], line)
        new = (
            b.cards(found["new"], line)
            if "new" in token.parts and found["new"] is not None
            else None
        )
        if b.game.is_draw:
            if b.street == 0:
                cards = first + (new or ())
                if any(cards):
                    b.hero = player
                b.add(EventKind.DEAL, line, player, cards=cards, up=(False,) * len(cards))
            else:  # "Dealt to Hero [kept] [drawn]"
                drawn = first if new is None else new
                if any(drawn):
                    b.hero = player
                count = len(drawn) if self.counts_known_draws else None
                b.add(
                    EventKind.DRAW, line, player, cards=drawn, up=(False,) * len(drawn), count=count
                )
            return
        if b.street == 0:
            size = len(STUD_DEALS[b.game][0])
            if new is not None:  # the hero: "[down down] [door]"
                if any(first):
                    b.hero = player
                cards = first + new
            elif len(first) == 1:  # an opponent: only the door card is shown
                cards = (None,) * (size - 1) + first
            else:  # "[down down door]", or "[X X 8h]" for an opponent
                if any(card is not None for card in first[:-1]):
                    b.hero = player
                cards = first
        else:  # "[cards so far] [new card]"
            cards = first if new is None else new
        up = stud_faces(b.game, b.street, len(cards), line)
        b.add(EventKind.DEAL, line, player, cards=cards, up=up)

    # --- forced bets and actions ------------------------------------------------------------
    def on_post(self, token: LineToken) -> None:
        b = self.b
        found = token.match
        kind = self.posts.get(found["post"])
        if kind is None:
            raise HandParseError(f"unknown forced bet {found['post']!r}", token.number)
        player, amount = token.player or self.player(token), self.amount(token)
        all_in = "all_in" in token.parts and found["all_in"] is not None
        if kind in _DEAD_MONEY:
            b.add(kind, token.number, player, amount=amount, all_in=all_in)
        else:
            b.wager(kind, token.number, player, amount=amount, all_in=all_in)

    def on_ante(self, token: LineToken) -> None:
        """An ante line: read as the posts table says."""
        self.on_post(token)

    def on_action(self, token: LineToken) -> None:
        """An action line: `verb` looked up in the room's verb table, `amount` (and `to`)
        read as the table says, `all_in` when the room marks it; a fold's or check's `note`
        ("timeout", "disconnect") is kept as its text."""
        b = self.b
        found = token.match
        verb = self.verbs.get(found["verb"])
        if verb is None:
            raise HandParseError(f"unknown action {found['verb']!r}", token.number)
        if verb.quirk is not None:
            getattr(self, verb.quirk)(token)
            return
        player, line = token.player or self.player(token), token.number
        kind, reads = verb.kind, verb.reads
        if reads is Reads.NOTHING:
            b.add(kind, line, player, text=token.field("note"))  # "(timeout)"
            return
        parts = token.parts
        all_in = "all_in" in parts and found["all_in"] is not None
        if reads is Reads.TOTAL_TO:
            to = self.amount(token, "to" if "to" in parts and found["to"] is not None else "amount")
            if kind is EventKind.RAISE and to <= b.small_bet and self._bring_in_open():
                kind = EventKind.COMPLETE  # "raises $280 to $400" over the bring-in completes
            b.wager(kind, line, player, to=to, all_in=all_in)
            return
        if kind is EventKind.BET and self._bring_in_open():
            kind = EventKind.COMPLETE  # stud: the first bet over the bring-in completes it
        b.wager(kind, line, player, amount=self.amount(token), all_in=all_in)

    def _bring_in_open(self) -> bool:
        """Whether this is stud's 3rd street with a bring-in and nothing above it yet."""
        b = self.b
        if b.street != 0 or b.game is None or not b.game.is_stud:
            return False
        kinds = {e.kind for e in b.events if e.street == 0}
        return EventKind.BRING_IN in kinds and kinds.isdisjoint(_OVER_BRING_IN)

    # --- draws ------------------------------------------------------------------------------
    def on_discard(self, token: LineToken) -> None:
        """A discard; "discards 0 cards" is standing pat."""
        cards = self.cards(token)
        printed = token.field("count")
        count = card_count(printed, token.number) if printed else len(cards)
        kind = EventKind.DISCARD if count else EventKind.STAND_PAT
        self.b.add(kind, token.number, self.player(token), count=count, cards=cards)

    def on_drawn(self, token: LineToken) -> None:
        count = card_count(token.field("count") or "0", token.number)
        self.b.add(
            EventKind.DRAW,
            token.number,
            self.player(token),
            count=count,
            cards=(None,) * count,
            up=(False,) * count,
        )

    def on_stand_pat(self, token: LineToken) -> None:
        cards = self.cards(token)
        self.b.add(EventKind.STAND_PAT, token.number, self.player(token), count=0, cards=cards)

    def on_reshuffle(self, token: LineToken) -> None:
        self.b.add(EventKind.RESHUFFLE, token.number)

    # --- room announcements -----------------------------------------------------------------
    def on_capped(self, token: LineToken) -> None:
        self.b.add(EventKind.CAPPED, token.number)

    def on_open_pair(self, token: LineToken) -> None:
        self.b.add(EventKind.OPEN_PAIR, token.number)

    def on_cancelled(self, token: LineToken) -> None:
        game = str(self.b.game) if self.b.game else None
        raise HandParseError(
            "hand cancelled by the room", token.number, Outcome.UNSUPPORTED, game_label=game
        )

    def on_no_low(self, token: LineToken) -> None:
        self.b.add(EventKind.NOTE, token.number, text="no low hand qualified")

    # --- showdown and money out -------------------------------------------------------------
    def on_showdown(self, token: LineToken) -> None:
        """A section marker: the grammar checks its place; it carries no event."""

    def on_shows(self, token: LineToken) -> None:
        self.b.add(
            EventKind.SHOW,
            token.number,
            self.player(token),
            cards=self.cards(token),
            text=token.field("text"),
        )

    def on_shows_hand(self, token: LineToken) -> None:
        """A show line naming a hand without its cards (Full Tilt's second line after an
        all-in run-out, Party's low hand): a show with its description, the cards as known."""
        self.b.add(EventKind.SHOW, token.number, self.player(token), text=token.field("text"))

    def on_mucks(self, token: LineToken) -> None:
        self.b.add(EventKind.MUCK, token.number, self.player(token), cards=self.cards(token))

    def on_no_show(self, token: LineToken) -> None:
        """ "X doesn't show hand": the player keeps the cards hidden; kept as a note."""
        self.b.add(EventKind.NOTE, token.number, self.player(token), text="doesn't show hand")

    def on_uncalled(self, token: LineToken) -> None:
        amount = self.amount(token)
        self.b.add(EventKind.UNCALLED, token.number, self.player(token), amount=amount)

    def infer_uncalled(self, line: int) -> None:
        """Return the part of the last round's top bet nobody matched, for a room that pays it
        back without printing it (its summary nets prove the return): an UNCALLED event, marked
        as inferred, on `line`. A room calls it where a betting round is over (the next street,
        the showdown, the summary, the lines that award the pot), as often as it likes: the
        last round with a wager counts, as a room may print street markers after the betting
        stopped (all-in players dealt out), and a round already settled (by a return on it or
        on a later street) is left alone."""
        b = self.b
        last: int | None = None  # the last round with a wager, read in one pass (a hot path)
        bets: dict[str, int] = {}  # its players' totals
        settled = -1  # the last street with a return
        uncalled = EventKind.UNCALLED  # looked up once: an enum member costs a class look-up
        for event in b.events:
            if event.kind is uncalled:
                settled = max(settled, event.street)
            elif event.to is not None:
                if last is None or event.street > last:
                    last, bets = event.street, {}
                if event.street == last and event.player is not None:
                    bets[event.player] = event.to
        if last is None or settled >= last:
            return
        ranked = sorted(bets.items(), key=lambda item: -item[1])
        top_player, top = ranked[0]
        second = ranked[1][1] if len(ranked) > 1 else 0
        if top > second:
            b.add(
                EventKind.UNCALLED,
                line,
                top_player,
                amount=top - second,
                text="inferred: the room does not print uncalled bets",
            )

    def pot_name(self, token: LineToken) -> str:
        """Which pot a collect line names: "main", "sideN", with ":hi"/":lo" for a half.
        Read from the parts `pot` ("main", "side", "side pot-2"), `side` (its number) and
        `half` ("hi"/"high", "lo"/"low"), whichever the room's terminal has."""
        pot = (token.field("pot") or "").lower()
        side = token.field("side")
        if "side" in pot or side:
            number = side or "".join(ch for ch in pot if ch.isdigit()) or "1"
            name = f"side{int(number)}"
        else:
            name = "main"
        half = (token.field("half") or "").lower()
        if half:
            name += ":hi" if half.startswith("h") else ":lo"
        return name

    def on_collect(self, token: LineToken) -> None:
        """A pot won; `run`, where the line names one, is the run of a pot run twice."""
        amount = self.amount(token)
        self.b.add(
            EventKind.COLLECT,
            token.number,
            self.player(token),
            amount=amount,
            pot=self.pot_name(token),
            run=int(token.field("run") or 0),
        )

    # --- summary ----------------------------------------------------------------------------
    def on_summary(self, token: LineToken) -> None:
        """A section marker: the grammar checks its place; it carries no event."""

    def on_total(self, token: LineToken) -> None:
        self.b.total_pot = self.amount(token)
        if token.field("rake") is not None:
            self.b.rake = self.amount(token, "rake")

    def claim(self, player: str, said: str, line: int) -> None:
        """Keep what a summary seat line (`said`, after the player's name) says the player won,
        to be held against the collects by the rules engine (`Claim`)."""
        won, no_win = self.summary_won, self.summary_no_win
        if won is None:
            return
        b = self.b
        amounts = [b.money(found["won"], line) for found in won.finditer(said)]
        if amounts:
            b.claims.append(Claim(line, sum(amounts), player))
        elif no_win is not None and no_win.search(said):
            b.claims.append(Claim(line, 0, player))

    def claim_pots(self, said: str, line: int) -> None:
        """Keep how the summary's total splits the pot into main and side pots (`Claim`)."""
        pots = self.summary_pots
        if pots is None:
            return
        b = self.b
        for found in pots.finditer(said):
            pot = found["pot"].lower()
            number = "".join(ch for ch in pot if ch.isdigit()) or "1"
            name = f"side{int(number)}" if "side" in pot else "main"
            b.claims.append(Claim(line, b.money(found["amount"], line), pot=name))

    def on_board(self, token: LineToken) -> None:
        """The summary's board repeats the community card already read on its street."""

    # --- table life and informational lines -------------------------------------------------
    def on_chat(self, token: LineToken) -> None:
        self.b.add(EventKind.CHAT, token.number, token.player, text=token.field("text"))

    def on_join(self, token: LineToken) -> None:
        self.b.add(EventKind.JOIN, token.number, token.player)

    def on_leave(self, token: LineToken) -> None:
        self.b.add(EventKind.LEAVE, token.number, token.player)

    def on_sit_out(self, token: LineToken) -> None:
        self.b.add(EventKind.SIT_OUT, token.number, token.player)

    def on_sit_in(self, token: LineToken) -> None:
        self.b.add(EventKind.SIT_IN, token.number, token.player)

    def on_info(self, token: LineToken) -> None:
        """A line the room prints for information only (a timeout, a disconnection, a
        tournament finish): known, so kept as a note with its text."""
        self.b.add(EventKind.NOTE, token.number, token.player, text=token.strip())
