"""The mypyc-compiled engine, exporter, parsers and normalize and their Python sources give the
same replays, write the same PHH, parse the same hands and store the same rows.

The installed build (compiled where a C compiler was found: setup.py) replays the real corpus,
the bundled samples, every violation code's documented hand, and random legal hands with their
mutations in this process, and writes each as PHH; a second interpreter with STUDDRAW_PURE=1
does the same from the sources. Their results (streets, players, pots, settlement, violations)
must be equal and their PHH texts byte-identical, hand by hand. Likewise every file of the
corpus and the samples is parsed and its records normalized in both (`tests.parse_digest`): the
parsed hands must be equal, hand by hand, and the store's tables equal.
"""

from __future__ import annotations

import json
import os
import pickle
import shlex
import shutil
import subprocess
import sys
import sysconfig
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from studdraw.parsers import _build
from studdraw.parsers.files import discover_files
from studdraw.parsers.model import HandRecord
from studdraw.parsers.reader import parse_file
from studdraw.parsers.text import line_reader
from studdraw.pipeline import phh
from studdraw.pipeline.rules import state
from studdraw.pipeline.rules.explain import explanations
from studdraw.pipeline.store import normalize
from tests import parse_digest
from tests.conftest import CORPUS, REPO_ROOT, SAMPLES, parse_text
from tests.replay_digest import digest


def compiler_present() -> bool:
    compiler = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "")
    return bool(compiler) and shutil.which(compiler[0]) is not None


def is_compiled(module_file: str) -> bool:
    return not module_file.endswith(".py")


COMPILED_BUILD = is_compiled(state.__file__ or "")
compared = pytest.mark.skipif(
    not COMPILED_BUILD,
    reason="nothing compiled to compare: the Python sources run on both sides (STUDDRAW_PURE=1, "
    "stale compiled modules, or no C compiler)",
)


def records() -> list[HandRecord]:
    """Every hand of the corpus (when present) and the samples, and every code's example."""
    folders = [path for path in (CORPUS, SAMPLES) if path.is_dir()]
    found = [
        parsed.record
        for path in discover_files(folders)
        for parsed in parse_file(path)
        if parsed.record is not None
    ]
    for explanation in explanations().values():
        parsed = parse_text(explanation.hand)
        if parsed.record is not None:
            found.append(parsed.record)
    return found


def in_sources(module: str, arguments: list[str], work: Path) -> None:
    """Run `python -m module arguments` in `work` on the Python sources (STUDDRAW_PURE=1)."""
    subprocess.run(
        [sys.executable, "-m", module, *arguments],
        cwd=work,
        env={**os.environ, "STUDDRAW_PURE": "1", "PYTHONPATH": str(REPO_ROOT)},
        check=True,
    )


def sources_digest(hands: list[HandRecord], work: Path) -> dict[str, object]:
    """`replay_digest.digest` run by the Python sources in another interpreter."""
    (work / "records.pickle").write_bytes(pickle.dumps(hands))
    in_sources("tests.replay_digest", ["records.pickle", "digest.json"], work)
    result: dict[str, object] = json.loads((work / "digest.json").read_text(encoding="utf-8"))
    return result


@pytest.mark.skipif(
    os.environ.get("STUDDRAW_PURE") == "1" or not compiler_present(),
    reason="the pure-Python build: no C compiler, or STUDDRAW_PURE=1",
)
def test_the_engine_runs_compiled_where_a_compiler_exists() -> None:
    """`make install` (and `pip install` with a compiler) installs the compiled engine,
    exporter, line readers and normalize."""
    assert is_compiled(state.__file__ or ""), state.__file__
    assert is_compiled(phh.__file__ or ""), phh.__file__
    assert is_compiled(line_reader.__file__ or ""), line_reader.__file__
    assert is_compiled(normalize.__file__ or ""), normalize.__file__


@compared
def test_compiled_and_pure_engines_replay_alike(tmp_path: Path) -> None:
    hands = records()
    assert len(hands) > 300
    installed = digest(hands)
    pure = sources_digest(hands, tmp_path)
    assert not is_compiled(str(pure["engine"])), pure["engine"]
    assert not is_compiled(str(pure["exporter"])), pure["exporter"]
    for part in ("replays", "generated", "phh"):
        mine, theirs = installed[part], pure[part]
        assert isinstance(mine, list)
        assert isinstance(theirs, list)
        assert len(mine) == len(theirs)
        for number, (compiled_text, pure_text) in enumerate(zip(mine, theirs, strict=True)):
            assert compiled_text == pure_text, f"{part} #{number} differs"


@compared
def test_compiled_and_pure_parsers_read_alike(tmp_path: Path) -> None:
    installed = parse_digest.digest()
    in_sources("tests.parse_digest", ["parsed.pickle"], tmp_path)
    pure = pickle.loads((tmp_path / "parsed.pickle").read_bytes())
    assert not any(is_compiled(module) for module in pure["modules"]), pure["modules"]
    mine, theirs = installed["parsed"], pure["parsed"]
    assert isinstance(mine, dict)
    assert sum(len(hands) for hands in mine.values()) > 300
    assert list(mine) == list(theirs)
    for path, hands in mine.items():
        assert len(hands) == len(theirs[path]), path
        for number, (compiled_hand, pure_hand) in enumerate(zip(hands, theirs[path], strict=True)):
            assert compiled_hand == pure_hand, f"{path}: hand #{number} differs"
    tables = installed["tables"]
    assert isinstance(tables, dict)
    assert sorted(tables) == sorted(pure["tables"])
    for name, table in tables.items():
        assert table.num_rows > 0, name
        assert table.equals(pure["tables"][name]), f"the {name} rows differ"


def test_a_compiled_module_older_than_its_source_is_found(tmp_path: Path) -> None:
    """Every process then runs the sources (parsers/_build.py), and a test run says so: a stale
    compiled module never blocks a run, nor breaks one after a `git pull`."""
    suffix = EXTENSION_SUFFIXES[0]
    folder = tmp_path / "pipeline" / "rules"
    folder.mkdir(parents=True)
    built = {"state": (1000, 2000), "core": (2000, 1000)}  # when compiled, when edited
    for name, (compiled_at, edited_at) in built.items():
        for path, when in (
            (folder / f"{name}{suffix}", compiled_at),
            (folder / f"{name}.py", edited_at),
        ):
            path.write_text("")
            os.utime(path, (when, when))
    (tmp_path / "build").mkdir()
    names = ["studdraw.parsers.compiled__mypyc", "studdraw.pipeline.rules.state"]
    names.append("studdraw.pipeline.rules.core")
    (tmp_path / "build" / "compiled.ok").write_text("\n".join(names) + "\n")
    assert _build.stale_modules(tmp_path) == [f"pipeline/rules/state{suffix}"]
