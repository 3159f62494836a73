"""The PHH room: hands in the open Poker Hand History format (phh.readthedocs.io), `.phh` files
of one hand and `.phhs` files of one `[table]` per hand, read with a real TOML parser.

A PHH hand states the table (variant, forced bets, stacks) and the actions (`d dh p1 As??`,
`p2 cbr 4`, `p3 sd ????`, `p1 sm AsKs`, ...) without amounts for calls or the streets they fall
on; the room replays them just enough to give every event what a room's text would say (street,
chips put in, total on the street, all-in, uncalled returns), and the rules engine then checks
the hand like any other. studdraw's `_` fields (written by `studdraw export`) restore what PHH
has no field for; PHH from elsewhere reads without them. Mapping: docs/phh.md.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, date, datetime, time
from decimal import Decimal
from typing import Any, Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from studdraw.parsers.builder import NOT_READ, HandParseError, unsupported
from studdraw.parsers.files import Line
from studdraw.parsers.model import (
    Game,
    HandRecord,
    HandText,
    ParsedHand,
    Seat,
    SourceRef,
    Stakes,
    Structure,
    Tournament,
)
from studdraw.parsers.phh.play import Play
from studdraw.parsers.phh.results import settle
from studdraw.parsers.phh.vocabulary import (
    SPEC_VARIANTS,
    STAKE_FIELDS,
    inferred_stakes,
    parse_cards,
    to_units,
)
from studdraw.parsers.problems import Code, Problem, Stage
from studdraw.parsers.room import Room

_SECTION: Final = re.compile(r"[ \t]*\[(?!\[)[^\]\n]*\][ \t]*(?:#.*)?$")
_KEY: Final = re.compile(r"[ \t]*(?:[A-Za-z0-9_-]+|\"[^\"\n]*\"|'[^'\n]*')[ \t]*=")
_VARIANT: Final = re.compile(r"^[ \t]*variant[ \t]*=[ \t]*[\"']", re.MULTILINE)
_TOML_LINE: Final = re.compile(r"at line (\d+)")
EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)


class PHH(Room):
    """`.phh` (one hand, top-level keys) and `.phhs` (one `[section]` per hand) files."""

    name = "phh"
    hand_start = _SECTION
    whole_files = True

    def sniff(self, head: str) -> bool:
        """A PHH file: its first meaningful line is a TOML key or section, and a `variant`
        key follows (every PHH hand has one)."""
        for line in head.splitlines()[:50]:
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            if not (_SECTION.match(line) or _KEY.match(line)):
                return False
            return _VARIANT.search(head) is not None
        return False

    def split(self, lines: Iterable[Line], path: str) -> Iterator[HandText]:
        """A file whose first meaningful line is a section header is a `.phhs`: each section
        is a hand (comments above the first belong to it). Otherwise the file is one hand."""
        buffer: list[str] = []
        first: Line | None = None
        sections: bool | None = None
        for line in lines:
            text = line.text
            meaningful = text.strip() and not text.lstrip().startswith("#")
            if sections is None and meaningful:
                sections = _SECTION.match(text) is not None
            if sections and _SECTION.match(text) and any(_KEY.match(kept) for kept in buffer):
                assert first is not None
                yield _hand_text(buffer, first, path)
                buffer, first = [], None
            if first is None and not text.strip():
                continue
            if first is None:
                first = line
            buffer.append(text)
        if first is not None:
            yield _hand_text(buffer, first, path)

    def hand_id(self, head: str) -> str | None:
        try:
            fields = _hand_fields(tomllib.loads(head, parse_float=Decimal))
        except (tomllib.TOMLDecodeError, HandParseError):
            return None
        return room_hand_id(fields, head)

    def parse(self, hand: HandText) -> ParsedHand:
        """Parse one PHH hand; never raises."""
        path = hand.source.path
        try:
            fields = _hand_fields(tomllib.loads(hand.text, parse_float=Decimal))
        except tomllib.TOMLDecodeError as error:
            found = _TOML_LINE.search(str(error))
            line = hand.source.line + (int(found.group(1)) - 1 if found else 0)
            problem = Problem(Code.PRS001, Stage.PARSE, path, line, f"invalid TOML: {error}")
            return ParsedHand(hand, None, problem=problem)
        except HandParseError as failure:
            return ParsedHand(hand, None, problem=failure.problem(path, hand.source.line))
        hand_id = room_hand_id(fields, hand.text)
        try:
            record = _record(fields, hand, hand_id)
        except HandParseError as failure:
            problem = failure.problem(path, failure.line or hand.source.line)
            return ParsedHand(hand, hand_id, None, problem, failure.game_label)
        except (ValueError, TypeError, KeyError, IndexError) as error:
            message = f"bad PHH hand: {error}"
            problem = Problem(Code.PRS001, Stage.PARSE, path, hand.source.line, message)
            return ParsedHand(hand, hand_id, problem=problem)
        return ParsedHand(hand, hand_id, record=record)


def _hand_fields(document: dict[str, Any]) -> dict[str, Any]:
    """The hand's fields: the document itself (`.phh`) or its one table (a `.phhs` section)."""
    if "variant" in document or "actions" in document:
        return document
    tables = [value for value in document.values() if isinstance(value, dict)]
    if len(tables) != 1:
        raise HandParseError("not a PHH hand: no `variant` field", 0)
    return tables[0]


