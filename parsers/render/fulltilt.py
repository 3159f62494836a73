"""Write a HandRecord as a Full Tilt Poker hand history ("Full Tilt Poker Game #...") in the
room's 2012-2013 format, the latest in the corpus (docs/rooms/fulltilt.md).

The output reads back through the Full Tilt room into the same record, except for what a real
export of the hero's history hides (opponents' down cards, their draw-game deals and discarded
cards, the line numbers) and what the format has no line for: see `render_fulltilt`.
"""

from __future__ import annotations

import ast
import re
from collections import Counter

from studdraw.parsers.builder import stud_street_name
from studdraw.parsers.model import STUD_DEALS, Card, Event, EventKind, Game, HandRecord, Structure
from studdraw.parsers.render.base import (
    CURRENCY_SYMBOLS,
    EASTERN,
    HeldCards,
    PlayerFacts,
    first_labels,
    format_cards,
    format_money,
    player_facts,
    pot_sizes,
)
from studdraw.parsers.rooms.fulltilt import GAMES, STRUCTURES

GAME_LABELS = first_labels(GAMES)
LIMIT_LABELS = first_labels(STRUCTURES)
DRAW_STREETS = ("HOLE CARDS", "FIRST DRAW", "SECOND DRAW", "THIRD DRAW")
SINGLE_DRAW_STREETS = ("HOLE CARDS", "DRAW")  # cash/FTP/Draw/1-Draw-NL-*: "*** DRAW ***"
DRAW_FOLDS = ("before the Draw", "after the 1st Draw", "after the 2nd Draw", "after the 3rd Draw")
SINGLE_DRAW_FOLDS = ("before the Draw", "after the Draw")
SINGLE_DRAW = frozenset({Game.SD27, Game.DRAW5})


def street_names(game: Game) -> tuple[str, ...]:
    """The street markers of a game, by betting round."""
    if game.is_stud:  # "*** 3RD STREET ***"
        return tuple(stud_street_name(game, i).upper() for i in range(len(STUD_DEALS[game])))
    return SINGLE_DRAW_STREETS if game in SINGLE_DRAW else DRAW_STREETS


FULL_RING = 8  # Full Tilt labels only short tables: "(6 max)", "(heads up)"
# The room's reader keeps these header parts as notes; they are written back from there.
TOURNAMENT_NOTE = "tournament "
TABLE_NOTE = "table attributes: "
MONEY_IN = frozenset(
    {
        EventKind.ANTE,
        EventKind.SMALL_BLIND,
        EventKind.BIG_BLIND,
        EventKind.POST,
        EventKind.DEAD,
        EventKind.BRING_IN,
        EventKind.CALL,
        EventKind.BET,
        EventKind.RAISE,
        EventKind.COMPLETE,
    }
)
PLAY = MONEY_IN | {
    EventKind.FOLD,
    EventKind.CHECK,
    EventKind.STREET,
    EventKind.DEAL,
    EventKind.DRAW,
    EventKind.DISCARD,
    EventKind.STAND_PAT,
}
VERBS = {
    EventKind.CALL: "calls",
    EventKind.BET: "bets",
    EventKind.BRING_IN: "brings in for",
    EventKind.POST: "posts",
    EventKind.SMALL_BLIND: "posts the small blind of",
    EventKind.BIG_BLIND: "posts the big blind of",
    EventKind.DEAD: "posts a dead small blind of",
    EventKind.ANTE: "antes",
}
TABLE_LIFE = {
    EventKind.FOLD: "folds",
    EventKind.CHECK: "checks",
    EventKind.JOIN: "sits down",
    EventKind.LEAVE: "stands up",
    EventKind.SIT_OUT: "is sitting out",
    EventKind.SIT_IN: "has returned",
}
# Announcements with no Full Tilt line in the corpus or the room's known wording: the record
# loses them (the rules engine needs none of them to replay the hand).
UNPRINTED = frozenset({EventKind.RESHUFFLE, EventKind.CAPPED, EventKind.OPEN_PAIR})
_THOUSANDS = re.compile(r"\d{4,}")


