# The two commands a new user types: `make sim` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
GAME   ?= tiki_topple
AI     ?=

.PHONY: sim test test-slow lint install chromium mosquitto club clean pi-check

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

# The club's tests and `make club` talk to a real MQTT broker: Debian's Mosquitto.
MOSQUITTO := /usr/sbin/mosquitto
mosquitto:
	@test -x $(MOSQUITTO) || { $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq mosquitto; }

# A club evening to look at: a Mosquitto of its own, the club page on :8090 and four
# simulated tables playing (docs/club.md).
club: install mosquitto
	$(BIN)/tabletop club --demo 4 --port 8090

test: install chromium mosquitto
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n 2

# The rest of the long sweeps (the conformance check's other seeds: tests/sweeps.py), beside
# `make test`, which runs one or two seeds of each.
test-slow: install
	$(BIN)/python -m pytest -n 2 -m slow

lint: install
	$(BIN)/ruff check .

# Does the wheel install and run on a Pi's OS? Debian bookworm and trixie arm64 root filesystems
# (cached in .pi-check/) under qemu: the pi extra, `tabletop doctor --simulate`, the hardware-free
# tests. Slow (emulation); `make pi-check PI_RELEASES=trixie` checks one release. docs/install.md.
PI_RELEASES ?=
pi-check: $(BIN)/python
	@command -v debootstrap >/dev/null && test -x /usr/bin/qemu-aarch64-static || { \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install \
		-y -qq debootstrap qemu-user-static binfmt-support; }
	$(SUDO) bash .ci/pi-check $(PI_RELEASES)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
