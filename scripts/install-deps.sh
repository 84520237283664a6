#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian packages Sutra needs to build, test and run. Idempotent: installs only what is
# missing. Needs root (or sudo); without either it prints the exact command to run.
# --fuzz adds clang and its libFuzzer runtime (for .ci/fuzz), needed by nothing else; --format
# installs only clang-format (for .ci/check-format).
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  qt6-base-dev qt6-svg-dev libqcustomplot-dev libgl1-mesa-dev
  libprotobuf-dev protobuf-compiler nlohmann-json3-dev libsimdjson-dev zlib1g-dev libyaml-cpp-dev libsqlite3-dev
  libxxhash-dev  # header-only use: the trace cache's checksums (core/io/trace_cache)
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-venv xvfb xauth
  iproute2  # ip netns and tc: the re-runs that judge the what-ifs shape their network (tools/rerun)
  debootstrap  # make wheel-check: the clean Debian root the wheel is installed into
  help2man dpkg-dev desktop-file-utils appstream shared-mime-info libglib2.0-bin
)
case "${1:-}" in
  --fuzz) packages+=(clang libclang-rt-14-dev) ;;
  --format) packages=(clang-format git) ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "sutra: installing missing packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO=(sudo)
else
  echo "sutra: not root and no password-less sudo. Run:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
