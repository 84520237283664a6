#!/bin/sh
# SPDX-License-Identifier: MIT
# Renders the screenshots of the step breakdown, the flame graph and the critical-path overlay
# under Xvfb:
#   scripts/screenshot-views.sh [BUILD_DIR] [TRACE] [STEP]
# (default: build, param's linear_kineto trace in ../shared/traces, its second step). Writes
# docs/screenshot-breakdown.png, docs/screenshot-flame-graph.png, docs/screenshot-critical-path.png.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
trace=${2:-$root/../shared/traces/param/linear_kineto.json.gz}
tool=$build/tests/widgets/sutra-views-screenshots
[ -x "$tool" ] || { echo "screenshot-views.sh: build $tool first (cmake --build $build --target sutra-views-screenshots)" >&2; exit 2; }
[ -f "$trace" ] || { echo "screenshot-views.sh: $trace is absent" >&2; exit 2; }
mkdir -p "$root/docs"
if [ $# -ge 3 ]; then
  xvfb-run -a -s "-screen 0 1920x1200x24" "$tool" "$root/docs" "$trace" "$3"
else
  xvfb-run -a -s "-screen 0 1920x1200x24" "$tool" "$root/docs" "$trace"
fi
echo "wrote $root/docs/screenshot-breakdown.png, screenshot-flame-graph.png and screenshot-critical-path.png"
