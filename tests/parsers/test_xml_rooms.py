"""What the XML rooms (iPoker, Merge, Boss Media) share: streaming reads with defusedxml, every
hand element counted once, refused DTDs and entities, recovery after malformed XML, and the
position (file, byte offset, line) of every hand element."""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studdraw.parsers.files import detect_encoding, discover_files
from studdraw.parsers.model import HandText, Outcome, ParsedHand
from studdraw.parsers.reader import open_history, parse_file, parse_hand
from studdraw.parsers.rooms import BY_NAME, sniff
from studdraw.parsers.xml import encoding as xml_encoding
from studdraw.parsers.xml.room import REFUSED
from tests.conftest import CORPUS, corpus_file

ROOM_FOLDERS = {
    "ipoker": [("cash", "iPoker"), ("tour", "iPoker")],
    "merge": [("cash", "Merge")],
    "boss": [("cash", "Boss")],
}
HAND_TAGS = {"ipoker": rb"<game[\s>]", "merge": rb"<game[\s>]", "boss": rb"<HISTORY[\s>]"}


def room_files(room: str) -> list[Path]:
    corpus_file()
    folders = [CORPUS.joinpath(*parts) for parts in ROOM_FOLDERS[room]]
    return sorted(discover_files(folders))


def corpus_cases() -> list[tuple[str, str]]:
    if not CORPUS.is_dir():
        return []
    return [
        (room, str(path.relative_to(CORPUS))) for room in ROOM_FOLDERS for path in room_files(room)
    ]


def hand_texts(room: str, data: bytes, path: str = "<test>") -> list[HandText]:
    return list(BY_NAME[room].hand_texts(io.BytesIO(data), detect_encoding(data), path))


def parse_all(room: str, data: bytes) -> list[ParsedHand]:
    return [parse_hand(hand) for hand in hand_texts(room, data)]


# --- every corpus file: hands seen = hand elements in the file -----------------------------


@pytest.mark.parametrize(("room", "relative"), corpus_cases())
def test_every_hand_element_is_one_hand(room: str, relative: str) -> None:
    """The hand elements, counted on the raw bytes, are the hands studdraw sees, each with its
    id, byte offset and line; none is an error."""
    path = CORPUS / relative
    data = path.read_bytes()
    starts = [found.start() for found in re.finditer(HAND_TAGS[room], data)]
    history = open_history(path)
    assert history.room is not None and history.room.name == room
    parsed = list(parse_file(path))
    assert [p.hand.source.offset for p in parsed] == starts
    for hand in parsed:
        offset, line = hand.hand.source.offset, hand.hand.source.line
        assert data.count(b"\n", 0, offset) + 1 == line
        assert hand.outcome is not Outcome.ERROR, (line, hand.problem)
        assert hand.room_hand_id is not None
        assert hand.room_hand_id.encode() in data[offset : offset + 200]


def test_the_corpus_outcomes_per_room() -> None:
    """What the three rooms' corpus files hold, by outcome and game (or the room's label)."""
    seen: Counter[tuple[str, str, str]] = Counter()
    for room in ROOM_FOLDERS:
        for path in room_files(room):
            for parsed in parse_file(path):
                game = (
                    str(parsed.record.game)
                    if parsed.record
                    else (parsed.game_label if parsed.problem else None)
                )
                seen[(room, str(parsed.outcome), str(game))] += 1
    assert seen == {
        ("ipoker", "parsed", "stud"): 119,
        ("ipoker", "parsed", "stud5"): 1,
        ("merge", "parsed", "stud"): 1,
        ("merge", "parsed", "stud8"): 3,
        ("merge", "parsed", "td27"): 17,
        ("merge", "parsed", "tda5"): 1,
        ("merge", "parsed", "badugi"): 2,  # pot limit, and half-pot limit
        ("merge", "unsupported", "td27"): 1,  # the cancelled hand
        ("merge", "parsed", "draw5"): 1,
        ("boss", "parsed", "draw5"): 15,
    }


def test_every_unsupported_hand_has_its_game_label_and_reason() -> None:
    for room in ROOM_FOLDERS:
        for path in room_files(room):
            for parsed in parse_file(path):
                if parsed.outcome is Outcome.UNSUPPORTED:
                    assert parsed.problem is not None
                    assert parsed.game_label, (path, parsed.problem)
                    assert parsed.problem.message, (path, parsed.problem)


# --- handwritten files: one line, chunks, malformed and refused XML -------------------------

