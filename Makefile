# shenshi: two commands on a fresh machine (Python 3.11 with venv, and make).
#   make test   sets up .venv and runs the whole suite
#   make demo   sets up .venv and runs the demo
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: test test-real demo e2e lint bench screenshots clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -q -n auto -m "not slow and not real"

# Whole games on the real forums the environment names (README "Real forums"); one at a time:
# they share each forum's clock. Skips with the reason when none is named.
test-real: $(STAMP)
	$(BIN)/python -m pytest -q -m real tests/real $(REAL_ARGS)

demo: $(STAMP)
	$(BIN)/shenshi demo

e2e: $(STAMP)
	$(BIN)/python -m pytest -q -n auto -m "(e2e or slow) and not real"

lint: $(STAMP)  # ruff, mypy on the rules core, the layer contracts (pyproject.toml)
	$(BIN)/ruff check shenshi tests bench
	$(BIN)/mypy shenshi/rulesets
	$(BIN)/lint-imports

# The console's pages in headless Chromium, as PNGs for the README (docs/console/); never
# written by the tests.
screenshots: $(STAMP)
	$(BIN)/python -m tests.console.screenshots docs/console

bench: $(STAMP)
	for f in bench/bench_*.py; do $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
