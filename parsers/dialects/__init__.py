"""The registry of rooms: one line per site dialect (sqlglot's dialects are the model).

Order matters only for sniffing: the first room whose `sniff` accepts a file's head reads it.
"""

from __future__ import annotations

from studdraw.parsers.dialects.absolute import Absolute
from studdraw.parsers.dialects.base import Room
from studdraw.parsers.dialects.boss import Boss
from studdraw.parsers.dialects.bovada import Bovada
from studdraw.parsers.dialects.everleaf import Everleaf
from studdraw.parsers.dialects.fulltilt import FullTilt
from studdraw.parsers.dialects.ipoker import IPoker
from studdraw.parsers.dialects.kingsclub import KingsClub
from studdraw.parsers.dialects.merge import Merge
from studdraw.parsers.dialects.ongame import OnGame
from studdraw.parsers.dialects.partypoker import PartyPoker
from studdraw.parsers.dialects.phh import PHH
from studdraw.parsers.dialects.pokerstars import PokerStars
from studdraw.parsers.dialects.winamax import Winamax
from studdraw.parsers.dialects.winning import Winning

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
