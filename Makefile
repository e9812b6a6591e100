# Two commands on a fresh machine: `make app` and `make test`. Each creates the
# virtual environment it needs and installs into it.
VENV ?= .venv
# the app's port (`make app PORT=8600` for another)
PORT ?= 8501
PY := $(VENV)/bin/python
# free disk (KB) needed before `make test` installs the train extra (torch + CUDA libraries, ~6 GB)
TRAIN_EXTRA_KB ?= 10485760
export YOLO_OFFLINE := 1
export ORT_DISABLE_TELEMETRY := 1
export STREAMLIT_BROWSER_GATHER_USAGE_STATS := false
export HYPOTHESIS_STORAGE_DIRECTORY := .hypothesis

.PHONY: app test lint bench

$(VENV)/.installed-app: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml
	python3 -m venv $(VENV)
	@# the train extra (torch, ~6 GB) only where the disk has room for it: without it the training
	@# smoke test skips and says why, instead of the whole install failing on a full disk
	@if [ "$$(df -Pk . | awk 'NR==2 {print $$4}')" -gt $(TRAIN_EXTRA_KB) ]; then \
		echo "installing .[test,train]"; $(PY) -m pip install -q --no-cache-dir -e '.[test,train]'; \
	else \
		echo "less than $$(($(TRAIN_EXTRA_KB) / 1048576)) GB free: installing without the train extra (the training smoke test will skip)"; \
		$(PY) -m pip install -q --no-cache-dir -e '.[test]'; \
	fi
	@# Debian's chromium for the real-browser test, without its recommended packages (they pull in
	@# ~90 more); where it cannot be installed (not root, offline) that one test skips and says so
	command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium) \
		|| echo "chromium is not installed: the real-browser test will skip"
	touch $@ $(VENV)/.installed-app

app: $(VENV)/.installed-app
	@echo "The referee is served on http://localhost:$(PORT) (phones on the same network: http://<this machine's address>:$(PORT)); Ctrl-C stops it"
	$(VENV)/bin/streamlit run app.py --browser.gatherUsageStats false --server.maxUploadSize 40 --server.port $(PORT)

lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check referee vision training datasets tests benchmarks app.py app_pages
	$(VENV)/bin/mypy

test: lint
	$(PY) -m pytest

bench: $(VENV)/.installed-test
	$(PY) benchmarks/bench_evaluator.py
	$(PY) benchmarks/bench_settle.py
	$(PY) benchmarks/bench_solver.py
