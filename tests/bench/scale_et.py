#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Scale a real PyTorch execution trace (ET) or ET+ file to a given size, for sutra-bench-et.

  scale_et.py SOURCE OUT --size-mb N [--fresh-tensors]

SOURCE is an ET or ET+ (.json or .json.gz, any schema Sutra reads: 1.0.1 flat to 1.1.1 attrs).
OUT gets the source's top-level members and back-to-back copies of its "nodes" until the file
holds at least N MB (10^6 bytes): copy k has every id shifted by k * (the largest id + 1), and so
its parent / ctrl_deps, and, in an ET+, its inter_thread_dep and sync_dep, so the copies are
separate, well-formed graphs (k process roots, each its own parent as torch writes it). One node a
line, written with json.dumps's default separators (", ", ": "), close to torch's own layout.
By default the copies keep their tensors' ids, as the steps of one recording do where the caching
allocator hands the same tensors out again; --fresh-tensors shifts each copy's tensor and storage
ids too (every argument value then differs from copy to copy: the case where nothing repeats).
Write OUT under /tmp: a scaled trace is never committed.
"""

import argparse
import gzip
import json
import sys

ap = argparse.ArgumentParser()
ap.add_argument("source")
ap.add_argument("out")
ap.add_argument("--size-mb", type=float, required=True)
ap.add_argument("--fresh-tensors", action="store_true")
a = ap.parse_args()

with open(a.source, "rb") as f:
    head = f.read(2)
opener = gzip.open if head == b"\x1f\x8b" else open
with opener(a.source, "rt", encoding="utf-8") as f:
    doc = json.load(f)
nodes = doc.get("nodes")
if not isinstance(nodes, list) or not nodes:
    sys.exit(f"{a.source}: no nodes array")

ids = [n["id"] for n in nodes if isinstance(n.get("id"), int)]
stride = max(ids) + 1
target = int(a.size_mb * 1e6)


def is_tensor(v):
    # [tensor_id, storage_id, offset, numel, itemsize, device], as every ET schema writes it
    return (
        isinstance(v, list)
        and len(v) == 6
        and isinstance(v[5], str)
        and all(isinstance(x, int) and not isinstance(x, bool) for x in v[:5])
    )


def fresh(value, shift):
    if is_tensor(value):
        return [value[0] + shift, value[1] + shift] + value[2:]
    if isinstance(value, list):
        return [fresh(v, shift) for v in value]
    return value


def shifted(node, offset, copy):
    if offset == 0:
        return node
    n = dict(node)
    if a.fresh_tensors:
        shift = copy * tensor_stride
        for key in ("inputs", "outputs"):
            v = n.get(key)
            if isinstance(v, dict) and "values" in v:
                n[key] = dict(v, values=fresh(v["values"], shift))
            elif isinstance(v, list):
                n[key] = fresh(v, shift)
    for key in ("id", "parent", "ctrl_deps", "inter_thread_dep"):
        v = n.get(key)
        if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
            n[key] = v + offset
    deps = n.get("sync_dep")
    if isinstance(deps, list):
        n["sync_dep"] = [d + offset if isinstance(d, int) and d >= 0 else d for d in deps]
    return n


def largest_tensor_id(value):
    if is_tensor(value):
        return max(value[0], value[1])
    if isinstance(value, list):
        return max((largest_tensor_id(v) for v in value), default=0)
    if isinstance(value, dict):
        return largest_tensor_id(value.get("values"))
    return 0


tensor_stride = max(largest_tensor_id(n.get(k)) for n in nodes for k in ("inputs", "outputs")) + 1
members = {k: v for k, v in doc.items() if k != "nodes"}
written = copies = 0
with open(a.out, "w", encoding="utf-8") as out:
    prefix = "{\n" + "".join(f"  {json.dumps(k)}: {json.dumps(v)},\n" for k, v in members.items())
    out.write(prefix + '  "nodes": [\n')
    written = len(prefix)
    first = True
    while written < target:
        offset = copies * stride
        for node in nodes:
            text = ("    " if first else ",\n    ") + json.dumps(shifted(node, offset, copies))
            first = False
            out.write(text)
            written += len(text)
        copies += 1
    out.write("\n  ]\n}\n")
print(
    f"{a.out}: {copies} copies of {len(nodes)} nodes ({copies * len(nodes)} nodes), {written / 1e6:.1f} MB",
    file=sys.stderr,
)
