"""Normalization and the worker stage on the handwritten samples: shapes, ids, failures."""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from dataclasses import fields, replace
from pathlib import Path

import pytest

from studdraw.parsers.model import HandRecord, HandText, SourceRef, Tournament
from studdraw.parsers.problems import Code, Problem, Stage
from studdraw.parsers.reader import open_history, parse_hand
from studdraw.pipeline.importer import process as process_module
from studdraw.pipeline.importer.process import (
    REJECTED,
    STORED,
    UNSUPPORTED_FATE,
    PendingHand,
    process_hands,
)
from studdraw.pipeline.rules import replay
from studdraw.pipeline.store.hand_hash import content_hash
from studdraw.pipeline.store.normalize import (
    AMOUNT_BOUND,
    Replayed,
    keep_hands,
    normalize_hands,
    out_of_range,
    shift_hand_ids,
)
from studdraw.pipeline.store.schema import BATCH_TABLES, HAND_TABLES
from tests.conftest import SAMPLES


def sample_texts() -> list[PendingHand]:
    """Hands 230000000002, ...01 (a stud hand with violations: stored all the same), ...03."""
    handwritten = SAMPLES / "pokerstars" / "handwritten"
    hands = [
        *open_history(handwritten / "razz-uncalled-bet.txt").hand_texts(),
        next(iter(open_history(handwritten / "broken.txt").hand_texts())),
        *open_history(handwritten / "td27-showdown.txt").hand_texts(),
    ]
    return [PendingHand(hand, None, content_hash(hand.text), 7) for hand in hands]


def replayed() -> list[Replayed]:
    out = []
    for item in sample_texts():
        record = parse_hand(item.hand).record
        assert record is not None
        out.append(Replayed(record, replay(record), item.content_hash, item.import_id))
    return out


def test_one_row_per_event_seat_street() -> None:
    hands = replayed()
    tables = normalize_hands(hands)
    assert tables["hands"].column("hand_id").to_pylist() == list(range(len(hands)))
    assert tables["actions"].num_rows == sum(len(h.record.events) for h in hands)
    assert tables["hand_players"].num_rows == sum(len(h.record.seats) for h in hands)
    assert tables["streets"].num_rows == sum(len(h.result.streets) for h in hands)
    for i, hand in enumerate(hands):
        seqs = [
            seq
            for hand_id, seq in zip(
                tables["actions"].column("hand_id").to_pylist(),
                tables["actions"].column("seq").to_pylist(),
                strict=True,
            )
            if hand_id == i
        ]
        assert seqs == list(range(len(hand.record.events)))
    assert set(tables["hands"].column("import_id").to_pylist()) == {7}


def test_shift_and_keep_renumber_every_table() -> None:
    tables = normalize_hands(replayed())
    shifted = shift_hand_ids(tables, 100)
    for table in HAND_TABLES:
        before = tables[table.name].column("hand_id").to_pylist()
        assert shifted[table.name].column("hand_id").to_pylist() == [i + 100 for i in before]
    kept = keep_hands(tables, [0, 2])
    assert kept["hands"].column("room_hand_id").to_pylist() == [
        tables["hands"].column("room_hand_id")[i].as_py() for i in (0, 2)
    ]
    for table in HAND_TABLES:
        assert set(kept[table.name].column("hand_id").to_pylist()) <= {0, 1}


def test_every_hand_gets_one_fate(monkeypatch: pytest.MonkeyPatch) -> None:
    items = sample_texts()
    broken = items[0].hand
    junk = PendingHand(
        type(broken)(
            broken.text.replace("*** SUMMARY ***", "*** SUMMARY"), broken.source, "pokerstars"
        ),
        None,
        1,
        7,
    )
    unknown = PendingHand(type(broken)("hello", broken.source, None), None, 2, 7)
    real_replay = process_module.replay

    def failing_replay(record: object, rules: object = None) -> object:
        if getattr(record, "room_hand_id", None) == "230000000003":
            raise RuntimeError("engine bug")
        return real_replay(record, rules)  # type: ignore[arg-type]

    monkeypatch.setattr(process_module, "replay", failing_replay)
    batch = process_hands([*items, junk, unknown])
    assert list(batch.fates) == [STORED, STORED, REJECTED, REJECTED, UNSUPPORTED_FATE]
    rejects = batch.tables["rejects"]
    assert rejects.column("kind").to_pylist() == ["internal_error", "parse_error"]
    assert "engine bug" in rejects.column("reason")[0].as_py()
    assert batch.tables["hands"].num_rows == 2
    assert batch.tables["unsupported"].column("reason").to_pylist() == [
        "no room recognises this file"
    ]


