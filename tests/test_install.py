"""`pip install` as a user runs it: a fresh clone, a bare virtual environment (nothing but pip),
`pip install .` and `pip install` of a wheel built from the clone, with a C compiler (the
compiled modules are installed) and without one (the pure package), each then used.

The build happens in pip's own isolated environment, from what pyproject.toml's build-system
names: the development venv's packages play no part (issue 36: the type check of the compiled
modules failed there for want of lark, and the promised fallback never came). Slow: two compiles
and four installs of the dependencies (from pip's cache after the first).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.test_compiled import compiler_present

pytestmark = pytest.mark.slow

NO_COMPILER = {"CC": "no-such-compiler"}
PURE_LINE = "studdraw: building the pure-Python package: "


def fresh_clone(work: Path) -> Path:
    """A clone of the checkout's HEAD: what a user has (committed files only, no build
    leftovers)."""
    if not (REPO_ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout")
    clone = work / "clone"
    subprocess.run(["git", "clone", "--quiet", str(REPO_ROOT), str(clone)], check=True)
    return clone


def bare_venv(where: Path) -> Path:
    """`python3 -m venv`: pip and nothing else; its bin/ folder."""
    venv.create(where, with_pip=True)
    return where / "bin"


def users_environment() -> dict[str, str]:
    """This process's environment without what a test run adds (STUDDRAW_PURE=1 and the
    like): a user's shell."""
    return {
        name: value
        for name, value in os.environ.items()
        if name not in ("STUDDRAW_PURE", "PYTHONPATH", "VIRTUAL_ENV")
    }


def pip(bin_dir: Path, *arguments: str, cwd: Path, **environment: str) -> str:
    """Run the venv's pip (verbose, so the build's own lines are kept); its output."""
    env = users_environment()
    done = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", *arguments, "-v"],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**env, **environment},
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout + done.stderr


def engine_file(bin_dir: Path, cwd: Path) -> str:
    return subprocess.run(
        [
            str(bin_dir / "python"),
            "-c",
            "import studdraw.pipeline.rules.state as s; print(s.__file__)",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=cwd,
        env=users_environment(),
    ).stdout.strip()


def works(bin_dir: Path, work: Path) -> None:
    """The installed command imports, stores and reports the samples, outside the checkout."""
    db = work / "store.duckdb"
    studdraw = str(bin_dir / "studdraw")
    samples = str(REPO_ROOT / "sample_histories" / "pokerstars")
    for command in (
        [studdraw, "ingest", samples, "--db", str(db), "--workers", "1"],
        [studdraw, "stats", "--db", str(db)],
    ):
        done = subprocess.run(
            command, capture_output=True, text=True, cwd=work, check=False, env=users_environment()
        )
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr


@pytest.mark.parametrize("how", ["install", "wheel"])
@pytest.mark.parametrize("compiler", [True, False], ids=["compiler", "no-compiler"])
def test_pip_install_in_a_bare_venv(tmp_path: Path, how: str, compiler: bool) -> None:
    if compiler and not compiler_present():
        pytest.skip("no C compiler on this machine")
    clone = fresh_clone(tmp_path)
    bin_dir = bare_venv(tmp_path / "venv")
    environment = {} if compiler else NO_COMPILER
    if how == "install":
        output = pip(bin_dir, "install", str(clone), cwd=tmp_path, **environment)
    else:
        wheels = tmp_path / "wheels"
        output = pip(
            bin_dir,
            "wheel",
            "--no-deps",
            "-w",
            str(wheels),
            str(clone),
            cwd=tmp_path,
            **environment,
        )
        [wheel] = list(wheels.glob("studdraw-*.whl"))
        assert wheel.name.endswith("-py3-none-any.whl") != compiler, wheel.name
        pip(bin_dir, "install", str(wheel), cwd=tmp_path)
    installed = engine_file(bin_dir, tmp_path)
    if compiler:
        assert PURE_LINE not in output, output[-3000:]
        assert not installed.endswith(".py"), installed
    else:
        assert f"{PURE_LINE}no C compiler (no-such-compiler)" in output
        assert installed.endswith(".py"), installed
    assert str(REPO_ROOT) not in installed
    works(bin_dir, tmp_path)


def test_a_failed_type_check_builds_the_pure_package(tmp_path: Path) -> None:
    """mypyc exits (SystemExit) when its type check fails: the build goes on with the Python
    sources, one line saying why, and no compiled module is left behind."""
    if not compiler_present():
        pytest.skip("no C compiler: nothing is type-checked for compiling")
    clone = fresh_clone(tmp_path)
    deck = clone / "pipeline" / "rules" / "deck.py"
    deck.write_text(deck.read_text(encoding="utf-8") + "\nBROKEN: int = 'not a number'\n")
    done = subprocess.run(
        [sys.executable, "setup.py", "--quiet", "build_ext", "--inplace"],
        capture_output=True,
        text=True,
        cwd=clone,
        env=users_environment(),
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    [line] = [line for line in done.stderr.splitlines() if line.startswith(PURE_LINE)]
    assert "the type check or mypyc failed" in line
    assert "deck.py" in line and "error" in line
    assert not list(clone.rglob("*.so"))
    assert not (clone / "build" / "compiled.ok").exists()
