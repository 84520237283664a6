# SPDX-License-Identifier: MIT
# The two set-up commands of the README: `make run` and `make test`.
BUILD ?= build/release
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
# Line tables only (-g1): backtraces keep file and line, and the build takes a third less time than
# with full debug info. Configure with cmake directly for full -g.
RELWITHDEBINFO_FLAGS ?= -O2 -g1 -DNDEBUG
# The Python tools and tests (torch, HTA, pytest ...) live in a virtual environment of their own,
# installed from the one pinned requirements file; the stamp makes `make` reinstall when it changes.
VENV ?= build/venv
PYTHON ?= python3

.PHONY: deps venv build python-package run test pytest wheel wheel-check bench deb clean

deps:
	@./scripts/install-deps.sh

$(VENV)/.installed: python/requirements.txt
	./scripts/make-venv.sh $(VENV) $(PYTHON)
	touch $@

venv: deps $(VENV)/.installed

$(BUILD)/build.ninja: CMakeLists.txt
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$(RELWITHDEBINFO_FLAGS)" $(CMAKE_FLAGS)

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

run: build
	@./scripts/run-demo.sh $(BUILD)

# CTest's own options for `make test`: none, each test once. CI (.ci/run) adds a random order and
# three runs of each test (CTEST_FLAGS="--schedule-random --repeat until-fail:3"), so that a test
# that leans on another's files, or on its timing, fails there before it fails for a user.
CTEST_FLAGS ?=

# CTest, then pytest even where CTest failed (one run says all that fails), each followed by its
# skips by reason (scripts/ctest_skips.py, tests/python/conftest.py): a test may skip only where
# ../shared is absent or a GPU is missing, and under CI (CI=true) any other skip fails.
test: build venv
	@status=0; \
	(cd $(BUILD) && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j $(JOBS) \
	  --output-junit $(abspath $(BUILD))/ctest-junit.xml $(CTEST_FLAGS)) || status=1; \
	$(VENV)/bin/python scripts/ctest_skips.py $(BUILD)/ctest-junit.xml ../shared/traces || status=1; \
	$(MAKE) --no-print-directory pytest || status=1; \
	exit $$status

# The Python package (python/, `import sutra`): its extension module built in the same build tree
# as core (no second build of core), with the venv's Python and nanobind; the package lands in
# $(BUILD)/python/sutra.
python-package: venv $(BUILD)/build.ninja
	cmake -S . -B $(BUILD) -DSUTRA_BUILD_PYTHON=ON -DPython_EXECUTABLE=$(abspath $(VENV))/bin/python >/dev/null
	cmake --build $(BUILD) --target sutra_python -j $(JOBS)

# The Python tests: the live oracles (a fresh torch recording judged against torch's own numbers,
# HTA on the real traces), the tools, and the package's own tests (python/tests). They use the
# build's sutra-cli and its sutra package.
pytest: venv python-package
	SUTRA_BUILD=$(BUILD) PYTHONPATH=$(abspath $(BUILD))/python $(VENV)/bin/python -m pytest \
	  -c tests/python/pytest.ini --rootdir=. tests/python python/tests

# The wheels users install (scripts/build-wheel.sh): scikit-build-core's build of python/, its
# third-party libraries copied in by auditwheel and tagged manylinux; they land in build/wheel/.
# One wheel for CPython 3.11, one stable-ABI wheel for 3.12 and later; an interpreter that is not
# installed is passed over (with pyenv: PYENV_VERSION=3.11.7:3.12.1 make wheel).
WHEEL_PYTHONS ?= python3.11 python3.12
wheel: deps
	CMAKE_BUILD_PARALLEL_LEVEL=$(JOBS) ./scripts/build-wheel.sh build/wheel $(WHEEL_PYTHONS)

# The wheel installed and imported in a Debian root made for the test by debootstrap, with no
# compiler and no -dev package (tests/packaging), its answers compared with the build tree's module.
# Not part of `make test`: it needs root, and its first run makes the roots (about 4 minutes each;
# kept in build/clean-root/).
wheel-check: wheel python-package
	SUTRA_BUILD=$(BUILD) $(VENV)/bin/python -m pytest -c tests/python/pytest.ini --rootdir=. -s tests/packaging

bench: build
	./scripts/bench.sh $(BUILD)

deb:
	./scripts/build-deb.sh $(BUILD)

clean:
	rm -rf build
