"""A HandRecord written as PHH, the open Poker Hand History format (TOML): the exporter.

Every record becomes one PHH hand: the spec's fields where it has one (variant, antes, blinds,
bring-in, bets, stacks, actions, players, seats, table, hand, time, currency, winnings, ...) and
studdraw's `_`-prefixed fields for the facts it has none for (room, the room's own time string,
scale, rake, tournament, violations, ...). The actions are rebuilt from the events: PHH wants a
deal for every player still in at every street (`d dh p2 ??`), which rooms print only for the
cards they show, and the showdown (`sm`) after the last card. docs/phh.md is the mapping, field
by field; the PHH room (`studdraw.parsers.rooms.phh`) reads it back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from studdraw.parsers.model import (
    STUD_DEALS,
    Card,
    Event,
    EventKind,
    Game,
    GameKind,
    HandRecord,
    Seat,
    Structure,
)
from studdraw.parsers.phh.vocabulary import (
    RESHUFFLE_NOTE,
    STAKE_FIELDS,
    STRUCTURE_PREFIX,
    blind_kind,
    cards_text,
    inferred_stakes,
    is_spec_variant,
    money,
    players_in_order,
    toml_string,
)
from studdraw.pipeline.rules.specs import GAME_SPECS


def variant_code(game: Game, structure: Structure) -> str:
    """The PHH variant code: the structure's letter, then the game's part (`GameSpec.phh`); the
    spec's code where it has one, else one built the same way."""
    return STRUCTURE_PREFIX[structure] + GAME_SPECS[game].phh


HAND_SIZE: Final = {
    game: spec.hand_size for game, spec in GAME_SPECS.items() if spec.kind is GameKind.DRAW
}
_FORCED_LIVE: Final = frozenset({EventKind.SMALL_BLIND, EventKind.BIG_BLIND, EventKind.POST})
_WAGERS: Final = frozenset({EventKind.BET, EventKind.RAISE, EventKind.COMPLETE})
_PLAY: Final = frozenset(
    {
        EventKind.STREET,
        EventKind.DEAL,
        EventKind.COMMUNITY,
        EventKind.BRING_IN,
        EventKind.FOLD,
        EventKind.CHECK,
        EventKind.CALL,
        EventKind.BET,
        EventKind.RAISE,
        EventKind.COMPLETE,
        EventKind.DISCARD,
        EventKind.STAND_PAT,
        EventKind.DRAW,
    }
)
"""Events that belong to a street's play: the first of a new street starts it."""
_RUN_CARDS: Final = frozenset({EventKind.DRAW, EventKind.SHOW, EventKind.MUCK})
"""What a run of a hand run twice has of its own: its draws and its shows."""


class _Hand:
    """The per-player tallies and the actions of one hand while its events are walked."""

    __slots__ = (
        "actions",
        "antes",
        "blind_kinds",
        "blinds",
        "brought_in",
        "collected",
        "computed_returns",
        "dead",
        "dealt",
        "draws",
        "folded",
        "held",
        "index",
        "invested",
        "pots",
        "returns",
        "runs",
        "shows",
        "street_bets",
    )

    def __init__(self, players: Sequence[str]) -> None:
        count = len(players)
        self.index = {player: i for i, player in enumerate(players)}
        self.actions: list[str] = []
        self.antes = [0] * count
        self.blinds = [0] * count
        self.blind_kinds: list[EventKind | None] = [None] * count
        self.brought_in: int | None = None  # what the first `pb` posted
        self.dead = [0] * count
        self.collected = [0] * count
        self.invested = [0] * count
        self.street_bets = [0] * count
        self.folded = [False] * count
        self.held: list[list[Card | None]] = [[] for _ in range(count)]
        self.dealt: dict[tuple[int, int], tuple[Card | None, ...]] = {}
        self.draws: list[tuple[int, list[Card | None]]] = []  # this draw round: who, new cards
        self.shows: dict[int, tuple[Card | None, ...] | None] = {}  # None = mucked
        self.returns: list[tuple[int, int, int]] = []  # the room's: street, player, amount
        self.computed_returns: list[tuple[int, int, int]] = []  # what a PHH reader works out
        self.pots: list[tuple[int, str, int]] = []  # collects: player, pot, amount
        self.runs: dict[int, list[str]] = {}  # a hand run twice: the 2nd run's draws and shows

    def close_betting(self, street: int) -> None:
        """What a PHH reader returns at the end of a street: the part of the highest bet that
        nobody matched."""
        bets = self.street_bets
        if street < 0 or not bets:
            return
        top = max(bets)
        if top > 0 and bets.count(top) == 1:
            others = max([bet for bet in bets if bet != top], default=0)
            self.computed_returns.append((street, bets.index(top), top - others))