GAME = (
    '<game gamecode="{id}"><general><startdate>2011-11-02 18:10:00</startdate><players>'
    '<player seat="1" name="A" chips="$1" dealer="1" win="$0.04" bet="$0.02"/>'
    '<player seat="2" name="B" chips="$1" dealer="0" win="$0" bet="$0.02"/></players></general>'
    '<round no="0"><action no="1" player="A" type="15" sum="$0.01"/>'
    '<action no="2" player="B" type="15" sum="$0.01"/></round><round no="1"/>'
    '<round no="2"><cards type="Third Street" player="A">S2 H3 D4</cards>'
    '<cards type="Third Street" player="B">X X C5</cards>'
    '<action no="3" player="A" type="16" sum="$0.01"/><action no="4" player="B" type="0" sum="0"/>'
    "</round></game>"
)
SESSION = (
    '<?xml version="1.0" encoding="utf-8"?>\n<session sessioncode="1">\n<general>'
    "<gametype>7 Card Stud L $0.05/$0.10</gametype><tablename>T</tablename>"
    "<currency>USD</currency><nickname>A</nickname></general>\n{games}\n</session>\n"
)


def session(*games: str) -> bytes:
    return SESSION.format(games="".join(games)).encode()


def test_several_games_on_one_line_keep_their_offsets() -> None:
    data = session(GAME.format(id=11), GAME.format(id=12), GAME.format(id=13))
    parsed = parse_all("ipoker", data)
    assert [p.room_hand_id for p in parsed] == ["11", "12", "13"]
    assert {p.hand.source.line for p in parsed} == {4}
    for hand in parsed:
        assert hand.record is not None, hand.problem
        assert data[hand.hand.source.offset :].startswith(b'<game gamecode="')
        assert hand.record.table == "T" and hand.record.hero == "A"


def test_chunk_boundaries_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader keeps only what it still needs between chunks: cutting the file into
    7-byte chunks gives the same hand texts as one chunk."""
    data = session(*(GAME.format(id=n) for n in range(20)))
    whole = hand_texts("ipoker", data)
    monkeypatch.setattr(xml_encoding, "CHUNK_SIZE", 7)
    assert hand_texts("ipoker", data) == whole
    assert len(whole) == 20


def test_malformed_hand_is_rejected_and_reading_resumes() -> None:
    broken = GAME.format(id=2).replace('<round no="1"/>', "<round no=1/>")
    data = session(GAME.format(id=1), "\n", broken, "\n", GAME.format(id=3))
    parsed = parse_all("ipoker", data)
    assert [p.room_hand_id for p in parsed] == ["1", "2", "3"]
    assert [p.outcome for p in parsed] == [Outcome.PARSED, Outcome.ERROR, Outcome.PARSED]
    problem = parsed[1].problem
    assert problem is not None and "malformed XML" in problem.message
    assert problem.line == 5


def test_a_file_cut_inside_a_hand_rejects_that_hand() -> None:
    data = session(GAME.format(id=1), GAME.format(id=2))
    cut = data[: data.index(b'<game gamecode="2"') + 200]
    parsed = parse_all("ipoker", cut)
    assert [p.outcome for p in parsed] == [Outcome.PARSED, Outcome.ERROR]
    assert parsed[1].room_hand_id == "2"


def test_a_session_without_its_end_tag_loses_nothing() -> None:
    """Exports cut after the last hand (cash/iPoker/Stud/5-StudL-...xml has no </session>)."""
    data = session(GAME.format(id=1)).replace(b"</session>\n", b"")
    assert [p.outcome for p in parse_all("ipoker", data)] == [Outcome.PARSED]


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE session [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<session sessioncode="1"><general><gametype>&lol9;</gametype></general>
<game gamecode="7"><general><startdate>&lol9;</startdate></general></game>
</session>
"""
EXTERNAL_ENTITY = """<?xml version="1.0"?>
<!DOCTYPE session [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<session sessioncode="1"><general><gametype>&secret;</gametype></general>
<game gamecode="8"><general><startdate>&secret;</startdate></general></game>
</session>
"""


REFUSED_CASES = [
    (BILLION_LAUGHS, "ipoker", ["7"]),
    (EXTERNAL_ENTITY, "ipoker", ["8"]),
    (
        EXTERNAL_ENTITY.replace("session", "ROOT").replace("game gamecode", "HISTORY ID"),
        "boss",
        ["8"],
    ),
    (
        BILLION_LAUGHS.replace('<game gamecode="7">', "<x>").replace("</game>", "</x>"),
        "ipoker",
        [None],
    ),
    (
        BILLION_LAUGHS.replace(
            "</session>", GAME.format(id=71) + "\n" + GAME.format(id=72) + "</session>"
        ),
        "ipoker",
        ["7", "71", "72"],
    ),
]


