# Quick start: `make run` opens the editor, `make test` runs every test headless.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TRACK ?= tracks/harbour-loop.yaml

.PHONY: setup run test bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/trackside edit $(TRACK)

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest

bench: $(STAMP)
	$(PY) benchmarks/validate_large.py
	$(PY) benchmarks/simulate.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
