"""Each hand start is counted once: for every corpus file of the ten text rooms, the hands the
file yields are as many as the hand headers in its text, counted here independently of the
splitter with one plain header pattern per room."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from studdraw.parsers.files import detect_encoding, discover_files
from studdraw.parsers.reader import open_history
from tests.conftest import CORPUS

HEADERS = {
    "pokerstars": r"PokerStars (?:Zoom |Rush |Home )?(?:Hand|Game|GAME) #\d+:",
    "fulltilt": r"(?:Full Tilt Poker|FullTiltPoker) Game #\d+:",
    "winamax": r"Winamax Poker - .* - HandId: #",
    "partypoker": r"\*{5} Hand History [Ff]or Game \d+ \*{5}",
    "bovada": r"(?:Ignition|Bovada|Bodog(?: UK| Canada|88)?) Hand #",
    "everleaf": r"Everleaf Gaming Game #\d+",
    "winning": r"Game started at: ",
    "kingsclub": r"#\d+: ",
    "ongame": r"\*{5} History for hand ",
    "absolute": r"Stage #\d+:",
}
FOLDERS = {
    "pokerstars": "Stars",
    "fulltilt": "FTP",
    "winamax": "Winamax",
    "partypoker": "PartyPoker",
    "bovada": "Bovada",
    "everleaf": "Everleaf",
    "winning": "Winning",
    "kingsclub": "KingsClub",
    "ongame": "OnGame",
    "absolute": "Absolute",
}


def corpus_files() -> list[tuple[str, Path]]:
    files = []
    for room, folder in FOLDERS.items():
        roots = [CORPUS / kind / folder for kind in ("cash", "tour")]
        for path in discover_files([root for root in roots if root.is_dir()]):
            files.append((room, path))
    return files


def header_count(room: str, path: Path) -> int:
    data = path.read_bytes()
    encoding = detect_encoding(data[:4096])
    text = data[encoding.bom :].decode(encoding.name, errors="replace")
    starts = re.compile(rf"^[\ufeff\x00]*{HEADERS[room]}", re.MULTILINE)
    return len(starts.findall(text.replace("\r\n", "\n").replace("\r", "\n")))


FILES = corpus_files() if CORPUS.is_dir() else []


@pytest.mark.skipif(not FILES, reason=f"the shared corpus is not at {CORPUS}")
@pytest.mark.parametrize(
    ("room", "path"), FILES, ids=[str(p.relative_to(CORPUS)) for _, p in FILES]
)
def test_every_hand_header_is_one_hand(room: str, path: Path) -> None:
    history = open_history(path)
    assert history.room is not None and history.room.name == room
    headers = header_count(room, path)
    assert headers > 0
    assert sum(1 for _ in history.hand_texts()) == headers