@pytest.mark.parametrize(("text", "room", "ids"), REFUSED_CASES)
def test_dtds_and_entities_are_refused_unexpanded(
    text: str, room: str, ids: list[str | None]
) -> None:
    """Every hand of a refused file is one reject with the reason; nothing is expanded or
    fetched: each hand text is the file's own bytes (its DTD, then the hand, raw)."""
    data = text.encode()
    starts = [found.start() for found in re.finditer(HAND_TAGS[room], data)]
    prolog = data[: starts[0] if starts else len(data)]
    ends = [*starts[1:], len(data)] if starts else []
    pieces = [data[a:b] for a, b in zip(starts, ends, strict=True)]
    expected = [prolog + b"\n" + piece for piece in pieces] or [prolog]
    hands = hand_texts(room, data)
    assert [hand.text.encode() for hand in hands] == expected
    assert [hand.source.offset for hand in hands] == (starts or [0])
    assert [h.source.line for h in hands] == [data.count(b"\n", 0, at) + 1 for at in starts or [0]]
    parsed = [parse_hand(hand) for hand in hands]
    assert [p.room_hand_id for p in parsed] == ids
    for result in parsed:
        assert result.outcome is Outcome.ERROR
        assert result.problem is not None and result.problem.message.startswith(REFUSED)
        assert "lollol" not in repr(result) and "root:" not in repr(result)


def test_a_refused_file_is_cut_the_same_in_tiny_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    data = REFUSED_CASES[-1][0].encode()
    whole = hand_texts("ipoker", data)
    monkeypatch.setattr(xml_encoding, "CHUNK_SIZE", 5)
    assert hand_texts("ipoker", data) == whole


def test_xml_files_are_sniffed_from_their_first_bytes_even_on_one_line() -> None:
    one_line = session(GAME.format(id=1)).replace(b"\n", b"")
    room = sniff(one_line.decode())
    assert room is not None and room.name == "ipoker"


def test_a_session_exported_again_gives_its_hands_the_same_texts() -> None:
    """iPoker rewrites a session's totals as it grows: the hands already imported must keep
    their texts (the store recognises them by content) while every field read stays."""
    first = session(GAME.format(id=1)).replace(
        b"<general>", b"<general><gamecount>1</gamecount>", 1
    )
    later = session(GAME.format(id=1), GAME.format(id=2)).replace(
        b"<general>", b"<general><gamecount>2</gamecount><duration>00:02</duration>", 1
    )
    assert hand_texts("ipoker", first)[0].text == hand_texts("ipoker", later)[0].text
    assert "<gametype>7 Card Stud L $0.05/$0.10</gametype>" in hand_texts("ipoker", first)[0].text


def test_sniffing_claims_exactly_the_xml_rooms_files() -> None:
    corpus_file()
    folders = {
        room: {CORPUS.joinpath(*parts) for parts in ROOM_FOLDERS[room]} for room in ROOM_FOLDERS
    }
    for path in discover_files([CORPUS]):
        room = open_history(path).room
        owner = next(
            (name for name, roots in folders.items() if any(r in path.parents for r in roots)), None
        )
        claimed = room.name if room is not None and room.name in ROOM_FOLDERS else None
        assert claimed == owner, path


MERGE_FILE = (
    '<description type="Razz" stakes="Limit $0.50/$1"/>\n'
    '<game id="1-{n}" starttime="20120710120000" numholecards="7" gametype="47" '
    'realmoney="true" data="20120710|T|1|1-{n}|false"><players dealer="1"/></game>\n'
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(chunk=st.integers(min_value=1, max_value=80), broken=st.integers(min_value=0, max_value=5))
def test_any_chunking_cuts_the_same_hands(
    monkeypatch: pytest.MonkeyPatch, chunk: int, broken: int
) -> None:
    """Whatever the chunk size, and with one hand made malformed, the hand texts are those of a
    single read: every hand element is one hand text, in order."""
    games = [GAME.format(id=n) for n in range(6)]
    games[broken] = games[broken].replace('<round no="1"/>', "<round no=1/>")
    ipoker = session(*games)
    merge = "".join(MERGE_FILE.format(n=n) for n in range(6)).encode()
    monkeypatch.setattr(xml_encoding, "CHUNK_SIZE", 1 << 20)
    expected = {
        room: hand_texts(room, data) for room, data in (("ipoker", ipoker), ("merge", merge))
    }
    assert [len(texts) for texts in expected.values()] == [6, 6]
    monkeypatch.setattr(xml_encoding, "CHUNK_SIZE", chunk)
    assert hand_texts("ipoker", ipoker) == expected["ipoker"]
    assert hand_texts("merge", merge) == expected["merge"]


def test_a_declared_encoding_expat_cannot_read_loses_no_hand() -> None:
    """expat refuses multi-byte encodings other than UTF-8/16 (found by the fuzzer): the
    declaration is a broken document, and reading resumes at the first hand start tag."""
    data = session(GAME.format(id=1), GAME.format(id=2))
    data = re.sub(rb"^<\?xml[^>]*\?>", b"", data)
    data = b'<?xml version="1.0" encoding="shift_jis"?>' + data
    parsed = parse_all("ipoker", data)
    assert [p.room_hand_id for p in parsed if p.room_hand_id] == ["1", "2"]
    assert [p.outcome for p in parsed if p.room_hand_id] == [Outcome.PARSED, Outcome.PARSED]