def room_hand_id(fields: dict[str, Any], text: str) -> str:
    """The hand's id in the store: `room:hand` for studdraw's exports (so hands of two rooms
    never collide), else a digest of the hand's text (PHH's `hand` counts from 1 per event)."""
    room, number = fields.get("_room"), fields.get("hand")
    if isinstance(room, str) and number is not None:
        return f"{room}:{number}"
    return "sha:" + hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def _game(fields: dict[str, Any]) -> tuple[Game, Structure]:
    code = fields.get("variant")
    if not isinstance(code, str):
        raise HandParseError("not a PHH hand: no `variant` field", 0)
    if code in SPEC_VARIANTS:
        return SPEC_VARIANTS[code]
    game, structure = fields.get("_game"), fields.get("_structure")
    try:
        return Game(str(game)), Structure(str(structure))
    except ValueError:
        raise unsupported(code, 0, f"PHH variant {code} {NOT_READ}") from None


def _scale(fields: dict[str, Any], currency: str) -> int:
    scale = fields.get("_scale")
    if isinstance(scale, int) and scale > 0:
        return scale
    places = 2 if len(currency) == 3 and currency not in ("PLAY",) else 0
    for value in _numbers(fields):
        if isinstance(value, Decimal):
            places = max(places, -int(value.normalize().as_tuple().exponent))
    return int(10**places)


def _numbers(fields: dict[str, Any]) -> Iterator[int | Decimal]:
    for key in ("antes", "blinds_or_straddles", "starting_stacks", "winnings", "finishing_stacks"):
        yield from fields.get(key) or ()
    for key in ("bring_in", "small_bet", "big_bet", "min_bet"):
        if key in fields:
            yield fields[key]


def _started(fields: dict[str, Any]) -> tuple[datetime, str, list[str]]:
    """Start time in UTC, the time as the file says it, and a note when it has no date."""
    day, month, year = fields.get("day"), fields.get("month"), fields.get("year")
    clock = fields.get("time")
    room_time = fields.get("_room_time")
    if not (isinstance(day, int) and isinstance(month, int) and isinstance(year, int)):
        note = "no date in the PHH hand: its start is set to 1970-01-01 UTC"
        return EPOCH, room_time if isinstance(room_time, str) else "", [note]
    local = datetime.combine(date(year, month, day), clock if isinstance(clock, time) else time(0))
    zone_name = fields.get("time_zone")
    try:
        zone = ZoneInfo(zone_name) if isinstance(zone_name, str) else UTC
    except (ZoneInfoNotFoundError, ValueError):
        raise HandParseError(f"unknown time zone {zone_name!r}", 0) from None
    started = local.replace(tzinfo=zone).astimezone(UTC)
    notes = []
    if not isinstance(zone_name, str):
        # PHH: the time is the zone's, else the place's (city, region, country), else UTC.
        # studdraw has no map from places or abbreviations to zones: it says what it assumed.
        place = [fields[key] for key in ("city", "region", "country") if fields.get(key)]
        said = fields.get("time_zone_abbreviation")
        if len(place) == 3 or isinstance(said, str):
            where = ", ".join(map(str, place)) if len(place) == 3 else f"zone {said}"
            notes.append(f"the PHH hand's time is local to {where}: read as UTC")
    if not isinstance(room_time, str):
        label = zone_name or fields.get("time_zone_abbreviation") or "UTC"
        room_time = f"{local.isoformat(sep=' ')} {label}"
    return started, room_time, notes


