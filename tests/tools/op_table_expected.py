#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Expected key_averages numbers for a Kineto trace, computed independently of Sutra's C++ code.

Reads the Chrome-trace JSON directly and follows torch's profiler semantics
(torch/autograd/profiler_util.py): per thread, a host event's children are the host events it
encloses (torch's stack algorithm over events sorted by start, then longest first); Self CPU =
duration minus the children's durations; a device op belongs to the innermost cpu_op or
user_annotation enclosing its launch call (same correlation); device total adds the children's;
an op whose parent has the same name and no other child is merged into it (no call, no total of its
own); any other op nested in an op of the same name adds its total again, as torch counts it (with
--count-recursion-once: adds no total, Sutra's corrected count); ProfilerStep#N rows are
"ProfilerStep*". In a step, a device op belongs to the step of its launch call; one without a call
in the trace (launched before it) to no step, only to the whole trace.

Usage: op_table_expected.py TRACE.json.gz [--step N] [--count-recursion-once] > expected.json
Output: {"window": [start_ns, end_ns] | null, "self_cpu_total_ns", "self_device_total_ns",
         "rows": [{"name", "on_device", "calls", "self_cpu_ns", "cpu_total_ns", "self_device_ns",
                   "device_total_ns"}]}  (rows sorted by name, then on_device)
"""

import decimal
import gzip
import json
import sys

HOST_CATS = {
    "cpu_op",
    "operator",
    "Operator",
    "hpu_op",
    "user_annotation",
    "cuda_runtime",
    "runtime",
    "Runtime",
    "mtia_runtime",
    "privateuse1_runtime",
    "xpu_runtime",
    "cuda_driver",
    "privateuse1_driver",
    "xpu_driver",
}
FRAMEWORK_CATS = {"cpu_op", "operator", "Operator", "hpu_op", "user_annotation"}
RUNTIME_CATS = HOST_CATS - FRAMEWORK_CATS
DEVICE_CATS = {"kernel", "Kernel", "mtia_ccp_events", "gpu_memcpy", "Memcpy", "gpu_memset", "Memset"}
FILTERED = {
    "profiler::_record_function_enter",
    "profiler::_record_function_enter_new",
    "profiler::_record_function_exit",
    "aten::is_leaf",
    "aten::output_nr",
    "aten::_version",
}


def ns(value):
    return int((decimal.Decimal(str(value)) * 1000).to_integral_value())


def load(path):
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rt") as f:
        doc = json.load(f, parse_float=decimal.Decimal)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    out = []
    for order, e in enumerate(events):
        if e.get("ph") != "X" or e.get("cat") not in HOST_CATS | DEVICE_CATS:
            continue
        if e["name"] in FILTERED:
            continue
        start = ns(e["ts"])
        out.append(
            {
                "name": e["name"],
                "cat": e["cat"],
                "thread": (str(e["pid"]), str(e["tid"])),
                "start": start,
                "end": start + ns(e.get("dur", 0)),
                "order": order,
                "corr": e.get("args", {}).get("correlation"),
                "children": [],
                "parent": None,
                "kernels": 0,
            }
        )
    return out


def main():
    path = sys.argv[1]
    step = int(sys.argv[sys.argv.index("--step") + 1]) if "--step" in sys.argv else None
    once = "--count-recursion-once" in sys.argv
    events = load(path)
    host = [e for e in events if e["cat"] in HOST_CATS]
    device = [e for e in events if e["cat"] in DEVICE_CATS]
    by_thread = {}
    for e in host:
        by_thread.setdefault(e["thread"], []).append(e)
    for evs in by_thread.values():
        evs.sort(key=lambda e: (e["start"], -e["end"], e["order"]))
        stack = []
        for e in evs:
            while stack:
                p = stack[-1]
                if e["start"] >= p["end"] or e["end"] > p["end"]:
                    stack.pop()
                else:
                    p["children"].append(e)
                    e["parent"] = p
                    break
            stack.append(e)
    runtime_by_corr = {}
    for e in host:
        if e["cat"] in RUNTIME_CATS and e["corr"] is not None:
            runtime_by_corr.setdefault(e["corr"], e)
    for d in device:
        call = runtime_by_corr.get(d["corr"]) if d["corr"] is not None else None
        d["call"] = call
        launcher = call["parent"] if call else None
        while launcher is not None and launcher["cat"] not in FRAMEWORK_CATS:
            launcher = launcher["parent"]
        if launcher is not None:
            launcher["kernels"] += d["end"] - d["start"]

    def device_total(e):
        if "dev_total" not in e:
            e["dev_total"] = e["kernels"] + sum(device_total(c) for c in e["children"])
        return e["dev_total"]

    def display(e):
        return "ProfilerStep*" if e["name"].startswith("ProfilerStep#") else e["name"]

    window = None
    if step is not None:
        marks = [e for e in host if e["cat"] in FRAMEWORK_CATS and e["name"] == f"ProfilerStep#{step}"]
        first = min(marks, key=lambda e: e["start"])
        window = (first["start"], first["end"])

    def inside(t):
        return window is None or window[0] <= t < window[1]

    rows = {}

    def row(key):
        return rows.setdefault(
            key,
            {
                "name": key[0],
                "on_device": key[1],
                "calls": 0,
                "self_cpu_ns": 0,
                "cpu_total_ns": 0,
                "self_device_ns": 0,
                "device_total_ns": 0,
            },
        )

    for e in host:
        if not inside(e["start"]):
            continue
        r = row((display(e), False))
        p = e["parent"]
        merged = p is not None and inside(p["start"]) and p["name"] == e["name"] and len(p["children"]) == 1
        r["calls"] += 0 if merged else 1
        r["self_cpu_ns"] += (e["end"] - e["start"]) - sum(c["end"] - c["start"] for c in e["children"])
        own_kernels = e["kernels"]
        r["self_device_ns"] += own_kernels
        a, nested = p, merged
        while once and a is not None:
            if inside(a["start"]) and display(a) == display(e):
                nested = True
            a = a["parent"]
        if not nested:
            r["cpu_total_ns"] += e["end"] - e["start"]
            r["device_total_ns"] += device_total(e)
    for d in device:
        if window is not None and not d["call"]:
            continue  # launched before the trace: in no step
        t = d["call"]["start"] if d["call"] else d["start"]
        if not inside(t):
            continue
        r = row((d["name"], True))
        r["calls"] += 1
        r["self_device_ns"] += d["end"] - d["start"]
        r["device_total_ns"] += d["end"] - d["start"]
    out = sorted(rows.values(), key=lambda r: (r["name"], r["on_device"]))
    json.dump(
        {
            "window": list(window) if window else None,
            "self_cpu_total_ns": sum(r["self_cpu_ns"] for r in out),
            "self_device_total_ns": sum(r["self_device_ns"] for r in out if r["on_device"]),
            "rows": out,
        },
        sys.stdout,
        indent=1,
    )
    print()


if __name__ == "__main__":
    main()
