#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Print the table of measure_convert_compare.sh from its results.jsonl (argv[1]): per comparison,
each side's runs and medians (CPU = user + sys, wall, peak RSS) and the ratios reference / Sutra,
then the output checks."""

import json
import statistics
import sys
from collections import defaultdict

rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
runs = defaultdict(list)
for r in rows:
    if "rc" in r:
        what, side, _ = r["label"].split("|")
        runs[(what, side)].append(r)
for what in ("convert", "compare"):
    med = {}
    for side in ("ref", "sutra"):
        rs = runs.get((what, side), [])
        if not rs:
            continue
        failed = [r for r in rs if r["rc"] != 0]
        m = {k: statistics.median(r[k] for r in rs) for k in ("cpu", "wall", "maxrss_mb")}
        med[side] = m
        print(
            f"{what:8} {side:6} n={len(rs)} cpu {[r['cpu'] for r in rs]} wall {[r['wall'] for r in rs]} "
            f"-> median cpu {m['cpu']:.3f} s, wall {m['wall']:.3f} s, peak {m['maxrss_mb']:.0f} MB"
            + (f"  FAILED rc={[r['rc'] for r in failed]} (see {failed[0]['log']})" if failed else "")
        )
    if len(med) == 2:
        print(
            f"{what:8} ratio  cpu {med['ref']['cpu'] / med['sutra']['cpu']:.1f}x, "
            f"wall {med['ref']['wall'] / med['sutra']['wall']:.1f}x"
        )
for r in rows:
    if "check" in r:
        print(r["label"] + ": " + (r["check"] if isinstance(r["check"], str) else json.dumps(r["check"])))
