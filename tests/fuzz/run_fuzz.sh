#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run_fuzz.sh TARGET SECONDS SEED_DIR...: runs a libFuzzer target for a bounded time. New inputs go
# to a fresh temporary corpus (libFuzzer writes into its first directory only), never to the seeds.
# A crash, leak, timeout or out-of-memory fails the run; libFuzzer writes the input that caused it
# to $SUTRA_FUZZ_ARTIFACTS (default: the temporary directory, kept and printed on failure): add it to
# tests/fuzz/corpus/<target>/ with the fix, as a regression test.
# The seed is fixed (SUTRA_FUZZ_SEED, default 1) so that CI explores the same inputs on every run and
# a failure there reproduces here; SUTRA_FUZZ_SEED=0 lets libFuzzer pick one, for exploring longer.
set -euo pipefail
target=$1
seconds=$2
shift 2
work=$(mktemp -d)
artifacts=${SUTRA_FUZZ_ARTIFACTS:-$work/artifacts}
mkdir -p "$work/corpus" "$artifacts"
status=0
"$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -seed="${SUTRA_FUZZ_SEED:-1}" -print_final_stats=1 -artifact_prefix="$artifacts/" "$work/corpus" "$@" || status=$?
if [ "$status" -ne 0 ]; then
  echo "fuzz: $(basename "$target") failed; inputs that failed are in $artifacts" >&2
  exit "$status"
fi
rm -rf "$work"
