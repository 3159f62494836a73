"""Byte ranges: a big file cut at hand starts gives, range by range, exactly the hands (texts,
offsets, line numbers) the reader cuts from the whole file, whatever the line ends and bytes."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from studdraw.parsers.model import HandText
from studdraw.parsers.reader import open_history
from studdraw.pipeline.importer.dask_ranges import Segment, can_cut, plan_ranges
from studdraw.pipeline.importer.dask_tasks import split_segment
from tests.conftest import SAMPLES, corpus_file

STUD = SAMPLES / "pokerstars" / "stud.txt"
TASK_BYTES = 20_000


def ranges_of(path: Path, task_bytes: int = TASK_BYTES) -> list[Segment]:
    history = open_history(path)
    size = path.stat().st_size
    ranges = plan_ranges(history, size, task_bytes)
    ends = [start for start, _ in ranges[1:]] + [None]
    return [
        Segment(str(path), str(path.resolve()), 7, start, end, line)
        for (start, line), end in zip(ranges, ends, strict=True)
    ]


def whole(path: Path) -> list[HandText]:
    return list(open_history(path).hand_texts())


def variant(tmp_path: Path, name: str) -> Path:
    """The stud sample rewritten: other line ends, a BOM, cp1252 bytes, junk before the first
    hand, blank lines between hands."""
    data = STUD.read_bytes()
    if name == "crlf":
        data = data.replace(b"\n", b"\r\n")
    elif name == "cr":
        data = data.replace(b"\n", b"\r")
    elif name == "bom":
        data = codecs.BOM_UTF8 + data
    elif name == "cp1252":  # not UTF-8: the splitter falls back to decoding line by line
        data = data.replace(b"Table 'Electra 5'", "Table 'Électra 5'".encode("cp1252"))
    elif name == "prelude":
        data = b"\n\nsaved by a tracker\n\n" + data
    elif name == "blank-lines":
        data = data.replace(b"\n\n\n", b"\n\n\n\n \n\n")
    path = tmp_path / f"stud-{name}.txt"
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("name", ["lf", "crlf", "cr", "bom", "cp1252", "prelude", "blank-lines"])
def test_ranges_give_the_hands_of_the_whole_file(tmp_path: Path, name: str) -> None:
    path = variant(tmp_path, name)
    segments = ranges_of(path)
    assert len(segments) >= 5, "the file should be cut in several ranges"
    expected = whole(path)
    cut = [hand for segment in segments for hand in split_segment(segment).hands]
    assert cut == expected
    starts = {hand.source.offset for hand in expected}
    assert all(segment.start in starts for segment in segments[1:])  # cut at hand starts


def test_keys_are_those_of_the_reader(tmp_path: Path) -> None:
    path = variant(tmp_path, "crlf")
    history = open_history(path)
    assert history.room is not None
    segments = ranges_of(path)
    keys = [split_segment(segment).keys for segment in segments]
    hands = whole(path)
    assert [i for k in keys for i in k.hand_ids] == [history.room.hand_id(h.text) for h in hands]
    assert all(set(k.import_ids) == {7} and set(k.paths) == {str(path)} for k in keys)
    assert len({d for k in keys for d in k.digests}) == len(hands)


def test_small_and_uncuttable_files_are_one_range(tmp_path: Path) -> None:
    assert ranges_of(STUD, task_bytes=STUD.stat().st_size) == [
        Segment(str(STUD), str(STUD.resolve()), 7)
    ]
    utf16 = tmp_path / "utf16.txt"
    utf16.write_bytes(codecs.BOM_UTF16_LE + STUD.read_text().encode("utf-16-le"))
    # Party joins each hand's opening lines, which its hand start also matches.
    party = corpus_file("cash", "PartyPoker", "Stud", "7-Stud-USD-1-2-201104.txt")
    for path in (utf16, party):
        assert not can_cut(open_history(path))
        [segment] = ranges_of(path)
        assert (segment.start, segment.end) == (0, None)
        assert split_segment(segment).hands == whole(path)


def test_full_tilt_archives_are_cut_with_their_separators_blanked(tmp_path: Path) -> None:
    """Full Tilt's archives print a "**** # N ****" line between hands, which its `tidy` blanks
    hand by hand: cut at any hand start, the file gives the hands of the whole file."""
    text = (SAMPLES / "fulltilt" / "razz.txt").read_text(encoding="utf-8")
    hands = [hand for hand in text.split("\n\n\n") if hand.strip()]
    path = tmp_path / "archive.txt"
    path.write_text(
        "".join(f"{'*' * 20} # {n} {'*' * 25}\n{hand}\n\n\n" for n, hand in enumerate(hands, 1)),
        encoding="utf-8",
    )
    assert can_cut(open_history(path))
    segments = ranges_of(path)
    assert len(segments) >= 4, "the file should be cut in several ranges"
    cut = [hand for segment in segments for hand in split_segment(segment).hands]
    assert cut == whole(path)
    assert len(cut) == len(hands) and not any(" # " in hand.text for hand in cut)


def test_no_cut_without_a_hand_start(tmp_path: Path) -> None:
    """A long stretch with no hand start: the range runs on to the next hand start."""
    hands = STUD.read_text().split("\n\n\n")
    path = tmp_path / "gap.txt"
    filler = "\n".join(f"note {n}: nothing to see" for n in range(3000))
    path.write_text("\n\n\n".join([hands[0], filler, *hands[1:]]), encoding="utf-8")
    segments = ranges_of(path)
    assert segments[1].start > 3000 * len("note 0: nothing to see")
    assert [h for s in segments for h in split_segment(s).hands] == whole(path)
