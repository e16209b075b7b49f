# docintake: `make run` starts the whole service; `make test` installs and runs the tests.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

export PREFECT_SERVER_ANALYTICS_ENABLED := false
export PREFECT_SERVER_UI_SHOW_PROMOTIONAL_CONTENT := false
export DO_NOT_TRACK := 1

.PHONY: install run test lint bench corpus-report clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	$(BIN)/python scripts/install_rules.py
	touch $(STAMP)

# Tesseract reads scans; Chromium runs the browser tests.
RUN_PACKAGES := curl tesseract-ocr tesseract-ocr-deu tesseract-ocr-eng
TEST_PACKAGES := $(RUN_PACKAGES) chromium

install: $(STAMP)
	bash scripts/install-system-packages.sh $(RUN_PACKAGES)

run: install
	bash scripts/run-stack.sh

test: install
	bash scripts/install-system-packages.sh $(TEST_PACKAGES)
	bash scripts/ensure-postgres.sh
	$(BIN)/pytest

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: install
	bash scripts/ensure-postgres.sh
	$(BIN)/python -m bench.run

corpus-report: install
	$(BIN)/python scripts/corpus_report.py

clean:
	rm -rf var bench/results test-artifacts
