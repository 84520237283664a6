#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Print the tables of measure_reference.sh from its results.jsonl (argv[1]); argv[2] = data dir."""

import json
import os
import re
import statistics
import sys
from collections import defaultdict

rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
data = sys.argv[2]
runs = defaultdict(list)  # (input, tool) -> [timing]
facts = {}  # (input, tool) -> last facts
order = []
etchecks = []
PH1 = ("asis", "steps-only", "compat")
for r in rows:
    parts = r["label"].split("|")
    key = tuple(parts[:-1])
    if "rc" in r:
        runs[key].append(r)
        if key not in order:
            order.append(key)
    elif "etcheck" in r:
        etchecks.append((parts[1], parts[2], r["etcheck"]))
    else:
        facts[key] = r.get("etplus") or r.get("et")


def last_error(log):
    try:
        lines = open(log, errors="replace").read().splitlines()
    except OSError:
        return ""
    for l in reversed(lines):
        if re.search(r"Error|Exception|error", l) and not l.startswith(" "):
            return l.strip()[:150]
    return ""


def describe(f):
    if not f:
        return "-"
    if "etplus" in str(f) or "et_ops" in f:
        return (
            f"ET ops with Kineto time {f['et_ops_with_kineto_time']}/{f['et_ops']}, device nodes "
            f"{f['device_nodes']}, inter-thread deps {f['inter_thread_dep']}, sync deps {f['sync_dep']}"
        )
    return f".et nodes {f['nodes']} {f['by_type']}, ctrl deps {f['ctrl_deps']}, data deps {f['data_deps']}"


print("\n== Phase 1: the reference on the real pairs (and variants) ==")
print(f"{'case':44} {'rc':>3} {'cpu s':>7} {'wall s':>7}  result")
for key in order:
    if key[0] not in PH1:
        continue
    r = runs[key][0]
    res = describe(facts.get(key)) if r["rc"] == 0 else last_error(r["log"])
    print(f"{' '.join(key):44} {r['rc']:>3} {r['cpu']:>7.2f} {r['wall']:>7.2f}  {res}")


def size_mb(inp):
    m = re.match(r"(\w+) x(\d+)", inp)
    if m:
        p = os.path.join(data, f"{m.group(1)}_kineto_x{m.group(2)}.json")
    else:
        p = os.path.join(data, inp.split()[0] + "_kineto.json")
    return os.path.getsize(p) / 1e6 if os.path.exists(p) else float("nan")


def med(key, f):
    v = [x[f] for x in runs.get(key, []) if x["rc"] == 0]
    return statistics.median(v) if v else None


print("\n== Phase 2: timings (median of the runs; CPU = user+sys) ==")
print(
    f"{'input':28} {'Kineto MB':>9} {'tool':14} {'n':>2} {'rc':>3} {'cpu s':>8} {'(min)':>8} {'wall s':>8} "
    f"{'RSS MB':>7}  output"
)
inputs = []
for key in order:
    if key[0] in PH1:
        continue
    if key[0] not in inputs:
        inputs.append(key[0])
    rs = runs[key]
    ok = [x for x in rs if x["rc"] == 0]
    cpu = med(key, "cpu")
    print(
        f"{key[0]:28} {size_mb(key[0]):9.2f} {key[1]:14} {len(rs):>2} {max(x['rc'] for x in rs):>3} "
        f"{(cpu if cpu is not None else float('nan')):8.3f} {min((x['cpu'] for x in ok), default=float('nan')):8.3f} "
        f"{(med(key, 'wall') or float('nan')):8.3f} {max((x['maxrss_mb'] for x in ok), default=0):7.0f}  "
        f"{describe(facts.get(key)) if ok else last_error(rs[0]['log'])}"
    )

print("\n== Ratios reference / Sutra (medians; >1 means Sutra is faster) ==")
print(f"{'input':28} {'what':50} {'cpu ratio':>10} {'wall ratio':>10}")
for inp in inputs:

    def m(tool, f):
        return med((inp, tool), f)

    for what, ref, sut in (
        ("link: chakra_trace_link / sutra link", ["ref-link"], ["sutra-link"]),
        ("convert: chakra_converter(ET+) / sutra convert(ET,Kineto)", ["ref-convert"], ["sutra-convert"]),
        ("end to end: ref link+convert / sutra convert", ["ref-link", "ref-convert"], ["sutra-convert"]),
    ):
        vals = []
        for f in ("cpu", "wall"):
            a = [m(t, f) for t in ref]
            b = [m(t, f) for t in sut]
            vals.append(sum(a) / sum(b) if None not in a + b and sum(b) > 0 else None)
        if vals[0] is not None:
            print(f"{inp:28} {what:50} {vals[0]:10.1f} {vals[1]:10.1f}")

if etchecks:
    print("\n== et_check.py (ASTRA-sim's rules) on the .et of the x1 pairs ==")
    for pair, which, text in etchecks:
        name = {
            "ref": "chakra_converter(ref ET+)",
            "sutra_etplus.ref": "chakra_converter(Sutra ET+)",
            "sutra": "sutra convert",
        }.get(which, which)
        lines = [l.replace("et_check: ", "") for l in text.splitlines() if "ERROR" in l or "error(s)" in l]
        print(f"{pair:11} {name:28} " + " | ".join(l[:160] for l in lines))
