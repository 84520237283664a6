#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Scale a Kineto trace to a given size as a run of a few long profiler steps, for comparing runs.

  scale_kineto.py SOURCE OUT --size-mb N [--steps S | --keep-steps]

OUT holds back-to-back copies of SOURCE's events (.json or .json.gz) until it is at least N MB
(10^6 bytes): copy k is shifted in time by k * (the source's span + 1 ms), and its correlation,
External id and flow ids by k * (the largest + 1), so each copy's launches pair with their own
kernels. The source's ProfilerStep#N annotations are dropped and S (default 3) ProfilerStep#j
annotations are written instead, each spanning a consecutive third (1/S) of the copies: a few long
steps, as a large model's trace has, and not one step per copy (HTA's add_iteration loops over
every step for every CPU event, so thousands of short steps make it quadratic). With --keep-steps,
every copy keeps the source's steps instead, renumbered (copy k's j-th step is ProfilerStep#(k*n+j)).
Metadata events (ph "M") are written once. One event a line, json.dumps's default separators.
Write OUT under /tmp: a scaled trace is never committed.
"""

import argparse
import gzip
import json
import math
import sys

ap = argparse.ArgumentParser()
ap.add_argument("source")
ap.add_argument("out")
ap.add_argument("--size-mb", type=float, required=True)
ap.add_argument("--steps", type=int, default=3)
ap.add_argument("--keep-steps", action="store_true")
a = ap.parse_args()

with open(a.source, "rb") as f:
    gz = f.read(2) == b"\x1f\x8b"
with (gzip.open if gz else open)(a.source, "rt", encoding="utf-8") as f:
    doc = json.load(f)
events = doc.get("traceEvents")
if not isinstance(events, list) or not events:
    sys.exit(f"{a.source}: no traceEvents array")

steps = [e for e in events if str(e.get("name", "")).startswith("ProfilerStep#")]
body = [e for e in events if e.get("ph") != "M" and (a.keep_steps or e not in steps)]
step_index = {id(e): j for j, e in enumerate(steps)}
meta = [e for e in events if e.get("ph") == "M"]
timed = [e for e in body if "ts" in e]
t0 = min(float(e["ts"]) for e in timed)
t1 = max(float(e["ts"]) + float(e.get("dur", 0)) for e in timed)
span = t1 - t0 + 1000.0
ID_KEYS = ("External id", "correlation")
ids = [
    int(e["args"][k])
    for e in events
    for k in ID_KEYS
    if isinstance(e.get("args"), dict) and isinstance(e["args"].get(k), int)
]
ids += [int(e["id"]) for e in events if e.get("ph") in ("s", "f", "t") and isinstance(e.get("id"), int)]
id_stride = max(ids, default=0) + 1
# the thread of the source's steps, else the thread with the most CPU ops
if steps:
    thread = (steps[0]["pid"], steps[0]["tid"])
else:
    cpu = [(e["pid"], e["tid"]) for e in body if e.get("cat") == "cpu_op"]
    thread = max(set(cpu), key=cpu.count)


def shifted(e, k):
    if k == 0 and id(e) not in step_index:
        return e
    c = dict(e)
    if "ts" in c:
        c["ts"] = round(float(c["ts"]) + k * span, 3)
    if isinstance(c.get("args"), dict):
        c["args"] = dict(c["args"])
        for key in ID_KEYS:
            if isinstance(c["args"].get(key), int) and c["args"][key] > 0:
                c["args"][key] += k * id_stride
    if c.get("ph") in ("s", "f", "t") and isinstance(c.get("id"), int):
        c["id"] += k * id_stride
    if id(e) in step_index:
        c["name"] = f"ProfilerStep#{k * len(steps) + step_index[id(e)]}"
    return c


one_copy = sum(len(json.dumps(e)) + 2 for e in body)
copies = max(a.steps, math.ceil(a.size_mb * 1e6 / one_copy))
if a.keep_steps:
    a.steps = 0
per_step = copies / max(a.steps, 1)
written = 0
with open(a.out, "w", encoding="utf-8") as out:
    head = {k: v for k, v in doc.items() if k != "traceEvents"}
    text = json.dumps(head)[:-1] + (", " if head else "") + '"traceEvents": [\n'
    out.write(text)
    first = True
    for e in meta:
        out.write(("" if first else ",\n") + json.dumps(e))
        first = False
    for j in range(a.steps):
        k0, k1 = round(j * per_step), round((j + 1) * per_step)
        step = {
            "ph": "X",
            "cat": "user_annotation",
            "name": f"ProfilerStep#{j}",
            "pid": thread[0],
            "tid": thread[1],
            "ts": round(t0 + k0 * span - 1, 3),
            "dur": round((k1 - k0) * span - 998, 3),
            "args": {"External id": copies * id_stride + j + 1},
        }
        out.write(("" if first else ",\n") + json.dumps(step))
        first = False
    for k in range(copies):
        for e in body:
            out.write(("" if first else ",\n") + json.dumps(shifted(e, k)))
            first = False
    out.write("\n]}\n")
    written = out.tell()
print(
    f"{a.out}: {copies} copies of {len(body)} events ({copies * len(body)} events) in "
    f"{copies * len(steps) if a.keep_steps else a.steps} "
    f"ProfilerSteps, {written / 1e6:.1f} MB",
    file=sys.stderr,
)
