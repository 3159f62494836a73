"""The wheel installs into a fresh virtual environment and works from outside the checkout.

This proves the package-dir mapping (parsers/ -> studdraw.parsers, ...), the grammar files as
package data, the console script and the mypyc-compiled engine (where a C compiler exists), the
way a user gets them from `pip install`; and that a machine without a compiler gets the
pure-Python wheel instead of a failed build.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.parsers.test_pokerstars_handwritten import CURRENT_STUD
from tests.test_compiled import compiler_present

pytestmark = pytest.mark.slow


def build_wheel(work: Path, **environment: str) -> Path:
    """The wheel `pip wheel` builds from the checkout (in its own build environment)."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--quiet",
            "-w",
            str(work),
            str(REPO_ROOT),
        ],
        check=True,
        cwd=work,
        env={**os.environ, **environment},
    )
    [wheel] = list(work.glob("studdraw-*.whl"))
    return wheel


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the freshly built wheel installed; returns its bin/ folder."""
    work = tmp_path_factory.mktemp("wheel")
    wheel = build_wheel(work)
    env_dir = work / "venv"
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / "bin"
    subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(wheel)], check=True
    )
    return bin_dir


def test_wheel_holds_the_namespace_and_the_grammars(installed: Path) -> None:
    listing = subprocess.run(
        [
            str(installed / "python"),
            "-c",
            "import studdraw.parsers.rooms as rooms, pathlib;"
            "print(sorted(p.name for p in pathlib.Path(rooms.__file__).parent.glob('*.lark')))",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=installed,
    )
    assert "pokerstars.lark" in listing.stdout


def test_console_script_runs_outside_the_checkout(installed: Path, tmp_path: Path) -> None:
    help_text = subprocess.run(
        [str(installed / "studdraw"), "--help"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    ).stdout
    assert "parse" in help_text
    sample = tmp_path / "hand.txt"
    sample.write_text(CURRENT_STUD, encoding="utf-8")
    out = subprocess.run(
        [str(installed / "studdraw"), "parse", str(sample), "--jsonl"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    ).stdout
    assert '"room_hand_id": "230000000001"' in out
    assert '"error": null' in out
    assert (
        str(REPO_ROOT)
        not in subprocess.run(
            [
                str(installed / "python"),
                "-c",
                "import studdraw.parsers; print(studdraw.parsers.__file__)",
            ],
            capture_output=True,
            text=True,
            check=True,
            cwd=tmp_path,
        ).stdout
    )


def test_installed_wheel_explains_every_code(installed: Path, tmp_path: Path) -> None:
    """The codes' words ship in the wheel (codes.toml): `validate --explain` and the dashboard's
    codes page work without a checkout."""
    out = subprocess.run(
        [str(installed / "studdraw"), "validate", "--explain", "SIZ002"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    ).stdout
    assert out.startswith("## SIZ002 — Wrong bring-in size\n")
    assert "```text\nPokerStars Game #" in out


@pytest.mark.skipif(not compiler_present(), reason="no C compiler: the wheel is pure Python")
def test_installed_wheel_runs_the_compiled_engine(installed: Path, tmp_path: Path) -> None:
    """Where a compiler exists, `pip install` gives the mypyc-compiled engine (and it needs
    nothing beyond the declared dependencies to run)."""
    engine = subprocess.run(
        [
            str(installed / "python"),
            "-c",
            "from studdraw.pipeline.rules import state; print(state.__file__)",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    ).stdout.strip()
    assert not engine.endswith(".py"), engine
    out = subprocess.run(
        [str(installed / "studdraw"), "validate", str(REPO_ROOT / "sample_histories")],
        check=False,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert "Traceback" not in out.stderr, out.stderr
    assert out.returncode in (0, 1), out.stderr


def test_without_a_compiler_the_build_is_pure_python(tmp_path: Path) -> None:
    """No C compiler: the build still succeeds, with the Python sources only."""
    wheel = build_wheel(tmp_path, CC="no-such-compiler")
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    assert "studdraw/pipeline/rules/state.py" in names
    assert not [name for name in names if name.endswith((".so", ".pyd"))]
