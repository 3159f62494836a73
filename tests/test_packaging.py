"""The wheel installs into a fresh virtual environment and works from outside the checkout.

This proves the package-dir mapping (parsers/ -> studdraw.parsers, ...), the grammar files as
package data, and the console script, the way a user gets them from `pip install`.
"""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.parsers.test_pokerstars import CURRENT_STUD

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the freshly built wheel installed; returns its bin/ folder."""
    work = tmp_path_factory.mktemp("wheel")
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
    )
    [wheel] = list(work.glob("studdraw-*.whl"))
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
            "import studdraw.parsers.dialects as d, pathlib;"
            "print(sorted(p.name for p in pathlib.Path(d.__file__).parent.glob('*.lark')))",
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
    assert '"site_hand_id": "230000000001"' in out
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
