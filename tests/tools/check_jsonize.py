#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CLI test of `sutra-cli jsonize`: its JSON must hold, node by node, what an independent
standard-library decoding of the .et file holds (ids, names, types, dependencies, attribute names).

Usage: check_jsonize.py SUTRA_CLI FILE.et...   exit 0 pass, 1 fail, 77 skip (file absent).
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import et_counts  # noqa: E402

TYPES = {
    0: "INVALID_NODE",
    1: "METADATA_NODE",
    2: "MEM_LOAD_NODE",
    3: "MEM_STORE_NODE",
    4: "COMP_NODE",
    5: "COMM_SEND_NODE",
    6: "COMM_RECV_NODE",
    7: "COMM_COLL_NODE",
}


def decode(path):
    data = open(path, "rb").read()
    msgs, pos = [], 0
    while pos < len(data):
        ln, pos = et_counts.varint(data, pos)
        msgs.append(data[pos : pos + ln])
        pos += ln
    nodes = []
    for m in msgs[1:]:
        nd = {"id": 0, "name": "", "type": 0, "ctrl": [], "data": [], "attrs": []}
        for fno, wt, val in et_counts.fields(m):
            if fno == 1 and wt == 0:
                nd["id"] = val
            elif fno == 2:
                nd["name"] = val.decode()
            elif fno == 3:
                nd["type"] = val
            elif fno == 4:
                nd["ctrl"] += et_counts.ints(val, wt)
            elif fno == 5:
                nd["data"] += et_counts.ints(val, wt)
            elif fno == 10:
                for f2, _, v2 in et_counts.fields(val):
                    if f2 == 1:
                        nd["attrs"].append(v2.decode())
        nodes.append(nd)
    return nodes


def main():
    cli, files = sys.argv[1], sys.argv[2:]
    if not all(os.path.exists(f) for f in files):
        print("../shared/traces absent: skipped")
        return 77
    for path in files:
        out = subprocess.run([cli, "jsonize", path], capture_output=True, check=True).stdout
        doc = json.loads(out)
        want = decode(path)
        got = doc["nodes"]
        assert len(got) == len(want), (path, len(got), len(want))
        for g, w in zip(got, want):
            assert int(g.get("id", "0")) == w["id"], (g.get("id"), w["id"])
            assert g.get("name", "") == w["name"]
            assert g.get("type", "INVALID_NODE") == TYPES[w["type"]]
            assert [int(x) for x in g.get("ctrl_deps", [])] == w["ctrl"]
            assert [int(x) for x in g.get("data_deps", [])] == w["data"]
            assert [a["name"] for a in g.get("attr", [])] == w["attrs"]
        print("%s: %d nodes agree" % (path, len(got)))
    # A file that is not an .et: exit 2 and a message naming it.
    bad = subprocess.run([cli, "jsonize", __file__], capture_output=True)
    assert bad.returncode == 2, bad.returncode
    assert os.path.basename(__file__) in bad.stderr.decode(), bad.stderr
    return 0


if __name__ == "__main__":
    sys.exit(main())