def _deal_stud_street(hand: _Hand, game: Game, street: int, board: dict[int, Card]) -> None:
    if street in board:
        hand.actions.append(f"d db {board[street]}")
        return
    deals = STUD_DEALS[game]
    count = len(deals[min(street, len(deals) - 1)])  # past the last: a broken hand, dealt as it
    for i, folded in enumerate(hand.folded):
        if not folded:
            cards = _fit(hand.dealt.get((street, i), ()), count)
            hand.held[i].extend(cards)
            hand.actions.append(f"d dh p{i + 1} {cards_text(cards)}")


def _deal_draw_hands(hand: _Hand, size: int) -> None:
    for i in range(len(hand.folded)):
        cards = _fit(hand.dealt.get((0, i), ()), size)
        hand.held[i].extend(cards)
        hand.actions.append(f"d dh p{i + 1} {cards_text(cards)}")


def _fit(cards: tuple[Card | None, ...], count: int) -> tuple[Card | None, ...]:
    """The `count` cards of a deal, unknown ones where the room printed fewer."""
    if len(cards) >= count:
        return cards[len(cards) - count :]
    return (None,) * (count - len(cards)) + cards


def _flush_draws(hand: _Hand) -> None:
    """The draw round's replacement cards, dealt once everyone discarded."""
    for i, cards in hand.draws:
        hand.held[i].extend(cards)
        hand.actions.append(f"d dh p{i + 1} {cards_text(tuple(cards))}")
    hand.draws.clear()


def _discard(hand: _Hand, i: int, cards: tuple[Card | None, ...], count: int) -> str:
    held = hand.held[i]
    known = [card for card in cards if card is not None]
    if known and len(known) == len(cards) and all(card in held for card in known):
        for card in known:
            held.remove(card)
        return cards_text(tuple(known))
    for _ in range(min(count, len(held))):  # hidden discards: unknown cards go first
        if None in held:
            held.remove(None)
        else:
            held.pop(0)
    return cards_text((None,) * count)


