#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's main job: the GUI on the bundled RMSNorm sample. With no display it says so and runs
# the headless equivalent: the same jobs through sutra-cli, printed to the terminal.
set -euo pipefail
build=${1:-build/release}
cd "$(dirname "$0")/.."
samples=resources/samples
cli="$build/app/cli/sutra-cli"
gui="$build/app/gui/sutra"

if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x "$gui" ]; then
  echo "sutra: opening $samples/rmsnorm_naive (a synthetic sample: see its SAMPLE.md)"
  exec "$gui" "$samples/rmsnorm_naive"
fi

echo "sutra: no display (DISPLAY and WAYLAND_DISPLAY are unset), so the GUI cannot open."
echo "Running the headless demo instead: sutra-cli on the bundled samples (synthetic, see SAMPLE.md)."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
step() { printf '\n$ %s\n' "$*"; "$@" || echo "(exit status $?)"; }
naive=$samples/rmsnorm_naive/rank0.kineto.json.gz
fused=$samples/rmsnorm_fused/rank0.kineto.json.gz
step "$cli" info "$samples/rmsnorm_naive"
step "$cli" link "$samples/rmsnorm_naive" -o "$out/linked"
step "$cli" convert "$samples/rmsnorm_naive" -o "$out/rmsnorm" --ranks 2
step "$cli" stats "$naive" --sort self_device --limit 10
step "$cli" compare "$naive" "$fused"
step "$cli" simulate "$naive"
step "$cli" critical-path "$naive"
echo
echo "Done. With a display, 'make run' opens the same sample in the GUI."
