"""Damaged input never raises out of the parsers: it yields a record or an error.

Real hands from the corpus are cut short, have bytes flipped, or have lines shuffled; whatever
comes out, `parse_hand` must return a ParsedHand whose record or problem is set.
"""

from __future__ import annotations

import random
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studdraw.parsers.files import decode_line, discover_files
from studdraw.parsers.model import HandText, Outcome, ParsedHand
from studdraw.parsers.reader import open_history, parse_hand
from tests.conftest import CORPUS, corpus_file


@cache
def real_hands() -> tuple[HandText, ...]:
    corpus_file("cash", "Stars")
    texts: list[HandText] = []
    for path in discover_files([CORPUS]):
        history = open_history(path)
        if history.room is not None and history.room.name == "pokerstars":
            texts.extend(history.hand_texts())
    return tuple(texts)


def check(parsed: ParsedHand) -> None:
    assert (parsed.record is None) != (parsed.problem is None)
    if parsed.problem is not None:
        assert parsed.problem.message
        assert parsed.problem.line >= parsed.hand.source.line
        assert parsed.outcome in (Outcome.ERROR, Outcome.UNSUPPORTED)


def damaged(hand: HandText, text: str) -> HandText:
    return HandText(text, hand.source, hand.room)


COMMON = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@COMMON
@given(st.data())
def test_truncated_hands(data: st.DataObject) -> None:
    hand = data.draw(st.sampled_from(real_hands()))
    cut = data.draw(st.integers(0, len(hand.text)))
    check(parse_hand(damaged(hand, hand.text[:cut])))


@COMMON
@given(st.data())
def test_flipped_bytes(data: st.DataObject) -> None:
    hand = data.draw(st.sampled_from(real_hands()))
    raw = bytearray(hand.text.encode("utf-8"))
    for _ in range(data.draw(st.integers(1, 5))):
        position = data.draw(st.integers(0, len(raw) - 1))
        raw[position] = data.draw(st.integers(0, 255))
    text = "\n".join(decode_line(line) for line in bytes(raw).split(b"\n"))
    check(parse_hand(damaged(hand, text)))


@COMMON
@given(st.data())
def test_shuffled_and_dropped_lines(data: st.DataObject) -> None:
    hand = data.draw(st.sampled_from(real_hands()))
    lines = hand.text.split("\n")
    head, body = lines[:1], lines[1:]
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    if data.draw(st.booleans()):
        rng.shuffle(body)
    else:
        drop = rng.randrange(len(body))
        body = body[:drop] + body[drop + 1 :]
    check(parse_hand(damaged(hand, "\n".join(head + body))))


@COMMON
@given(st.text(max_size=400))
def test_arbitrary_text_under_a_real_header(noise: str) -> None:
    hand = real_hands()[0]
    header = hand.text.split("\n", 1)[0]
    check(parse_hand(damaged(hand, f"{header}\n{noise}")))


def test_the_mutations_really_break_hands() -> None:
    """Guard against a vacuous suite: a cut-short real hand is an error, not a record."""
    hand = next(h for h in real_hands() if parse_hand(h).record is not None)
    cut = hand.text.index("*** SUMMARY ***")
    parsed = parse_hand(damaged(hand, hand.text[: cut - 1]))
    assert parsed.outcome is Outcome.ERROR
    assert parsed.problem is not None and "ends early" in parsed.problem.message
