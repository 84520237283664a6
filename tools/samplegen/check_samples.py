#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that sample trace pairs are self-consistent, without Sutra (standard library only).

Usage: check_samples.py SAMPLES_ROOT [--regenerate]
For every <case>/ under SAMPLES_ROOT with an expected.json: framework ops nest on their thread,
device ops never overlap on a stream, every ac2g flow joins a runtime call to a device op (or a
cuda_sync event) of the same correlation, every framework op's `Record function id` is the rf_id
of exactly one ET node of the same name, ET parents exist, and the counts in expected.json match
the files. With --regenerate it also regenerates the case into a temporary folder and compares the
bytes (the generator is deterministic). Exit 0 when all pass, 1 with the failures listed.
"""

import collections
import gzip
import json
import os
import sys
import tempfile

ROOTS = ("[pytorch|profiler|execution_trace|process]", "[pytorch|profiler|execution_trace|thread]")


def load(path):
    with gzip.open(path, "rt") as f:
        return json.load(f)


def ns(us):
    """Kineto microseconds to integer ns (the samples carry at most three decimals)."""
    text = repr(us)
    if "." not in text:
        return int(text) * 1000
    whole, frac = text.split(".")
    return int(whole) * 1000 + int((frac + "000")[:3])


def check_rank(case, kineto_path, et_path, exp, errors):
    def fail(msg):
        errors.append("%s: %s" % (case, msg))

    k = load(kineto_path)
    et = load(et_path)
    events = k["traceEvents"]
    x = [e for e in events if e["ph"] == "X"]
    if len(x) != exp["kineto"]["complete_events"]:
        fail("complete events %d, expected %d" % (len(x), exp["kineto"]["complete_events"]))
    cats = collections.Counter(e["cat"] for e in x)
    if dict(cats) != exp["kineto"]["events_by_category"]:
        fail("categories %s" % dict(cats))
    # Framework ops nest on each thread.
    by_tid = collections.defaultdict(list)
    for e in x:
        if e["cat"] in ("cpu_op", "user_annotation"):
            by_tid[e["tid"]].append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e["name"]))
    for tid, evs in by_tid.items():
        evs.sort(key=lambda t: (t[0], -t[1]))
        stack = []
        for s, end, name in evs:
            while stack and stack[-1][1] <= s:
                stack.pop()
            if stack and end > stack[-1][1]:
                fail("%s crosses its parent %s on thread %s" % (name, stack[-1][2], tid))
            stack.append((s, end, name))
    # Device ops do not overlap on a stream.
    streams = collections.defaultdict(list)
    for e in x:
        if e["cat"] in ("kernel", "gpu_memcpy", "gpu_memset"):
            streams[e["tid"]].append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])))
    for tid, evs in streams.items():
        evs.sort()
        for a, b in zip(evs, evs[1:]):
            if b[0] < a[1]:
                fail("device ops overlap on stream %s at %d" % (tid, b[0]))
    if sorted(streams) != exp["link"]["streams"]:
        fail("streams %s" % sorted(streams))
    # ac2g flows: s at a runtime call's start, f at a device op's (or sync event's) start, same correlation.
    by_corr = collections.defaultdict(list)
    for e in x:
        if "correlation" in e.get("args", {}):
            by_corr[e["args"]["correlation"]].append(e)
    flows = collections.defaultdict(dict)
    for e in events:
        if e["ph"] in ("s", "f"):
            flows[(e["cat"], e["id"])][e["ph"]] = e
    ac2g = 0
    for (cat, fid), ends in flows.items():
        if set(ends) != {"s", "f"}:
            fail("flow %s %s lacks an end" % (cat, fid))
            continue
        if cat != "ac2g":
            continue
        ac2g += 1
        pair = by_corr.get(fid, [])
        host = [e for e in pair if e["cat"] in ("cuda_runtime", "cuda_driver")]
        dev = [e for e in pair if e["cat"] in ("kernel", "gpu_memcpy", "gpu_memset", "cuda_sync")]
        if len(host) != 1 or len(dev) != 1:
            fail("correlation %s: %d runtime calls, %d device events" % (fid, len(host), len(dev)))
            continue
        if ns(ends["s"]["ts"]) != ns(host[0]["ts"]) or ns(ends["f"]["ts"]) != ns(dev[0]["ts"]):
            fail("flow %s is not at its ends' starts" % fid)
    if ac2g != exp["kineto"]["flows"]["ac2g"]:
        fail("ac2g flows %d, expected %d" % (ac2g, exp["kineto"]["flows"]["ac2g"]))
    # rf_id: each framework op names exactly one ET node of its name.
    nodes = et["nodes"]
    if et["schema"] != exp["et"]["schema"] or len(nodes) != exp["et"]["nodes"]:
        fail("ET schema %s with %d nodes" % (et["schema"], len(nodes)))
    ids = collections.Counter(n["id"] for n in nodes)
    if any(c > 1 for c in ids.values()):
        fail("duplicate ET ids")
    attrs = {n["id"]: {a["name"]: a["value"] for a in n["attrs"]} for n in nodes}
    by_rf = {attrs[n["id"]]["rf_id"]: n for n in nodes if n["name"] not in ROOTS}
    if len(by_rf) != len([n for n in nodes if n["name"] not in ROOTS]):
        fail("ET rf_ids are not unique")
    matched = set()
    for e in x:
        if e["cat"] not in ("cpu_op", "user_annotation"):
            continue
        rf = e["args"].get("Record function id", 0)
        node = by_rf.get(rf)
        if node is None or node["name"] != e["name"]:
            fail("Kineto op %s rf_id %s has no ET node of that name" % (e["name"], rf))
        else:
            matched.add(rf)
    if len(matched) != exp["link"]["matched_et_ops"]:
        fail("matched ET ops %d, expected %d" % (len(matched), exp["link"]["matched_et_ops"]))
    for n in nodes:
        if n["ctrl_deps"] not in ids:
            fail("ET node %d has a missing parent %s" % (n["id"], n["ctrl_deps"]))
    if nodes[-1]["name"] != ROOTS[0]:
        fail("the process root is not written last")


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = argv[1]
    regenerate = "--regenerate" in argv[2:]
    errors = []
    checked = 0
    for case in sorted(os.listdir(root)):
        exp_path = os.path.join(root, case, "expected.json")
        if not os.path.isfile(exp_path):
            continue
        with open(exp_path) as f:
            exp = json.load(f)
        for r in exp["ranks"]:
            check_rank(
                case,
                os.path.join(root, case, r["kineto"]["file"]),
                os.path.join(root, case, r["et"]["file"]),
                r,
                errors,
            )
        if regenerate:
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            import samplegen

            with tempfile.TemporaryDirectory() as tmp:
                samplegen.write_case(case, exp["seed"], tmp)
                for name in sorted(os.listdir(os.path.join(tmp, case))):
                    with (
                        open(os.path.join(tmp, case, name), "rb") as a,
                        open(os.path.join(root, case, name), "rb") as b,
                    ):
                        if a.read() != b.read():
                            errors.append(
                                "%s: %s differs from a fresh generation (seed %d)" % (case, name, exp["seed"])
                            )
        checked += 1
    if checked == 0:
        errors.append("no sample with an expected.json under %s" % root)
    for e in errors:
        print(e, file=sys.stderr)
    print("%d cases checked, %d problems" % (checked, len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