def _grouped(text: str) -> str:
    """Full Tilt groups thousands: "$1,425.50", "(27,915)"."""
    return _THOUSANDS.sub(lambda digits: f"{int(digits[0]):,}", text, count=1)


class FullTiltRenderer:
    """One record at a time; `render` returns the hand's text without a trailing newline."""

    def __init__(self, record: HandRecord, hero: str | None = None) -> None:
        self.record = record
        self.hero = hero if hero is not None else record.hero
        self.symbol = CURRENCY_SYMBOLS.get(record.currency, "")
        self.lines: list[str] = []
        self.held = HeldCards()  # every player's cards, as the record has them
        self.visible: dict[str, list[Card | None]] = {}  # what the export has shown of them
        self.shown: set[str] = set()
        self.descriptions: dict[str, str] = {}  # the room's name for each shown hand
        self.pot = 0
        self.folded: set[str] = set()
        self.all_in: set[str] = set()
        self.bettors: set[str] = set()  # who put chips in other than antes
        self.pots = pot_sizes(record)
        self.collectors = Counter(e.pot for e in record.events if e.kind is EventKind.COLLECT)

    def money(self, amount: int) -> str:
        return _grouped(format_money(amount, self.record.scale, self.symbol))

    def render(self) -> str:
        record = self.record
        self.lines = [self._header()]
        # A seat line says "is sitting out" for those out before the hand; who sits out during
        # it has a line of its own, and the summary names both.
        sat_out = {e.player for e in record.events if e.kind is EventKind.SIT_OUT}
        for seat in record.seats:
            state = ", is sitting out" if seat.sitting_out and seat.player not in sat_out else ""
            self.lines.append(f"Seat {seat.seat}: {seat.player} ({self.money(seat.stack)}){state}")
        button = self._button_line()
        showdown = self._showdown_start()
        for index, event in enumerate(record.events):
            if index == button:
                self.lines.append(f"The button is in seat #{record.button}")
            if index == showdown:
                self.lines.append("*** SHOW DOWN ***")
            text = self._event(event)
            if text is not None:
                self.lines.append(text)
            self._follow(event)
        self._summary()
        return "\n".join(self.lines)

    # --- header ---------------------------------------------------------------------------
    def _header(self) -> str:
        record = self.record
        limit = LIMIT_LABELS.get(record.structure)
        if limit is None:
            raise ValueError(f"Full Tilt has no {record.structure} games")
        eastern = record.started_at.astimezone(EASTERN)
        mixed = f"{record.mixed} - " if record.mixed else ""
        table = f"Table {record.table}{self._table_attributes()}"
        if record.tournament is not None:
            table = f"{self._tournament_name()} ({record.tournament.tournament_id}), {table}"
        return (
            f"Full Tilt Poker Game #{record.room_hand_id}: {table} - {self._stakes()} - "
            f"{mixed}{limit} {GAME_LABELS[record.game]} - "
            f"{eastern:%H:%M:%S} ET - {eastern:%Y/%m/%d}"
        )

    def _stakes(self) -> str:
        record = self.record
        stakes = record.stakes
        fixed = record.structure is Structure.FIXED
        small, big = (
            (stakes.small_bet, stakes.big_bet) if fixed else (stakes.small_blind, stakes.big_blind)
        )
        # As in the corpus: cash headers group thousands ("$1,500/$3,000"), tournament
        # headers do not ("800/1600 Ante 150").
        money = self.money if record.tournament is None else self._plain_money
        ante = f" Ante {money(stakes.ante)}" if stakes.ante else ""
        return f"{money(small)}/{money(big)}{ante}"

    def _plain_money(self, amount: int) -> str:
        return format_money(amount, self.record.scale, self.symbol)

    def _table_attributes(self) -> str:
        """A short table's label, "(6 max)" or "(heads up)", or what the room's reader kept
        ("(New to the Game)"); nothing for a full table or where the tournament's name says
        heads-up."""
        record = self.record
        kept = next(
            (n.removeprefix(TABLE_NOTE) for n in record.notes if n.startswith(TABLE_NOTE)), None
        )
        if kept is not None:
            return f" ({kept})"
        seats = record.max_seats
        if seats is None or seats >= FULL_RING:
            return ""
        if seats == 2:
            heads_up = (
                record.tournament is not None and "heads-up" in self._tournament_name().lower()
            )
            return "" if heads_up else " (heads up)"
        return f" ({seats} max)"

    def _tournament_name(self) -> str:
        """The name the room's reader kept in the notes; else the itemised price, which is all of a
        name the room's reader reads ("$3 + $0.30 Sit & Go")."""
        record = self.record
        for note in record.notes:
            if note.startswith(TOURNAMENT_NOTE):
                name = ast.literal_eval(note.removeprefix(TOURNAMENT_NOTE))
                assert isinstance(name, str)
                return name
        tour = record.tournament
        assert tour is not None
        if tour.buy_in is None or tour.fee is None or tour.currency is None:
            return "Tournament"
        symbol = CURRENCY_SYMBOLS.get(tour.currency, "")
        price = f"{format_money(tour.buy_in, 100, symbol)} + {format_money(tour.fee, 100, symbol)}"
        return f"{price} Tournament"

    # --- body -----------------------------------------------------------------------------
    def _event(self, event: Event) -> str | None:
        kind, player = event.kind, event.player or ""
        all_in = ", and is all in" if event.all_in else ""
        if kind is EventKind.STREET:
            return self._street(event)
        if kind is EventKind.DEAL:
            return self._deal(event)
        if kind is EventKind.DRAW:
            return self._draw(event)
        if kind in VERBS:
            return f"{player} {VERBS[kind]} {self.money(event.amount)}{all_in}"
        if kind is EventKind.RAISE or kind is EventKind.COMPLETE:
            verb = "raises to" if kind is EventKind.RAISE else "completes it to"
            return f"{player} {verb} {self.money(event.to or event.amount)}{all_in}"
        if kind in TABLE_LIFE:
            return f"{player} {TABLE_LIFE[kind]}"
        if kind is EventKind.DISCARD:
            count = event.count if event.count is not None else len(event.cards)
            noun = "card" if count == 1 else "cards"
            shown = f" [{format_cards(event.cards)}]" if player == self.hero and event.cards else ""
            return f"{player} discards {count} {noun}{shown}"
        if kind is EventKind.STAND_PAT:
            shown = (
                f" on [{format_cards(event.cards)}]" if player == self.hero and event.cards else ""
            )
            return f"{player} stands pat{shown}"
        if kind is EventKind.SHOW:
            described = f" {event.text}" if event.text else ""
            return f"{player} shows [{format_cards(event.cards)}]{described}"
        if kind is EventKind.MUCK:
            return None if event.cards else f"{player} mucks"  # the cards go in the summary
        if kind is EventKind.UNCALLED:
            return f"Uncalled bet of {self.money(event.amount)} returned to {player}"
        if kind is EventKind.COLLECT:
            return self._collect(event)
        if kind is EventKind.CHAT:
            return f"{player}: {event.text or ''}"
        if kind is EventKind.NOTE:
            return event.text
        if kind is EventKind.COMMUNITY:
            raise ValueError(
                "Full Tilt's line for the stud community card is unknown (no corpus hand has one)"
            )
        assert kind in UNPRINTED, kind
        return None

    def _street(self, event: Event) -> str:
        """The 2012-2013 markers give the pot so far on every stud street and every draw."""
        stud = self.record.game.is_stud
        marker = f"*** {street_names(self.record.game)[event.street]} ***"
        if not stud and event.street == 0:
            return marker
        players = [s.player for s in self.record.seats if not s.sitting_out]
        live = [p for p in players if p not in self.folded]
        all_in = sum(1 for p in live if p in self.all_in)
        count = f"{len(live)} Player{'s' if len(live) != 1 else ''}"
        all_ins = f", {all_in} All-In" if all_in else ""
        return f"{marker} (Total Pot: {self.money(self.pot)}, {count}{all_ins})"

    def _deal(self, event: Event) -> str | None:
        """The hero's cards in full; of an opponent's, the up cards (all once shown)."""
        player = event.player or ""
        before = self.held.receive(player, event.cards)
        up = event.up or (False,) * len(event.cards)
        if player == self.hero:
            if event.street > 0:
                return f"Dealt to {player} [{format_cards(before)}] [{format_cards(event.cards)}]"
            if self.record.game.is_draw:
                return f"Dealt to {player} [{format_cards(event.cards)}]"
            down = [card for card, face_up in zip(event.cards, up, strict=True) if not face_up]
            door = [card for card, face_up in zip(event.cards, up, strict=True) if face_up]
            return f"Dealt to {player} [{format_cards(down)}] [{format_cards(door)}]"
        shown = player in self.shown
        new = [
            card
            for card, face_up in zip(event.cards, up, strict=True)
            if card is not None and (face_up or shown)
        ]
        if not new:
            return None
        seen = self.visible.setdefault(player, [])
        previous = f"[{format_cards(seen)}] " if seen else ""
        seen.extend(new)
        return f"Dealt to {player} {previous}[{format_cards(new)}]"

    def _draw(self, event: Event) -> str:
        player = event.player or ""
        kept = self.held.receive(player, event.cards)
        if player != self.hero:
            count = event.count if event.count is not None else len(event.cards)
            return f"{player} is dealt {count} card{'s' if count != 1 else ''}"
        previous = f"[{format_cards(kept)}] " if kept else ""
        return f"Dealt to {player} {previous}[{format_cards(event.cards)}]"

    def _collect(self, event: Event) -> str:
        """The room names the pot won: "the pot", "the side pot #2", "the high main pot"."""
        label = event.pot or "main"
        base, _, half = label.partition(":")
        words = ["high" if half == "hi" else "low"] if half else []
        sides = [name for name in self.pots if name != "main"]
        if sides:
            words.append("main" if base == "main" else "side")
        number = _side_number(base, sides)
        # Two collects from one pot are a tie, unless a hi/lo record left the halves unnamed.
        tie = self.collectors[event.pot] > 1 and (bool(half) or self.record.game is not Game.STUD8)
        verb = "ties for" if tie else "wins"
        player = event.player or ""
        description = self.descriptions.get(player) if half != "lo" else None
        with_hand = f" with {description}" if description else ""
        pot = " ".join([*words, "pot"])
        return f"{player} {verb} the {pot}{number} ({self.money(event.amount)}){with_hand}"

    def _follow(self, event: Event) -> None:
        """Track what later lines need: the pot, who is out or all in, what each has shown."""
        player = event.player or ""
        if event.kind in MONEY_IN:
            self.pot += event.amount
            if event.kind is not EventKind.ANTE:
                self.bettors.add(player)
        elif event.kind is EventKind.UNCALLED:
            self.pot -= event.amount
        elif event.kind is EventKind.FOLD:
            self.folded.add(player)
        elif event.kind is EventKind.DISCARD:
            count = event.count if event.count is not None else len(event.cards)
            self.held.discard(player, event.cards, count)
        elif event.kind is EventKind.SHOW:
            self.shown.add(player)
            self.visible[player] = list(event.cards)
            if event.text:
                self.descriptions[player] = event.text
        if event.all_in:
            self.all_in.add(player)

    def _button_line(self) -> int | None:
        """The button line follows the last forced bet before the first street marker."""
        events = self.record.events
        if self.record.button is None:
            return None
        first_street = next(
            (i for i, e in enumerate(events) if e.kind is EventKind.STREET), len(events)
        )
        forced = [i for i, e in enumerate(events[:first_street]) if e.kind.is_forced]
        return forced[-1] + 1 if forced else first_street

    def _showdown_start(self) -> int | None:
        """Where "*** SHOW DOWN ***" goes: before the shows and mucks that follow the last deal
        or action, when more than one player takes part."""
        events = self.record.events
        last_play = max((i for i, e in enumerate(events) if e.kind in PLAY), default=-1)
        shows = [
            i
            for i, e in enumerate(events)
            if e.kind is EventKind.SHOW or (e.kind is EventKind.MUCK and not e.cards)
        ]
        final = [i for i in shows if i > last_play]
        # Hands shown as the players went all in (before the last deal) get no marker.
        shown_early = {events[i].player for i in shows if i < last_play}
        if len(final) < 2 or all(events[i].player in shown_early for i in final):
            return None
        return final[0]

    # --- summary --------------------------------------------------------------------------
    def _summary(self) -> None:
        record = self.record
        lines = self.lines
        lines.append("*** SUMMARY ***")
        total = record.total_pot if record.total_pot is not None else sum(self.pots.values())
        rake = record.rake if record.rake is not None else 0
        pot_text = ""
        sides = [label for label in self.pots if label != "main"]
        if sides:
            parts = [f"Main pot {self.money(self.pots.get('main', 0))}."]
            for label in sides:
                number = _side_number(label, sides)
                parts.append(f"Side pot{number} {self.money(self.pots[label])}.")
            pot_text = " " + " ".join(parts)
        lines.append(f"Total pot {self.money(total)}{pot_text} | Rake {self.money(rake)}")
        facts = player_facts(record)
        plain_mucks = {e.player for e in record.events if e.kind is EventKind.MUCK and not e.cards}
        for seat in record.seats:
            player = seat.player
            where = self._position(facts[player], seat.seat)
            if seat.sitting_out:
                outcome = "is sitting out"
            else:
                outcome = self._outcome(player, facts[player], player in plain_mucks)
            lines.append(f"Seat {seat.seat}: {player}{where} {outcome}")

    def _position(self, facts: PlayerFacts, seat: int) -> str:
        if EventKind.SMALL_BLIND in facts.posted:
            return " (small blind)"
        if EventKind.BIG_BLIND in facts.posted:
            return " (big blind)"
        return " (button)" if self.record.button == seat else ""

    def _outcome(self, player: str, facts: PlayerFacts, mucks: bool) -> str:
        description = self.descriptions.get(player)
        with_hand = f" with {description}" if description else ""
        if facts.showed:
            won = f"won ({self.money(facts.collected)})" if facts.collected else "lost"
            return f"showed [{format_cards(facts.showed)}] and {won}{with_hand}"
        mucked = ""
        if facts.mucked:
            mucked = f"mucked [{format_cards(facts.mucked)}]"
        elif mucks:
            mucked = "mucked"
        if facts.collected:
            return f"collected ({self.money(facts.collected)})" + (f", {mucked}" if mucked else "")
        if facts.mucked:
            return mucked
        if facts.folded_on is not None:
            if self.record.game.is_stud:
                number = stud_street_name(self.record.game, facts.folded_on).split()[0]
                return f"folded on {number} St."  # "on 3rd St."
            idle = facts.folded_on == 0 and player not in self.bettors
            folds = SINGLE_DRAW_FOLDS if self.record.game in SINGLE_DRAW else DRAW_FOLDS
            return f"folded {folds[facts.folded_on]}" + (" (didn't bet)" if idle else "")
        return mucked or "lost"


def render_fulltilt(record: HandRecord, hero: str | None = None) -> str:
    """A record in Full Tilt's text format, as the export of `hero`'s history (default: the
    record's hero) shows it.

    The format has no line for a deck reshuffle, a betting cap or an open pair's double-bet
    announcement, so those events are not written; a stud community card raises ValueError,
    as does a spread-limit game, which Full Tilt did not deal.
    """
    return FullTiltRenderer(record, hero).render()


def _side_number(label: str, sides: list[str]) -> str:
    """ " #2" for the second side pot: numbered whenever the hand has several side pots, or
    when the only one collected is not the first (the others went to the rake)."""
    if label == "main" or sides == ["side1"]:
        return ""
    return f" #{label.removeprefix('side')}"


def fulltilt_can_render(record: HandRecord) -> bool:
    """Whether the format can express the hand: Full Tilt dealt no spread-limit games, and no
    export we know of shows a stud community card."""
    return record.structure in LIMIT_LABELS and not any(
        event.kind is EventKind.COMMUNITY for event in record.events
    )
