"""Messages and tables are never hard-wrapped when the stream is not a terminal (issue 10.0):
a script, a log or a test reads each message on one line, whatever the terminal width or the
length of the paths it names."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from studdraw.cli.console import console


def test_piped_console_never_wraps_a_long_message() -> None:
    err = console(stderr=True)
    with err.capture() as captured:
        err.print("error: " + "x" * 500 + " is in use by another process")
    assert captured.get().count("\n") == 1


def test_cli_error_naming_a_long_path_stays_on_one_line(tmp_path: Path) -> None:
    deep = tmp_path.joinpath(*(["a-rather-long-folder-name"] * 12))
    deep.mkdir(parents=True)
    store = deep / "missing.duckdb"
    env = {**os.environ, "COLUMNS": "40", "TERM": "dumb"}
    result = subprocess.run(
        [str(Path(sys.executable).with_name("studdraw")), "stats", "--db", str(store)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert str(store) in lines[0]
