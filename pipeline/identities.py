"""Player identities: which accounts are one person, kept in the notes file beside the store.

An account is a room and the name that room prints, (room, name). Every account counts under
one player: the person it is linked to, if any, else its name. So nothing changes for whoever
never links: the same name is the same player across rooms. A person is a name with a set of
accounts; `link` adds accounts to a person (moving one that was linked to another: an account
belongs to at most one person), `split` takes them off again. A person named like some of its
accounts also holds the accounts of that name nobody linked: to keep two same-named accounts
apart, link one (or both) to persons of other names.

The links live in the `identities` table of `<store>.notes.sqlite` (`pipeline.notes`), keyed by
room and name, so they survive re-imports and never touch the store. Each analytics connection
holds them as `IDENTITIES` (a registered Arrow table), which the player condition
(`player_condition`) and every grouping by player (`with_players`) read.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import duckdb
import pyarrow as pa

from . import notes

IDENTITIES: Final = "player_identities"
"""What an analytics connection holds the links as (room, name, person): a registered table."""


@dataclass(frozen=True, slots=True, order=True)
class Account:
    """A player's account: the room and the name that room prints."""

    room: str
    name: str

    def __str__(self) -> str:
        return f"{self.room}:{self.name}"


@dataclass(frozen=True, slots=True)
class Link:
    """An account linked to a person."""

    person: str
    account: Account


def account(text: str) -> Account:
    """`ROOM:NAME` as an account (the room lower-cased; a name may itself hold colons); a
    ValueError without a room or a name."""
    room, colon, name = text.partition(":")
    if not colon or not room.strip() or not name:
        raise ValueError(f"{text!r} is not ROOM:NAME (e.g. pokerstars:Hero)")
    return Account(room.strip().lower(), name)


def person_name(text: str) -> str:
    """A person's name as kept: without the spaces around it; a ValueError when empty."""
    if not text.strip():
        raise ValueError("a person needs a name")
    return text.strip()


def links(path: Path) -> list[Link]:
    """Every link in the notes file at `path`, by person, room and name (none without a file)."""
    if not path.exists():
        return []
    with notes.connected(path) as con:
        rows = con.execute(
            "SELECT person, room, name FROM identities ORDER BY person, room, name"
        ).fetchall()
    return [Link(person, Account(room, name)) for person, room, name in rows]


def link(path: Path, person: str, accounts: Sequence[Account]) -> dict[Account, str]:
    """Link the accounts to `person` (creating it): returns the accounts that were linked to
    another person before, with that person's name."""
    who = person_name(person)
    with notes.connected(path) as con:
        moved = {
            Account(room, name): was
            for room, name, was in con.execute(
                "SELECT room, name, person FROM identities WHERE person <> ?", (who,)
            ).fetchall()
            if Account(room, name) in accounts
        }
        con.executemany(
            "INSERT INTO identities VALUES (?, ?, ?) ON CONFLICT (room, name) "
            "DO UPDATE SET person = excluded.person",
            [(a.room, a.name, who) for a in accounts],
        )
    return moved


def split(path: Path, person: str, accounts: Sequence[Account] = ()) -> list[Account]:
    """Take the accounts off `person` (every one when none is named), each counting under its
    own name again: returns those taken off, in order."""
    who = person_name(person)
    held = [link.account for link in links(path) if link.person == who]
    chosen = sorted(held if not accounts else set(held) & set(accounts))
    with notes.connected(path) as con:
        con.executemany(
            "DELETE FROM identities WHERE room = ? AND name = ? AND person = ?",
            [(a.room, a.name, who) for a in chosen],
        )
    return chosen


def persons(found: Iterable[Link]) -> dict[str, list[Account]]:
    """The links by person, each person's accounts in order."""
    by_person: dict[str, list[Account]] = {}
    for item in found:
        by_person.setdefault(item.person, []).append(item.account)
    return by_person


def player_of(found: Iterable[Link], of: Account) -> str:
    """The player an account counts under: the person it is linked to, else its name."""
    return next((x.person for x in found if x.account == of), of.name)


def digest(path: Path) -> str:
    """A short fingerprint of the links (empty without any): what a cache keys on, so a link
    or a split shows on the next page run."""
    found = links(path)
    if not found:
        return ""
    text = "\n".join(f"{x.person}\t{x.account.room}\t{x.account.name}" for x in found)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def register(con: duckdb.DuckDBPyConnection, found: Sequence[Link]) -> None:
    """Hold `found` in the connection as `IDENTITIES` (replacing what it held): what every
    player condition and every grouping by player on this connection reads. A registered Arrow
    table, not a temporary one: nothing the store lacks is derived on open."""
    table = pa.table(
        {
            "room": pa.array([x.account.room for x in found], pa.string()),
            "name": pa.array([x.account.name for x in found], pa.string()),
            "person": pa.array([x.person for x in found], pa.string()),
        }
    )
    con.register(IDENTITIES, table)


def player_condition(room: str = "room", name: str = "name", param: str = "player") -> str:
    """The SQL condition that an account, the row's `room` and `name` (columns, qualified as the
    query needs), counts under the player bound to `$<param>`: linked to that person, or
    linked to nobody and of that name (pipeline/identities.py). The first test, on the name
    alone, narrows the rows before the accounts are compared."""
    linked = f"SELECT room, name FROM {IDENTITIES}"
    return (
        f"{name} IN (SELECT ${param} UNION ALL SELECT name FROM {IDENTITIES} "
        f"WHERE person = ${param}) "
        f"AND ({room}, {name}) NOT IN ({linked} WHERE person <> ${param}) "
        f"AND ({name} = ${param} OR ({room}, {name}) IN ({linked} WHERE person = ${param}))"
    )


def with_players(source: str) -> str:
    """A FROM source of rows with `room` and `name` (a rollup's) with the `player` each counts
    under added: what every grouping by player groups by, so a person's figures are the sums of
    its accounts' rows and no account counts twice."""
    return f"""(SELECT s.*, coalesce(i.person, s.name) AS player FROM (SELECT * FROM {source}) s
  LEFT JOIN {IDENTITIES} i ON i.room = s.room AND i.name = s.name)"""


def ensure_registered(con: duckdb.DuckDBPyConnection) -> None:
    """No links on a connection that holds none (one opened without the notes file: every
    account counts under its name)."""
    found = con.execute(
        "SELECT count(*) FROM duckdb_views() WHERE view_name = ? AND temporary", [IDENTITIES]
    ).fetchall()
    if not found[0][0]:
        register(con, [])


def any_linked(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the connection holds any link (a cheaper query serves a store without)."""
    return bool(con.execute(f"SELECT count(*) FROM {IDENTITIES}").fetchall()[0][0])


def load(con: duckdb.DuckDBPyConnection, store: Path) -> None:
    """Hold the links of the notes file beside `store` in the connection."""
    register(con, links(notes.notes_path(store)))
