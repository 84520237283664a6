#!/bin/sh
# SPDX-License-Identifier: MIT
# Renders the README screenshots of the compare view and the simulation view under Xvfb:
#   scripts/screenshot-compare.sh [BUILD_DIR]   (default: build)
# Writes docs/screenshot-compare.png from the synthetic naive and fused RMSNorm models and
# docs/screenshot-simulation.png from HTA's trace_compare base trace in ../shared/traces.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
traces=$root/../shared/traces/hta/trace_compare
tool=$build/tests/widgets/sutra-widget-screenshots
[ -x "$tool" ] || { echo "screenshot-compare.sh: build $tool first (cmake --build $build --target sutra-widget-screenshots)" >&2; exit 2; }
[ -f "$traces/base.json.gz" ] || { echo "screenshot-compare.sh: $traces/base.json.gz is absent" >&2; exit 2; }
mkdir -p "$root/docs"
samples=$root/tests/data/synthetic_samples  # the GPU models: kernels on both sides
xvfb-run -a -s "-screen 0 1920x1200x24" "$tool" "$root/docs" "$samples/rmsnorm_naive" \
  "$samples/rmsnorm_fused" system "$traces/base.json.gz"
echo "wrote $root/docs/screenshot-compare.png and $root/docs/screenshot-simulation.png"
