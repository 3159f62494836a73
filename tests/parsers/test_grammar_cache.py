"""The grammar cache: a room read with its parser and syntax loaded from the cache reads every
hand exactly as one built from the grammar, and a cache that is missing, damaged, stale or
unwritable only costs time (issue 15)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import lark.lark
import pytest

from studdraw.parsers.cache import CACHE_DIR_ENV
from studdraw.parsers.files import discover_files
from studdraw.parsers.model import HandText
from studdraw.parsers.reader import open_history
from studdraw.parsers.rooms import ROOMS
from studdraw.parsers.serialize import parsed_hand_to_dict
from studdraw.parsers.text import grammar_cache
from studdraw.parsers.text.grammar_cache import grammar_digest
from studdraw.parsers.text.lines import LineSyntax, Opening
from studdraw.parsers.text.room import GRAMMAR_DIR, TextRoom
from tests.conftest import CORPUS

TEXT_ROOMS = [room for room in ROOMS if isinstance(room, TextRoom)]
HANDS_PER_ROOM = 40


def corpus_hands(room: TextRoom) -> list[HandText]:
    """Up to HANDS_PER_ROOM hands of the room from the shared corpus that it reads to a record
    (a hand of an unsupported game stops at its header, which would prove little)."""
    if not CORPUS.is_dir():
        pytest.skip(f"the shared corpus is not at {CORPUS}")
    hands: list[HandText] = []
    for path in discover_files([CORPUS]):
        history = open_history(path)
        if history.room is not None and history.room.name == room.name:
            hands.extend(
                hand
                for hand in history.hand_texts()
                if hand.room == room.name and room.parse(hand).record is not None
            )
        if len(hands) >= HANDS_PER_ROOM:
            break
    assert hands, f"no {room.name} hands in the corpus"
    return hands[:HANDS_PER_ROOM]


def read(room: TextRoom, hands: list[HandText]) -> list[str]:
    """The hands as a fresh instance of the room reads them (a new process, in effect)."""
    fresh = type(room)()
    return [json.dumps(parsed_hand_to_dict(fresh.parse(hand)), sort_keys=True) for hand in hands]


@pytest.fixture
def no_grammar_build(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fail if anything builds a parser or a syntax from a grammar instead of the cache."""

    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("built from the grammar, not loaded from the cache")

    with monkeypatch.context() as patch:
        patch.setattr(lark.lark, "load_grammar", refuse)
        patch.setattr(LineSyntax, "from_grammar", refuse)
        patch.setattr(Opening, "from_grammar", refuse)
        yield


@pytest.mark.parametrize("room", TEXT_ROOMS, ids=lambda room: room.name)
def test_a_room_loaded_from_the_cache_reads_hands_as_one_built_from_its_grammar(
    room: TextRoom, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    hands = corpus_hands(room)
    monkeypatch.setenv(CACHE_DIR_ENV, "")
    built = read(room, hands)
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path))
    assert read(room, hands) == built  # builds and saves
    suffixes = sorted(path.suffix for path in (tmp_path / "grammars").iterdir())
    assert suffixes == sorted([".lark", ".opening", ".syntax"] * len(room.openings()))
    request.getfixturevalue("no_grammar_build")
    assert read(room, hands) == built  # loads


POKERSTARS = next(room for room in TEXT_ROOMS if room.name == "pokerstars")


@pytest.mark.parametrize("damage", ["truncated", "garbage", "empty"])
def test_a_damaged_cache_is_rebuilt(
    damage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hands = corpus_hands(POKERSTARS)
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path))
    built = read(POKERSTARS, hands)
    for path in (tmp_path / "grammars").iterdir():
        data = path.read_bytes()
        damaged = {
            "truncated": data[: len(data) // 2],
            "garbage": b"\x80not a pickle",
            "empty": b"",
        }
        path.write_bytes(damaged[damage])
    assert read(POKERSTARS, hands) == built


def test_a_cache_that_cannot_be_written_is_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a file, not a folder"
    blocker.write_text("", encoding="utf-8")
    hands = corpus_hands(POKERSTARS)
    monkeypatch.setenv(CACHE_DIR_ENV, "")
    built = read(POKERSTARS, hands)
    monkeypatch.setenv(CACHE_DIR_ENV, str(blocker))
    assert read(POKERSTARS, hands) == built


def test_an_edited_grammar_is_not_read_from_the_old_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache's names carry a digest of the grammars: an edit to the room's grammar, or to
    the shared grammar it imports, names a new pair."""
    for path in (*GRAMMAR_DIR.glob("*.lark"), grammar_cache.COMMON):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    monkeypatch.setattr(grammar_cache, "COMMON", tmp_path / grammar_cache.COMMON.name)
    grammar = tmp_path / POKERSTARS.grammar_file
    digests = {grammar_digest(grammar)}
    for edited in (grammar, grammar_cache.COMMON):
        edited.write_text(edited.read_text(encoding="utf-8") + "\n// edited\n", encoding="utf-8")
        digests.add(grammar_digest(grammar))
    assert len(digests) == 3


def test_code_that_moved_is_not_read_from_the_old_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """A saved syntax is a pickle naming `LineSyntax`'s module: the same grammars read by code
    at another module path (moved to another package) name another pair, so neither install
    loads the other's files."""
    grammar = GRAMMAR_DIR / POKERSTARS.grammar_file
    here = grammar_digest(grammar)
    monkeypatch.setattr(LineSyntax, "__module__", "studdraw.parsers.moved.lines")
    assert grammar_digest(grammar) != here
