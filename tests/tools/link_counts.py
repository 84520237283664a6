#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Independent figures for the linker's real-trace tests, straight from the JSON (no Sutra code):
#   python3 tests/tools/link_counts.py ET.json.gz KINETO.json.gz MAIN_TID
# Iterations: the places where the ET main thread's top-level op names occur among the Kineto main
# thread's top-level cpu_op/user_annotation ops, each running to the next top-level op. Prints the
# ET op count, per-iteration edit counts (difflib), the first fewest-edit iteration, and the device
# ops whose launch call starts in that window, with how many a cpu_op/user_annotation encloses.
import difflib
import gzip
import json
import sys

et = json.load(gzip.open(sys.argv[1]))
k = json.load(gzip.open(sys.argv[2]))
main_tid = int(sys.argv[3])
ev = [e for e in k["traceEvents"] if e.get("ph") == "X"]
nodes = sorted(et["nodes"], key=lambda n: n["id"])
is_root = lambda n: n["name"].startswith("[pytorch|profiler|execution_")
roots = {n["id"] for n in nodes if is_root(n)}
ops = [n for n in nodes if n["id"] not in roots]
print("et_ops", len(ops))
threads = sorted({n["tid"] for n in ops})
ns = lambda us: round(us * 1000)


def framework(tid):
    s = [e for e in ev if e["tid"] == tid and e.get("cat") in ("cpu_op", "user_annotation")]
    return sorted(s, key=lambda e: (ns(e["ts"]), -ns(e["dur"])))


def tops(seq):
    out, end = [], None
    for e in seq:
        if end is None or ns(e["ts"]) >= end:
            out.append(e)
            end = ns(e["ts"]) + ns(e["dur"])
    return out


main = framework(main_tid)
ktop = tops(main)
etop = [n["name"] for n in ops if n["parent"] in roots and n["tid"] == threads[0]]
m = len(etop)
starts, i = [], 0
while i + m <= len(ktop):
    if [e["name"] for e in ktop[i : i + m]] == etop:
        starts.append(i)
        i += m
    else:
        i += 1
wins = [(ns(ktop[s]["ts"]), ns(ktop[s + m]["ts"]) if s + m < len(ktop) else 1 << 62) for s in starts]
print("iterations", len(wins))
other_tids = sorted({e["tid"] for e in ev if e.get("cat") in ("cpu_op", "user_annotation")} - {main_tid})


def edits(w):
    total = 0
    for t, ktid in zip(threads, [main_tid] + other_tids):
        a = [n["name"] for n in ops if n["tid"] == t]
        b = [e["name"] for e in framework(ktid) if w[0] <= ns(e["ts"]) < w[1]]
        sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
        total += len(a) + len(b) - 2 * sum(x.size for x in sm.get_matching_blocks())
    return total


E = [edits(w) for w in wins]
best = min(E)
chosen = E.index(best)
print("edits", E[:5], "... equal_best", E.count(best), "chosen", chosen, "window", wins[chosen])
ws, we = wins[chosen]
runtime = {
    e["args"]["correlation"]: e
    for e in ev
    if e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {})
}
dev = [e for e in ev if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
in_win = [
    d
    for d in dev
    if d["args"].get("correlation") in runtime and ws <= ns(runtime[d["args"]["correlation"]]["ts"]) < we
]


def enclosed(call):
    t, s, e = call["tid"], ns(call["ts"]), ns(call["ts"]) + ns(call["dur"])
    return any(
        ns(o["ts"]) <= s and e <= ns(o["ts"]) + ns(o["dur"]) for o in framework(t) if ws <= ns(o["ts"]) < we
    )


linked = sum(1 for d in in_win if enclosed(runtime[d["args"]["correlation"]]))
print(
    "device_ops",
    len(in_win),
    "linked",
    linked,
    "streams",
    sorted({d["tid"] for d in in_win}),
    "by_cat",
    {c: sum(1 for d in in_win if d["cat"] == c) for c in ("kernel", "gpu_memcpy", "gpu_memset")},
)
