"""What the command line does around its commands, each seen in a fresh interpreter at the
command's exit (docs/scaling.md):

- Python's closing collections skip the objects a command made, which the process's end frees
  anyway;
- pyarrow allocates from the system's allocator, in every process a command starts, unless the
  user's environment names another;
- numpy's OpenBLAS starts no threads of its own, unless the user's environment asks for them;
- an import leaves pandas unloaded, which pyarrow's first conversion of a list would import.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest

from studdraw.cli import ARROW_ALLOCATOR, BLAS_THREADS

REPO = Path(__file__).resolve().parents[1]
VARIABLE = ARROW_ALLOCATOR[0]

RUN = """
import atexit, sys
expression = sys.argv[1]
atexit.register(lambda: sys.__stdout__.write(f"\\nreport {eval(expression)}\\n"))
from studdraw.cli import main
sys.argv = ["studdraw", *sys.argv[2:]]
main()
"""
SAMPLE = REPO / "sample_histories" / "pokerstars" / "razz.txt"


def at_exit(
    expression: str,
    environment: dict[str, str] | None = None,
    arguments: tuple[str, ...] = ("--help",),
    printed: str = "Usage",
) -> str:
    """`expression` evaluated at the exit of `studdraw ARGUMENTS`, which prints `printed`, by a
    handler registered before `main` runs (so it runs after the command's own)."""
    done = subprocess.run(
        [sys.executable, "-c", RUN, expression, *arguments],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
        env=environment,
    )
    assert printed in done.stdout
    return done.stdout.rsplit("report ", 1)[1].strip()


def unset(variable: str) -> dict[str, str]:
    """This environment without `variable`: what `main` does when the user has not set it."""
    return {name: value for name, value in os.environ.items() if name != variable}


def test_every_object_is_frozen_once_the_command_is_done() -> None:
    """By then the objects have left the collector's generations."""
    assert int(at_exit("__import__('gc').get_freeze_count()")) > 0


ALLOCATOR = "__import__('pyarrow').default_memory_pool().backend_name"


def test_a_command_allocates_arrow_buffers_from_the_system() -> None:
    assert at_exit(ALLOCATOR, unset(VARIABLE)) == "system" == ARROW_ALLOCATOR[1]


def test_the_users_choice_stands() -> None:
    others = [name for name in pa.supported_memory_backends() if name != "system"]
    if not others:
        pytest.skip("this pyarrow has no allocator but the system's")
    assert at_exit(ALLOCATOR, {**os.environ, VARIABLE: others[0]}) == others[0]


THREADS = "(__import__('numpy'), len(__import__('os').listdir('/proc/self/task')))[1]"


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_numpy_loaded_after_main_starts_no_blas_thread() -> None:
    """numpy, which pyarrow imports, would start one OpenBLAS thread a core, spinning."""
    name = BLAS_THREADS[0]
    assert at_exit(THREADS, unset(name)) == "1"
    assert at_exit(f"__import__('os').environ[{name!r}]", {**os.environ, name: "2"}) == "2"


def test_an_import_leaves_pandas_unloaded(tmp_path: Path) -> None:
    """pyarrow's first conversion of a list imports pandas (0.16 s and ~50 MB) to ask whether it
    is a pandas object; the import's lists never are (`pool.without_pandas`), nor does writing
    them need pandas, to the store or to Parquet."""
    store, parquet = tmp_path / "store.duckdb", tmp_path / "parquet"
    arguments = ("ingest", str(SAMPLE), "--db", str(store), "--parquet", str(parquet))
    arguments += ("--workers", "1", "--json")  # every conversion in the command's process
    assert at_exit("'pandas' in sys.modules", None, arguments, '"stored": 60') == "False"
    assert list((parquet / "hands").rglob("*.parquet"))
