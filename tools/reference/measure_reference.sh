#!/bin/bash
# SPDX-License-Identifier: MIT
# Measure MLCommons Chakra's reference tools (chakra_trace_link, chakra_converter) side by side with
# sutra-cli link / convert on the real trace pairs of ../shared/traces and on a scaled pair.
#
# Everything is built under $WORK (default /tmp/ref), never in a repository. Needs root for apt-get (only
# when the Debian packages are missing) and bare clones of mlcommons/chakra, facebookresearch/param and
# facebookresearch/HolisticTraceAnalysis under $MIRRORS/<owner>+<name>/repo (the commits below).
# The README's "Compared with Chakra's reference tools" gives the figures of its last run.
# The reference's code is not patched and no module is stubbed. What is changed is the INPUT, and only
# where the reference rejects the real pair as it is (phase 1 records that):
#   - the Kineto trace gets ProfilerStep#j annotations (the reference crashes without a ProfilerStep);
#   - its cpu_ops get args["Record function id"] = the rf_id of the ET node Sutra aligned them with (the
#     reference matches only by rf_id and links zero ops without it);
#   - the ET (schema 1.0.1, flat layout) is rewritten in the 1.0.2-chakra.0.0.4 layout (chakra_converter
#     rejects 1.0.1). Sutra gets exactly the same files in phase 2.
# Every measurement runs the reference and Sutra one right after the other, REPS times; CPU = user+sys
# (wait4 rusage of the process and its children), wall = elapsed.
#
# Usage: measure_reference.sh   (env: WORK, SUTRA, REPS, REF_SCALES, REF_SCALED_REPS, SUTRA_SCALES,
#                                SUTRA_SCALED_REPS, PAIRS, PHASES, SKIP_SETUP)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${WORK:-/tmp/ref}
ROOT=$(cd "$HERE/../.." && pwd)
SUTRA=${SUTRA:-$ROOT/build/release/app/cli/sutra-cli}
TRACES=${TRACES:-$ROOT/../shared/traces}
REPS=${REPS:-3}
REF_SCALES=${REF_SCALES:-2}          # copies of the linear Kineto trace the reference links (it is quadratic)
SUTRA_SCALES=${SUTRA_SCALES:-2 55}   # 55 copies of the linear Kineto trace = about 1 GB of JSON
PY=/usr/bin/python3
MIRRORS=${MIRRORS:-/work/.mirror}
CHAKRA_COMMIT=21585d8f2d65603d791d2121e3d4632351120262   # mlcommons/chakra HEAD of the mirror
PARAM_COMMIT=1e115ffc62c6d048405d9b963191736c13811b1d    # facebookresearch/param (et_replay)
HTA_COMMIT=d731cc2e2249976c97129d409a83bd53d93051f6      # HTA commit pinned by chakra's pyproject.toml
HTA_HEAD=f4d0062c382f42bd8a74838bcdad1916c7d5d2da        # HTA HEAD of the mirror (phase 1 only)
RES=$WORK/results.jsonl
D=$WORK/data; O=$WORK/out

log() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }

# ---------------------------------------------------------------- setup
setup() {
  if ! $PY -c "import pandas, numpy, google.protobuf, plotly, networkx, pydot, ijson, yaml, psutil" 2>/dev/null; then
    log "installing Debian packages (python3-pandas ...)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-pandas python3-numpy \
      python3-protobuf python3-plotly python3-networkx python3-pydot python3-graphviz python3-ijson \
      python3-yaml python3-psutil >/dev/null || { echo "apt-get failed" >&2; exit 1; }
  fi
  rm -rf "$WORK/src" "$WORK/pkgs" "$WORK/pkgs_head"
  mkdir -p "$WORK/src"/{chakra,param,hta,hta_head}
  git -C "$MIRRORS/mlcommons+chakra/repo" archive $CHAKRA_COMMIT | tar -x -C "$WORK/src/chakra" || exit 1
  git -C "$MIRRORS/facebookresearch+param/repo" archive $PARAM_COMMIT et_replay | tar -x -C "$WORK/src/param" || exit 1
  # only the hta/ package: a notebook blob elsewhere in HTA's history is missing from the mirror
  git -C "$MIRRORS/facebookresearch+HolisticTraceAnalysis/repo" archive $HTA_COMMIT hta | tar -x -C "$WORK/src/hta" || exit 1
  git -C "$MIRRORS/facebookresearch+HolisticTraceAnalysis/repo" archive $HTA_HEAD hta | tar -x -C "$WORK/src/hta_head" || exit 1
  # the package layout of chakra's pyproject.toml (chakra.src.*, chakra.schema.protobuf)
  local P=$WORK/pkgs
  mkdir -p $P/chakra/src $P/chakra/schema/protobuf
  touch $P/chakra/__init__.py $P/chakra/src/__init__.py $P/chakra/schema/__init__.py $P/chakra/schema/protobuf/__init__.py
  for d in converter trace_link third_party jsonizer; do ln -s "$WORK/src/chakra/src/$d" $P/chakra/src/$d; done
  cp "$WORK/src/chakra/schema/protobuf/et_def.proto" $P/chakra/schema/protobuf/
  (cd $P/chakra/schema/protobuf && protoc --python_out=. et_def.proto) || exit 1
  ln -s "$WORK/src/param/et_replay" $P/et_replay
  ln -s "$WORK/src/hta/hta" $P/hta
  mkdir -p "$WORK/pkgs_head"
  ln -s $P/chakra "$WORK/pkgs_head/chakra"; ln -s "$WORK/src/param/et_replay" "$WORK/pkgs_head/et_replay"
  ln -s "$WORK/src/hta_head/hta" "$WORK/pkgs_head/hta"
}

