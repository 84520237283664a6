#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Screenshots of the sutra window on a real trace, under Xvfb (no display needed):
#   scripts/screenshot.sh [BUILD_DIR] [TRACE] [OUT.png] [SEARCH] [THEME] [SUTRA_OPTION...]
# Defaults: build, ../shared/traces/param/linear_kineto.json.gz, docs/screenshot-main.png,
# "aten::addmm" (the first match is selected, so its flows, details and chain show; "" for none),
# "system" (--theme: light, dark or system). The dark README screenshot:
#   scripts/screenshot.sh build resources/samples/transformer_two_streams docs/screenshot-dark.png aten::linear dark
# The Advice one (the window opened on the top finding, saved once its projection is shown):
#   scripts/screenshot.sh build/release resources/samples/allreduce_2ranks docs/screenshot-advice.png "" system --advice
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build}"
trace="${2:-$here/../shared/traces/param/linear_kineto.json.gz}"
out="${3:-$here/docs/screenshot-main.png}"
search="${4:-aten::addmm}"
theme="${5:-system}"
extra=("${@:6}")
sutra="$build/app/gui/sutra"
[[ -x "$sutra" ]] || { echo "screenshot.sh: $sutra is not built" >&2; exit 2; }
[[ -e "$trace" ]] || { echo "screenshot.sh: $trace: no such file" >&2; exit 2; }
command -v xvfb-run >/dev/null || { echo "screenshot.sh: xvfb-run is not installed (apt-get install xvfb)" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
# A fresh settings directory: no remembered window layout from the user's own sessions.
settings="$(mktemp -d)"
trap 'rm -rf "$settings"' EXIT
XDG_CONFIG_HOME="$settings" QT_QPA_PLATFORM=xcb timeout 120 \
  xvfb-run -a -s "-screen 0 1700x1100x24" \
  "$sutra" --theme "$theme" --screenshot "$out" --size 1600x1000 --search "$search" "${extra[@]}" "$trace"
# Shrink the PNG where optipng is around (the committed screenshot stays small).
if command -v optipng >/dev/null; then optipng -quiet -o2 "$out"; fi
echo "$out"
