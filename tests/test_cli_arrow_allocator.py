"""The command line's Arrow allocator: the system's, in every process a command starts, unless
the user's environment names another (docs/scaling.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest

from studdraw.pipeline.cli import ARROW_ALLOCATOR

REPO = Path(__file__).resolve().parents[1]
VARIABLE = ARROW_ALLOCATOR[0]

RUN = """
import sys
from studdraw.pipeline.cli import main
sys.argv = ["studdraw", "--help"]
try:
    main()
except SystemExit:
    pass
import pyarrow as pa
sys.__stdout__.write("\\nallocator " + pa.default_memory_pool().backend_name + "\\n")
"""


def allocator(environment: dict[str, str]) -> str:
    """The allocator of pyarrow's default pool once a command has started, in a fresh
    interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", RUN],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
        env=environment,
    )
    assert "Usage" in done.stdout
    return done.stdout.rsplit("allocator ", 1)[1].strip()


def test_a_command_allocates_arrow_buffers_from_the_system() -> None:
    environment = {name: value for name, value in os.environ.items() if name != VARIABLE}
    assert allocator(environment) == "system" == ARROW_ALLOCATOR[1]


def test_the_users_choice_stands() -> None:
    others = [name for name in pa.supported_memory_backends() if name != "system"]
    if not others:
        pytest.skip("this pyarrow has no allocator but the system's")
    assert allocator({**os.environ, VARIABLE: others[0]}) == others[0]
