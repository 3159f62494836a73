"""HTML and text for what the dashboard draws: cards, money, game names, links.

Cards are drawn with our own HTML and CSS (style.css) rather than images, so they scale, copy as
text, and need no assets: a red or black rank and suit symbol, and a patterned back for a card
the export does not reveal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from decimal import Decimal
from html import escape
from importlib.resources import files
from urllib.parse import urlencode

from studdraw.parsers.problems import Code
from studdraw.pipeline.rules.specs import GAME_SPECS
from studdraw.pipeline.rules.structures import STRUCTURE_SPECS

SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RED_SUITS = frozenset("hd")
GAME_NAMES = {game.value: spec.title for game, spec in GAME_SPECS.items()}
"""Each game's name (`GameSpec.title`), in the table's order (the overview lists games so)."""
STRUCTURE_NAMES = {s.value: spec.title for s, spec in STRUCTURE_SPECS.items()}
"""Each betting structure's name (`StructureSpec.title`)."""
CURRENCY_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£"}


_MARKDOWN_MARKS = re.compile(r"[!-/:-@\[-`{-~]")
"""Every ASCII punctuation mark: CommonMark lets a backslash escape each of them."""
_AUTOLINKS = re.compile(r"(?<=:)(?=//)|(?<=www)(?=\.)|(?<=@)", re.IGNORECASE)
"""Where GitHub's Markdown would make a bare address a link (`http://`, `www.`, `a@b.c`): it
finds them in the text after the escapes are read, so an invisible word joiner breaks them."""


def literal(text: object) -> str:
    """Text read from hand files or the notes (a name, a reason, a note, a tag), for a place
    Streamlit renders as Markdown (bodies, titles, labels, help, toasts), shown letter for
    letter: every punctuation mark escaped and every bare address broken, so no image, link,
    HTML tag, emphasis or colour is ever made of it and the browser fetches nothing it names.
    Select-box options are plain text already: they take the text as it is."""
    joined = _AUTOLINKS.sub("\u2060", str(text))
    return _MARKDOWN_MARKS.sub(lambda mark: "\\" + mark.group(), joined)


def stylesheet() -> str:
    """The dashboard's CSS, shipped as package data."""
    css = files("studdraw.dashboard").joinpath("style.css").read_text(encoding="utf-8")
    return f"<style>{css}</style>"


def card(code: str | None, up: bool = True) -> str:
    """One card: `code` like "Ah"/"Td", None for a card the export does not show. A known
    face-down card is marked `down`, so a stud board reads as it looked at the table."""
    if code is None:
        return '<span class="sd-card sd-back" title="unknown card"></span>'
    rank, suit = code[:-1], code[-1]
    colour = "sd-red" if suit in RED_SUITS else "sd-black"
    face = "" if up else " sd-down"
    label = "10" if rank == "T" else rank
    return (
        f'<span class="sd-card {colour}{face}" title="{escape(code)}">'
        f'<span class="sd-rank">{escape(label)}</span>'
        f'<span class="sd-suit">{SUIT_SYMBOLS.get(suit, escape(suit))}</span></span>'
    )


def cards(codes: Sequence[str | None] | None, ups: Sequence[bool] | None = None) -> str:
    """A row of cards; every card is up unless `ups` says otherwise."""
    if not codes:
        return '<span class="sd-nocards">no cards</span>'
    flags = list(ups) if ups else [True] * len(codes)
    flags += [True] * (len(codes) - len(flags))
    return '<span class="sd-cards">' + "".join(map(card, codes, flags)) + "</span>"


def card_text(codes: Iterable[str | None] | None) -> str:
    """Cards as plain text with suit symbols, for tables: "A♥ 10♣ ?"."""
    if codes is None:
        return ""
    out = []
    for code in codes:
        if code is None:
            out.append("?")
        else:
            rank = "10" if code[:-1] == "T" else code[:-1]
            out.append(rank + SUIT_SYMBOLS.get(code[-1], code[-1]))
    return " ".join(out)


def money(amount: int, scale: int, currency: str) -> str:
    """An exact amount of the hand's smallest unit in currency units: "$1.25", "1,500" chips."""
    if scale == 1:
        return f"{amount:,}"
    places = len(str(scale)) - 1
    value = Decimal(amount) / Decimal(scale)
    text = f"{abs(value):,.{places}f}"
    sign = "-" if value < 0 else ""
    symbol = CURRENCY_SYMBOLS.get(currency)
    return f"{sign}{symbol}{text}" if symbol else f"{sign}{text} {currency}"


def game_label(game: str, structure: str) -> str:
    return f"{GAME_NAMES.get(game, game)}, {STRUCTURE_NAMES.get(structure, structure).lower()}"


def code_anchor(code: str) -> str:
    """GitHub's anchor of the code's section in docs/violations.md ("## SIZ001 — Wrong bet
    size" -> "siz001--wrong-bet-size"), also used by the dashboard's codes page."""
    known = Code.__members__.get(code)
    heading = f"{code} — {known.headline}" if known else code
    slug = re.sub(r"[^\w\- ]", "", heading.lower())
    return slug.replace(" ", "-")


def code_link(code: str) -> str:
    """A link from a problem code to its section on the dashboard's problem codes page."""
    query = urlencode({"code": code})
    return (
        f'<a class="sd-code" href="violation_codes?{query}#{code_anchor(code)}">{escape(code)}</a>'
    )


def replay_url(hand_id: int) -> str:
    """The replayer's address for a hand, relative to any page (pages live side by side)."""
    return f"replayer?{urlencode({'hand': hand_id})}"
