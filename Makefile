# Two commands for a newcomer: `make demo` and `make test` (see README.md).
# Both create .venv with Python 3.11 when it is missing and install the pinned requirements;
# the install is skipped while requirements*.txt are unchanged (stamp file in .venv).

PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-requirements
MANAGE := $(BIN)/python manage.py
# pytest-xdist: one worker per core; override with `make test PYTEST_ARGS=`.
PYTEST_ARGS ?= -n auto
# The demo's past nights, sized by demo_nights' options (README.md, "Using it"), such as
# `make demo DEMO_NIGHTS_ARGS="--coups 300"`.
DEMO_NIGHTS_ARGS ?=

.PHONY: help venv install demo demo-data test lint typecheck imports migrations-check pytest format clean

help:
	@echo "make demo   - install, migrate the embedded database, load demo data, serve on 127.0.0.1:8000"
	@echo "make test   - ruff, ruff format --check, mypy, lint-imports, makemigrations --check, pytest"
	@echo "make format - apply ruff fixes and formatting"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python requirements.txt requirements-dev.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $(STAMP)

venv install: $(STAMP)

demo: $(STAMP)
	mkdir -p var
	DJANGO_DEBUG=$${DJANGO_DEBUG:-true} $(MANAGE) migrate --noinput
	# The month's past nights, then tonight: one gaming session is open at a time, and
	# demo_data's (tonight) stays open.
	DJANGO_DEBUG=$${DJANGO_DEBUG:-true} $(MANAGE) demo_nights $(DEMO_NIGHTS_ARGS)
	DJANGO_DEBUG=$${DJANGO_DEBUG:-true} $(MANAGE) demo_data
	DJANGO_DEBUG=$${DJANGO_DEBUG:-true} DJANGO_DEMO_HINTS=$${DJANGO_DEMO_HINTS:-true} $(MANAGE) runserver 127.0.0.1:8000

demo-data: $(STAMP)
	mkdir -p var
	DJANGO_DEBUG=$${DJANGO_DEBUG:-true} $(MANAGE) migrate --noinput
	DJANGO_DEBUG=$${DJANGO_DEBUG:-true} $(MANAGE) demo_data

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy .

imports: $(STAMP)
	$(BIN)/lint-imports

migrations-check: $(STAMP)
	DJANGO_SETTINGS_MODULE=tests.settings $(MANAGE) makemigrations --check --dry-run

pytest: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS); status=$$?; \
	if [ $$status -eq 5 ]; then echo "pytest: no tests collected (exit 5), treated as success"; exit 0; fi; \
	exit $$status

test: lint typecheck imports migrations-check pytest

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf .mypy_cache .pytest_cache .ruff_cache .import_linter_cache staticfiles
