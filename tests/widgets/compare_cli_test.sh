#!/bin/sh
# SPDX-License-Identifier: MIT
# `sutra --compare A B [C]` opens the compare window straight away: with --screenshot it saves the
# window once the comparison is shown (exit 0); a wrong number of traces is refused (exit 2).
#   compare_cli_test.sh SUTRA SHARED_TRACES OUTDIR      (exit 77: ../shared is absent, skipped)
set -u
sutra=$1 traces=$2/hta/trace_compare out=$3
[ -f "$traces/base.json.gz" ] || { echo "skipped: $traces is absent"; exit 77; }
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }

rm -f "$out/compare3.png"
QT_QPA_PLATFORM=offscreen "$sutra" --compare --screenshot "$out/compare3.png" --size 1200x800 \
  "$traces/base.json.gz" "$traces/test.json.gz" "$traces/base.json.gz" || fail "three runs: exit $?"
[ -s "$out/compare3.png" ] || fail "three runs: no screenshot written"

QT_QPA_PLATFORM=offscreen "$sutra" --compare --screenshot "$out/compare2.png" \
  "$traces/base.json.gz" "$traces/test.json.gz" || fail "two runs: exit $?"
[ -s "$out/compare2.png" ] || fail "two runs: no screenshot written"

# Qt may add its own notes on stderr (XDG_RUNTIME_DIR); the message is the last line.
QT_QPA_PLATFORM=offscreen "$sutra" --compare "$traces/base.json.gz" 2>"$out/err"; rc=$?
msg=$(tail -n 1 "$out/err")
[ $rc -eq 2 ] || fail "one trace: exit $rc, wanted 2"
[ "$msg" = "sutra: --compare wants two or three traces, got 1" ] || fail "one trace: said '$msg'"

QT_QPA_PLATFORM=offscreen "$sutra" --compare --screenshot "$out/x.png" \
  "$traces/base.json.gz" /nonexistent/b.json 2>"$out/err"; rc=$?
msg=$(tail -n 1 "$out/err")
[ $rc -eq 2 ] || fail "missing file: exit $rc, wanted 2"
case $msg in /nonexistent/b.json*) ;; *) fail "missing file: said '$msg'";; esac
echo ok
