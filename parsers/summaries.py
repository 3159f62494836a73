"""Tournament summary files: what PokerStars and Full Tilt export about a tournament apart from
its hands (buy-in, fee, bounty, entries, prize pool, every finisher's place and prize).

PokerStars writes (one file, or several summaries one after another)::

    PokerStars Tournament #447493868, No Limit Omaha Hi/Lo
    Buy-In: $1.08/$0.27/$0.15 USD          buy-in/fee, or buy-in/bounty/fee
    9 players
    Total Prize Pool: $9.72 USD
    Tournament started 2011/09/28 8:42:10 ET
      1: APTEM-89 (Russia), $4.87 (50.102%)
      4: barlowdog1 (Canada),
    You finished in 3rd place.
    You collected 5 bounties for a total of USD 875.00.

Full Tilt writes::

    Full Tilt Poker Tournament Summary $60 Heads-Up Sit & Go (243514942) Razz Limit (...)
    Buy-In: $58.83 + $1.17
    Knockout Bounty: $15
    Hero received 3 Knockout Bounty Awards
    2 Entries
    Total Prize Pool: $117.66
    Tournament started: 2012/11/06 23:08:23 CET [2012/11/06 17:08:23 ET]
    1: Makksmakkmao, $117.66
    Hero finished in 79th place

Money is in the buy-in currency's cents (as `hands.tournament_buy_in`); a line the reader does
not know is kept as a finding in `unknown_lines`, never dropped quietly. The format was learned
from the files FPDB-3 keeps as regression tests; the tests here use hand-written files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Final

from .files import read_head

SYMBOLS: Final = {"$": "USD", "€": "EUR", "£": "GBP"}
_MONEY = r"[$€£]?[\d,]+(?:\.\d+)?"
STARS_START: Final = re.compile(r"^PokerStars Tournament #(?P<id>\d+), (?P<game>.*)$")
TILT_START: Final = re.compile(
    r"^Full Tilt Poker Tournament Summary (?P<name>.*) \((?P<id>\d+)\) (?P<game>.*)$"
)
STARTS: Final = re.compile(r"^(?:PokerStars Tournament #\d+, |Full Tilt Poker Tournament Summary )")
STARS_BUY_IN: Final = re.compile(
    rf"^Buy-In: (?P<parts>{_MONEY}(?:/{_MONEY}){{0,2}})(?: (?P<iso>[A-Z]{{3}}))?$"
)
TILT_BUY_IN: Final = re.compile(rf"^Buy-In: (?P<buy_in>{_MONEY})(?: \+ (?P<fee>{_MONEY}))?$")
TILT_BOUNTY: Final = re.compile(rf"^Knockout Bounty: (?P<bounty>{_MONEY})$")
TILT_KOS: Final = re.compile(r"^(?P<name>.+) received (?P<count>\d+) Knockout Bounty Awards?$")
ENTRIES: Final = re.compile(r"^(?P<entries>[\d,]+) (?:players|Entries)$")
PRIZE_POOL: Final = re.compile(rf"^Total Prize Pool: (?P<pool>{_MONEY})(?: [A-Z]{{3}})?$")
STARTED: Final = re.compile(r"^Tournament started:? (?:- )?(?P<when>.+)$")
STARS_PLACE: Final = re.compile(
    rf"^\s*(?P<place>\d+): (?P<name>.+?) \([^()]*\),(?: (?P<prize>{_MONEY})(?: \([\d.]+%\))?)?"
    r"(?: still playing)?\s*$"
)
TILT_PLACE: Final = re.compile(rf"^(?P<place>\d+): (?P<name>.+?)(?:, (?P<prize>{_MONEY}))?$")
STARS_MINE: Final = re.compile(r"^You finished in (?P<place>\d+)(?:st|nd|rd|th) place\.?$")
STARS_KOS: Final = re.compile(
    r"^You collected (?P<count>\d+) bount(?:y|ies) for a total of [A-Z]{3} "
    r"(?P<total>[\d,]+(?:\.\d+)?)\.?$"
)
TILT_MINE: Final = re.compile(r"^(?P<name>.+) finished in (?P<place>\d+)(?:st|nd|rd|th) place$")
KNOWN_NOISE: Final = re.compile(
    r"^(?:Tournament finished|Tournament is still in progress|Buy-In Chips|Still Playing - |"
    r"Target Tournament|\d+ tickets? to the target|You made \d+ rebuys|.*added to the prize pool)"
)
"""Lines read and deliberately not kept (times of the end, chips, players still in, tickets)."""


@dataclass(frozen=True, slots=True)
class Finisher:
    name: str
    place: int | None  # None: still playing when the summary was written
    prize: int | None  # cents; None when the line shows no prize
    bounty: int | None = None  # cents, where the summary says (the account's own bounties)


@dataclass(slots=True)
class TournamentSummary:
    room: str  # "pokerstars", "fulltilt"
    tournament_id: str
    source: str
    line: int
    game: str = ""
    currency: str | None = None
    buy_in: int | None = None
    fee: int | None = None
    bounty: int | None = None  # the bounty on each player's head, in cents
    entries: int | None = None
    prize_pool: int | None = None
    started: str | None = None  # as the room printed it
    finishers: list[Finisher] = field(default_factory=list)
    unknown_lines: list[tuple[int, str]] = field(default_factory=list)


def is_summary(path: Path) -> bool:
    """Whether the file starts like a PokerStars or Full Tilt tournament summary."""
    _, head = read_head(path)
    first = next((line.strip() for line in head.splitlines() if line.strip()), "")
    return bool(STARTS.match(first.lstrip("\ufeff")))


def read_summaries(path: Path) -> list[TournamentSummary]:
    """Every summary in the file, in order; raises OSError when the file cannot be read."""
    encoding, _ = read_head(path)
    body = path.read_bytes()[encoding.bom :]
    try:
        text = body.decode(encoding.name if encoding.is_utf16 else "utf-8")
    except UnicodeDecodeError:  # the rooms' older exports are cp1252
        text = body.decode("cp1252", errors="replace")
    found: list[TournamentSummary] = []
    mine: dict[int, tuple[str | None, int, int | None]] = {}  # summary index -> (name, place, kos)
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not line.strip():
            continue
        start = STARS_START.match(line) or TILT_START.match(line)
        if start:
            room = "pokerstars" if line.startswith("PokerStars") else "fulltilt"
            found.append(
                TournamentSummary(room, start["id"], str(path), number, game=start["game"])
            )
            continue
        if not found:
            continue
        summary = found[-1]
        if not _read_line(summary, line, len(found) - 1, mine):
            summary.unknown_lines.append((number, line))
    for index, (name, place, bounty) in mine.items():
        _mark_own_result(found[index], name, place, bounty)
    return found


def _read_line(
    summary: TournamentSummary,
    line: str,
    index: int,
    mine: dict[int, tuple[str | None, int, int | None]],
) -> bool:
    """Fold one line into the summary; False when no pattern knows it."""
    stars = summary.room == "pokerstars"
    if match := (STARS_BUY_IN if stars else TILT_BUY_IN).match(line):
        _buy_in(summary, match, stars=stars)
    elif match := TILT_BOUNTY.match(line):
        summary.bounty = cents(match["bounty"])
    elif match := ENTRIES.match(line):
        summary.entries = int(match["entries"].replace(",", ""))
    elif match := PRIZE_POOL.match(line):
        summary.prize_pool = cents(match["pool"])
    elif match := STARTED.match(line):
        summary.started = match["when"]
    elif match := (STARS_PLACE if stars else TILT_PLACE).match(line):
        prize = cents(match["prize"]) if match["prize"] else None
        still = line.rstrip().endswith("still playing")
        summary.finishers.append(
            Finisher(match["name"], None if still else int(match["place"]), prize)
        )
    elif match := STARS_MINE.match(line):
        previous = mine.get(index, (None, 0, None))
        mine[index] = (previous[0], int(match["place"]), previous[2])
    elif match := STARS_KOS.match(line):
        previous = mine.get(index, (None, 0, None))
        mine[index] = (previous[0], previous[1], cents(match["total"]))
    elif match := TILT_KOS.match(line):
        previous = mine.get(index, (None, 0, None))
        bounty = (summary.bounty or 0) * int(match["count"]) if summary.bounty else None
        mine[index] = (match["name"], previous[1], bounty)
    elif match := TILT_MINE.match(line):
        previous = mine.get(index, (None, 0, None))
        mine[index] = (match["name"], int(match["place"]), previous[2])
    else:
        return bool(KNOWN_NOISE.match(line))
    return True


def _buy_in(summary: TournamentSummary, match: re.Match[str], *, stars: bool) -> None:
    if stars:
        parts = match["parts"].split("/")
        amounts = [cents(part) for part in parts]
        summary.buy_in = amounts[0]
        if len(amounts) == 2:
            summary.fee = amounts[1]
        elif len(amounts) == 3:
            summary.bounty, summary.fee = amounts[1], amounts[2]
        summary.currency = match["iso"] or _currency(parts[0])
    else:
        summary.buy_in = cents(match["buy_in"])
        summary.fee = cents(match["fee"]) if match["fee"] else 0
        summary.currency = _currency(match["buy_in"])


def _mark_own_result(
    summary: TournamentSummary, name: str | None, place: int, bounty: int | None
) -> None:
    """The account's own lines ("You finished in 3rd place", bounties collected): PokerStars
    does not name the account, so its finisher is the one listed at that place."""
    if name is None:
        at_place = [f for f in summary.finishers if f.place == place]
        if len(at_place) != 1:
            return
        name = at_place[0].name
    for position, finisher in enumerate(summary.finishers):
        if finisher.name == name:
            summary.finishers[position] = Finisher(
                name, finisher.place or (place or None), finisher.prize, bounty
            )
            return
    summary.finishers.append(Finisher(name, place or None, None, bounty))


def _currency(amount: str) -> str:
    """The currency a symbol names; no symbol: play money."""
    return SYMBOLS.get(amount[:1], "PLAY")


def cents(amount: str) -> int:
    """ "$1,234.56" -> 123456: an amount of the buy-in currency in its hundredths."""
    digits = amount.lstrip("$€£").replace(",", "")
    return int(Decimal(digits) * 100)
