# Stet. `make run` sets everything up and starts Stet on a bundled sample; `make test` sets
# everything up and runs the whole suite. Set-up is skipped when nothing changed.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
# A plain `torch` from PyPI pulls a multi-GB CUDA build; CUDA users override, e.g.
#   make setup TORCH_SPEC="torch==2.13.0 --index-url https://download.pytorch.org/whl/cu126"
TORCH_SPEC ?= torch==2.13.0
# Debian packages, installed with apt-get when running as root and missing: Qt under Xvfb,
# PortAudio for playback, espeak-ng and sox to make test speech. Append what you need.
APT_PACKAGES := xvfb libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0 libxcb-cursor0 libegl1 \
	libgl1 libportaudio2 espeak-ng sox libxcb-randr0 libxcb-render-util0 libxcb-image0 \
	libxcb-shape0 libxcb-xinerama0 libxcb-xkb1 libdbus-1-3 \
	librsvg2-bin desktop-file-utils appstream shared-mime-info
STAMP := $(VENV)/.stet-setup-done
SAMPLE ?= resources/samples/repair-cafe.json

# `make dist`: the PyInstaller folder, a tarball and a .deb in dist/. HOMEPAGE is where the
# AppStream screenshots are served from (resources/screenshots/ under it): set the real one.
VERSION = $(shell sed -n 's/^__version__ = "\(.*\)"/\1/p' editor/__init__.py)
HOMEPAGE ?= https://stet-editor.example.org
MAINTAINER ?= $(shell git log -1 --format='%an <%ae>' 2>/dev/null || echo 'Stet maintainers <stet@localhost>')
DIST_STAMP := $(VENV)/.stet-dist-done

.PHONY: setup apt-packages test run dist dist-test clean bench-stalls

setup: apt-packages $(STAMP)

apt-packages:
	@missing=""; \
	for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	$(PYTHON) -c 'import ensurepip' >/dev/null 2>&1 || missing="$$missing python3-venv"; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing Debian packages:$$missing"; \
		apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	else \
		echo "note: these system packages are missing; install them as root:$$missing" >&2; \
	fi

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "Stet needs Python 3.11 or newer; set PYTHON=python3.11" >&2; exit 1; }
	test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q $(TORCH_SPEC)
	$(VPY) -m pip install -q -e '.[dev,train,cluster,speakers]'
	touch $@

# STET_REQUIRE_SYSTEM=1: a test skipped because a system package is missing fails instead.
# The suite runs on TEST_WORKERS processes (pytest-xdist), each test file wholly on one of them so
# that its module fixtures (a transcription, a model) are made once; TEST_WORKERS=0: one process.
TEST_WORKERS ?= 2
test: setup
	$(VENV)/bin/lint-imports
	$(VENV)/bin/ruff check editor tests
	$(VENV)/bin/mypy
	STET_REQUIRE_SYSTEM=1 $(VPY) -m pytest -n $(TEST_WORKERS) --dist loadfile

run: setup
	$(VENV)/bin/stet $(SAMPLE)

$(DIST_STAMP): $(STAMP)
	$(VPY) -m pip install -q -e '.[dist]'
	touch $@

dist: setup $(DIST_STAMP)
	rm -f dist/stet_*.deb dist/stet-*.tar.gz
	@# Resemblyzer (the speakers extra before CAM++) pulled in `typing`, a backport Python 3 never
	@# imports and PyInstaller refuses to run beside; an older .venv may still have it.
	$(VPY) -m pip uninstall -q -y typing 2>/dev/null || true
	time $(VENV)/bin/pyinstaller --noconfirm --log-level WARN --distpath build/dist \
		--workpath build/pyinstaller packaging/stet.spec
	packaging/build-deb.sh build/dist/stet dist "$(VERSION)" "$(HOMEPAGE)" "$(MAINTAINER)"

# Installs the .deb from `make dist` into a clean root and runs it there (tests/packaging/dist).
dist-test: setup
	$(VPY) -m pytest tests/packaging/dist -v -p no:randomly

# The window's longest stall in every phase of a review (open, restoring, Tab, Enter, accept all,
# undo, redo, save, export), 5 fresh windows each: 100,000 words in one paragraph, then a talk of
# 12,300 words (the dev talks in ../shared/data). A benchmark, run on purpose, never by `make test`
# (docs/performance.md). PYTHONPATH: the checkout's own `editor`, whatever the venv points at.
BENCH_RUNS ?= 5
bench-stalls: setup
	PYTHONPATH=$(CURDIR) QT_QPA_PLATFORM=offscreen $(VPY) tests/perf/bench_gui_stalls.py \
		--steps phases --paragraph 0 --words 100000 --runs $(BENCH_RUNS)
	PYTHONPATH=$(CURDIR) QT_QPA_PLATFORM=offscreen $(VPY) tests/perf/bench_gui_stalls.py \
		--steps phases --paragraph 0 --dev-talks --words 12300 --runs $(BENCH_RUNS)

clean:
	rm -rf build dist *.egg-info .pytest_cache .hypothesis .import_linter_cache .mypy_cache .ruff_cache
	find editor tests -name __pycache__ -type d -prune -exec rm -rf {} +
