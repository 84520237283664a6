#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""compare_agreement.py SUTRA.json HTA.csv: do `sutra-cli compare --json` and HTA's TraceDiff (the CSV
of hta_trace_diff.py) count the same calls per name on each side? Prints one JSON line: the names
both list, those whose counts agree on both sides, the disagreeing ones, and the names only one lists
(Sutra folds ProfilerStep#N into one row 'ProfilerStep*'; HTA also lists cuda_sync events)."""

import csv
import json
import sys

sutra = {r["name"]: (r["a"]["calls"], r["b"]["calls"]) for r in json.load(open(sys.argv[1]))["rows"]}
hta = {
    r["name"]: (round(float(r["control_counts"])), round(float(r["test_counts"])))
    for r in csv.DictReader(open(sys.argv[2]))
}
both = sorted(set(sutra) & set(hta))
bad = {n: {"sutra": sutra[n], "hta": hta[n]} for n in both if tuple(sutra[n]) != tuple(hta[n])}
print(
    json.dumps(
        {
            "names_in_both": len(both),
            "agree": len(both) - len(bad),
            "disagree": bad,
            "sutra_only": sorted(set(sutra) - set(hta)),
            "hta_only": sorted(set(hta) - set(sutra)),
        }
    )
)
