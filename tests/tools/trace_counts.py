#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent counts for the real-trace tests (tests/core/real_traces_test.cpp), with the
standard library only. Timestamps are read as decimals (never floats) into integer nanoseconds.

Usage: trace_counts.py FILE.json[.gz]...
Kineto traces: complete events ('X', plus matched 'B'/'E' pairs) in total and by category; lanes
(distinct pid/tid of the events, instants and flow ends); flows (an 's' and an 'f' with the same
category and id, each end on an event of its lane: the enclosing one, or for an end without
"bp":"e" the next one); instants; span (last end - first start, negative durations as 0).
Execution traces: nodes in total, operators (neither "[pytorch|profiler|...|process]" nor
"...|thread]"), distinct tids of the operators, distinct non-empty tensor devices.
"""

import bisect
import collections
import decimal
import gzip
import json
import sys


def load(path):
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rb") as f:
        return json.loads(f.read().decode("utf-8", "replace"), parse_float=decimal.Decimal, strict=False)


def ns(value):
    return int(decimal.Decimal(str(value)) * 1000)


def text(v):
    return v if isinstance(v, str) else str(v)


def kineto(doc):
    events = doc if isinstance(doc, list) else doc.get("traceEvents", [])
    lanes = set()
    by_cat = collections.Counter()
    spans = collections.defaultdict(list)  # lane -> [(start, end)]
    flow_ends = collections.defaultdict(lambda: {"s": None, "f": None})
    instants = 0
    open_begins = collections.defaultdict(list)
    for e in events:
        ph = e.get("ph", "")
        lane = (text(e.get("pid", "")), text(e.get("tid", "")))
        if ph in ("X", "B", "E", "i", "I", "s", "f") and "ts" in e:
            lanes.add(lane)
        if ph == "X" and "ts" in e:
            start = ns(e["ts"])
            dur = max(ns(e.get("dur", 0)), 0)
            by_cat[e.get("cat", "")] += 1
            spans[lane].append((start, start + dur))
        elif ph == "B" and "ts" in e:
            open_begins[lane].append(e)
        elif ph == "E" and "ts" in e and open_begins[lane]:
            b = open_begins[lane].pop()
            by_cat[b.get("cat", "")] += 1
            spans[lane].append((ns(b["ts"]), ns(e["ts"])))
        elif ph in ("i", "I"):
            instants += 1
        elif ph in ("s", "f") and "ts" in e and "id" in e:
            flow_ends[(e.get("cat", ""), int(e["id"]))][ph] = (lane, ns(e["ts"]), e.get("bp") == "e")
    for lane in spans:
        spans[lane].sort()
    starts = {lane: [s for s, _ in v] for lane, v in spans.items()}

    def bound(end):
        lane, t, enclosing_only = end
        if any(s <= t <= f for s, f in spans.get(lane, [])):
            return True
        if enclosing_only:
            return False
        return bisect.bisect_left(starts.get(lane, []), t) < len(starts.get(lane, []))

    flows = sum(
        1 for ends in flow_ends.values() if ends["s"] and ends["f"] and bound(ends["s"]) and bound(ends["f"])
    )
    all_spans = [x for v in spans.values() for x in v]
    span = max(f for _, f in all_spans) - min(s for s, _ in all_spans) if all_spans else 0
    return {
        "events": sum(by_cat.values()),
        "by_category": dict(sorted(by_cat.items())),
        "lanes": len(lanes),
        "flows": flows,
        "instants": instants,
        "span_ns": span,
    }


def tensor_devices(value, out):
    if isinstance(value, list):
        if (
            len(value) == 6
            and isinstance(value[5], str)
            and all(isinstance(x, (int, decimal.Decimal)) for x in value[:5])
        ):
            if value[5]:  # "" = no device recorded
                out.add(value[5])
        else:
            for v in value:
                tensor_devices(v, out)


def execution_trace(doc):
    nodes = doc["nodes"]
    ops = [
        n
        for n in nodes
        if not (n["name"].startswith("[pytorch|profiler|") and n["name"].endswith(("|process]", "|thread]")))
    ]
    tids = set()
    devices = set()
    for n in ops:
        attrs = {a["name"]: a["value"] for a in n.get("attrs", [])}
        tids.add(int(n["tid"]) if "tid" in n else int(attrs.get("tid", 0)))
        for side in ("inputs", "outputs"):
            v = n.get(side, [])
            tensor_devices(v["values"] if isinstance(v, dict) else v, devices)
    return {
        "nodes": len(nodes),
        "operators": len(ops),
        "threads": len(tids),
        "devices": sorted(devices),
        "schema": doc.get("schema"),
    }


def main():
    for path in sys.argv[1:]:
        doc = load(path)
        counts = execution_trace(doc) if isinstance(doc, dict) and "nodes" in doc else kineto(doc)
        print(path, json.dumps(counts, default=str))


if __name__ == "__main__":
    main()
