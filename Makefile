# docintake: `make run` starts the whole service; `make test` installs and runs the tests.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

export PREFECT_SERVER_ANALYTICS_ENABLED := false
export PREFECT_SERVER_UI_SHOW_PROMOTIONAL_CONTENT := false
export DO_NOT_TRACK := 1

.PHONY: install run test lint bench soak rehearse corpus-report translations clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	$(BIN)/python scripts/install_rules.py
	touch $(STAMP)

# Tesseract reads scans; Chromium runs the browser tests; DejaVu Sans is the embedded font
# of the generated scrambled-text PDFs (tests/processors/scrambled_docs.py). Dovecot is the
# IMAP server the IMAP polling tests start (tests/support/dovecot.py).
RUN_PACKAGES := curl tesseract-ocr tesseract-ocr-deu tesseract-ocr-eng tesseract-ocr-fra \
	tesseract-ocr-nld tesseract-ocr-spa tesseract-ocr-ita
TEST_PACKAGES := $(RUN_PACKAGES) chromium fonts-dejavu-core dovecot-imapd

install: $(STAMP)
	bash scripts/install-system-packages.sh $(RUN_PACKAGES)

run: install
	bash scripts/run-stack.sh

# The suite runs in two processes per core (pytest-xdist): a test spends about half its
# time waiting for the processes it starts. TEST_WORKERS=0 runs it in one process.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) * 2 )))
PYTEST_PARALLEL = $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist worksteal)
# axe-core (npm registry, pinned in tests/web/axe/package.json) is the accessibility
# checker the browser tests inject (scripts/install-axe.sh; npm from Debian if missing).
test: install
	bash scripts/install-system-packages.sh $(TEST_PACKAGES)
	bash scripts/install-axe.sh
	bash scripts/ensure-postgres.sh
	$(BIN)/pytest $(PYTEST_PARALLEL)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: install
	bash scripts/ensure-postgres.sh
	$(BIN)/python -m bench.run

# The real stack under mixed load with faults on a schedule, each mode in turn (docs/soak.md);
# results in bench/results/soak.json, exit status 1 when a must-hold value is violated.
SOAK_SECONDS ?= 600
SOAK_MODE ?= embedded production
soak: install
	status=0; for mode in $(SOAK_MODE); do \
	  $(BIN)/python -m bench.soak --mode $$mode --seconds $(SOAK_SECONDS) || status=1; \
	done; exit $$status

# The scale-out rehearsal (docs/topology.md): test hosts as network namespaces, worker
# hosts with a CPU quota, faults under load. Needs root and about 30 minutes; results in
# bench/results/rehearsal.json, exit status 1 when a target or must-hold value is missed.
REHEARSE_ARGS ?=
rehearse: install
	$(BIN)/python -m bench.rehearse $(REHEARSE_ARGS)

# CORPUS_REPORT_ARGS=--no-scans skips the slowest part: the PDF invoices scanned and OCRed.
CORPUS_REPORT_ARGS ?=
corpus-report: install
	$(BIN)/python scripts/corpus_report.py $(CORPUS_REPORT_ARGS)

# The web application's strings extracted into its German catalog (docs/webapp.md).
translations: install
	$(BIN)/python scripts/update_translations.py

clean:
	rm -rf var bench/results test-artifacts
