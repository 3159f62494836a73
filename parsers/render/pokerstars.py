"""Write a HandRecord as a current-format PokerStars hand history ("PokerStars Hand #...").

The output reads back through the PokerStars room into the same record, except for what a
real export hides: opponents' down cards, and the hand's line numbers. `hero` chooses whose
down cards are printed, as in a real export of that player's history.
"""

from __future__ import annotations

from studdraw.parsers.model import Card, Event, EventKind, HandRecord, Structure
from studdraw.parsers.render.base import (
    CURRENCY_SYMBOLS,
    EASTERN,
    HeldCards,
    PlayerFacts,
    betting_levels,
    first_labels,
    format_cards,
    format_money,
    player_facts,
    pot_sizes,
)
from studdraw.parsers.rooms.pokerstars import GAMES, STRUCTURES, UNMARKED_DRAW

GAME_LABELS = first_labels(GAMES)

LIMIT_LABELS = first_labels(STRUCTURES)
STUD_STREETS = ("3rd STREET", "4th STREET", "5th STREET", "6th STREET", "RIVER")
DRAW_STREETS = ("DEALING HANDS", "FIRST DRAW", "SECOND DRAW", "THIRD DRAW")
SUMMARY_STREETS = ("3rd Street", "4th Street", "5th Street", "6th Street", "River")
DRAW_SUMMARY = ("before the Draw", "after the 1st Draw", "after the 2nd Draw", "after the 3rd Draw")
SINGLE_DRAW_SUMMARY = ("before the Draw", "after the Draw")
NOTE_LINES = {"no low hand qualified": "No low hand qualified"}
HOME_CLUB = "home game club "


