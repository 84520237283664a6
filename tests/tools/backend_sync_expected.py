#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What the blocking synchronize calls of a non-CUDA backend wait on, computed from the Kineto
JSON alone (the rule of core/link/sync_dependencies.h): a runtime call of a category that is not
cuda*/hip* whose lower-cased name holds "synchronize" and not "event", on a process that holds no
device op, waits on each stream it covers (a "stream" synchronize: the stream in args stream_id or
stream; else every stream of args device, else every stream) on the last device op (by start)
that started before the call ended, stepping back past ops that ended after the call ended or
whose launching runtime call (same correlation) began after the call began.

Usage: backend_sync_expected.py TRACE.json.gz  -> prints calls, dependencies, calls with none
"""

import decimal
import gzip
import json
import sys

DEVICE_CATS = {"kernel", "gpu_memcpy", "gpu_memset", "mtia_ccp_events"}
RUNTIME_CATS = {
    "cuda_runtime",
    "cuda_driver",
    "runtime",
    "mtia_runtime",
    "privateuse1_runtime",
    "privateuse1_driver",
    "xpu_runtime",
    "xpu_driver",
}


def ns(v):
    return int((decimal.Decimal(str(v)) * 1000).to_integral_value(decimal.ROUND_HALF_EVEN))


def num(v):
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def main(path):
    with gzip.open(path, "rt") as f:
        doc = json.load(f, parse_float=decimal.Decimal)
    events = [e for e in doc["traceEvents"] if e.get("ph") == "X"]
    streams = {}
    device_pids = set()
    launched_at = {}  # correlation -> start of the runtime call with it (the first one)
    for e in sorted(events, key=lambda e: e["ts"]):
        c = num(e.get("args", {}).get("correlation"))
        if e.get("cat") in RUNTIME_CATS and c is not None and c > 0:
            launched_at.setdefault(c, ns(e["ts"]))
    for e in events:
        if e.get("cat") in DEVICE_CATS:
            pid = num(e.get("pid")) or 0
            device_pids.add(pid)
            s = num(e.get("args", {}).get("stream"))
            if s is None:
                s = num(e.get("tid")) or 0
            c = num(e.get("args", {}).get("correlation"))
            streams.setdefault((pid, s), []).append(
                (ns(e["ts"]), ns(e["ts"]) + ns(e.get("dur", 0)), launched_at.get(c) if c and c > 0 else None)
            )
    for ops in streams.values():
        ops.sort(key=lambda o: o[0])
    calls = deps = empty = 0
    for e in events:
        cat = e.get("cat", "")
        name = str(e.get("name", "")).lower()
        if cat not in RUNTIME_CATS or cat.startswith("cuda") or cat.startswith("hip"):
            continue
        if "synchronize" not in name or "event" in name:
            continue
        if (num(e.get("pid")) or 0) in device_pids:
            continue
        calls += 1
        args = e.get("args", {})
        stream = num(args.get("stream_id"))
        if stream is None:
            stream = num(args.get("stream"))
        device = num(args.get("device"))
        one = "stream" in name and stream is not None
        end = ns(e["ts"]) + ns(e.get("dur", 0))
        found = 0
        for (pid, s), ops in streams.items():
            if one and (s != stream or (device is not None and pid != device)):
                continue
            if not one and device is not None and pid != device:
                continue
            k = len([o for o in ops if o[0] <= end])
            while k > 0 and (
                ops[k - 1][1] > end or (ops[k - 1][2] is not None and ops[k - 1][2] > ns(e["ts"]))
            ):
                k -= 1
            if k > 0:
                found += 1
        deps += found
        empty += found == 0
    print(calls, deps, empty)


if __name__ == "__main__":
    main(sys.argv[1])
