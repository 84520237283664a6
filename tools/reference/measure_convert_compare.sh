#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue #21's two comparisons with reference tools at 100 MB, side by side:
#   convert: MLCommons Chakra's chakra_converter against `sutra-cli convert --linked` on one ~100 MB
#            ET+ file: Sutra's link of the param linear pair (the ET rewritten in the
#            1.0.2-chakra.0.0.4 layout the converter needs, upgrade_et.py), scaled by
#            tests/bench/scale_et.py (whole copies of the graph, ids shifted);
#   compare: HTA's TraceDiff.compare_traces (hta_trace_diff.py: every ProfilerStep, CPU ops and
#            kernels) against `sutra-cli compare A B --json` on two ~100 MB Kineto runs: the
#            rmsnorm_naive and rmsnorm_fused samples scaled by scale_kineto.py (3 long steps).
# Each repetition runs the reference and Sutra one right after the other; CPU = user + sys (wait4
# rusage of the process and its children), wall = elapsed. Then the outputs are checked against each
# other: nodes by name of the two .et files (et_names.py) and ASTRA-sim's rules (et_check.py);
# per-name call counts of the two comparisons (compare_agreement.py).
#
# Everything is built and written under $WORK (default /tmp/ref21), never in a repository. HTA is
# PyPI's HolisticTraceAnalysis, pinned in python/requirements.txt, run by build/venv's Python
# (`make venv`; HTA_PY overrides). MLCommons Chakra has no PyPI package: its converter runs from a
# bare clone of mlcommons/chakra under $MIRRORS/mlcommons+chakra/repo at the commit below, with
# Debian's python3-protobuf (installed with apt-get when missing, as root). The reference's code is
# not changed.
#
# Usage: measure_convert_compare.sh
#   env: SUTRA (the sutra-cli to measure), WORK, REPS (3), SIZE_MB (100), PHASES ("convert compare"),
#        SIDES ("ref sutra"; SIDES=sutra re-times Sutra alone against the reference's rows of an
#        earlier run in the same $WORK), SKIP_SETUP=1 (reuse $WORK/pkgs and the inputs)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=${WORK:-/tmp/ref21}
SUTRA=${SUTRA:-$ROOT/build/release/app/cli/sutra-cli}
TRACES=${TRACES:-$ROOT/../shared/traces}
MIRRORS=${MIRRORS:-/work/.mirror}
REPS=${REPS:-3}
SIZE_MB=${SIZE_MB:-100}
PHASES=${PHASES:-convert compare}
SIDES=${SIDES:-ref sutra}
PY=/usr/bin/python3
HTA_PY=${HTA_PY:-$ROOT/build/venv/bin/python}
CHAKRA_COMMIT=21585d8f2d65603d791d2121e3d4632351120262   # mlcommons/chakra (as measure_reference.sh)
D=$WORK/data; O=$WORK/out; P=$WORK/pkgs
RES=$WORK/results.jsonl

log() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }
has() { case " $1 " in *" $2 "*) return 0;; esac; return 1; }

setup() {
  if ! $PY -c "import google.protobuf" 2>/dev/null; then
    log "installing Debian's python3-protobuf"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-protobuf \
      >/dev/null || { echo "apt-get failed" >&2; exit 1; }
  fi
  "$HTA_PY" -c "import hta" 2>/dev/null || { echo "no HTA in $HTA_PY: run make venv" >&2; exit 2; }
  rm -rf "$WORK/src" "$P"
  mkdir -p "$WORK/src/chakra"
  git -C "$MIRRORS/mlcommons+chakra/repo" archive $CHAKRA_COMMIT | tar -x -C "$WORK/src/chakra" || exit 1
  # the package layout of chakra's pyproject.toml (chakra.src.*, chakra.schema.protobuf)
  mkdir -p $P/chakra/src $P/chakra/schema/protobuf
  touch $P/chakra/__init__.py $P/chakra/src/__init__.py $P/chakra/schema/__init__.py $P/chakra/schema/protobuf/__init__.py
  for d in converter trace_link third_party jsonizer; do ln -s "$WORK/src/chakra/src/$d" $P/chakra/src/$d; done
  cp "$WORK/src/chakra/schema/protobuf/et_def.proto" $P/chakra/schema/protobuf/
  (cd $P/chakra/schema/protobuf && protoc --python_out=. et_def.proto) || exit 1
}

