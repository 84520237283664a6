#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Step breakdown and top-down call tree of a Kineto trace, computed from the JSON without Sutra's
code, to check `sutra-cli breakdown --json` and `sutra-cli calltree --json` (check_views_cli.py).

Breakdown: for the steps Sutra reports (their [start, device_end) and [start, end) spans and the
host thread, taken from its output), every elementary interval between device-op boundaries goes
to the first kind active (kernel > memcpy > memset > communication, NCCL/RCCL kernels being
communication), else idle, per device (a device op's pid); on the host thread each elementary
interval goes to its innermost event (a stack over the thread's events by start, longest first):
a runtime call is runtime, inside an op named *dataloader* is dataloader, inside a cpu_op is CPU
ops, else other.
Call tree: per thread, framework ops, annotations, Python frames and runtime calls nested by the
same stack; a node per path of names with calls, total CPU (their durations), self CPU (total
minus the children's totals) and total device (durations of the device ops whose runtime call,
by correlation, lies in the node's subtree).
"""

import decimal
import gzip
import json

FRAMEWORK = {"cpu_op", "operator", "Operator", "hpu_op", "user_annotation", "python_function"}
CPU_OP = {"cpu_op", "operator", "Operator", "hpu_op"}
RUNTIME = {
    "cuda_runtime",
    "cuda_driver",
    "cuda_sync",
    "Runtime",
    "runtime",
    "mtia_runtime",
    "privateuse1_runtime",
    "privateuse1_driver",
    "xpu_runtime",
    "xpu_driver",
}
KERNEL = {"kernel", "Kernel", "mtia_ccp_events"}
MEMCPY = {"gpu_memcpy", "Memcpy"}
MEMSET = {"gpu_memset", "Memset"}
DEVICE = KERNEL | MEMCPY | MEMSET


def ns(value):
    return int((decimal.Decimal(str(value)) * 1000).to_integral_value())


def load(path):
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rt") as f:
        doc = json.load(f, parse_float=decimal.Decimal)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    out = []
    for order, e in enumerate(events):
        if e.get("ph") != "X" or "ts" not in e:
            continue
        start = ns(e["ts"])
        dur = max(0, ns(e.get("dur", 0)))
        out.append(
            {
                "name": e.get("name", ""),
                "cat": e.get("cat", ""),
                "pid": str(e.get("pid")),
                "tid": str(e.get("tid")),
                "start": start,
                "end": start + dur,
                "corr": (e.get("args") or {}).get("correlation"),
                "order": order,
            }
        )
    return out


def nest(events):
    """Parent of each event of one thread: the innermost earlier event that encloses it."""
    events.sort(key=lambda e: (e["start"], -(e["end"] - e["start"]), e["order"]))
    stack = []
    for e in events:
        while (
            stack
            and stack[-1]["end"] <= e["start"]
            and not (stack[-1]["end"] == e["start"] == stack[-1]["start"])
        ):
            stack.pop()
        while stack and e["end"] > stack[-1]["end"]:
            stack.pop()  # overlaps without nesting: not a child of it
        e["parent"] = stack[-1] if stack else None
        stack.append(e)
    return events


def kind_of_device(e):
    low = e["name"].lower()
    if e["cat"] in KERNEL and ("nccl" in low or "rccl" in low):
        return 3
    if e["cat"] in KERNEL:
        return 0
    if e["cat"] in MEMCPY:
        return 1
    return 2


def device_breakdown(events, start, end):
    """{pid: [kernel, memcpy, memset, communication, idle]} over [start, end): a sweep over the
    ops' boundaries with a count of the active ops of each kind."""
    per_pid = {}
    for e in events:
        if e["cat"] in DEVICE and e["end"] > e["start"] and e["start"] < end and e["end"] > start:
            per_pid.setdefault(e["pid"], []).append(e)
    out = {}
    for pid in {e["pid"] for e in events if e["cat"] in DEVICE}:
        edges = []
        for o in per_pid.get(pid, []):
            k = kind_of_device(o)
            edges.append((max(o["start"], start), 1, k))
            edges.append((min(o["end"], end), -1, k))
        edges.sort()
        active = [0, 0, 0, 0]
        parts = [0] * 5
        t = start
        for time, delta, k in edges:
            if time > t:
                kinds = [i for i in range(4) if active[i] > 0]
                parts[kinds[0] if kinds else 4] += time - t
                t = time
            active[k] += delta
        parts[4] += end - t
        out[pid] = parts
    return out


def host_breakdown(thread_events, start, end):
    """[runtime, dataloader, cpu_ops, other] over [start, end): each event's own time (its span
    less its children's spans) clipped to the window, by what the event is and what encloses it."""
    parts = [0, 0, 0, 0]
    children = {}
    for e in thread_events:
        if e["parent"] is not None:
            children.setdefault(id(e["parent"]), []).append(e)
    covered = 0
    for e in thread_events:
        if e["end"] <= start or e["start"] >= end or e["end"] == e["start"]:
            continue
        own = clip(e["start"], e["end"], start, end)
        for c in children.get(id(e), []):
            own -= clip(max(c["start"], e["start"]), min(c["end"], e["end"]), start, end)
        if e["parent"] is None:
            covered += clip(e["start"], e["end"], start, end)
        if e["cat"] in RUNTIME:
            parts[0] += own
            continue
        chain = []
        x = e
        while x is not None:
            chain.append(x)
            x = x["parent"]
        if any("dataloader" in c["name"].lower() for c in chain):
            parts[1] += own
        elif any(c["cat"] in CPU_OP for c in chain):
            parts[2] += own
        else:
            parts[3] += own
    parts[3] += (end - start) - covered
    return parts


def clip(a, b, start, end):
    return max(0, min(b, end) - max(a, start))


def threads(events, device_threads=None):
    """Host threads: those of processes holding no device op (cuda_sync spans on a device's
    streams, stream -1 included, are no host calls)."""
    if device_threads is None:
        device_threads = {e["pid"] for e in events if e["cat"] in DEVICE}
    out = {}
    for e in events:
        if e["cat"] not in DEVICE and e["pid"] not in device_threads:
            out.setdefault((e["pid"], e["tid"]), []).append(e)
    return {k: nest(v) for k, v in out.items()}


def call_tree(events):
    """{(pid, tid): {path tuple: [calls, total_cpu, self_cpu, total_device]}}, whole trace."""
    by_corr = {}
    for e in events:
        if e["cat"] in RUNTIME and e["corr"] is not None:
            by_corr.setdefault(e["corr"], e)
    device_of = {}
    for e in events:
        if e["cat"] in DEVICE and e["corr"] is not None and e["corr"] in by_corr:
            call = by_corr[e["corr"]]
            device_of[id(call)] = device_of.get(id(call), 0) + (e["end"] - e["start"])
    out = {}
    device_threads = {e["pid"] for e in events if e["cat"] in DEVICE}
    for key, evs in threads([e for e in events if e["cat"] in FRAMEWORK | RUNTIME], device_threads).items():
        tree = {}
        path_of = {}
        for e in evs:  # sorted: parents first
            p = e["parent"]
            path = (path_of[id(p)] if p is not None else ()) + (e["name"],)
            path_of[id(e)] = path
            node = tree.setdefault(path, [0, 0, 0, 0])
            node[0] += 1
            node[1] += e["end"] - e["start"]
            node[2] += e["end"] - e["start"]
            if p is not None:
                tree[path_of[id(p)]][2] -= e["end"] - e["start"]
            dev = device_of.get(id(e), 0)
            for i in range(1, len(path) + 1):
                tree[path[:i]][3] += dev
        for node in tree.values():
            node[2] = max(0, node[2])
        out[key] = tree
    return out
