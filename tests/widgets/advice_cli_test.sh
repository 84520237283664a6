#!/bin/sh
# SPDX-License-Identifier: MIT
# `sutra --advice`: once the run is loaded, Analysis > Advice opens on its top finding; with
# --screenshot the Advice window is saved once it shows all it will (exit 0, never a hang): the
# finding's projection where it has a price (the gloo recording's straggler), the finding alone
# where it has none (a pageable copy with no pinned rate), the list alone where nothing is found.
#   advice_cli_test.sh SUTRA SOURCE_DIR OUTDIR
set -u
sutra=$1 src=$2 out=$3
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
export XDG_CONFIG_HOME="$out/config" QT_QPA_PLATFORM=offscreen

for case in "priced $src/resources/samples/allreduce_2ranks" \
            "unpriced $src/tests/data/kineto/basic.json" \
            "none $src/tests/data/kineto/small_ns.json"; do
  name=${case%% *} trace=${case#* }
  rm -f "$out/$name.png"
  timeout 120 "$sutra" --advice --screenshot "$out/$name.png" "$trace"; rc=$?
  [ $rc -eq 0 ] || fail "$name: exit $rc"
  [ -s "$out/$name.png" ] || fail "$name: no screenshot written"
  # The Advice window (1000 x 760), not the main window (1600 x 1000).
  width=$(python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); print(struct.unpack(">I", d[16:20])[0])' "$out/$name.png")
  [ "$width" -lt 1600 ] || fail "$name: the screenshot is $width pixels wide: the main window, not Advice"
done
echo "ok: --advice screenshots of a priced finding, an unpriced one and no finding"
