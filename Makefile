# shenshi: two commands on a fresh machine (Python 3.11 with venv, and make).
#   make test   sets up .venv and runs the whole suite
#   make demo   sets up .venv and runs the demo
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: test test-real demo e2e e2e-ci lint bench screenshots clean

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

# The share of the long runs that CI plays (.ci/run, after `make test`), bounded to about ten
# minutes on 2 cores: the console in Chromium (its whole games, the pages, the corrections'
# forms, the cookie kept from other local ports),
# chess32's whole games, one game of random kills (game5 on phpwind), a kill at every step of a
# send and the two-daemon duplicate trials (SQLite and PostgreSQL), the forum's faults in whole
# games (5xx bursts, an expiring session, flood control, the daemon killed and restarted, a PM
# killed mid-send), the dry-run and corrections rehearsals, the demo, two daemons on one game
# and sharing six games, the dawn post before 200 receipts, werewolf's random games at the profile's number.
# The rest of `make e2e` (every ruleset, every killed game, the long property runs) is not in CI.
E2E_CI = tests/console/test_whole_game.py tests/console/test_werewolf_night.py \
	"tests/e2e/test_whole_games.py::test_a_whole_game_plays_as_scripted" \
	"tests/e2e/test_kills.py::test_random_kills_change_nothing[game5-phpwind]" \
	tests/daemon/test_crash_every_step.py tests/daemon/test_forum_ids_two_daemons.py \
	tests/e2e/test_faults.py tests/e2e/test_rehearsal.py tests/e2e/test_corrections_rehearsal.py \
	tests/commands/test_demo.py tests/daemon/test_two_daemons.py tests/daemon/test_two_daemons_six_games.py \
	tests/console/test_browser.py tests/console/test_browser_corrections.py tests/console/test_other_port.py \
	"tests/daemon/test_publish_order.py::test_the_dawn_post_does_not_wait_behind_the_receipts" \
	"tests/rulesets/test_werewolf_properties.py::test_many_random_games_keep_the_rules"

e2e-ci: $(STAMP)
	$(BIN)/python -m pytest -q -n auto -m "slow and not real" $(E2E_CI)

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
