#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's main job: the GUI on the bundled sample; with no display, the headless equivalent.
set -euo pipefail
build=${1:-build/release}
cd "$(dirname "$0")/.."
sample=resources/samples
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$build/app/gui/sutra" "$sample"
fi
echo "sutra: no display (DISPLAY and WAYLAND_DISPLAY are unset): running the headless demo with sutra-cli."
echo
"$build/app/cli/sutra-cli" --help