# ---------------------------------------------------------------- inputs
inputs() {
  mkdir -p $D $O
  for p in param/linear hta/execution_trace/simple_add; do
    b=$(basename $p)
    zcat $TRACES/${p}_et.json.gz > $D/${b}_et.json
    zcat $TRACES/${p}_kineto.json.gz > $D/${b}_kineto.json
    $PY "$HERE/upgrade_et.py" $D/${b}_et.json $D/${b}_et_c004.json || exit 1
    # Sutra's alignment (the real pair as it is) gives the rf_id of the Kineto op of every ET node
    $SUTRA link --et $D/${b}_et.json --kineto $D/${b}_kineto.json -o $O/${b}_align_etplus.json --json > $O/${b}_align.json || exit 1
    $PY "$HERE/make_variant.py" $D/${b}_kineto.json $D/${b}_kineto_steps.json --steps 2>>$O/variants.log || exit 1
    $PY "$HERE/make_variant.py" $D/${b}_kineto.json $D/${b}_kineto_x1.json --steps --rfid $O/${b}_align_etplus.json 2>>$O/variants.log || exit 1
  done
}

scaled() {  # scaled linear Kineto trace with K copies
  local k=$1
  [ -s $D/linear_kineto_x$k.json ] || $PY "$HERE/make_variant.py" $D/linear_kineto.json $D/linear_kineto_x$k.json \
      --steps --rfid $O/linear_align_etplus.json --copies $k 2>>$O/variants.log || exit 1
}

T() {  # T LABEL -- CMD...: run, time, append the JSON line to $RES; the log is $O/<label>.log
  local l=$1; shift
  $PY "$HERE/timed.py" "$l" "$O/$(echo -n "$l" | tr -c 'A-Za-z0-9._-' '_').log" "$@" | tee -a $RES
}
reflink() {  # reflink LABEL PKGS ET KINETO OUT
  PYTHONPATH=$2 T "$1" -- $PY -m chakra.src.trace_link.trace_link --rank 0 \
    --chakra-host-trace "$3" --chakra-device-trace "$4" --output-file "$5"
}
refconv() {  # refconv LABEL ETPLUS OUT.et
  PYTHONPATH=$WORK/pkgs T "$1" -- $PY -m chakra.src.converter.converter \
    --log-filename "$3.debug.log" PyTorch --input "$2" --output "$3"
}
facts_etplus() {  # facts_etplus LABEL FILE: counts of the ET+ just written
  local j; [ -s "$2" ] && j=$($PY $HERE/count_etplus.py "$2") && echo "{\"label\":\"$1\",\"etplus\":$j}" >> $RES
}
facts_et() {
  local j; [ -s "$2" ] && j=$(PYTHONPATH=$WORK/pkgs $PY $HERE/count_et.py "$2") && echo "{\"label\":\"$1\",\"et\":$j}" >> $RES
}

# ---------------------------------------------------------------- phase 1: the real pairs as they are
PAIRS=${PAIRS:-simple_add linear}   # PAIRS=simple_add: a quick smoke run without the linear pair
phase1() {
  for b in $PAIRS; do
    for v in pkgs pkgs_head; do
      reflink "asis|$b|ref-link[$v]|0" $WORK/$v $D/${b}_et.json $D/${b}_kineto.json $O/asis_${b}_$v.json
      facts_etplus "asis|$b|ref-link[$v]|0" $O/asis_${b}_$v.json
    done
    # ProfilerStep added, no Record function id: runs, links nothing
    reflink "steps-only|$b|ref-link|0" $WORK/pkgs $D/${b}_et.json $D/${b}_kineto_steps.json $O/stepsonly_${b}.json
    facts_etplus "steps-only|$b|ref-link|0" $O/stepsonly_${b}.json
    # chakra_converter on an ET+ of the schema-1.0.1 ET (Sutra's, as the reference cannot make one)
    refconv "asis|$b|ref-convert|0" $O/${b}_align_etplus.json $O/asis_${b}_conv.et
  done
}

