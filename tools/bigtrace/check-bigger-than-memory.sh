#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One trace bigger than the memory it may use, end to end: a real-derived Kineto trace of SIZE_MB
# (default 12288: 12.9 GB, 47 M events) opened inside a memory cgroup of LIMIT_MB (default 2048),
# as on a laptop whose memory is smaller than the file. In turn, each in a fresh cgroup and with
# the page cache dropped first: the first open (the streaming load into the trace cache), a reopen
# (sutra-cli info), the operator table (sutra-cli stats), a GROUP BY over every slice (sutra-cli
# query), the timeline's frames (sutra-bench-timeline --cache), Python's sutra.open and events(),
# and the window (a screenshot once loaded, beside SCRATCH_DIR). Prints each one's time and the cgroup's peak;
# removes the trace and its cache at the end. Needs root (cgroups, drop_caches) and about 2.2x SIZE_MB of free disk.
#   tools/bigtrace/check-bigger-than-memory.sh [SIZE_MB] [LIMIT_MB] [SCRATCH_DIR] [BUILD_DIR]
set -euo pipefail
size_mb=${1:-12288}
limit_mb=${2:-2048}
here="$(cd "$(dirname "$0")/../.." && pwd)"
scratch=${3:-$here/build/bigger-than-memory}
build=$(cd "${4:-$here/build/release}" && pwd)
[ "$(id -u)" = 0 ] || { echo "$0: needs root (a memory cgroup, drop_caches)" >&2; exit 2; }
mkdir -p "$scratch"
trace="$scratch/trace.json"
export SUTRA_CACHE_DIR="$scratch/cache" SUTRA_CACHE=always QT_QPA_PLATFORM=offscreen
trap 'rm -rf "$scratch"' EXIT

# A fresh cgroup (v2 where mounted so, else v1's memory controller) holding the command.
limited() {
  local name="sutra-check-$$-$RANDOM" dir
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    dir=/sys/fs/cgroup/$name
    mkdir "$dir"
    echo $((limit_mb << 20)) >"$dir/memory.max"
    echo 0 >"$dir/memory.swap.max" 2>/dev/null || true
  else
    dir=/sys/fs/cgroup/memory/$name
    mkdir "$dir"
    echo $((limit_mb << 20)) >"$dir/memory.limit_in_bytes"
  fi
  sync
  echo 3 >/proc/sys/vm/drop_caches
  local start status=0
  start=$(date +%s.%N)
  (echo $BASHPID >"$dir/cgroup.procs" && exec "$@") || status=$?
  local peak
  peak=$(cat "$dir/memory.peak" 2>/dev/null || cat "$dir/memory.max_usage_in_bytes")
  # To stderr: a step's output may be filtered (grep) or dropped, its time and peak never.
  printf '   %.1f s, cgroup peak %d MB, exit %d\n' "$(echo "$(date +%s.%N) - $start" | bc)" \
    $((peak >> 20)) "$status" >&2
  rmdir "$dir" 2>/dev/null || true
}

echo "== generating $size_mb MiB of real-derived trace in $scratch"
"$here/tools/bigtrace/make-big-trace.sh" "$size_mb" "$trace" "" "$build" >/dev/null
ls -l "$trace"
echo "== first open: the streaming load into the cache (sutra-cli info)"
limited "$build/app/cli/sutra-cli" info "$trace" | grep -E "events|problems" || true
du -sh "$SUTRA_CACHE_DIR"
echo "== reopen from the cache (sutra-cli info)"
limited "$build/app/cli/sutra-cli" info "$trace" >/dev/null
echo "== the operator table (sutra-cli stats --limit 5)"
limited "$build/app/cli/sutra-cli" stats "$trace" --limit 5
echo "== a GROUP BY over every slice (sutra-cli query)"
limited "$build/app/cli/sutra-cli" query "$trace" \
  "SELECT category, count(*) AS n, sum(dur) AS total_ns FROM slice GROUP BY category ORDER BY n DESC"
echo "== the timeline: open, layout, first frame, 20 frames (sutra-bench-timeline --cache)"
limited "$build/tests/bench/sutra-bench-timeline" --cache "$trace"
echo "== Python: sutra.open (up to the operator table), then events() and a sum over it"
limited env PYTHONPATH="$build/python" "$here/build/venv/bin/python" -c \
  "import sutra; r = sutra.open('$trace', progress=False); print(r, len(r.op_table()), 'op rows')
e = r.events(); print(len(e), 'events,', int(e['dur_ns'].sum()), 'ns in all')"
if command -v Xvfb >/dev/null; then
  shot="$(dirname "$scratch")/bigger-than-memory.png"
  echo "== the window, a screenshot once loaded ($shot)"
  Xvfb :93 -screen 0 1600x1000x24 >/dev/null 2>&1 &
  xvfb=$!
  sleep 1
  DISPLAY=:93 QT_QPA_PLATFORM=xcb limited "$build/app/gui/sutra" --screenshot "$shot" "$trace"
  kill $xvfb
fi
