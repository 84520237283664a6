#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's main job: the GUI comparing the bundled RMSNorm recordings, the naive five ops against
# torch.compile's fused kernel (real CPU recordings, resources/samples). With no display it says so
# and runs the headless equivalent: the same jobs through sutra-cli, printed to the terminal.
set -euo pipefail
build=${1:-build/release}
cd "$(dirname "$0")/.."
samples=resources/samples
cli="$build/app/cli/sutra-cli"
gui="$build/app/gui/sutra"

naive=$samples/rmsnorm_naive
compiled=$samples/rmsnorm_compiled
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x "$gui" ]; then
  echo "sutra: comparing $naive with $compiled (recorded on the CPU with PyTorch 2.13: see SAMPLE.md)"
  exec "$gui" --compare "$naive" "$compiled"
fi

echo "sutra: no display (DISPLAY and WAYLAND_DISPLAY are unset), so the GUI cannot open."
echo "Running the headless demo instead: sutra-cli on the bundled samples (real CPU recordings, see SAMPLE.md)."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
step() { printf '\n$ %s\n' "$*"; "$@" || echo "(exit status $?)"; }
step "$cli" info "$naive"
step "$cli" link "$naive" -o "$out/linked"
step "$cli" convert "$naive" -o "$out/rmsnorm" --ranks 2
step "$cli" stats "$naive/rank0.kineto.json.gz" --sort self_cpu --limit 10
step "$cli" compare "$naive" "$compiled"
step "$cli" simulate "$naive"
step "$cli" critical-path "$naive/rank0.kineto.json.gz"
echo
echo "Done. With a display, 'make run' opens the same sample in the GUI."
