#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Independent derivation of the sync edges of a Kineto trace with cuda_sync events (the rules of
# core/link/sync_dependencies.h), straight from the JSON:  python3 sync_edges.py TRACE.json.gz
# Prints one line per edge: kind, waiter (name, ts us), waited-on device op (name, ts us).
import gzip
import json
import sys

ev = [e for e in json.load(gzip.open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"]
runtime = {
    e["args"]["correlation"]: e
    for e in ev
    if e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {})
}
dev = [e for e in ev if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
# Each device op with its launch call; per (device, stream), ordered by the call's start.
launched = [(runtime[d["args"]["correlation"]], d) for d in dev if d["args"].get("correlation") in runtime]


def stream_ops(device, stream):
    ops = [(c, d) for c, d in launched if d["pid"] == device and d["tid"] == stream]
    return sorted(ops, key=lambda cd: (cd[0]["ts"], cd[1]["ts"]))


def last_before(device, stream, call):
    ops = [d for c, d in stream_ops(device, stream) if c["ts"] < call["ts"]]
    return ops[-1] if ops else None


def first_after(device, stream, call):
    ops = [d for c, d in stream_ops(device, stream) if c["ts"] > call["ts"]]
    return ops[0] if ops else None


edges = []
for s in sorted((e for e in ev if e.get("cat") == "cuda_sync"), key=lambda e: e["ts"]):
    a = s["args"]
    call = runtime.get(a.get("correlation"))
    if call is None:
        continue
    dev_id = a.get("device", s["pid"])
    if s["name"] == "Context Sync":
        for stream in sorted({d["tid"] for c, d in launched if d["pid"] == dev_id}):
            op = last_before(dev_id, stream, call)
            if op:
                edges.append(("ContextSync", call, op))
    elif s["name"] == "Stream Sync":
        op = last_before(dev_id, a["stream"], call)
        if op:
            edges.append(("StreamSync", call, op))
    else:
        rec = runtime.get(a.get("wait_on_cuda_event_record_corr_id", -1))
        if rec is None or a.get("wait_on_stream", -1) < 0:
            continue
        src = last_before(dev_id, a["wait_on_stream"], rec)
        if src is None:
            continue
        if s["name"] == "Event Sync":
            edges.append(("EventSync", call, src))
        elif a["stream"] != a["wait_on_stream"]:
            nxt = first_after(dev_id, a["stream"], call)
            if nxt:
                edges.append(("StreamWaitEvent", nxt, src))
for kind, w, o in edges:
    print(kind, repr(w["name"]), w["ts"], "->", repr(o["name"]), o["ts"])
