# Two commands on a fresh machine: `make app` and `make test`. Each creates the
# virtual environment it needs and installs into it.
VENV ?= .venv
PY := $(VENV)/bin/python
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
	$(PY) -m pip install -q -e '.[test,train]'
	command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium) \
		|| echo "chromium is not installed: the real-browser test will skip"
	touch $@ $(VENV)/.installed-app

app: $(VENV)/.installed-app
	$(VENV)/bin/streamlit run app.py --browser.gatherUsageStats false --server.maxUploadSize 40

lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check referee vision datasets tests benchmarks app.py app_pages
	$(VENV)/bin/mypy

test: lint
	$(PY) -m pytest

bench: $(VENV)/.installed-test
	$(PY) benchmarks/bench_evaluator.py
	$(PY) benchmarks/bench_settle.py
	$(PY) benchmarks/bench_solver.py