class PokerStarsRenderer:
    """One record at a time; `render` returns the hand's text without a trailing newline."""

    def __init__(self, record: HandRecord, hero: str | None = None) -> None:
        self.record = record
        self.hero = hero if hero is not None else record.hero
        self.symbol = CURRENCY_SYMBOLS.get(record.currency, "")
        self.lines: list[str] = []
        self.held = HeldCards()
        self.ups: dict[str, list[Card | None]] = {}

    def money(self, amount: int) -> str:
        return format_money(amount, self.record.scale, self.symbol)

    def render(self) -> str:
        record = self.record
        self.lines = [self._header(), self._table()]
        for seat in record.seats:
            state = " is sitting out" if seat.sitting_out else ""
            self.lines.append(
                f"Seat {seat.seat}: {seat.player} ({self.money(seat.stack)} in chips){state}"
            )
        levels = betting_levels(record.events)
        for index, event in enumerate(record.events):
            self._event(index, event, levels)
        self._summary()
        return "\n".join(self.lines)

    # --- header ---------------------------------------------------------------------------
    def _header(self) -> str:
        record = self.record
        game = f"{GAME_LABELS[record.game]} {LIMIT_LABELS[record.structure]}"
        eastern = record.started_at.astimezone(EASTERN)
        when = f"{eastern:%Y/%m/%d} {eastern.hour}:{eastern:%M:%S} ET"
        stakes = self._stakes()
        if record.tournament is not None:
            tour = record.tournament
            buy_in = self._buy_in()
            level = tour.level or "Level I"
            played = f"{record.mixed} ({game})" if record.mixed else game
            return (
                f"PokerStars Hand #{record.room_hand_id}: Tournament #{tour.tournament_id}, "
                f"{buy_in} {played} - {level} ({stakes}) - {when}"
            )
        iso = "" if record.currency == "PLAY" else f" {record.currency}"
        club = next(
            (n.removeprefix(HOME_CLUB) for n in record.notes if n.startswith(HOME_CLUB)), None
        )
        title = (
            f"Home Game #{record.room_hand_id}: {{{club}}}"
            if club
            else f"Hand #{record.room_hand_id}:"
        )
        played = (
            f"{record.mixed} ({game}, {stakes}{iso})" if record.mixed else f"{game} ({stakes}{iso})"
        )
        return f"PokerStars {title}  {played} - {when}"

    def _stakes(self) -> str:
        stakes = self.record.stakes
        if self.record.structure in (Structure.FIXED, Structure.SPREAD):
            return f"{self.money(stakes.small_bet)}/{self.money(stakes.big_bet)}"
        return f"{self.money(stakes.small_blind)}/{self.money(stakes.big_blind)}"

    def _buy_in(self) -> str:
        tour = self.record.tournament
        assert tour is not None
        if tour.buy_in is None or tour.fee is None or tour.currency is None:
            return "Freeroll"
        if tour.buy_in == 0 and tour.fee == 0:
            return "Freeroll"
        symbol = CURRENCY_SYMBOLS.get(tour.currency, "")
        buy_in = format_money(tour.buy_in, 100, symbol, always_cents=True)
        fee = format_money(tour.fee, 100, symbol, always_cents=True)
        return f"{buy_in}+{fee} {tour.currency}"

    def _table(self) -> str:
        record = self.record
        # PokerStars prints a size on every table line (its reader needs a size or a button):
        # for a room that printed none, the highest seat taken, the least the table holds.
        seats = record.max_seats or max((seat.seat for seat in record.seats), default=0)
        size = f" {seats}-max" if seats else ""
        button = f" Seat #{record.button} is the button" if record.button is not None else ""
        return f"Table '{record.table}'{size}{button}"

    # --- body -----------------------------------------------------------------------------
    def _event(self, index: int, event: Event, levels: dict[int, int]) -> None:
        kind, player = event.kind, event.player or ""
        money = self.money
        all_in = " and is all-in" if event.all_in else ""
        text: str | None
        if kind is EventKind.STREET:
            text = self._street(event)
        elif kind is EventKind.DEAL or kind is EventKind.DRAW:
            text = self._deal(event)
        elif kind is EventKind.ANTE:
            text = f"{player}: posts the ante {money(event.amount)}{all_in}"
        elif kind is EventKind.SMALL_BLIND:
            text = f"{player}: posts small blind {money(event.amount)}{all_in}"
        elif kind is EventKind.BIG_BLIND or kind is EventKind.POST:
            text = self._post(index, event)
        elif kind is EventKind.DEAD:
            text = None  # printed together with the live part as "posts small & big blinds"
        elif kind is EventKind.BRING_IN:
            text = f"{player}: brings in for {money(event.amount)}{all_in}"
        elif kind is EventKind.FOLD:
            text = f"{player}: folds"
        elif kind is EventKind.CHECK:
            text = f"{player}: checks"
        elif kind is EventKind.CALL:
            text = f"{player}: calls {money(event.amount)}{all_in}"
        elif kind is EventKind.BET:
            text = f"{player}: bets {money(event.amount)}{all_in}"
        elif kind is EventKind.COMPLETE:
            text = f"{player}: completes it to {money(event.to or event.amount)}{all_in}"
        elif kind is EventKind.RAISE:
            to = event.to or 0
            text = f"{player}: raises {money(to - levels.get(index, 0))} to {money(to)}{all_in}"
        elif kind is EventKind.DISCARD:
            count = event.count if event.count is not None else len(event.cards)
            noun = "card" if count == 1 else "cards"
            shown = f" [{format_cards(event.cards)}]" if player == self.hero and event.cards else ""
            text = f"{player}: discards {count} {noun}{shown}"
            self.held.discard(player, event.cards, count)
        elif kind is EventKind.STAND_PAT:
            held = self.held.of(player)
            shown = f" on [{format_cards(held)}]" if player == self.hero and held else ""
            text = f"{player}: stands pat{shown}"
        elif kind is EventKind.RESHUFFLE:
            text = "The deck is reshuffled"
        elif kind is EventKind.CAPPED:
            text = "Betting is capped"
        elif kind is EventKind.OPEN_PAIR:
            text = "Pair on board - a double bet is allowed"
        elif kind is EventKind.SHOW:
            described = f" ({event.text})" if event.text else ""
            text = (
                self._showdown_marker()
                + f"{player}: shows [{format_cards(event.cards)}]{described}"
            )
        elif kind is EventKind.MUCK:
            text = None if event.cards else self._showdown_marker() + f"{player}: mucks hand"
        elif kind is EventKind.UNCALLED:
            text = f"Uncalled bet ({money(event.amount)}) returned to {player}"
        elif kind is EventKind.COLLECT:
            text = f"{player} collected {money(event.amount)} from {self._pot_name(event.pot)}"
        elif kind is EventKind.COMMUNITY:
            text = None  # printed on the river street marker
        else:
            text = self._table_life(event)
        if text is not None:
            self.lines.extend(text.split("\n"))

    def _street(self, event: Event) -> str | None:
        if event.street > 0 and self.record.game in UNMARKED_DRAW:
            return None
        names = STUD_STREETS if self.record.game.is_stud else DRAW_STREETS
        marker = f"*** {names[event.street]} ***"
        community = next(
            (
                e
                for e in self.record.events
                if e.kind is EventKind.COMMUNITY and e.street == event.street
            ),
            None,
        )
        if community is not None:
            marker += f" [{format_cards(community.cards)}]"
        return marker

    def _deal(self, event: Event) -> str | None:
        player = event.player or ""
        previous = self.held.receive(player, event.cards)
        if self.record.game.is_draw:
            if player != self.hero:
                return None
            if event.kind is EventKind.DEAL:
                return f"Dealt to {player} [{format_cards(event.cards)}]"
            return f"Dealt to {player} [{format_cards(previous)}] [{format_cards(event.cards)}]"
        up_flags = event.up or (False,) * len(event.cards)
        new_ups = [card for card, up in zip(event.cards, up_flags, strict=True) if up]
        ups_before = list(self.ups.setdefault(player, []))
        self.ups[player].extend(new_ups)
        if player == self.hero:
            if event.street == 0:
                return f"Dealt to {player} [{format_cards(event.cards)}]"
            return f"Dealt to {player} [{format_cards(previous)}] [{format_cards(event.cards)}]"
        # Opponents: only the up cards are printed, and nothing on the down-card river.
        if not new_ups:
            return None
        if event.street == 0:
            return f"Dealt to {player} [{format_cards(new_ups)}]"
        return f"Dealt to {player} [{format_cards(ups_before)}] [{format_cards(new_ups)}]"

    def _post(self, index: int, event: Event) -> str:
        player, all_in = event.player or "", " and is all-in" if event.all_in else ""
        previous = self.record.events[index - 1] if index else None
        if previous is not None and previous.kind is EventKind.DEAD and previous.player == player:
            total = previous.amount + event.amount
            return f"{player}: posts small & big blinds {self.money(total)}{all_in}"
        return f"{player}: posts big blind {self.money(event.amount)}{all_in}"

    def _showdown_marker(self) -> str:
        if "*** SHOW DOWN ***" in self.lines:
            return ""
        return "*** SHOW DOWN ***\n"

    @staticmethod
    def _pot_name(pot: str | None) -> str:
        label = (pot or "main").split(":")[0]
        if label == "main":
            return "pot"
        return "side pot" if label == "side1" else f"side pot-{label.removeprefix('side')}"

    def _table_life(self, event: Event) -> str | None:
        player = event.player or ""
        if event.kind is EventKind.CHAT:
            return f'{player} said, "{event.text or ""}"'
        if event.kind is EventKind.JOIN:
            return f"{player} joins the table at seat #{self._seat_of(player)}"
        if event.kind is EventKind.LEAVE:
            return f"{player} leaves the table"
        if event.kind is EventKind.SIT_OUT:
            return f"{player}: sits out"
        if event.kind is EventKind.SIT_IN:
            return f"{player} has returned"
        if event.kind is EventKind.NOTE and event.text and self.record.room == "pokerstars":
            # A note is the room's own words ("doesn't show hand"); another room's ("does not
            # show", PartyPoker's "opens") has no PokerStars line, so only the store keeps it.
            if event.text == "doesn't show hand":
                return f"{player}: doesn't show hand"
            return NOTE_LINES.get(event.text, event.text)
        return None

    def _seat_of(self, player: str) -> int:
        return next((seat.seat for seat in self.record.seats if seat.player == player), 0)

    # --- summary --------------------------------------------------------------------------
    def _summary(self) -> None:
        record = self.record
        lines = self.lines
        lines.append("*** SUMMARY ***")
        pots = pot_sizes(record)
        total = record.total_pot if record.total_pot is not None else sum(pots.values())
        rake = record.rake if record.rake is not None else 0
        pot_text = ""
        if len(pots) > 1:
            parts = [f"Main pot {self.money(pots.get('main', 0))}."]
            sides = [label for label in pots if label != "main"]
            for label in sides:
                name = "Side pot" if len(sides) == 1 else f"Side pot-{label.removeprefix('side')}"
                parts.append(f"{name} {self.money(pots[label])}.")
            pot_text = " " + " ".join(parts)
        lines.append(f"Total pot {self.money(total)}{pot_text} | Rake {self.money(rake)}")
        community = [e for e in record.events if e.kind is EventKind.COMMUNITY]
        if community:
            lines.append(f"Board [{format_cards(c for e in community for c in e.cards)}]")
        facts = player_facts(record)
        for seat in record.seats:
            outcome = self._outcome(facts[seat.player])
            lines.append(f"Seat {seat.seat}: {seat.player}{self._positions(seat.seat)} {outcome}")

    def _positions(self, seat: int) -> str:
        if self.record.button == seat:
            return " (button)"
        return ""

    def _outcome(self, facts: PlayerFacts) -> str:
        won = f" and won ({self.money(facts.collected)})" if facts.collected else " and lost"
        if facts.showed:
            return f"showed [{format_cards(facts.showed)}]{won}"
        if facts.mucked:
            return f"mucked [{format_cards(facts.mucked)}]"
        if facts.folded_on is not None:
            game = self.record.game
            names = (
                SUMMARY_STREETS
                if game.is_stud
                else SINGLE_DRAW_SUMMARY
                if game in UNMARKED_DRAW
                else DRAW_SUMMARY
            )
            on = "on the " if self.record.game.is_stud else ""
            return f"folded {on}{names[facts.folded_on]}"
        if facts.collected:
            return f"collected ({self.money(facts.collected)})"
        return "lost"


def pokerstars_can_render(record: HandRecord) -> bool:
    """Whether PokerStars' text holds the hand: a game and a structure it names, and hand and
    tournament ids of digits, the only ids its header has (Merge's "33423082-1", OnGame's
    "R5-192626403-203" have no PokerStars form)."""
    tour = record.tournament
    return (
        record.game in GAME_LABELS
        and record.structure in LIMIT_LABELS
        and _digits(record.room_hand_id)
        and (tour is None or _digits(tour.tournament_id))
    )


def _digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


def render_pokerstars(record: HandRecord, hero: str | None = None) -> str:
    """A record in PokerStars' current text format."""
    return PokerStarsRenderer(record, hero).render()
