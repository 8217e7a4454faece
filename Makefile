# Quick start: `make run` opens the editor, `make test` runs every test headless.
# Everything installs into .venv from requirements.lock (exact versions, with hashes).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TRACK ?= harbour-loop
# A tree in which the mapped folders sit where their package names say, for mypy.
TYPING := build/typing
# The engine's busiest modules compiled with mypyc (engine/native.py lists them), built
# again when one of them changes. Without a C compiler the engine runs as Python: the
# build says so and make goes on.
NATIVE := build/native/manifest.json
NATIVE_SOURCES := $(shell $(PYTHON) engine/native.py)
PREFIX ?= $(HOME)/.local

.PHONY: setup native run test test-deep lint format lock bench install-desktop uninstall-desktop clean

setup: $(STAMP) $(NATIVE)

$(STAMP): requirements.lock pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps -r requirements.lock
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $(STAMP)

# Build them now (after installing a C compiler, say).
native: $(STAMP)
	$(PY) tools/build_native.py

$(NATIVE): $(STAMP) $(NATIVE_SOURCES) engine/native.py tools/build_native.py
	-$(PY) tools/build_native.py

# Qt aborts, naming the wrong package, when a library of its xcb platform is missing:
# say which ones first, with the apt-get line that installs them.
run: $(STAMP) $(NATIVE)
	$(PY) tools/qt_platform.py
	$(BIN)/trackside edit $(TRACK)

# One worker more than the cores: GUI tests spend part of their time waiting for Qt.
WORKERS = $(shell $(PYTHON) -c 'import os; print((os.cpu_count() or 1) + 1)')

test: $(STAMP) $(NATIVE)
	PYTHONDONTWRITEBYTECODE= QT_QPA_PLATFORM=offscreen $(PY) -m pytest -n $(WORKERS)

# The same tests with the deep hypothesis profile and the long game runs.
test-deep: $(STAMP) $(NATIVE)
	PYTHONDONTWRITEBYTECODE= QT_QPA_PLATFORM=offscreen TRACKSIDE_TEST_PROFILE=deep $(PY) -m pytest -n $(WORKERS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	rm -rf $(TYPING) && mkdir -p $(TYPING)/trackside
	for f in src/trackside/*.py; do ln -s ../../../$$f $(TYPING)/trackside/; done
	for d in engine editor cli; do ln -s ../../../$$d $(TYPING)/trackside/$$d; done
	cd $(TYPING) && ../../$(BIN)/mypy --config-file ../../pyproject.toml -p trackside
	cd $(TYPING) && ../../$(BIN)/lint-imports ../../pyproject.toml

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Refresh the lock after changing a range in pyproject.toml, or to take new releases.
lock: $(STAMP)
	$(BIN)/uv pip compile pyproject.toml --extra test --extra lint --extra plot --extra cluster --universal \
	    --python-version 3.11 --generate-hashes --no-header --upgrade -o requirements.lock

bench: $(STAMP) $(NATIVE)
	$(PY) benchmarks/validate_large.py
	$(PY) benchmarks/simulate.py
	$(PY) benchmarks/speed_table.py

install-desktop: $(STAMP)
	$(PY) tools/desktop_entry.py install --prefix $(PREFIX)

uninstall-desktop:
	$(PYTHON) tools/desktop_entry.py uninstall --prefix $(PREFIX)

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis .mypy_cache .ruff_cache
