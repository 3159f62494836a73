# The two commands a newcomer needs: `make demo` and `make test`. Everything they need is
# installed here, into .venv (and, for the browser tests, Debian's chromium when absent).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
TYPECHECK := .typecheck/studdraw

.PHONY: install compile demo test test-fast docs lint typecheck unit samples fuzz clean

# The editable install skips compiling (STUDDRAW_PURE=1): the rule below compiles once, in place.
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip setuptools
	STUDDRAW_PURE=1 $(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

# The hot modules of the parsers, the rules engine, normalize and the PHH exporter compiled by
# mypyc beside their sources (setup.py lists them; Python imports the compiled module first),
# again whenever a source they may read changes. Without a C compiler, or with STUDDRAW_PURE=1,
# nothing is compiled and the sources run as they are.
COMPILED_SOURCES := setup.py pipeline/phh.py pipeline/store/normalize.py \
	$(wildcard parsers/*.py parsers/*/*.py pipeline/rules/*.py pipeline/evaluators/*.py)
COMPILED_STAMP := build/.compiled-stamp

$(COMPILED_STAMP): $(STAMP) $(COMPILED_SOURCES)
	$(BIN)/python setup.py --quiet build_ext --inplace
	@touch $(COMPILED_STAMP)

compile: $(COMPILED_STAMP)

install: $(STAMP) $(COMPILED_STAMP)

# mypy cannot follow setuptools' package-dir mapping, so it reads the code through a
# symlink tree that mirrors the installed layout (studdraw/parsers -> parsers, ...).
$(TYPECHECK):
	@mkdir -p $(TYPECHECK)
	@for part in parsers pipeline dashboard cli; do ln -sfn ../../$$part $(TYPECHECK)/$$part; done

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install $(TYPECHECK)
	$(BIN)/mypy -p studdraw.parsers -p studdraw.pipeline -p studdraw.dashboard -p studdraw.cli

# The browser tests drive Debian's chromium: playwright never downloads a browser of its own.
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

$(CHROMIUM):
	$(SUDO) apt-get update -qq
	$(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

# The tests run in PYTEST_WORKERS processes (pytest-xdist; 0 runs them in this one), each test
# module in one worker, so that its fixtures (a store imported once, a server) are made once.
PYTEST_WORKERS ?= 2
PYTEST := $(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile

# The CI gate: ruff, mypy, then every test (slow and browser ones included) on the build a user
# installs: the compiled modules, rebuilt first when a source changed (`install`), with
# tests/test_compiled.py checking that they and the Python sources give the same results.
unit: install $(CHROMIUM)
	$(PYTEST)

test: lint typecheck unit

# The developer's loop: every test but the slow and the browser ones, on the Python sources
# (STUDDRAW_PURE=1), so an edit is tested at once, never waiting for a compile.
test-fast: $(STAMP)
	STUDDRAW_PURE=1 $(PYTEST) -m "not slow and not browser"

# Every generated doc, written again from its source (tests/generated_docs.py lists them;
# tests/test_generated_docs.py fails on a stale one).
docs: $(STAMP)
	STUDDRAW_PURE=1 $(BIN)/python -m tests.generated_docs

# A long fuzz run (docs/reliability.md): hostile files through parse, validate and ingest.
FUZZ_INPUTS ?= 100000
fuzz: install
	nice -n 19 $(BIN)/python -m tests.fuzz --inputs $(FUZZ_INPUTS) --report test-artifacts/fuzz-report.json

# Import the samples (again: a re-import adds nothing) and serve the dashboard on them.
demo: install
	$(BIN)/studdraw ingest sample_histories --db studdraw.duckdb
	$(BIN)/studdraw dashboard --db studdraw.duckdb --port 8501

# The bundled sample histories, dealt by the project's own synthesiser (deterministic: the same
# seeds give the same files). The files under handwritten/ are not regenerated.
SYNTH := $(BIN)/studdraw synth --out
samples: install
	$(SYNTH) sample_histories/pokerstars/stud.txt --game stud --hands 150 --seed 101 --session-hands 50 --start 2026-03-02T18:00
	$(SYNTH) sample_histories/pokerstars/stud8.txt --game stud8 --hands 60 --seed 102 --session-hands 30 --start 2026-03-06T20:00
	$(SYNTH) sample_histories/pokerstars/razz.txt --game razz --hands 60 --seed 103 --session-hands 30 --start 2026-03-09T17:30
	$(SYNTH) sample_histories/pokerstars/td27.txt --game td27 --hands 60 --seed 104 --players 3-6 --start 2026-03-12T21:00
	$(SYNTH) sample_histories/pokerstars/td27-no-limit.txt --game td27 --structure no --hands 20 --seed 105 --players 2-6 --start 2026-03-13T22:00
	$(SYNTH) sample_histories/pokerstars/tda5.txt --game tda5 --hands 30 --seed 106 --players 3-6 --start 2026-03-15T19:00
	$(SYNTH) sample_histories/pokerstars/badugi.txt --game badugi --hands 50 --seed 107 --players 3-6 --session-hands 25 --start 2026-03-17T18:30
	$(SYNTH) sample_histories/fulltilt/razz.txt --room fulltilt --game razz --hands 40 --seed 108 --start 2026-03-19T20:00

clean:
	rm -rf $(VENV) .typecheck build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
	find parsers pipeline dashboard -name '*.so' -delete