inputs() {
  mkdir -p $D $O $D/naive $D/fused
  zcat $TRACES/param/linear_et.json.gz > $D/linear_et.json || exit 1
  zcat $TRACES/param/linear_kineto.json.gz > $D/linear_kineto.json || exit 1
  $PY "$HERE/upgrade_et.py" $D/linear_et.json $D/linear_et_c004.json || exit 1
  # the ET+ is made once, by the Sutra of this run (a later SIDES=sutra run keeps it)
  $SUTRA link --et $D/linear_et_c004.json --kineto $D/linear_kineto.json -o $D/linear_etplus.json --json \
    > $O/linear_link.json || exit 1
  $PY "$ROOT/tests/bench/scale_et.py" $D/linear_etplus.json $D/etplus.json --size-mb $SIZE_MB || exit 1
  local s=$ROOT/tests/data/synthetic_samples  # the GPU models: kernels on both sides
  $PY "$HERE/scale_kineto.py" $s/rmsnorm_naive/rank0.kineto.json.gz $D/naive/rank0.kineto.json --size-mb $SIZE_MB || exit 1
  $PY "$HERE/scale_kineto.py" $s/rmsnorm_fused/rank0.kineto.json.gz $D/fused/rank0.kineto.json --size-mb $SIZE_MB || exit 1
}

T() {  # T LABEL -- CMD...: run, time, append the JSON line to $RES; the log is $O/<label>.log
  local l=$1; shift
  $PY "$HERE/timed.py" "$l" "$O/$(echo -n "$l" | tr -c 'A-Za-z0-9._-' '_').log" "$@" | tee -a $RES
}

convert() {
  local r
  for r in $(seq 1 $REPS); do
    if has "$SIDES" ref; then
      rm -f $O/ref.et
      PYTHONPATH=$P T "convert|ref|$r" -- $PY -m chakra.src.converter.converter \
        --log-filename $O/ref.debug.log PyTorch --input $D/etplus.json --output $O/ref.et
    fi
    if has "$SIDES" sutra; then
      rm -f $O/sutra.0.et
      T "convert|sutra|$r" -- $SUTRA convert --linked $D/etplus.json -o $O/sutra --json
    fi
  done
  # the outputs: Sutra without its gap nodes (--no-gaps: Chakra's converter's durations) node by node
  # against the reference's file, and ASTRA-sim's rules on each
  $SUTRA convert --linked $D/etplus.json -o $O/sutra_nogaps --no-gaps > /dev/null || exit 1
  echo "{\"label\":\"check|convert|names\",\"check\":$(PYTHONPATH=$P $PY $HERE/et_names.py $O/ref.et $O/sutra_nogaps.0.et)}" >> $RES
  mkdir -p $O/check
  ln -sf ../ref.et $O/check/ref.0.et; ln -sf ../sutra.0.et $O/check/sutra.0.et
  local e
  for e in ref sutra; do
    echo "{\"label\":\"check|convert|et_check $e\",\"check\":$($PY $TRACES/../tools/et_check.py $O/check/$e 1 2>&1 |
      $PY -c 'import json,sys; print(json.dumps(sys.stdin.read().strip()))')}" >> $RES
  done
}

compare() {
  local r
  for r in $(seq 1 $REPS); do
    if has "$SIDES" ref; then
      T "compare|ref|$r" -- "$HTA_PY" "$HERE/hta_trace_diff.py" $D/naive $D/fused $O/hta.csv
    fi
    if has "$SIDES" sutra; then
      T "compare|sutra|$r" -- $SUTRA compare $D/naive/rank0.kineto.json $D/fused/rank0.kineto.json --json
    fi
  done
  $SUTRA compare $D/naive/rank0.kineto.json $D/fused/rank0.kineto.json --json > $O/sutra_compare.json || exit 1
  echo "{\"label\":\"check|compare|counts\",\"check\":$($PY $HERE/compare_agreement.py $O/sutra_compare.json $O/hta.csv)}" >> $RES
}

[ -x "$SUTRA" ] || { echo "no sutra-cli at $SUTRA" >&2; exit 2; }
mkdir -p $WORK
if [ "${SKIP_SETUP:-0}" != 1 ]; then
  log "setup"; setup
  log "inputs"; inputs
fi
touch $RES
if has "$SIDES" ref; then : > $RES; else sed -i '/"label": "[a-z]*|sutra|/d; /"label":"check|/d' $RES; fi
has "$PHASES" convert && { log "convert (${SIZE_MB} MB ET+)"; convert; }
has "$PHASES" compare && { log "compare (two ${SIZE_MB} MB Kineto runs)"; compare; }
log "table"
$PY "$HERE/table21.py" $RES
