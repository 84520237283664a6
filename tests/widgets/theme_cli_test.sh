#!/bin/sh
# SPDX-License-Identifier: MIT
# `sutra --theme light|dark|system`: the window comes up in that theme (a pixel of its status bar,
# which Qt paints in the palette's window colour, is dark or light), and any other value is refused
# with exit 2 and the option named.
#   theme_cli_test.sh SUTRA SAMPLE_DIR OUTDIR
set -u
sutra=$1 sample=$2 out=$3
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
# A settings directory of its own: no saved View > Theme choice of the user's.
export XDG_CONFIG_HOME="$out/config" QT_QPA_PLATFORM=offscreen
rm -rf "$XDG_CONFIG_HOME"

# The lightness (max+min)/2 of the pixel two in from the bottom-left corner of a binary PPM.
lightness() {
  python3 -c '
import sys
data = open(sys.argv[1], "rb").read()
fields, pos = [], 0
while len(fields) < 4:  # P6, width, height, maxval, separated by whitespace
    while data[pos:pos + 1].isspace(): pos += 1
    start = pos
    while not data[pos:pos + 1].isspace(): pos += 1
    fields.append(data[start:pos])
pos += 1
w, h = int(fields[1]), int(fields[2])
at = pos + ((h - 3) * w + 2) * 3
r, g, b = data[at:at + 3]
print((max(r, g, b) + min(r, g, b)) // 2)' "$1"
}

for theme in dark Light SYSTEM; do
  rm -f "$out/$theme.ppm"
  "$sutra" --theme "$theme" --screenshot "$out/$theme.ppm" --size 900x600 "$sample" || fail "--theme $theme: exit $?"
  [ -s "$out/$theme.ppm" ] || fail "--theme $theme: no screenshot written"
done
# Fusion's light window colour is #efefef (lightness 239), the dark theme's #2b2d31 (lightness 46);
# the offscreen platform's own ("system") palette is the light one.
[ "$(lightness "$out/dark.ppm")" -eq 46 ] || fail "--theme dark: status bar lightness $(lightness "$out/dark.ppm")"
[ "$(lightness "$out/Light.ppm")" -eq 239 ] || fail "--theme light: status bar lightness $(lightness "$out/Light.ppm")"
[ "$(lightness "$out/SYSTEM.ppm")" -eq 239 ] || fail "--theme system: status bar lightness $(lightness "$out/SYSTEM.ppm")"

# Qt may add its own notes on stderr (XDG_RUNTIME_DIR); the message is the last line.
"$sutra" --theme sepia "$sample" 2>"$out/err"; rc=$?
msg=$(tail -n 1 "$out/err")
[ $rc -eq 2 ] || fail "--theme sepia: exit $rc, wanted 2"
[ "$msg" = 'sutra: --theme wants light, dark or system, not "sepia"' ] || fail "--theme sepia: said '$msg'"
echo ok
