#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the Sutra Debian package with CPack in the release tree, then shows its control fields
# (Depends as dpkg-shlibdeps computed them) and its files.
# Usage: scripts/build-deb.sh [BUILD_DIR]      (default build/release, the tree of `make build`)
# Then:  sudo apt install ./BUILD_DIR/sutra_<version>_<arch>.deb
set -euo pipefail
build=${1:-build/release}
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
[ -f "$build/CMakeCache.txt" ] || cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$build" -j "$(nproc)"
(cd "$build" && cpack -G DEB)
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
deb="$build/sutra_${version}_$(dpkg --print-architecture).deb"
dpkg-deb --info "$deb"
dpkg-deb --contents "$deb"
echo
echo "sutra: built $deb; install it with:  sudo apt install ./$deb"
