# Two entry points: `make demo` and `make test`. Each creates .venv if missing and installs what it needs.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: demo test lint typecheck bench clean docs interop

$(PY):
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "$(PYTHON) not found; set PYTHON=python3" >&2; exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet -e ".[test,dev,openai,hosting,agents-sdk,docs,embeddings,copilot-studio,storage]"
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

demo: $(STAMP)
	$(PY) -m samples.demo

test: $(STAMP)
	$(VENV)/bin/ruff check harness subagents instructions tests samples
	$(VENV)/bin/ruff format --check harness subagents instructions tests samples
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m pytest -q -p no:cacheprovider

docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict  # the env var: see troubleshooting.md

bench: $(STAMP)
	$(PY) -m pip install --quiet -e ".[bench]"
	$(PY) tests/bench/run.py

# A real OpenAI-compatible server (llama-cpp-python + SmolLM2-135M, CPU): wire compatibility, not
# answer quality. Not part of `make test`: the first run builds a wheel (10-15 min on 2 cores).
interop: $(STAMP)
	$(PY) tests/interop/run.py

clean:
	rm -rf $(VENV) build dist *.egg-info site
