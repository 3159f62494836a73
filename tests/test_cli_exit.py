"""The command line's exit: Python's closing collections skip the objects a command made, which
the process's end frees anyway (docs/scaling.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

RUN = """
import atexit, gc, sys
atexit.register(lambda: sys.__stdout__.write(f"\\nfrozen {gc.get_freeze_count()}\\n"))
from studdraw.pipeline.cli import main
sys.argv = ["studdraw", "--help"]
main()
"""


def test_every_object_is_frozen_once_the_command_is_done() -> None:
    """A handler registered before the command runs after the command's own: by then the
    objects have left the collector's generations."""
    done = subprocess.run(
        [sys.executable, "-c", RUN], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert "Usage" in done.stdout
    assert int(done.stdout.rsplit("frozen ", 1)[1]) > 0
