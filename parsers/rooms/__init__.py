"""The registry of rooms: one line per room (sqlglot's dialects are the model).

Order matters only for sniffing: the first room whose `sniff` accepts a file's head reads it.
"""

from __future__ import annotations

from studdraw.parsers.room import Room
from studdraw.parsers.rooms.absolute import Absolute
from studdraw.parsers.rooms.boss import Boss
from studdraw.parsers.rooms.bovada import Bovada
from studdraw.parsers.rooms.everleaf import Everleaf
from studdraw.parsers.rooms.fulltilt import FullTilt
from studdraw.parsers.rooms.ipoker import IPoker
from studdraw.parsers.rooms.kingsclub import KingsClub
from studdraw.parsers.rooms.merge import Merge
from studdraw.parsers.rooms.ongame import OnGame
from studdraw.parsers.rooms.partypoker import PartyPoker
from studdraw.parsers.rooms.phh import PHH
from studdraw.parsers.rooms.pokerstars import PokerStars
from studdraw.parsers.rooms.winamax import Winamax
from studdraw.parsers.rooms.winning import Winning

ROOMS: tuple[Room, ...] = (
    PokerStars(),
    Everleaf(),
    Winning(),
    PartyPoker(),
    Bovada(),
    FullTilt(),
    Winamax(),
    IPoker(),
    Merge(),
    Boss(),
    KingsClub(),
    Absolute(),
    OnGame(),
    PHH(),
)
BY_NAME: dict[str, Room] = {room.name: room for room in ROOMS}


def sniff(head: str) -> Room | None:
    """The room that wrote a file, from the decoded start of the file."""
    return next((room for room in ROOMS if room.sniff(head)), None)
