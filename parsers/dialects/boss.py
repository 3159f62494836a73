"""Boss Media (Opoker and the other skins of the network): the XML export, `<HISTORY>` elements
one after another or inside a `<ROOT>`. The schema is in docs/sites/boss.md.

The network dealt no stud or triple-draw game that its exports (or FPDB-3's reader of them)
show: `GAME` is hold'em, Omaha or five-card draw. Every hand is read as XML (so a malformed
or refused file is still an error with its reason) and counted as unsupported with its game.
"""

from __future__ import annotations

import re
from typing import Final

from studdraw.parsers.dialects.base import HandBuilder, HandParseError
from studdraw.parsers.dialects.xml_room import Node, XmlRoom
from studdraw.parsers.model import Outcome

GAME_NAMES: Final[dict[str, str]] = {
    "GAME_THM": "Texas Hold'em",
    "GAME_OMA": "Omaha",
    "GAME_OMAHL": "Omaha Hi/Lo",
    "GAME_OMATU": "Omaha",
    "GAME_FCD": "Five Card Draw",
}
"""`<HISTORY GAME>` codes seen in Boss Media exports (FPDB-3 knows the same five)."""


class Boss(XmlRoom):
    name = "boss"
    hand_tag = "HISTORY"
    hand_start = re.compile(r'[ \t]*<HISTORY ID="\d+" SESSION=')
    hand_id_pattern = re.compile(r'<HISTORY ID="(?P<hand_id>\d+)"')
    resync = re.compile(rb"<HISTORY[\s>]")

    def build(self, element: Node, context: dict[str, Node], b: HandBuilder) -> None:
        code = element.get("GAME")
        label = " ".join(
            part for part in (code, element.get("LIMIT"), element.get("STAKES")) if part
        )
        name = GAME_NAMES.get(code, "an unknown Boss Media game")
        raise HandParseError(
            f"{label}: {name} is not a stud or triple-draw game",
            element.line,
            Outcome.UNSUPPORTED,
            game_label=label or None,
        )