def _walk(record: HandRecord, players: Sequence[str]) -> _Hand:
    """Turn the record's events into PHH actions and per-player money (the exporter's hot
    loop: event kinds are bound to locals and tested most frequent first)."""
    deal, community, reshuffle = EventKind.DEAL, EventKind.COMMUNITY, EventKind.RESHUFFLE
    call, check, fold, bring_in = (
        EventKind.CALL,
        EventKind.CHECK,
        EventKind.FOLD,
        EventKind.BRING_IN,
    )
    ante, dead, discard, stand_pat = (
        EventKind.ANTE,
        EventKind.DEAD,
        EventKind.DISCARD,
        EventKind.STAND_PAT,
    )
    draw, uncalled, collect = EventKind.DRAW, EventKind.UNCALLED, EventKind.COLLECT
    show, muck = EventKind.SHOW, EventKind.MUCK
    hand = _Hand(players)
    index = hand.index
    labels = [f"p{i + 1}" for i in range(len(players))]
    checks_or_calls = [f"{label} cc" for label in labels]
    folds = [f"{label} f" for label in labels]
    stud = record.game.is_stud
    size = HAND_SIZE.get(record.game, 0)
    scale = record.scale
    board: dict[int, Card] = {}
    dealt = hand.dealt
    for event in record.events:
        kind = event.kind
        if kind is deal:
            i = index.get(event.player or "")
            if i is not None:
                dealt[(event.street, i)] = dealt.get((event.street, i), ()) + event.cards
        elif kind is community and event.cards and event.cards[0]:
            board[event.street] = event.cards[0]
        elif kind is bring_in and hand.brought_in is None:
            hand.brought_in = event.amount
    street = -1
    actions = hand.actions
    bets = hand.street_bets
    invested = hand.invested
    for event in record.events:
        kind = event.kind
        if event.run > 1 and kind in _RUN_CARDS:  # a later run's: `_runs`, not the play
            _later_run(hand, event)
            continue
        if event.street > street and kind in _PLAY:
            if hand.draws:
                _flush_draws(hand)
            while street < event.street:
                hand.close_betting(street)
                street += 1
                if street:
                    bets[:] = [0] * len(bets)
                if stud:
                    _deal_stud_street(hand, record.game, street, board)
                elif street == 0:
                    _deal_draw_hands(hand, size)
        if kind is deal:
            continue
        if kind is reshuffle:  # among the discards, where the room announced it
            actions.append(RESHUFFLE_NOTE)
        elif kind is community and not stud:  # a board (drawmaha), dealt after the draw
            if hand.draws:
                _flush_draws(hand)
            actions.append(f"d db {cards_text(event.cards)}")
            continue
        i = index.get(event.player or "")
        if i is None:
            continue
        amount = event.amount
        if kind is call or kind is check:
            if hand.draws:
                _flush_draws(hand)
            bets[i] += amount
            invested[i] += amount
            actions.append(checks_or_calls[i])
        elif kind is fold:
            if hand.draws:
                _flush_draws(hand)
            hand.folded[i] = True
            actions.append(folds[i])
        elif kind in _WAGERS:
            if hand.draws:
                _flush_draws(hand)
            bets[i] += amount
            invested[i] += amount
            actions.append(f"{labels[i]} cbr {money(bets[i], scale)}")
        elif kind is ante:
            hand.antes[i] += amount
            invested[i] += amount
        elif kind is bring_in:
            bets[i] += amount
            invested[i] += amount
            actions.append(f"{labels[i]} pb")
        elif kind in _FORCED_LIVE:
            hand.blind_kinds[i] = kind
            hand.blinds[i] += amount
            bets[i] += amount
            invested[i] += amount
        elif kind is discard:
            count = event.count if event.count is not None else len(event.cards)
            actions.append(f"{labels[i]} sd {_discard(hand, i, event.cards, count)}".rstrip())
            hand.draws.append((i, [None] * count))
        elif kind is stand_pat:
            actions.append(f"{labels[i]} sd")
        elif kind is draw:
            _drawn(hand, i, event.cards)
        elif kind is collect:
            hand.collected[i] += amount
            hand.pots.append((i, event.pot or "main", amount))
        elif kind is uncalled:
            invested[i] -= amount
            hand.returns.append((event.street, i, amount))
        elif kind is show:
            if hand.shows.get(i) is None:
                hand.shows[i] = event.cards
        elif kind is muck:
            hand.shows.setdefault(i, None)
        elif kind is dead:
            hand.dead[i] += amount
            invested[i] += amount
    if hand.draws:
        _flush_draws(hand)
    hand.close_betting(street)
    contested = hand.folded.count(False) > 1
    for i, shown in hand.shows.items():
        if hand.folded[i]:
            continue
        cards = (_merge(hand.held[i], shown) if stud else list(shown)) if shown else []
        if contested and not cards:
            actions.append(f"p{i + 1} sm")
        elif cards and (contested or all(cards)):
            # uncontested, PHH shows only a whole hand (a winner's "mucks" is no showdown)
            actions.append(f"p{i + 1} sm {cards_text(tuple(cards))}")
    return hand


def _later_run(hand: _Hand, event: Event) -> None:
    """A draw or a show of a run after the first, as the PHH action it would be in the play
    (`d dh p1 Qs`, `p1 sm 5d 7h Qs Td 2h`), kept for `_runs`."""
    i = hand.index.get(event.player or "")
    if i is None:
        return
    cards = cards_text(event.cards)
    if event.kind is EventKind.DRAW:
        action = f"d dh p{i + 1} {cards}"
    else:
        action = f"p{i + 1} sm {cards}".rstrip() if event.kind is EventKind.SHOW else f"p{i + 1} sm"
    hand.runs.setdefault(event.run, []).append(action)


def _drawn(hand: _Hand, i: int, cards: tuple[Card | None, ...]) -> None:
    """A draw's new cards: they fill the discard's unknown slots (a room may print the draw
    before or after the discard)."""
    for who, slots in hand.draws:
        if who == i:
            slots[: len(cards)] = cards
            return
    hand.draws.append((i, list(cards)))


def _merge(held: list[Card | None], shown: tuple[Card | None, ...]) -> list[Card | None]:
    """A stud player's whole hand in deal order, the shown cards filling the unknown ones."""
    cards = list(held)
    extra = iter(card for card in shown if card is not None and card not in cards)
    for at, card in enumerate(cards):
        if card is None:
            cards[at] = next(extra, None)
    return cards


def _reversed_heads_up(values: list[int]) -> list[int]:
    """PHH assigns antes and blinds in reverse heads-up (p1 is the big blind, listed second)."""
    return values[::-1] if len(values) == 2 else values


def _numbers(values: Iterable[int], scale: int) -> str:
    return "[" + ", ".join(money(value, scale) for value in values) + "]"


