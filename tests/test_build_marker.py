"""A checkout imports its compiled modules only once a build has put all of them in place
(issue 36: a background compile must never leave a process half compiled, half sources)."""

from __future__ import annotations

import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from studdraw.parsers import _build


def checkout(root: Path, monkeypatch: pytest.MonkeyPatch, *, setup: bool) -> None:
    if setup:
        (root / "setup.py").write_text("", encoding="utf-8")
    monkeypatch.setattr(_build, "CHECKOUT", root)
    monkeypatch.setattr(_build, "COMPLETE", root / "build" / "compiled.ok")
    monkeypatch.delenv("STUDDRAW_PURE", raising=False)


def test_a_checkout_runs_its_sources_until_the_build_is_complete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checkout(tmp_path, monkeypatch, setup=True)
    assert _build.sources_only()  # never built, or being placed
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "compiled.ok").write_text("studdraw.parsers.model\n", encoding="utf-8")
    assert not _build.sources_only()
    monkeypatch.setenv("STUDDRAW_PURE", "1")
    assert _build.sources_only()


def test_a_checkout_runs_its_sources_once_one_is_newer_than_its_compiled_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After an edit or a `git pull`, yesterday's compiled module may not even import today's
    sources (a name moved): every process runs the sources until `make compile`."""
    checkout(tmp_path, monkeypatch, setup=True)
    (tmp_path / "parsers").mkdir()
    compiled = tmp_path / "parsers" / f"model{EXTENSION_SUFFIXES[0]}"
    source = tmp_path / "parsers" / "model.py"
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "compiled.ok").write_text("studdraw.parsers.model\n", encoding="utf-8")
    for path, when in ((source, 1000), (compiled, 2000)):
        path.write_text("", encoding="utf-8")
        os.utime(path, (when, when))
    assert not _build.sources_only()
    os.utime(source, (3000, 3000))
    assert _build.sources_only()
    assert _build.stale_modules() == [str(compiled.relative_to(tmp_path))]


def test_an_installed_package_runs_what_pip_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checkout(tmp_path, monkeypatch, setup=False)  # site-packages/studdraw: no setup.py
    assert not _build.sources_only()


def test_setup_names_the_same_marker() -> None:
    setup = (_build.CHECKOUT / "setup.py").read_text(encoding="utf-8")
    assert 'COMPLETE = ROOT / "build" / "compiled.ok"' in setup
    assert _build.COMPLETE == _build.CHECKOUT / "build" / "compiled.ok"
