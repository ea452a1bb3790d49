# The two commands a new user types: `make sim` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
GAME   ?= tiki_topple
AI     ?=

.PHONY: sim test lint install chromium clean

# Page tests drive Debian's Chromium (never a browser downloaded by a test tool).
CHROMIUM := /usr/bin/chromium
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall whenever pyproject.toml changes. The AI extra (OpenSpiel) comes along: the
# simulator's AI seats and hints use it, and its tests run in the suite.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,ai]'
	touch $@

install: $(VENV)/.installed

sim: install
	$(BIN)/tabletop sim --game $(GAME) $(if $(AI),--ai $(AI))

chromium:
	@test -x $(CHROMIUM) || { $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium; }

test: install chromium
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n 2

lint: install
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
