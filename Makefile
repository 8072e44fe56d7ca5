# Two commands on a fresh machine: `make report` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: report test lint bench install dev clean browser

# The virtual environment. Debian's Python needs python3-venv for `-m venv`:
# install it when missing (we run as root on CI and fresh machines).
$(BIN)/python:
	$(PYTHON) -m venv $(VENV) || { command -v apt-get >/dev/null && apt-get update -qq \
		&& apt-get install -y -qq python3-venv && $(PYTHON) -m venv $(VENV); }
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamps: reinstall only when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed
dev: $(VENV)/.installed-dev

# The default scenario: check the cards, run it (an earlier run of other cards
# is kept as runs/four-player-mixed.previous, and the report opens with its answer, is the game
# balanced?, and what changed since, by experiment) and again with the tuned bots (balance strong: the best challenger a
# 200,000-game tune finds against them, and every card and Playbook measured in the tuned field too),
# measure every card and Playbook by experiment and build the report in reports/four-player-mixed/
# (--measure, 5,200 games an item: at least 95% of the items decided in each field, the rest named with
# the games they need), and trace its first game. About 3 to 4 minutes on 2 cores once the engine is compiled
# (`time make report`: 3 min 24 s to 3 min 56 s on the shipped database; docs/performance.md).
DEFAULT := scenarios/four-player-mixed.yaml
report: install
	$(BIN)/balance validate cards.yaml
	$(BIN)/balance run $(DEFAULT)
	$(BIN)/balance strong runs/four-player-mixed --force --measure --exploit-budget 200000
	$(BIN)/balance report runs/four-player-mixed --out reports/four-player-mixed --measure
	$(BIN)/balance trace $(DEFAULT) --seed 1 > reports/four-player-mixed/trace-seed1-game0.txt
	@echo "open reports/four-player-mixed/index.html"

# The report's page is opened in headless Chromium by a test: install Debian's
# chromium when it is missing (root, as on CI and fresh machines).
browser:
	@command -v chromium >/dev/null || { command -v apt-get >/dev/null && apt-get update -qq \
		&& DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
		|| echo "chromium is missing and could not be installed: the browser test will fail"

# The whole suite, over every core (pytest-xdist); pytest exits 5 when no test ran, and make fails with it.
test: dev browser
	$(BIN)/python -m balance.games.horsepower.compiled cards.yaml  # compiled once here, not by each test worker
	$(BIN)/python -m balance.games.downforce.compiled downforce.yaml
	$(BIN)/python -m balance.games.heat.compiled heat.yaml
	$(BIN)/python -m balance.games.shuffle_gp.compiled shuffle_gp.yaml
	$(BIN)/python -m pytest -n auto

lint: dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Speed figures for docs/performance.md (a few minutes; nothing is asserted).
bench: install
	$(BIN)/python scripts/bench_load.py
	$(BIN)/python scripts/bench.py
	$(BIN)/python scripts/bench_heat.py
	$(BIN)/python scripts/bench_games.py downforce
	$(BIN)/python scripts/bench_games.py shuffle_gp
	$(BIN)/python scripts/bench_run.py --games 100000

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