def _strings(values: Iterable[str]) -> str:
    return "[" + ", ".join(toml_string(value) for value in values) + "]"


def _brought_in(record: HandRecord, hand: _Hand) -> int:
    """PHH's `bring_in`: what the hand's `pb` posted (a room may take less than its stakes say,
    a short stack less still), the stakes' bring-in when nobody brought in; `_bring_in` keeps
    the stakes' own when they differ."""
    return record.stakes.bring_in if hand.brought_in is None else hand.brought_in


def phh_fields(record: HandRecord, violations: Sequence[str] = ()) -> list[tuple[str, str]]:
    """The hand's PHH fields as (key, TOML value) pairs in a fixed order: the spec's required
    fields, its optional ones, then studdraw's `_` fields."""
    seats = players_in_order(record)
    players = [seat.player for seat in seats]
    hand = _walk(record, players)
    scale = record.scale
    stakes = record.stakes
    code = variant_code(record.game, record.structure)
    fields: list[tuple[str, str]] = [("variant", toml_string(code))]
    fields.append(("antes", _numbers(_reversed_heads_up(hand.antes), scale)))
    blinds = _reversed_heads_up(hand.blinds)
    bring_in = _brought_in(record, hand)
    if record.game.is_stud:
        fields.append(("bring_in", money(bring_in, scale)))
    else:
        fields.append(("blinds_or_straddles", _numbers(blinds, scale)))
    if record.structure is Structure.FIXED:
        fields.append(("small_bet", money(stakes.small_bet, scale)))
        fields.append(("big_bet", money(stakes.big_bet, scale)))
    else:
        fields.append(("min_bet", money(stakes.big_blind or stakes.small_bet, scale)))
    fields.append(("starting_stacks", _numbers((seat.stack for seat in seats), scale)))
    actions = '",\n  "'.join(hand.actions)  # plain ASCII, no quotes
    fields.append(("actions", f'[\n  "{actions}",\n]' if hand.actions else "[]"))
    fields += _optional_fields(record, seats, hand)
    fields += _extension_fields(record, hand, blinds, code, violations)
    return fields


def _optional_fields(
    record: HandRecord, seats: Sequence[Seat], hand: _Hand
) -> list[tuple[str, str]]:
    scale = record.scale
    started = record.started_at
    fields = [
        ("players", _strings(hand.index)),
        ("seats", "[" + ", ".join(str(seat.seat) for seat in seats) + "]"),
    ]
    if record.max_seats is not None:
        fields.append(("seat_count", str(record.max_seats)))
    fields.append(("table", toml_string(record.table)))
    hand_id = record.room_hand_id
    numeric = hand_id.isdigit() and str(int(hand_id)) == hand_id and int(hand_id) < 2**63
    fields.append(("hand", hand_id if numeric else toml_string(hand_id)))
    venue = _venue(record.room)
    if venue is not None:
        fields.append(("venue", toml_string(venue)))
    if record.tournament is not None:
        fields.append(("event", toml_string(f"Tournament {record.tournament.tournament_id}")))
        level = record.tournament.level or ""
        if level.isdigit():
            fields.append(("level", str(int(level))))
    fields += [
        ("time", started.time().isoformat("seconds")),
        ("time_zone", '"UTC"'),
        ("day", str(started.day)),
        ("month", str(started.month)),
        ("year", str(started.year)),
    ]
    if len(record.currency) == 3 and record.currency not in ("PLAY",):
        fields.append(("currency", toml_string(record.currency)))
    stacks = [
        seat.stack - invested + collected
        for seat, invested, collected in zip(seats, hand.invested, hand.collected, strict=True)
    ]
    fields.append(("winnings", _numbers(hand.collected, scale)))
    fields.append(("finishing_stacks", _numbers(stacks, scale)))
    return fields


