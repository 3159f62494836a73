"""The room renderers: a record written back in a room's own export format, for hands whose
source file is gone (the replayer, the coach's report) and for the synthesiser. `RENDERERS` is
the one table of them; a format that cannot express every hand says which it holds."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from studdraw.parsers.model import HandRecord

from .fulltilt import fulltilt_can_render, render_fulltilt
from .ipoker import ipoker_can_render, render_ipoker
from .kingsclub import kingsclub_can_render, render_kingsclub
from .pokerstars import pokerstars_can_render, render_pokerstars


@dataclass(frozen=True, slots=True)
class Renderer:
    """A room's format: `render(record, hero)` writes it; `holds(record)` says whether the
    format can express the hand; `name` is how a reader is told which format it sees."""

    render: Callable[[HandRecord, str | None], str]
    holds: Callable[[HandRecord], bool]
    name: str


RENDERERS: Final[dict[str, Renderer]] = {
    "pokerstars": Renderer(render_pokerstars, pokerstars_can_render, "PokerStars' format"),
    "fulltilt": Renderer(render_fulltilt, fulltilt_can_render, "Full Tilt's format"),
    "ipoker": Renderer(render_ipoker, ipoker_can_render, "iPoker's format"),
    "kingsclub": Renderer(render_kingsclub, kingsclub_can_render, "KingsClub's format"),
}
"""Every room the project writes back, by room id."""

__all__ = ["RENDERERS", "Renderer"]