def _record(fields: dict[str, Any], hand: HandText, hand_id: str) -> HandRecord:
    game, structure = _game(fields)
    currency = fields.get("currency") or fields.get("_currency") or "CHIPS"
    scale = _scale(fields, currency)

    def units(value: Any) -> int:
        return to_units(value, scale)

    stacks = [units(value) for value in fields["starting_stacks"]]
    count = len(stacks)
    names = list(fields.get("players") or [""] * count)
    names = [name or f"p{i + 1}" for i, name in enumerate(names)]
    numbers = list(fields.get("seats") or range(1, count + 1))
    if len(names) != count or len(numbers) != count or count < 2:
        raise HandParseError("players, seats and starting_stacks differ in length", 0)
    seats = [Seat(n, name, stack) for n, name, stack in zip(numbers, names, stacks, strict=True)]
    antes = [units(value) for value in fields.get("antes") or [0] * count]
    blinds = [units(value) for value in fields.get("blinds_or_straddles") or [0] * count]
    bets = (
        units(fields.get("small_bet", fields.get("min_bet", 0))),
        units(fields.get("big_bet", fields.get("min_bet", 0))),
    )
    implied = inferred_stakes(structure, antes, blinds, units(fields.get("bring_in", 0)), bets)
    stakes = Stakes(
        **{
            name: units(fields[f"_{name}"]) if f"_{name}" in fields else getattr(implied, name)
            for name in STAKE_FIELDS
        }
    )
    if count == 2:  # PHH lists heads-up antes and blinds in reverse
        antes, blinds = antes[::-1], blinds[::-1]
    dead = [units(value) for value in fields.get("_dead_blinds") or [0] * count]
    started, room_time, notes = _started(fields)
    tournament = _tournament(fields, currency)
    if "_room" not in fields:  # PHH from elsewhere: what the store has no column for
        said = {"event": fields.get("event") if tournament is None else None}
        said |= {key: fields.get(key) for key in ("hand", "venue", "author")}
        notes.extend(
            f"PHH {key}: {value}" for key, value in said.items() if value not in (None, "")
        )
    play = Play(
        game,
        stakes,
        seats,
        scale,
        bring_in=implied.bring_in,
        first_line=hand.source.line,
        action_lines=_action_lines(hand.text),
    )
    kinds = fields.get("_blind_kinds")
    play.forced(antes, blinds, dead, [str(kind) for kind in kinds] if kinds else None)
    if "_uncalled" in fields:
        play.given_returns([(s, i - 1, units(amount)) for s, i, amount in fields["_uncalled"]])
    for number, action in enumerate(fields.get("actions") or ()):
        play.act(str(action), number)
    for run, actions in enumerate(fields.get("_runs") or (), 2):  # a hand run twice
        for action in actions:
            play.later_run(run, str(action))
    collects = fields.get("_collects")
    problems, stated = settle(
        play,
        _amounts(fields, "winnings", units, count),
        _amounts(fields, "finishing_stacks", units, count),
        [(i - 1, str(pot), units(amount)) for i, pot, amount in collects] if collects else None,
        (hand.source.path, hand.source.line),
    )
    rake = units(fields["_rake"]) if "_rake" in fields else None
    if rake is None and "_room" not in fields and (not stated or currency == "CHIPS"):
        rake = 0  # chips are never raked, and a missing result is no rake
    button = fields.get("_button", None if game.is_stud else numbers[-1])
    return HandRecord(
        room="phh",
        room_hand_id=hand_id,
        game=game,
        structure=structure,
        currency=currency,
        scale=scale,
        stakes=stakes,
        started_at=started,
        room_time=room_time,
        table=str(fields.get("table", "")),
        seats=seats,
        events=play.events,
        source=hand.source,
        max_seats=fields.get("seat_count"),
        button=button,
        tournament=tournament,
        mixed=fields.get("_mixed"),
        hero=fields.get("_hero"),
        total_pot=units(fields["_total_pot"]) if "_total_pot" in fields else None,
        rake=rake,
        notes=[*map(str, fields.get("_notes") or ()), *notes],
        problems=problems,
        runs=max((event.run for event in play.events), default=1) or 1,
    )


def _amounts(
    fields: dict[str, Any], key: str, units: Callable[[Any], int], count: int
) -> list[int] | None:
    """A per-player list of amounts (`winnings`, `finishing_stacks`), or None if absent."""
    if key not in fields:
        return None
    values = [units(value) for value in fields[key]]
    if len(values) != count:
        raise HandParseError(f"`{key}` has {len(values)} amounts for {count} players", 0)
    return values


def _tournament(fields: dict[str, Any], currency: str) -> Tournament | None:
    """studdraw's `_tournament_...` fields, else PHH's `event` and `level` for a hand in chips
    (an event played for a currency is a cash game's: its name is kept in the notes)."""
    tournament_id = fields.get("_tournament_id")
    if tournament_id is None:
        event, level = fields.get("event"), fields.get("level")
        if not isinstance(event, str) or not event or currency != "CHIPS":
            return None
        return Tournament(event, level=str(level) if level is not None else None)
    buy_in, fee = fields.get("_tournament_buy_in"), fields.get("_tournament_fee")
    return Tournament(
        str(tournament_id),
        to_units(buy_in, 100) if buy_in is not None else None,
        to_units(fee, 100) if fee is not None else None,
        fields.get("_tournament_currency"),
        fields.get("_tournament_level"),
    )


_ACTION_TOKEN: Final = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'[^']*'|#|\]")


def _action_lines(text: str) -> list[int]:
    """The line (0-based, within the hand) of each action string, in order: the quoted strings
    from the `actions = [` line to its closing bracket (several per line are allowed)."""
    lines: list[int] = []
    inside = False
    for number, line in enumerate(text.split("\n")):
        start = 0
        if not inside:
            opening = re.match(r"[ \t]*actions[ \t]*=[ \t]*\[", line)
            if opening is None:
                continue
            inside, start = True, opening.end()
        for token in _ACTION_TOKEN.findall(line, start):
            if token == "#":
                break
            if token == "]":
                return lines
            lines.append(number)
    return lines


def _hand_text(buffer: list[str], first: Line, path: str) -> HandText:
    while buffer and not buffer[-1].strip():
        buffer.pop()
    return HandText("\n".join(buffer), SourceRef(path, first.offset, first.number), "phh")


__all__ = ["PHH", "parse_cards", "room_hand_id"]
