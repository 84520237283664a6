#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README screenshot of Analysis > Advice, under Xvfb (no display needed):
#   scripts/screenshot-advice.sh [BUILD_DIR] [RUN] [OUT.png]
# Defaults: build/release, resources/samples/allreduce_2ranks (the gloo recording: its straggler,
# priced), docs/screenshot-advice.png. The window opens on the top finding and is saved once its
# fix's projection is shown (sutra --advice).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build/release}"
run="${2:-$here/resources/samples/allreduce_2ranks}"
out="${3:-$here/docs/screenshot-advice.png}"
sutra="$build/app/gui/sutra"
[[ -x "$sutra" ]] || { echo "screenshot-advice.sh: $sutra is not built" >&2; exit 2; }
[[ -e "$run" ]] || { echo "screenshot-advice.sh: $run: no such file" >&2; exit 2; }
command -v xvfb-run >/dev/null || { echo "screenshot-advice.sh: xvfb-run is not installed (apt-get install xvfb)" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
settings="$(mktemp -d)"
trap 'rm -rf "$settings"' EXIT
XDG_CONFIG_HOME="$settings" QT_QPA_PLATFORM=xcb timeout 180 \
  xvfb-run -a -s "-screen 0 1700x1100x24" "$sutra" --advice --screenshot "$out" "$run"
if command -v optipng >/dev/null; then optipng -quiet -o2 "$out"; fi
echo "$out"
