# The two commands of README.md, plus the benchmark.
PYTHON ?= python3
SPEC ?= examples/scale.yaml
DEST ?= build/example

.PHONY: help setup tags release new scan example test golden lint format

help:
	@echo "make setup    install requirements.txt (torch from PyTorch's CPU index when it answers)"
	@echo "make new SPEC=my_spec.yaml DEST=my-project"
	@echo "              read SPEC strictly (one line per problem), then copier copy it into DEST (scripts/new)"
	@echo "make scan MODEL=pkg.module:attr INPUTS=example.pt [BACKEND=lpai|htp] [SPEC_OUT=my_spec.yaml]"
	@echo "              which ops of your model fall back to the CPU, and a spec draft for them (scripts/scan)"
	@echo "make example [SPEC=examples/scale.yaml] [DEST=build/example]"
	@echo "              install, render SPEC into DEST (replacing it) and run its tests"
	@echo "make tags     recreate the release tags v1.0.0, ... from CHANGELOG.md and scripts/releases.txt (offline)"
	@echo "make release VERSION=X.Y.Z"
	@echo "              date CHANGELOG.md's [Unreleased] as X.Y.Z, commit, record it in scripts/releases.txt, make tags"
	@echo "make test     install and run the template's whole test suite"
	@echo "make golden   regenerate examples/golden/ (fresh renders of examples/*.yaml; tests/test_golden.py)"
	@echo "make lint     ruff check, ruff format --check (and clang-format on bench/) on the template's sources"
	@echo "make format   ruff format and the safe ruff fixes, in place"
	@echo "make bench    the kernel benchmark: one BENCH line per (op, layout, shape) (docs/benchmark.md),"
	@echo "              then the HTP kernels: one BENCH_HTP line per (op, dtype, shape) (bench/htp.py)"

# PyTorch's CPU wheel index when it answers within 5 s (PyPI's torch is the CUDA build on
# Linux x86_64, several GB): template/scripts/torch_index.py, which every render ships as
# scripts/torch_index.py.  It asks nothing when requirements.txt's torch is installed
# already; `make setup TORCH_INDEX=` never asks, `TORCH_INDEX="--index-url ..."` picks one.
TORCH_INDEX ?= $(shell $(PYTHON) template/scripts/torch_index.py --unless $(shell grep -m1 '^torch==' requirements.txt))
setup:
	$(PYTHON) -m pip install --quiet --disable-pip-version-check $(TORCH_INDEX) -r requirements.txt

# The release tags (v1.0.0, ...), which a clone does not always bring: copier needs
# them to name the template's version and to pin one (README, "Pin a version").
# Idempotent and offline (scripts/tags.py).
tags:
	$(PYTHON) scripts/tags.py

# A release (docs/releasing.md): the checks, then "Release X.Y.Z" (CHANGELOG.md's
# [Unreleased] dated), the commit after it recording it in scripts/releases.txt, and the
# tags (scripts/release.py).  Every refusal is one line and changes nothing.
# VERSION reaches it through the environment, unexpanded ($(value ...); not exported
# itself, which would expand it): written into the recipe, a VERSION holding a quote
# would be shell code the recipe's shell runs.
VERSION ?=
unexport VERSION
release: export QNN_RELEASE_VERSION = $(value VERSION)
release:
	@$(PYTHON) scripts/release.py --version-from-env QNN_RELEASE_VERSION

# A new project: the spec read strictly and checked first (hooks/new.py), then
# `copier copy --trust --defaults`; COPIER_ARGS go to copier (e.g. --vcs-ref v1.0.0).
COPIER_ARGS ?=
new: tags
	$(PYTHON) hooks/new.py "$(SPEC)" "$(DEST)" $(COPIER_ARGS)

# Your model, before any spec (hooks/scan.py): which of its ops fall back to the CPU, by
# ExecuTorch's own partitioner checks (no SDK), and with SPEC_OUT a spec draft for them.
# MODEL is imported with the current folder first on sys.path.
MODEL ?=
INPUTS ?=
BACKEND ?= lpai
SPEC_OUT ?=
scan:
	$(PYTHON) hooks/scan.py --model "$(MODEL)" --example-inputs "$(INPUTS)" --backend "$(BACKEND)" $(if $(SPEC_OUT),--spec-out "$(SPEC_OUT)")

# The absolute template path is recorded in DEST/.copier-answers.yml, so that
# `copier update` works later (a relative path does not).
# The release tags first, so that copier names the version (a shallow clone lacks the
# release commits: then a warning, and the example renders all the same).
example: setup
	@$(PYTHON) scripts/tags.py >/dev/null || echo "make example: no release tags (above); copier names the version 0.0.0.post<N>"
	rm -rf "$(DEST)"
	$(PYTHON) -m copier copy --trust --defaults --vcs-ref HEAD --data-file "$(SPEC)" "$(CURDIR)" "$(DEST)"
	cd "$(DEST)" && $(PYTHON) -m pytest

# JOBS pytest workers (pytest-xdist; worksteal keeps both cores busy to the end).
JOBS ?= 2
test: setup
	$(PYTHON) -m pytest -n $(JOBS) --dist worksteal

# The template's own sources (the rendered projects are linted by tests/test_render.py).
lint: setup
	PYTHON=$(PYTHON) scripts/lint.sh

format: setup
	$(PYTHON) -m ruff check --fix .
	$(PYTHON) -m ruff format .

# The kernel benchmark (docs/benchmark.md): renders the example specs, builds every
# kernel against the host emulator, checks it against the per-element baseline (a
# custom op: against a recomputation with its user math from examples/<spec>.user/)
# and prints one BENCH line per (op, layout, shape). Needs valgrind.
.PHONY: bench
bench: setup
	$(PYTHON) bench/run.py
	$(PYTHON) bench/htp.py

# The golden renders (examples/golden/<example>/): a fresh render of each example spec,
# kept in the repository so that a pull request shows its effect on the generated code.
golden: setup
	$(PYTHON) tests/golden.py
