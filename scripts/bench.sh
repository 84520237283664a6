#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make bench`: every benchmark of the README's figures, one after the other (never two at once:
# they compare things side by side inside one run, and a second run beside them would skew it).
# Each prints its figures; the outputs are kept in BUILD/bench-results. Benchmarks that read the real
# traces in ../shared say so and are skipped where it is absent.
set -euo pipefail
build=${1:-build/release}
cd "$(dirname "$0")/.."
bench="$build/tests/bench"
results="$build/bench-results"
mkdir -p "$results"
shared=../shared/traces
# Loads are measured parsing, never mapped from a trace cache an earlier run left (io/trace_cache.h);
# the cache's own benchmark turns it on for itself.
export SUTRA_CACHE=0

run() {
  local name=$1
  shift
  printf '\n== %s\n$ %s\n' "$name" "$*"
  if "$@" | tee "$results/$name.txt"; then :; else echo "($name failed with status $?)"; fi
}

if [ ! -x "$bench/sutra-bench-load" ]; then
  echo "no benchmarks in $build (configure with -DSUTRA_BUILD_BENCH=ON)" >&2
  exit 2
fi
if [ -d "$shared" ]; then
  # Reader speed and peak memory beside a nlohmann DOM, at 64 MB and 200 MB of generated trace.
  run load-64mb "$bench/sutra-bench-load" --size-mb 64
  run load-200mb "$bench/sutra-bench-load" --size-mb 200
  run link "$bench/sutra-bench-link"
  run link-1gb "$bench/sutra-bench-link" --scale 48 --repeat 3
  run convert "$bench/sutra-bench-convert"
  run convert-1m-nodes "$bench/sutra-bench-convert" --scale 48
  run simulate-1m-nodes "$bench/sutra-bench-simulate"
  run analysis-1gb "$bench/sutra-bench-analysis"
  # The trace cache: the parse, the first open both ways (the parse into memory + the cache
  # written; the streaming load into the cache) and a reopen after each, side by side, on 880 MiB
  # (0.92 GB) of trace repeated from param linear.
  run cache-0.92gb "$bench/sutra-bench-load" --size-mb 880 --no-dom --cache
else
  echo "../shared/traces is absent: the reader, linker, converter, simulator and analysis"
  echo "benchmarks need its real traces and are skipped."
fi
if [ -x "$bench/sutra-bench-timeline" ]; then
  run timeline-10m "$bench/sutra-bench-timeline" --synthetic 10000000
  if [ -d "$shared" ]; then
    # 10.6 M real-derived events (2.75 GB repeated from param linear), opened as the window opens
    # them: through the trace cache (its own folder), then drawn at every zoom.
    scratch=$(mktemp -d)
    tools/bigtrace/make-big-trace.sh 2750 "$scratch/real-10m.json" "" "$build" >/dev/null
    SUTRA_CACHE=always SUTRA_CACHE_DIR="$scratch/cache" \
      run timeline-10m-real "$bench/sutra-bench-timeline" --cache "$scratch/real-10m.json"
    rm -rf "$scratch"
  fi
fi
echo
echo "results: $results"
