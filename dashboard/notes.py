"""The replayer's notes and tags: the hand's, and those of each player at the table, and which
person a player's account belongs to, read from and written to the notes file beside the store
(`pipeline.notes`, `pipeline.identities`), never to the store itself, which the dashboard only
reads."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from studdraw.pipeline import identities, notes
from studdraw.pipeline.identities import Account
from studdraw.pipeline.notes import Kind, Target

from . import store
from .render import literal
from .replay import Hand
from .store import StoreRef


def notes_file(ref: StoreRef) -> Path:
    return notes.notes_path(Path(ref.path))


def hand_notes(ref: StoreRef, hand: Hand) -> None:
    """An expander with the hand's note and tags and a player's, each saved by its button."""
    path = notes_file(ref)
    room, hand_key = hand.header["room"], hand.header["room_hand_id"]
    found = {a.target: a for a in notes.annotated(path)}
    target = Target(Kind.HAND, room, hand_key)
    mine = found.get(target)
    known_tags = sorted({word for a in found.values() for word in a.tags})
    title = "Notes and tags" + (f" · {literal(', '.join(mine.tags))}" if mine and mine.tags else "")
    with st.expander(title, expanded=bool(mine)):
        _editor(path, target, mine, known_tags, f"notes-hand-{hand.header['hand_id']}")
        names = hand.seats.get_column("name").to_list()
        player = st.selectbox(
            "Player", names, key=f"notes-player-{hand.header['hand_id']}", help="Notes on a player "
            "follow them from hand to hand, in this room."
        )  # fmt: skip
        if player is not None:
            who = Target(Kind.PLAYER, room, player)
            _editor(path, who, found.get(who), known_tags, f"notes-player-{room}-{player}")
            identity_editor(ref, Account(room, player))
        st.caption(f"Kept in {literal(path)}, beside the store.")


def player_note_editor(ref: StoreRef, room: str, names: list[str]) -> None:
    """A collapsed expander to write a note and tags on one of `names` (players of `room`), as
    the replayer's: what the live table shows beside the player from then on."""
    path = notes_file(ref)
    found = {a.target: a for a in notes.annotated(path, kind=Kind.PLAYER)}
    known_tags = sorted({word for a in found.values() for word in a.tags})
    with st.expander("Note or tag a player"):
        player = st.selectbox(
            "Player", names, key="notes-live-player", help="Notes on a player follow them from "
            "hand to hand, in this room."
        )  # fmt: skip
        if player is not None:
            who = Target(Kind.PLAYER, room, player)
            _editor(path, who, found.get(who), known_tags, f"notes-player-{room}-{player}")
            identity_editor(ref, Account(room, player))
        st.caption(f"Kept in {literal(path)}, beside the store.")


def identity_editor(ref: StoreRef, account: Account) -> None:
    """Which person the account counts under in every report: link it to a person (new or
    known) or split it off again (it counts under its own name)."""
    path = notes_file(ref)
    found = identities.links(path)
    person = next((x.person for x in found if x.account == account), None)
    key = f"identity-{account.room}-{account.name}"
    known = literal(", ".join(sorted(identities.persons(found))) or "none yet")
    if person is None:
        st.caption(
            f"{literal(account)} counts under its name, {literal(repr(account.name))}, "
            "in every report."
        )
    else:
        st.caption(
            f"{literal(account)} counts under the person {literal(repr(person))} in every report."
        )
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    chosen = left.text_input(
        f"Person of {literal(account)}", value=person or "", placeholder="A person's name",
        key=f"{key}-person", help="Link the accounts of one person (in any room) to one name: "
        f"stats, leaks, sessions and every report then count them together. Persons: {known}.",
    ).strip()  # fmt: skip
    if right.button("Link", key=f"{key}-link", disabled=not chosen or chosen == person):
        identities.link(path, str(chosen), [account])
        st.toast(f"Linked {literal(account)} to {literal(chosen)}.")
        st.rerun()
    if person is not None and right.button("Split off", key=f"{key}-split"):
        identities.split(path, person, [account])
        st.toast(f"Split {literal(account)} from {literal(person)}.")
        st.rerun()


def _editor(
    path: Path, target: Target, mine: notes.Annotation | None, known: list[str], key: str
) -> None:
    what = "hand" if target.kind is Kind.HAND else literal(target.key)
    text = st.text_area(f"Note on {what}", value=mine.note if mine else "", key=f"{key}-note")
    tags = st.multiselect(
        f"Tags of {what}",
        sorted({*known, *(mine.tags if mine else ())}),
        default=list(mine.tags) if mine else [],
        accept_new_options=True,
        key=f"{key}-tags",
    )
    if st.button("Save", key=f"{key}-save"):
        notes.set_note(path, target, text)
        old = set(mine.tags) if mine else set()
        notes.tag(path, target, sorted(old - set(tags)), remove=True)
        notes.tag(path, target, tags)
        st.toast(f"Saved the note on {what}.")


def tagged_hand(ref: StoreRef) -> int | None:
    """The replayer's "By tag" finder: a tag, then one of the stored hands carrying it (with its
    note), oldest first; None until the notes file has a tagged hand this store holds."""
    found = notes.annotated(notes_file(ref), kind=Kind.HAND)
    tags = sorted({word for a in found for word in a.tags})
    if not tags:
        st.info("No hand is tagged yet: tag one under *Notes and tags*, or `studdraw tag hand`.")
        return None
    left, right = st.columns([1, 4])
    chosen = left.selectbox("Tag", tags, key="replay-tag")
    marked = {(a.target.room, a.target.key): a for a in found if chosen in a.tags}
    hands = store.hands_of_keys(ref, tuple(sorted(marked)))
    labels = {
        row["hand_id"]: f"{row['started_at']:%Y-%m-%d %H:%M} · {row['room']} #{row['room_hand_id']}"
        + (f" · {note}" if (note := marked[(row["room"], row["room_hand_id"])].note) else "")
        for row in hands.iter_rows(named=True)
    }
    if not labels:
        st.info(f"No hand of this store is tagged {literal(chosen)}.")
        return None
    picked: int | None = right.selectbox(
        f"Hand ({len(labels):,} tagged {literal(chosen)})",
        list(labels),
        format_func=lambda hand_id: labels[hand_id],
        key="replay-tagged",
    )
    return picked
