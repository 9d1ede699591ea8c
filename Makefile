# Each target creates .venv when it is missing. `make run` and `make test` are the README's two
# commands; `install` is an editable install for development.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: install run test lint bench golden clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

install: $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'

run: $(BIN)/python
	$(BIN)/pip install -q . && $(BIN)/cardgames simulate --game eiffel-tower --seed 7 --format text

test: $(BIN)/python
	$(BIN)/pip install -q '.[dev]' && $(BIN)/python -m pytest

lint: $(BIN)/python
	$(BIN)/pip install -q ruff && $(BIN)/ruff check cli engine tests scripts

bench: install
	@for script in scripts/bench_*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

golden: install
	$(BIN)/python scripts/regen_golden.py --all

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
