#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Producers and consumers of one ET node's tensors, from the ET JSON alone (schema 1.0.1 layout).

The rule the chain follows: a tensor is (tensor id, storage id); a producer of an input is the
latest earlier node (by id) that output it, not an enclosing node; the consumers of an output are
the later nodes outside the op's subtree that read it, until a node writes it again.
Usage: et_data_deps_expected.py ET.json.gz NODE_ID
"""

import gzip
import json
import sys


def main():
    doc = json.load(gzip.open(sys.argv[1]))
    node_id = int(sys.argv[2])
    nodes = {n["id"]: n for n in doc["nodes"]}

    def tensors(values, types):
        out = []
        for v, t in zip(values, types):
            if t.startswith("Tensor") and isinstance(v, list) and len(v) == 6:
                out.append((v[0], v[1]))
            elif t.startswith("GenericList") and isinstance(v, list):
                out += [(x[0], x[1]) for x in v if isinstance(x, list) and len(x) == 6]
        return out

    def ancestors(n):
        seen, p = set(), nodes.get(n["parent"])
        while p is not None and p["id"] not in seen and p["id"] != n["id"]:
            seen.add(p["id"])
            if p["parent"] == p["id"]:
                break
            p = nodes.get(p["parent"])
        return seen

    ops = sorted(
        (n for n in doc["nodes"] if not n["name"].startswith("[pytorch|profiler")), key=lambda n: n["id"]
    )
    me = nodes[node_id]
    above = ancestors(me)
    producers, consumers = [], []
    for t in tensors(me["inputs"], me["input_types"]):
        for n in reversed([o for o in ops if o["id"] < node_id]):
            if n["id"] not in above and t in tensors(n["outputs"], n["output_types"]):
                producers.append(n["id"])
                break
    for t in tensors(me["outputs"], me["output_types"]):
        for n in (o for o in ops if o["id"] > node_id):
            if node_id in ancestors(n) or n["id"] in above:
                continue
            if t in tensors(n["inputs"], n["input_types"]):
                consumers.append(n["id"])
            if t in tensors(n["outputs"], n["output_types"]):
                break
    print(json.dumps({"node": node_id, "producers": producers, "consumers": consumers}))


if __name__ == "__main__":
    main()
