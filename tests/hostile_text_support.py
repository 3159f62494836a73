"""A store whose hand files carry Markdown and HTML in every text the dashboard shows: player
and table names, a stray text, the notes and tags beside the store, a person's name. Each
payload points at `beacon` (a local HTTP server the test counts requests on): a page that
renders one instead of printing it asks that server for an image, or shows a link or bold
text the test looks for."""

from __future__ import annotations

import re
from pathlib import Path

from studdraw.parsers.model import Game
from studdraw.pipeline import identities, notes
from studdraw.pipeline.identities import Account
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from studdraw.pipeline.notes import Kind, Target
from studdraw.pipeline.synth import NAME_POOL, TABLE_NAMES, SynthOptions, render, synthesize


def hostile(name: str, beacon: str, kind: int) -> str:
    """`name` with a payload of one of four kinds: a Markdown image, an HTML image, emphasis
    and a colour directive, a link."""
    return (
        f"![{name}]({beacon}/{name}.png)",
        f'<img src="{beacon}/{name}.png">{name}',
        f"**{name}** _it_ :red[red]",
        f"[{name}]({beacon}/{name})",
    )[kind % 4]


def build_hostile_store(folder: Path, beacon: str) -> tuple[Path, str]:
    """Razz hands of payload players at payload tables, a stray text, notes and tags on the
    first hand and the hero, the hero linked to a payload person: `folder/store.duckdb`, and
    the room's id of the first hand."""
    histories = folder / "histories"
    histories.mkdir(parents=True)
    records = list(synthesize(SynthOptions(game=Game.RAZZ, hands=12, seed=4)))
    text = "\n\n\n".join(render(record, "pokerstars") for record in records)
    names = {name: hostile(name, beacon, kind) for kind, name in enumerate(("Hero", *NAME_POOL))}
    names |= {name: hostile(name, beacon, 0) for name in TABLE_NAMES}
    text = re.sub("|".join(map(re.escape, names)), lambda found: names[found.group()], text)
    (histories / "razz.txt").write_text(text + "\n\n\n", encoding="utf-8")
    (histories / "post.txt").write_text(f"![stray]({beacon}/stray.png) **pasted**\n", "utf-8")
    db = folder / "store.duckdb"
    ingest([histories], IngestOptions(db, workers=1))
    path = notes.notes_path(db)
    hand = Target(Kind.HAND, "pokerstars", records[0].room_hand_id)
    notes.set_note(path, hand, f"![note]({beacon}/note.png) <b>note</b>")
    notes.tag(path, hand, [f"![tag]({beacon}/tag.png)"])
    hero = names["Hero"]
    notes.set_note(path, Target(Kind.PLAYER, "pokerstars", hero), f"[n]({beacon}/player-note)")
    identities.link(path, f"![person]({beacon}/person.png)", [Account("pokerstars", hero)])
    return db, records[0].room_hand_id
