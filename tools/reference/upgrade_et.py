#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Rewrite a PyTorch ET of schema 1.0.1 (flat layout) in the 1.0.2-chakra.0.0.4 layout, the oldest one
chakra_converter accepts (it rejects '1.0.1'). Same nodes, same values: parent -> ctrl_deps,
inputs/input_shapes/input_types -> inputs{values,shapes,types} (same for outputs), the other fields
-> attrs with the types PyTorch writes."""

import json
import sys

TYPES = {
    "rf_id": "uint64",
    "fw_parent": "uint64",
    "seq_id": "int64",
    "scope": "uint64",
    "tid": "uint64",
    "fw_tid": "uint64",
    "op_schema": "string",
}
d = json.load(open(sys.argv[1]))
assert d["schema"] == "1.0.1", d["schema"]
d["schema"] = "1.0.2-chakra.0.0.4"
out = []
for x in d["nodes"]:
    y = {
        "id": x["id"],
        "name": x["name"],
        "ctrl_deps": x["parent"],
        "inputs": {
            "values": x.get("inputs", []),
            "shapes": x.get("input_shapes", []),
            "types": x.get("input_types", []),
        },
        "outputs": {
            "values": x.get("outputs", []),
            "shapes": x.get("output_shapes", []),
            "types": x.get("output_types", []),
        },
        "attrs": [{"name": k, "type": t, "value": x[k]} for k, t in TYPES.items() if k in x],
    }
    extra = (
        set(x)
        - set(TYPES)
        - {
            "id",
            "name",
            "parent",
            "inputs",
            "input_shapes",
            "input_types",
            "outputs",
            "output_shapes",
            "output_types",
        }
    )
    assert not extra, extra
    out.append(y)
d["nodes"] = out
json.dump(d, open(sys.argv[2], "w"))
