#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Make Kineto-trace variants that MLCommons chakra_trace_link accepts, and scaled copies.

Input changes only (the reference's code is untouched):
  --steps     add ProfilerStep#j user_annotation events (one per training iteration: iteration j
              ends where the j-th 'Optimizer.step' annotation ends; a trace without one gets a
              single ProfilerStep#0 spanning the whole trace). The reference crashes without them.
  --rfid F    add args["Record function id"] to the Kineto cpu_ops that an ET+ file F (Sutra's
              link output) matched to ET nodes (same name and ts), so the reference, which matches
              only by rf_id, links the same ops as Sutra.
  --copies K  replicate the trace's events K times, each copy shifted in time by the trace's span,
              with correlation / External id / flow ids offset so they stay unique; only copy 0
              carries the Record function ids (the ET holds one iteration).
"""

import argparse
import json
import sys

ap = argparse.ArgumentParser()
ap.add_argument("kineto")
ap.add_argument("out")
ap.add_argument("--steps", action="store_true")
ap.add_argument("--rfid")
ap.add_argument("--copies", type=int, default=1)
a = ap.parse_args()

d = json.load(open(a.kineto))
ev = d["traceEvents"]
timed = [e for e in ev if "ts" in e and e.get("ph") != "M"]
t0 = min(e["ts"] for e in timed)
t1 = max(e["ts"] + e.get("dur", 0) for e in timed)
span = t1 - t0 + 1000

if a.rfid:
    etp = json.load(open(a.rfid))
    want = {}
    for n in etp["nodes"]:
        if n.get("cat") or n.get("ts") is None or n["name"].startswith("[pytorch|profiler|execution_"):
            continue
        want[(n["name"], int(n["ts"]))] = n["rf_id"]
    hit = 0
    for e in ev:
        if e.get("cat") in ("cpu_op", "user_annotation"):
            k = (e["name"], int(e["ts"]))
            if k in want:
                e.setdefault("args", {})["Record function id"] = want.pop(k)
                hit += 1
    print(
        f"rf_id: {hit} Kineto cpu_ops got a Record function id ({len(want)} ET+ nodes not found)",
        file=sys.stderr,
    )

if a.steps:
    cpu = [e for e in ev if e.get("cat") in ("cpu_op", "user_annotation")]
    main = max(
        set((e["pid"], e["tid"]) for e in cpu),
        key=lambda pt: (
            sum(1 for e in cpu if (e["pid"], e["tid"]) == pt and e["name"].startswith("Optimizer.step"))
            * 10**9
            + sum(1 for e in cpu if (e["pid"], e["tid"]) == pt)
        ),
    )
    ends = sorted(
        e["ts"] + e["dur"]
        for e in cpu
        if e["name"].startswith("Optimizer.step") and (e["pid"], e["tid"]) == main
    )
    if not ends:
        ends = [t1]
    ends[-1] = max(ends[-1], t1)
    start = t0
    maxext = max(int(e.get("args", {}).get("External id", 0)) for e in ev)
    for j, end in enumerate(ends):
        ev.append(
            {
                "ph": "X",
                "cat": "user_annotation",
                "name": f"ProfilerStep#{j}",
                "pid": main[0],
                "tid": main[1],
                "ts": start,
                "dur": end - start,
                "args": {"External id": maxext + 1 + j},
            }
        )
        start = end + 1
    print(f"steps: {len(ends)} ProfilerStep annotations on pid/tid {main}", file=sys.stderr)

# Write the trace, streaming the copies event by event (a 1 GB output needs no more memory than the input).
idoff = 1 + max(
    [
        int(e.get("args", {}).get(k, 0))
        for e in ev
        for k in ("External id", "correlation")
        if isinstance(e.get("args", {}).get(k, 0), int)
    ]
    + [int(e.get("id", 0)) for e in ev if e.get("ph") in ("s", "f")]
)
with open(a.out, "w") as f:
    head = {k: v for k, v in d.items() if k != "traceEvents"}
    f.write(json.dumps(head)[:-1] + (", " if head else "") + '"traceEvents": [')
    first = True
    for i in range(a.copies):
        for e in ev:
            if i and e.get("ph") == "M":
                continue
            c = e
            if i:
                c = dict(e)
                c["ts"] = e["ts"] + i * span
                if "args" in e:
                    c["args"] = dict(e["args"])
                    c["args"].pop("Record function id", None)
                    for k in ("External id", "correlation"):
                        if isinstance(c["args"].get(k), int) and c["args"][k] > 0:
                            c["args"][k] += i * idoff
                if c["name"].startswith("ProfilerStep#"):
                    c["name"] = "ProfilerStep#%d" % (int(c["name"][13:]) + i * 100000)
                if e.get("ph") in ("s", "f") and "id" in e:
                    c["id"] = e["id"] + i * idoff
            f.write(("" if first else ",\n") + json.dumps(c))
            first = False
    f.write("]}\n")
if a.copies > 1:
    print(f"copies: {a.copies} (span {span} us each)", file=sys.stderr)
