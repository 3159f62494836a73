"""The handwritten line-form hands of tests/parsers/forms: their manifests are consistent with
the hands and with each room's "Line forms" catalogue, and the parser reads each hand to the
facts its manifest states. A hand whose manifest records a gap of today's parser (`today` is not
"parses, validates clean") is an expected failure with that gap as its reason, so the gap list
stays visible until the grammars read the form; `python -m tests.forms_manifest` then measures
`today` again (see tests/parsers/forms/README.md)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from studdraw.pipeline.rules.validate import check_hand
from tests.conftest import REPO_ROOT
from tests.forms_manifest import CLEAN, FORMS, manifest, parsed_hands, rooms
from tests.parsers.records import net_results

DOCS = REPO_ROOT / "docs" / "rooms"


@dataclass(frozen=True)
class FormHand:
    room: str
    facts: dict[str, Any]

    @property
    def id(self) -> str:
        return f"{self.room}:{self.facts['file']}:{self.facts['id']}"


def all_hands() -> list[FormHand]:
    return [FormHand(room, facts) for room in rooms() for facts in manifest(room)]


def catalogued_forms(room: str) -> set[str]:
    """The form names in the first column of the room's "Line forms" table."""
    page = (DOCS / f"{room}.md").read_text()
    section = page[page.index("## Line forms") :]
    names: set[str] = set()
    for line in section.splitlines():
        if not line.startswith("| ") or line.startswith(("| form ", "|---")):
            continue
        cell = re.sub(r"\(.*?\)", "", line.split(" | ")[0][2:])
        names |= {name.strip() for name in cell.split("/") if name.strip()}
    return names


def test_every_room_has_a_manifest() -> None:
    assert rooms() == ["bovada", "everleaf", "fulltilt", "partypoker", "winamax", "winning"]


@pytest.mark.parametrize("room", rooms())
def test_manifest_names_only_catalogued_forms(room: str) -> None:
    used = {form for facts in manifest(room) for form in facts["forms"]}
    assert used - catalogued_forms(room) == set()


@pytest.mark.parametrize("room", rooms())
def test_manifest_lists_each_hand_of_the_folder_once(room: str) -> None:
    listed = [(facts["file"], facts["id"]) for facts in manifest(room)]
    assert len(listed) == len(set(listed))
    assert {file for file, _ in listed} == {path.name for path in (FORMS / room).glob("*.txt")}
    read = {key for key in parsed_hands(room) if key[1] is not None}
    assert read <= set(listed)


@pytest.mark.parametrize("hand", all_hands(), ids=lambda hand: hand.id)
def test_manifest_money_adds_up(hand: FormHand) -> None:
    """Handwritten nets lose only the rake: they sum to zero or less, and every player counts."""
    nets: dict[str, int] = hand.facts["net"]
    assert hand.facts["players"] == len(nets)
    assert sum(nets.values()) <= 0


def expected_outcome(hand: FormHand) -> Any:
    facts = hand.facts
    if facts["today"] == CLEAN:
        return pytest.param(hand, id=hand.id)
    reason = " | ".join(filter(None, (facts["today"], facts.get("notes"))))
    return pytest.param(hand, id=hand.id, marks=pytest.mark.xfail(reason=reason, strict=False))


@pytest.mark.parametrize("hand", [expected_outcome(hand) for hand in all_hands()])
def test_parser_reads_the_manifest_facts(hand: FormHand) -> None:
    facts = hand.facts
    parsed = parsed_hands(hand.room).get((facts["file"], facts["id"]))
    assert parsed is not None, "the hand is not split out of its file"
    assert parsed.record is not None, parsed.problem
    record = parsed.record
    read = (str(record.game), str(record.structure), str(record.currency), record.scale)
    assert read == (facts["game"], facts["structure"], facts["currency"], facts["scale"])
    assert net_results(record) == facts["net"]
    assert [v for v in check_hand(parsed) if v.severity == "error"] == []
