#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Count the nodes of a Chakra .et file by type and its dependencies, decoded with Chakra's own
protolib and et_def_pb2 (PYTHONPATH must hold the reference's chakra package)."""

import collections
import json
import sys

from chakra.schema.protobuf.et_def_pb2 import GlobalMetadata, Node
from chakra.src.third_party.utils.protolib import decodeMessage, openFileRd

f = openFileRd(sys.argv[1])
meta = GlobalMetadata()
decodeMessage(f, meta)
types, ctrl, data, n = collections.Counter(), 0, 0, 0
node = Node()
while decodeMessage(f, node):
    n += 1
    types[Node.DESCRIPTOR.fields_by_name["type"].enum_type.values_by_number[node.type].name] += 1
    ctrl += len(node.ctrl_deps)
    data += len(node.data_deps)
    node = Node()
print(json.dumps({"nodes": n, "by_type": dict(types), "ctrl_deps": ctrl, "data_deps": data}))
