#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A big real-derived Kineto trace: a real trace (default ../shared/traces/param/linear_kineto.json.gz)
# repeated until the file reaches SIZE_MB MiB, each copy shifted after the previous one in time and
# given fresh flow ids, correlations and External ids, metadata written once. One event a line,
# written as it goes (memory stays small whatever the size). The generator is sutra-bench-load's, so
# the benchmarks and a file made here are the same trace.
#   tools/bigtrace/make-big-trace.sh SIZE_MB OUT.json [SOURCE] [BUILD_DIR]
# Write OUT under /tmp (or another scratch disk): a generated trace is never committed.
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '3,9p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
size_mb=$1
out=$2
here="$(cd "$(dirname "$0")/../.." && pwd)"
source_trace=${3:-$here/../shared/traces/param/linear_kineto.json.gz}
build=${4:-$here/build/release}
exec "$build/tests/bench/sutra-bench-load" --size-mb "$size_mb" --source "$source_trace" \
  --out "$out" --generate-only
