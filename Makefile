# The README's quick start: `make run` and `make test`.
PYTHON ?= python3
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit loadtest bench bench-instructions tournament clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Serve the game on the embedded SQLite database (realpolitik.sqlite3) at 127.0.0.1:$(PORT).
run: $(STAMP)
	@echo "realpolitik: open http://127.0.0.1:$(PORT)/ in a browser"
	$(BIN)/realpolitik serve --host 127.0.0.1 --port $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check src tests tools $(wildcard bench)
	$(BIN)/ruff format --check src tests tools $(wildcard bench)

typecheck: $(STAMP)
	$(BIN)/mypy

# tools/ci_services.sh installs PostgreSQL and Chromium if missing and runs the tests
# with a throwaway PostgreSQL cluster, one worker per core (pytest-xdist): each worker has
# its own server and browser, each test its own database.
unit: $(STAMP)
	tools/ci_services.sh run $(BIN)/pytest -n auto

test: lint typecheck unit

# The server under load on loopback, bounded in time (LOADTEST= changes the options, e.g.
# LOADTEST="--players 200 --seconds 60"): one process on SQLite, then two processes on a
# throwaway PostgreSQL; each prints throughput, p50/p99, errors, phases and memory.
LOADTEST ?= --players 60 --seconds 30
loadtest: $(STAMP)
	$(BIN)/python tools/loadtest.py $(LOADTEST)
	tools/ci_services.sh run sh -c '$(BIN)/python tools/loadtest.py $(LOADTEST) --workers 2 --database "$$REALPOLITIK_TEST_PG_URL"'

# The benchmark's peer, the PyPI diplomacy package (AGPL), lives in a venv of its own: it is
# measured, never imported by realpolitik.
PEER := bench/.peer-venv

$(PEER)/.installed:
	test -x $(PEER)/bin/python || $(PYTHON) -m venv $(PEER)
	$(PEER)/bin/python -m pip install --quiet diplomacy==1.1.2
	touch $@

bench: $(STAMP) $(PEER)/.installed
	$(BIN)/python bench/run.py --peer $(PEER)/bin/python

# The same work counted in machine instructions (valgrind), which other load cannot move.
bench-instructions: $(STAMP) $(PEER)/.installed
	$(BIN)/python bench/instructions.py --peer $(PEER)/bin/python

# the search bot in each seat against six heuristic bots, 10 seeds, to 1910 (TOURNAMENT=
# adds options, e.g. TOURNAMENT="--seeds 2 --years 3")
tournament: $(STAMP)
	$(BIN)/realpolitik tournament $(TOURNAMENT)

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
