# The two commands a new user needs: `make run` and `make test`; `make serve` hosts the service for real
# (docs/operating.md, "Hosting on one machine").
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run serve test test-long mutants venv clean-data

run: $(STAMP)
	$(BIN)/python -m turnbased.local run

serve: $(STAMP)
	$(BIN)/python -m turnbased.local serve

# make test leaves out the tests marked long: exhaustive variants of tests it runs a representative slice of
# (every language of every scenario, the fuzzers' full runs). make test-long runs only those; CI runs it after
# make test as time allows (.ci/run). docs/developing.md, "Testing".
test: $(STAMP)
	$(BIN)/python -m turnbased.local test $(ARGS)

test-long: $(STAMP)
	$(BIN)/python -m turnbased.local test-long $(ARGS)

# Deliberate bugs in the engines and the doors, and whether the tests catch them (docs/developing.md). Slow: an
# hour or more for every module; `make mutants ARGS="turnbased/mail/inbound.py --count 20"` for one, briefly.
mutants: $(STAMP)
	nice -n 15 $(BIN)/python -m mutants $(ARGS)

venv: $(STAMP)

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

# Deletes the data folder (.data, or TURNBASED_DATA_DIR): the embedded PostgreSQL and Redis data (accounts, games,
# mail) and the keys. Refused while make run or make serve runs on it, or a make test uses its PostgreSQL; it says
# what it deleted (turnbased/local/data.py).
clean-data: $(STAMP)
	$(BIN)/python -m turnbased.local clean-data
