# The two commands: `make run` (the site with demo data) and `make test` (everything CI checks).
# Every target installs what it needs first, so both work from a clean clone.

SHELL := /bin/bash
.DEFAULT_GOAL := help

PORT ?= 8000
HOST ?= 127.0.0.1
# python3.12 on PATH, or pyenv's 3.12 when its shim cannot pick a version by itself.
PYTHON ?= $(shell for p in python3.12 $$HOME/.pyenv/versions/3.12*/bin/python3.12 /usr/bin/python3.12; do \
	"$$p" -c 'import sys; assert sys.version_info[:2] == (3, 12)' >/dev/null 2>&1 && { echo "$$p"; break; }; done)
VENV := .venv
BIN := $(VENV)/bin
NPM := npm --prefix frontend --no-audit --no-fund --loglevel=error
# Runs a command with the local stand-ins of the outside services (Firebase Auth Emulator, localstripe).
STACK := $(BIN)/python scripts/local_stack.py

# The embedded local stack (see the README): local mode on, SQLite under var/ unless DATABASE_URL is set.
export LOCAL_MODE ?= true
# Python keeps the bytecode of what it imports (in __pycache__, which git ignores), even where the
# shell asks it not to: without it every process compiles its ~1,500 modules again, about 7 s of
# CPU for each of the dozens of processes a test run starts (pytest's, its workers, the servers).
unexport PYTHONDONTWRITEBYTECODE

FRONTEND_SOURCES := $(shell find frontend/src -type f 2>/dev/null) frontend/vite.config.ts frontend/tsconfig.json
TEMPLATES := $(shell find templates -type f 2>/dev/null)

.PHONY: help install installed lock build run serve dev serve-dev prepare-data test lint format api-types pytest pytest-fast pytest-integration clean

help:
	@echo "make run    install, build, migrate, seed the demo data and serve on http://$(HOST):$(PORT)"
	@echo "make dev    the same with Django's runserver and the Vite dev server (hot reload)"
	@echo "make test   lint (with the type checks), pytest on PostgreSQL and the browser tests"
	@echo "make lint   Ruff, mypy, the TypeScript check, ESLint, Prettier and the API types' drift"
	@echo "make format Ruff's and Prettier's formatting, and the lint fixes they can make"
	@echo "make build  the front end (Vite) and the collected static files"
	@echo "make api-types  the islands' API types from the OpenAPI schema, after a serializer changes"
	@echo "make lock   renew uv.lock: the newest versions of the Python packages pyproject.toml allows"
	@echo "make clean  remove what the commands made (.venv, node_modules, builds, var/)"

# --- Installation ---------------------------------------------------------------------------
# The version of uv that uv.lock names.
UV_VERSION = $(shell sed -n '/^name = "uv"$$/{n;s/^version = "\(.*\)"$$/\1/p;}' uv.lock)
# Python's packages come from uv.lock, every file checked against its hash, by uv: first the uv
# version the lock names (with pip, into a new .venv), then uv makes .venv exactly the lock.
$(BIN)/.installed: pyproject.toml uv.lock
	@test -n "$(PYTHON)" || { echo "Python 3.12 is needed (python3.12 was not found)."; exit 1; }
	test -x $(BIN)/uv || { $(PYTHON) -m venv $(VENV) && \
		$(BIN)/pip install --quiet --disable-pip-version-check uv==$(UV_VERSION); }
	UV_PYTHON_DOWNLOADS=never $(BIN)/uv sync --locked --quiet --python $(BIN)/python
	touch $@

# A new lock: the newest versions that pyproject.toml allows (then run `make test`, and commit it).
lock: $(BIN)/.installed
	$(BIN)/uv lock --upgrade

frontend/node_modules/.installed: frontend/package.json frontend/package-lock.json
	$(NPM) ci
	touch $@

# firebase-tools without its optional parts: with them, re2 compiles from source for minutes.
firebase/node_modules/.installed: firebase/package.json firebase/package-lock.json
	npm --prefix firebase ci --omit=optional --no-audit --no-fund --loglevel=error
	touch $@

# The three installs side by side (each waits on the network or the disk for much of its time).
install:
	@$(MAKE) --no-print-directory --jobs=3 --output-sync=target installed

installed: $(BIN)/.installed frontend/node_modules/.installed firebase/node_modules/.installed
	@:

# --- Build ----------------------------------------------------------------------------------
frontend/dist/manifest.json: frontend/node_modules/.installed $(FRONTEND_SOURCES) $(TEMPLATES)
	$(NPM) run build

staticfiles/staticfiles.json: $(BIN)/.installed frontend/dist/manifest.json $(shell find static -type f)
	$(BIN)/python manage.py collectstatic --noinput --clear --verbosity 0

build: staticfiles/staticfiles.json

# --- Run ------------------------------------------------------------------------------------
# The emulator's accounts and localstripe's data are kept under var/ between runs, like the SQLite
# database, so that they keep matching it (the demo's memberships renew at localstripe).
KEEP := --keep-accounts var/firebase --keep-payments var/stripe.pickle
run: install build
	@$(STACK) $(KEEP) --webhook-url http://$(HOST):$(PORT)/api/stripe/webhook \
		-- $(MAKE) --no-print-directory serve