def test_a_hand_that_cannot_be_normalized_is_kept_as_text(monkeypatch: pytest.MonkeyPatch) -> None:
    real = process_module.normalize_hands

    def fragile(hands: list[Replayed]) -> object:
        if any(hand.record.room_hand_id == "230000000001" for hand in hands):
            raise ValueError("odd hand")
        return real(hands)

    monkeypatch.setattr(process_module, "normalize_hands", fragile)
    batch = process_hands(sample_texts())
    assert list(batch.fates) == [STORED, REJECTED, STORED]
    assert batch.tables["hands"].column("room_hand_id").to_pylist() == [
        "230000000002",
        "230000000003",
    ]
    reject = batch.tables["rejects"].to_pylist()[0]
    assert reject["kind"] == "internal_error" and "odd hand" in reject["reason"]
    assert reject["raw_text"].startswith("PokerStars Hand #230000000001")


def test_batches_larger_than_a_chunk_are_stitched(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(process_module, "CHUNK", 2)
    items = sample_texts()
    unknown = PendingHand(type(items[0].hand)("hello", items[0].hand.source, None), None, 2, 7)
    batch = process_hands([unknown, *items, unknown])
    assert list(batch.fates) == [UNSUPPORTED_FATE, STORED, STORED, STORED, UNSUPPORTED_FATE]
    assert set(batch.tables) == {table.name for table in BATCH_TABLES}
    assert batch.tables["hands"].column("hand_id").to_pylist() == [0, 1, 2]
    whole = normalize_hands(replayed())
    for table in HAND_TABLES:
        assert batch.tables[table.name].equals(whole[table.name]), table.name
    assert batch.tables["unsupported"].num_rows == 2


def test_parse_warnings_become_violation_rows_before_the_rules_ones() -> None:
    pending = sample_texts()[0]  # a hand read again with one line no room prints
    lines = pending.hand.text.split("\n")
    lines.insert(4, "The dealer smiles")
    record = parse_hand(replace(pending.hand, text="\n".join(lines))).record
    assert record is not None
    [finding] = record.problems
    tables = normalize_hands([Replayed(record, replay(record), 1, 7)])
    rows = tables["violations"].to_pylist()
    assert rows[0] == {
        "hand_id": 0,
        "seq": 0,
        "code": "TXT001",
        "severity": "warning",
        "street": None,
        "event_index": None,
        "line": finding.line,
        "message": "unknown line: 'The dealer smiles'",
    }
    assert finding.line == record.source.line + 4
    [hand] = tables["hands"].to_pylist()
    assert hand["warnings"] == len(rows) - hand["errors"]


BOUND = AMOUNT_BOUND
OVER = AMOUNT_BOUND + 1


def _event_amount(record: HandRecord, field: str, value: int) -> tuple[HandRecord, int]:
    """The record with its first wager's `field` set to `value`, and that event's line."""
    index = next(i for i, event in enumerate(record.events) if event.to is not None)
    events = list(record.events)
    event = events[index]
    events[index] = replace(event, amount=value) if field == "amount" else replace(event, to=value)
    return replace(record, events=events), events[index].line


@pytest.mark.parametrize(
    ("field", "value", "too_big"),
    [
        ("amount", BOUND, False),
        ("amount", -BOUND, False),
        ("amount", OVER, True),
        ("amount", -OVER, True),
        ("to", OVER, True),
        ("to", BOUND, False),
    ],
)
def test_an_event_amount_beyond_the_store_names_its_line(
    field: str, value: int, too_big: bool
) -> None:
    record, line = _event_amount(replayed()[0].record, field, value)
    problem = out_of_range(record)
    if not too_big:
        assert problem is None
        return
    assert problem is not None
    assert problem.line == line
    assert problem.message.startswith(f"an amount of {value:,} smallest units on line {line} ")


@pytest.mark.parametrize("where", ["total_pot", "stakes", "stack", "buy_in"])
def test_a_header_amount_beyond_the_store_names_the_hand_start(where: str) -> None:
    record = replayed()[0].record
    if where == "total_pot":
        record = replace(record, total_pot=OVER)
    elif where == "stakes":
        record = replace(record, stakes=replace(record.stakes, ante=-OVER))
    elif where == "stack":
        seats = [replace(record.seats[0], stack=OVER), *record.seats[1:]]
        record = replace(record, seats=seats)
    else:
        record = replace(record, tournament=Tournament("1", buy_in=OVER, fee=0))
    assert out_of_range(replayed()[0].record) is None
    problem = out_of_range(record)
    assert problem is not None
    assert problem.line == record.source.line
    assert "in the header or seats of the hand starting on line" in problem.message


@pytest.mark.parametrize("stray", [False, True])
def test_a_pending_hand_travels_to_a_worker_whole(stray: bool) -> None:
    """Pickled flat for the trip to a worker: every field of the hand and of its text comes
    back, none left at its default (a field added to `HandText` must be added to the trip)."""
    values: dict[str, object] = {
        "text": "PokerStars Hand #1: Razz ($1/$2 USD)\nTable 'X' 8-max",
        "source": SourceRef("/histories/a b.txt", 123_456_789_012, 4321),
        "room": "pokerstars",
        "problem": Problem(Code.FIL002, Stage.READ, "/histories/a b.txt", 4323, "too long"),
        "stray": stray,
    }
    assert set(values) == {field.name for field in fields(HandText)}
    item = PendingHand(HandText(**values), "1", -(2**63), 7)  # type: ignore[arg-type]
    back = pickle.loads(pickle.dumps(item, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == item and type(back.hand.source) is SourceRef
    assert pickle.loads(pickle.dumps(replace(item, room_hand_id=None))).room_hand_id is None


@pytest.fixture(params=["in the pickle", "through a folder", "folder gone"])
def answers(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path | None]:
    """Where a worker's answers go: in the pickle, or through a folder (shared memory in a
    pool's worker), or to a folder that is gone (a stopping import): then in the pickle."""
    folder = None if request.param == "in the pickle" else tmp_path / "answers"
    if request.param == "through a folder":
        folder.mkdir()  # type: ignore[union-attr]
    process_module.answer_through(None if folder is None else str(folder))
    try:
        yield folder
    finally:
        process_module.answer_through(None)


def answer_files(folder: Path | None) -> list[Path]:
    return sorted(folder.iterdir()) if folder is not None and folder.exists() else []


def test_a_processed_batch_pickles_whole(answers: Path | None) -> None:
    """A worker's answer crosses to the writer as Arrow streams: every table comes back
    equal, schema included (an empty one as well), with the fates. Through a folder only the
    file's name is pickled, and the file is gone once the writer has mapped it."""
    garbage = HandText("PokerStars Hand #1: no such game", SourceRef("x.txt", 0, 1), "pokerstars")
    for items in (sample_texts(), [PendingHand(garbage, None, 1, 7)]):
        batch = process_hands(items)
        pickled = pickle.dumps(batch, protocol=pickle.HIGHEST_PROTOCOL)
        shared = answers is not None and answers.exists()
        assert (len(pickled) < 500) is shared
        assert len(answer_files(answers)) == int(shared)
        back = pickle.loads(pickled)
        assert back.fates == batch.fates and len(back.fates) == len(items)
        assert list(back.tables) == [table.name for table in BATCH_TABLES]
        for table in BATCH_TABLES:
            assert back.tables[table.name].equals(batch.tables[table.name], check_metadata=True)
        assert answer_files(answers) == []
    assert back.tables["hands"].num_rows == 0 and back.fates == bytes([REJECTED])
