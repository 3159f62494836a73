"""The command line's consoles: rich on a terminal, and never hard-wrapped when piped.

rich lays out for 80 columns when its stream is not a terminal, which would cut an error
message or a table row into pieces that a script or a log reader cannot grep. Off a terminal,
messages keep their lines whole (soft wrap) and tables get room to keep theirs.
"""

from __future__ import annotations

from rich.console import Console

PIPED_WIDTH = 200
"""Columns a table may use when its stream is a pipe or a file (a row is never cut short)."""


def console(*, stderr: bool = False) -> Console:
    """A console on stdout (or stderr) that wraps only where a person is reading a terminal."""
    probe = Console(stderr=stderr)
    if probe.is_terminal:
        return probe
    return Console(stderr=stderr, soft_wrap=True, width=PIPED_WIDTH)