# The app and one background worker (e-mail, expiries, reminders); Ctrl-C stops both.
serve: prepare-data
	@echo
	@echo "  The club site is at http://$(HOST):$(PORT)/   (Ctrl-C stops it)"
	@echo "  The e-mail it sent (kept by the local mailbox): http://$(HOST):$(PORT)/local/mail"
	@echo "  E-mail verification links (the local emulator sends no mail): http://$(HOST):$(PORT)/local/auth-links"
	@echo "  Stripe's clock (a membership's period ends now: renewed, or declined): http://$(HOST):$(PORT)/local/stripe-clock"
	@echo
	@$(BIN)/python manage.py run_worker & worker=$$!; trap 'kill $$worker 2>/dev/null' EXIT; \
	$(BIN)/gunicorn club.wsgi --bind $(HOST):$(PORT) --workers 2 --access-logfile - --graceful-timeout 2

dev: install
	@$(STACK) $(KEEP) --webhook-url http://$(HOST):$(PORT)/api/stripe/webhook \
		-- $(MAKE) --no-print-directory serve-dev

serve-dev: prepare-data
	@echo
	@echo "  The club site (dev, hot reload) is at http://$(HOST):$(PORT)/   (Ctrl-C stops it)"
	@echo
	@trap 'kill 0' EXIT INT TERM; \
	$(NPM) run dev & \
	DEBUG=true VITE_DEV_MODE=true $(BIN)/python manage.py runserver $(HOST):$(PORT)

prepare-data:
	@mkdir -p var
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py createcachetable
	$(BIN)/python manage.py seed_demo

# --- API types ------------------------------------------------------------------------------
# The TypeScript types of the API's payloads, for the islands: openapi-typescript run on the OpenAPI
# schema that drf-spectacular makes of the serializers (manage.py spectacular calls neither Firebase
# nor Stripe). They are committed, so that a change to an API shows as a reviewable diff of its
# types, and the front end builds without Python; `make lint` fails when they differ from the schema.
API_TYPES := frontend/src/api/schema.d.ts
# Writes the schema and its types (schema.json, schema.d.ts) into the directory $(1). The schema
# reads no data and needs no build, so it runs on an in-memory database without the system checks:
# `make lint` passes on a clean clone, before anything is migrated or built.
define write_api_types
LOCAL_MODE=true DATABASE_URL=sqlite://:memory: $(BIN)/python manage.py spectacular --skip-checks \
	--format openapi-json --file $(1)/schema.json && \
	frontend/node_modules/.bin/openapi-typescript $(1)/schema.json > $(1)/schema.d.ts
endef

api-types: $(BIN)/.installed frontend/node_modules/.installed
	@work=$$(mktemp -d) && trap 'rm -rf "$$work"' EXIT && \
	$(call write_api_types,"$$work") && \
	mkdir -p $(dir $(API_TYPES)) && cp "$$work/schema.d.ts" $(API_TYPES) && echo "Wrote $(API_TYPES)"

# --- Checks ---------------------------------------------------------------------------------
# mypy's Django plugin imports the settings: those of the API types' schema, which need nothing running.
lint: $(BIN)/.installed frontend/node_modules/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	LOCAL_MODE=true DATABASE_URL=sqlite://:memory: $(BIN)/mypy
	$(NPM) run lint
	@work=$$(mktemp -d) && trap 'rm -rf "$$work"' EXIT && \
	$(call write_api_types,"$$work") && \
	{ diff -u $(API_TYPES) "$$work/schema.d.ts" || \
	  { echo "$(API_TYPES) differs from the API schema: run 'make api-types' and commit the result."; exit 1; }; }

format: $(BIN)/.installed frontend/node_modules/.installed
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .
	$(NPM) run format

# The fast layer (PostgreSQL alone: it fails fast), then the integration layer (the stand-ins, which
# each test process starts for itself, and the browser) on the test databases the first layer made;
# each on a process per core (pyproject.toml: pytest-xdist).
pytest: pytest-fast
	@$(MAKE) --no-print-directory pytest-integration

pytest-fast: install build
	$(BIN)/pytest -m "not integration" --reuse-db --create-db $(PYTEST_ARGS)

pytest-integration: install build
	$(BIN)/pytest -m integration --reuse-db $(PYTEST_ARGS)

# In turn: the system packages the tests need (Chromium; scripts/system_packages.sh installs them or
# says how), the installs (side by side; lint alone would make two of them one after the other),
# then the checks beside the build and the fast layer (mypy keeps one core busy, the fast layer
# does not keep two), then the integration layer.
test:
	@scripts/system_packages.sh
	@$(MAKE) --no-print-directory install
	@$(MAKE) --no-print-directory --jobs=2 --output-sync=target lint pytest-fast
	@$(MAKE) --no-print-directory pytest-integration

clean:
	rm -rf $(VENV) frontend/node_modules frontend/dist firebase/node_modules staticfiles var
