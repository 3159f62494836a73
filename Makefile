# The two commands a newcomer needs: `make demo` and `make test`. Everything they need is
# installed here, into .venv (and, for the browser tests, Debian's chromium when absent).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
TYPECHECK := .typecheck/studdraw

.PHONY: install demo test lint typecheck unit clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

# mypy cannot follow setuptools' package-dir mapping, so it reads the code through a
# symlink tree that mirrors the installed layout (studdraw/parsers -> parsers, ...).
$(TYPECHECK):
	@mkdir -p $(TYPECHECK)
	@for part in parsers pipeline dashboard; do ln -sfn ../../$$part $(TYPECHECK)/$$part; done

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install $(TYPECHECK)
	$(BIN)/mypy -p studdraw.parsers -p studdraw.pipeline -p studdraw.dashboard

unit: install
	$(BIN)/pytest

test: lint typecheck unit

demo: install
	$(BIN)/studdraw parse sample_histories

clean:
	rm -rf $(VENV) .typecheck build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
