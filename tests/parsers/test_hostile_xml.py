"""Hostile XML files (issue 41, issue 37): UTF-16 and mis-declared exports read like UTF-8 ones,
an unknown declared encoding a finding, broken text between hands a finding and not a hand,
and every hand of a cut or mixed file counted once."""

from __future__ import annotations

import codecs
import re
from collections import Counter
from pathlib import Path

import pytest

from studdraw.parsers.model import Outcome
from studdraw.parsers.problems import Code
from studdraw.parsers.reader import open_history, parse_hand
from tests.conftest import corpus_file

XML_FILES = [
    ("cash", "iPoker", "Stud", "7-StudL-USD-0.05-0.10-201009.txt"),
    ("tour", "iPoker", "Stud", "7-StudHi-USD-STT-5-201103.txt"),
    ("cash", "Merge", "Stud", "NL7-StudHL-0.01-0.02-0.10-201204.xml"),
    ("cash", "Merge", "Draw", "3-Draw-Limit-USD-1-2-201104.Multi.hand.sample.txt"),
    ("cash", "Boss", "Draw", "5CD-FL-EUR-2-4.Opoker.sample.xml"),
]
_DECLARATION = re.compile(r"""(<\?xml[^>]*encoding=)["'][^"']*["']""")


def outcomes(path: Path) -> tuple[Counter[str], list[str | None]]:
    """What became of each text of a file (by outcome), and the hand ids in order."""
    counts: Counter[str] = Counter()
    ids: list[str | None] = []
    for hand in open_history(path).hand_texts():
        parsed = parse_hand(hand)
        counts[parsed.outcome.value] += 1
        if not hand.stray:
            ids.append(parsed.record.room_hand_id if parsed.record else parsed.room_hand_id)
    return counts, ids


def redeclared(text: str, encoding: str) -> str:
    return _DECLARATION.sub(rf'\1"{encoding}"', text)


@pytest.mark.parametrize("parts", XML_FILES, ids=lambda parts: parts[-1])
@pytest.mark.parametrize(
    ("codec", "bom"),
    [
        ("utf-16-le", codecs.BOM_UTF16_LE),
        ("utf-16-le", b""),
        ("utf-16-be", codecs.BOM_UTF16_BE),
        ("utf-16-be", b""),
    ],
)
def test_utf16_xml_is_read_like_utf8(
    tmp_path: Path, parts: tuple[str, ...], codec: str, bom: bytes
) -> None:
    source = corpus_file(*parts)
    expected = outcomes(source)
    assert expected[0][Outcome.PARSED.value] >= 1
    text = redeclared(source.read_bytes().decode("utf-8"), "UTF-16")
    path = tmp_path / "utf16.xml"
    path.write_bytes(bom + text.encode(codec))
    assert outcomes(path) == expected


def euro_session(tmp_path: Path, encoding: str, declared: str) -> Path:
    """The iPoker cash session in euros, in `encoding`, declaring `declared`."""
    text = corpus_file(*XML_FILES[0]).read_text(encoding="utf-8")
    text = redeclared(text.replace("$", "€").replace("USD", "EUR"), declared)
    path = tmp_path / f"euro-{encoding}-{declared}.xml"
    path.write_bytes(text.encode(encoding))
    return path


@pytest.mark.parametrize("declared", ["utf-8", "UTF-8", "ISO-8859-1", "windows-1252"])
def test_cp1252_bytes_in_an_xml_file_are_read_as_fpdb_reads_them(
    tmp_path: Path, declared: str
) -> None:
    """A file declaring UTF-8 (or Latin-1) that holds cp1252 bytes (the euro sign) reads as the
    same file in UTF-8: every hand a record, none counted twice, no preamble as a hand."""
    expected = outcomes(euro_session(tmp_path, "utf-8", "utf-8"))
    assert expected[0] == Counter({Outcome.PARSED.value: 2})
    assert outcomes(euro_session(tmp_path, "cp1252", declared)) == expected
    euro = next(open_history(euro_session(tmp_path, "cp1252", declared)).hand_texts())
    assert "€" in euro.text


def test_an_unknown_declared_encoding_is_a_finding_and_the_hands_are_read(tmp_path: Path) -> None:
    path = euro_session(tmp_path, "utf-8", "x-no-such-codec")
    texts = [parse_hand(hand) for hand in open_history(path).hand_texts()]
    strays = [parsed for parsed in texts if parsed.hand.stray]
    assert [parsed.outcome for parsed in texts if not parsed.hand.stray] == [Outcome.PARSED] * 2
    assert len(strays) == 1 and strays[0].problem is not None
    assert strays[0].problem.code is Code.FIL001
    assert "x-no-such-codec" in strays[0].problem.message
