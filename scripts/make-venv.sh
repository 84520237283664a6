#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Makes the virtual environment of Sutra's Python tools and tests (`make venv`) and installs the
# pinned python/requirements.txt into it. Idempotent; a half-made environment is removed so that
# the next run starts clean.
set -euo pipefail
venv=${1:-build/venv}
python=${2:-python3}
cd "$(dirname "$0")/.."
if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
  echo "sutra: $python cannot make virtual environments (Debian: apt-get install python3-venv)" >&2
  exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
  echo "sutra: making the Python environment $venv"
  "$python" -m venv "$venv" || { rm -rf "$venv"; exit 1; }
fi
echo "sutra: installing python/requirements.txt into $venv"
if ! "$venv/bin/python" -m pip install -q --disable-pip-version-check -r python/requirements.txt; then
  echo "sutra: pip could not install python/requirements.txt into $venv" >&2
  exit 1
fi