# ---------------------------------------------------------------- phase 2: timings side by side
pair() {  # pair NAME ET KINETO REPS REF_REPS (the reference runs in the first REF_REPS repetitions)
  local n=$1 et=$2 ki=$3 reps=$4 refreps=$5 r
  local f=$O/$(echo -n "$n" | tr -c 'A-Za-z0-9._-' '_')
  for r in $(seq 1 $reps); do
    rm -f ${f}_ref_etplus.json ${f}_ref.et ${f}_sutra_etplus.json ${f}_sutra.0.et
    if [ $r -le $refreps ]; then
      reflink "$n|ref-link|$r" $WORK/pkgs $et $ki ${f}_ref_etplus.json
      facts_etplus "$n|ref-link|$r" ${f}_ref_etplus.json
    fi
    T "$n|sutra-link|$r" -- $SUTRA link --et $et --kineto $ki -o ${f}_sutra_etplus.json --json
    facts_etplus "$n|sutra-link|$r" ${f}_sutra_etplus.json
    if [ $r -le $refreps ]; then
      refconv "$n|ref-convert|$r" ${f}_ref_etplus.json ${f}_ref.et
      facts_et "$n|ref-convert|$r" ${f}_ref.et
    fi
    T "$n|sutra-convert|$r" -- $SUTRA convert --et $et --kineto $ki -o ${f}_sutra --json
    facts_et "$n|sutra-convert|$r" ${f}_sutra.0.et
  done
}

phase2() {
  # Sutra on the real pairs as they are (alignment; the reference cannot run them)
  for b in $PAIRS; do
    for r in $(seq 1 $REPS); do
      rm -f $O/${b}_real_sutra_etplus.json $O/${b}_real_sutra.0.et
      T "$b (real pair as is)|sutra-link|$r" -- $SUTRA link --et $D/${b}_et.json --kineto $D/${b}_kineto.json -o $O/${b}_real_sutra_etplus.json --json
      facts_etplus "$b (real pair as is)|sutra-link|$r" $O/${b}_real_sutra_etplus.json
      T "$b (real pair as is)|sutra-convert|$r" -- $SUTRA convert --et $D/${b}_et.json --kineto $D/${b}_kineto.json -o $O/${b}_real_sutra --json
      facts_et "$b (real pair as is)|sutra-convert|$r" $O/${b}_real_sutra.0.et
    done
  done
  pair "simple_add x1" $D/simple_add_et_c004.json $D/simple_add_kineto_x1.json $REPS $REPS
  case " $PAIRS " in *" linear "*) ;; *) return;; esac
  pair "linear x1" $D/linear_et_c004.json $D/linear_kineto_x1.json $REPS $REPS
  for k in $REF_SCALES; do scaled $k; pair "linear x$k" $D/linear_et_c004.json $D/linear_kineto_x$k.json $REPS ${REF_SCALED_REPS:-1}; done
  for k in $SUTRA_SCALES; do
    case " $REF_SCALES " in *" $k "*) continue;; esac
    scaled $k; pair "linear x$k" $D/linear_et_c004.json $D/linear_kineto_x$k.json ${SUTRA_SCALED_REPS:-2} 0
  done
}

# ---------------------------------------------------------------- phase 3: the outputs
phase3() {
  # chakra_converter reads Sutra's ET+ (same 1.0.2-chakra ET layout); et_check.py (ASTRA-sim's rules) on each .et
  local b f
  for b in simple_add linear; do
    case " $PAIRS " in *" $b "*) ;; *) continue;; esac
    f=$O/${b}_x1
    T "compat|$b|ref-convert(Sutra ET+)|0" -- env PYTHONPATH=$WORK/pkgs $PY -m chakra.src.converter.converter \
      --log-filename ${f}_sutra_etplus.conv.debug.log PyTorch --input ${f}_sutra_etplus.json --output ${f}_sutra_etplus.ref.et
    facts_et "compat|$b|ref-convert(Sutra ET+)|0" ${f}_sutra_etplus.ref.et
    mkdir -p $O/check
    for e in ref sutra_etplus.ref sutra.0; do
      cp ${f}_$e.et $O/check/${b}_${e%.0}.0.et 2>/dev/null || continue
      $PY $TRACES/../tools/et_check.py $O/check/${b}_${e%.0} 1 > $O/check/${b}_${e%.0}.txt 2>&1
      echo "{\"label\":\"etcheck|$b|${e%.0}\",\"etcheck\":$($PY -c 'import json,sys; print(json.dumps(sys.stdin.read().strip()))' < $O/check/${b}_${e%.0}.txt)}" >> $RES
    done
  done
}

[ -x "$SUTRA" ] || { echo "no sutra-cli at $SUTRA" >&2; exit 2; }
mkdir -p $WORK
[ "${SKIP_SETUP:-0}" = 1 ] || setup
PHASES=${PHASES:-1 2 3}   # PHASES=3 SKIP_SETUP=1 redoes the output checks on the files of an earlier run
case " $PHASES " in *" 1 "*|*" 2 "*) log "inputs"; inputs; : > $RES;; esac
case " $PHASES " in *" 1 "*) log "phase 1 (real pairs as they are)"; phase1;; esac
case " $PHASES " in *" 2 "*) log "phase 2 (timings)"; phase2;; esac
case " $PHASES " in *" 3 "*) log "phase 3 (outputs)"; sed -i '/"label": *"compat|/d; /"label":"compat|/d; /"label":"etcheck|/d' $RES; phase3;; esac
log "table"
$PY "$HERE/table.py" $RES $D
