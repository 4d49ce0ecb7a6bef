# One command each on a fresh machine: `make test`, `make demo`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: test demo lint bench clean test-cgroup2

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check pipeline solvers tests bench
	$(BIN)/ruff format --check pipeline solvers tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache --no-logo

# two workers, each taking whole files (a module's fixtures, such as the hostile
# battery's runs, are made once): the suite's waits overlap on a 2-core machine
test: lint
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

# tests/cgroup2, the hostile battery and the fork-server attacks in a VM booted with a
# cgroup v2 kernel (needs linux-image-amd64, qemu-system-x86, busybox-static; see
# docs/sandbox.md); VM_SUBSET=ci runs the smaller part
test-cgroup2: $(STAMP)
	BIN=$(BIN) tests/cgroup2/vm.sh

demo: $(STAMP)
	$(BIN)/gridjudge demo

bench: $(STAMP)
	for b in bench/*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
