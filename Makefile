# Each target creates .venv when it is missing. `make test` is the README's second command and
# `make run` its first, narrated (--format text), both with an editable install (`test` with the dev extras,
# as `install` makes it; `run` without them): the README's plain install would replace it, and a later
# `cardgames` would run that copy, not the tree.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: install run test lint bench bench-torqu-72 golden clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

install: $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'

run: $(BIN)/python
	$(BIN)/pip install -q -e . && $(BIN)/cardgames simulate --game eiffel-tower --seed 7 --format text

test: $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]' && $(BIN)/python -m pytest

lint: $(BIN)/python
	$(BIN)/pip install -q ruff && $(BIN)/ruff check cli engine tests scripts

# Every benchmark at the size its issue names, except Torqu's scorer: its issue-sized run
# (200 tableaux of 72 cards against HiGHS) takes about a day of one core, so `bench` runs 36-card
# tableaux and `bench-torqu-72` is the issue's run, HiGHS on every core (see docs/rules/torqu.md, "Speed").
QUICK_BENCHES := $(filter-out scripts/bench_torqu_score.py,$(wildcard scripts/bench_*.py))
MILP_JOBS ?= $(shell nproc 2>/dev/null || echo 1)

bench: install
	@for script in $(QUICK_BENCHES); do echo "== $$script"; $(BIN)/python $$script || exit 1; done
	@echo "== scripts/bench_torqu_score.py --size 36 --count 50"
	@$(BIN)/python scripts/bench_torqu_score.py --size 36 --count 50

bench-torqu-72: install
	$(BIN)/python scripts/bench_torqu_score.py --size 72 --count 200 --milp-jobs $(MILP_JOBS)

golden: install
	$(BIN)/python scripts/regen_golden.py --all

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