def _extension_fields(
    record: HandRecord, hand: _Hand, blinds: list[int], code: str, violations: Sequence[str]
) -> list[tuple[str, str]]:
    """studdraw's `_` fields: what the spec has no field for, written only when it says
    something (a reader that drops them still has a playable hand)."""
    scale = record.scale
    stakes = record.stakes
    fields = [("_room", toml_string(record.room))]
    if not is_spec_variant(code):
        fields += [
            ("_game", toml_string(record.game)),
            ("_structure", toml_string(record.structure)),
        ]
    if scale != 1:
        fields.append(("_scale", str(scale)))
    if len(record.currency) != 3 or record.currency == "PLAY":
        fields.append(("_currency", toml_string(record.currency)))
    fields.append(("_room_time", toml_string(record.room_time)))
    implied = inferred_stakes(
        record.structure,
        hand.antes,
        blinds,
        _brought_in(record, hand) if record.game.is_stud else 0,
        (stakes.small_bet, stakes.big_bet),
    )
    for name in STAKE_FIELDS:
        value = getattr(stakes, name)
        if value != getattr(implied, name):
            fields.append((f"_{name}", money(value, scale)))
    if sorted(hand.returns) != sorted(hand.computed_returns):
        fields.append(("_uncalled", _triples(hand.returns, scale)))
    if _pots_beyond_main(hand.pots):
        fields.append(("_collects", _collects(hand.pots, scale)))
    count = len(hand.index)
    implied_kinds = [
        blind_kind(i, count, amount, stakes) if amount else None
        for i, amount in enumerate(hand.blinds)
    ]
    if hand.blind_kinds != implied_kinds:
        kinds = [str(kind) if kind else "" for kind in hand.blind_kinds]
        fields.append(("_blind_kinds", _strings(kinds)))
    if any(hand.dead):
        fields.append(("_dead_blinds", _numbers(hand.dead, scale)))
    players = list(hand.index)
    if record.game.is_draw and record.button is not None:
        last = next(seat.seat for seat in record.seats if seat.player == players[-1])
        if record.button != last:
            fields.append(("_button", str(record.button)))
    if record.hero is not None:
        fields.append(("_hero", toml_string(record.hero)))
    if record.mixed is not None:
        fields.append(("_mixed", toml_string(record.mixed)))
    if record.total_pot is not None:
        fields.append(("_total_pot", money(record.total_pot, scale)))
    if record.rake is not None:
        fields.append(("_rake", money(record.rake, scale)))
    tournament = record.tournament
    if tournament is not None:
        fields.append(("_tournament_id", toml_string(tournament.tournament_id)))
        for name, cents in (("buy_in", tournament.buy_in), ("fee", tournament.fee)):
            if cents is not None:
                fields.append((f"_tournament_{name}", money(cents, 100)))
        if tournament.currency is not None:
            fields.append(("_tournament_currency", toml_string(tournament.currency)))
        if tournament.level is not None:
            fields.append(("_tournament_level", toml_string(tournament.level)))
    if record.notes:
        fields.append(("_notes", _strings(record.notes)))
    if hand.runs:
        runs = (_strings(hand.runs[run]) for run in sorted(hand.runs))
        fields.append(("_runs", "[" + ", ".join(runs) + "]"))
    if violations:
        fields.append(("_violations", _strings(violations)))
    fields.append(("_source", toml_string(f"{record.source.path}:{record.source.line}")))
    return fields


def _triples(returns: Sequence[tuple[int, int, int]], scale: int) -> str:
    """`[[street, player number, amount], ...]`: the room's uncalled returns, written when a
    PHH reader would work out others (a room that keeps an uncalled bet in the pot)."""
    items = (f"[{street}, {i + 1}, {money(amount, scale)}]" for street, i, amount in returns)
    return "[" + ", ".join(items) + "]"


def _pots_beyond_main(pots: Sequence[tuple[int, str, int]]) -> bool:
    players = [i for i, _, _ in pots]
    return any(pot != "main" for _, pot, _ in pots) or len(players) != len(set(players))


def _collects(pots: Sequence[tuple[int, str, int]], scale: int) -> str:
    """`[[player number, pot, amount], ...]`: who won what from which pot (side pots, split
    halves), where `winnings` only has each player's sum."""
    items = (f"[{i + 1}, {toml_string(pot)}, {money(amount, scale)}]" for i, pot, amount in pots)
    return "[" + ", ".join(items) + "]"


def dumps(record: HandRecord, violations: Sequence[str] = ()) -> str:
    """One hand as the text of a `.phh` file."""
    return "".join([f"{key} = {value}\n" for key, value in phh_fields(record, violations)])


def dumps_all(hands: Iterable[tuple[HandRecord, Sequence[str]]]) -> Iterable[str]:
    """Hands as the successive pieces of a `.phhs` file: one `[N]` table per hand, N from 1."""
    for number, (record, violations) in enumerate(hands, 1):
        yield f"[{number}]\n{dumps(record, violations)}\n"


def _venue(room: str) -> str | None:
    """The room's title, as its registry entry gives it (none for a room it does not name)."""
    from studdraw.parsers.rooms import BY_NAME  # noqa: PLC0415 (the registry loads every room)

    entry = BY_NAME.get(room)
    return entry.title if entry is not None else None
