#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""et_names.py A.et B.et: the nodes of two Chakra .et files counted by name, decoded with Chakra's own
protolib and et_def_pb2 (PYTHONPATH must hold the reference's chakra package); prints one JSON line
with both totals and the names whose counts differ (count in A, count in B)."""

import collections
import json
import sys

from chakra.schema.protobuf.et_def_pb2 import GlobalMetadata, Node
from chakra.src.third_party.utils.protolib import decodeMessage, openFileRd


def names(path):
    f = openFileRd(path)
    decodeMessage(f, GlobalMetadata())
    counts, node = collections.Counter(), Node()
    while decodeMessage(f, node):
        counts[node.name] += 1
        node = Node()
    return counts


a, b = names(sys.argv[1]), names(sys.argv[2])
diff = {n: [a[n], b[n]] for n in sorted(set(a) | set(b)) if a[n] != b[n]}
print(
    json.dumps(
        {
            "a_nodes": sum(a.values()),
            "b_nodes": sum(b.values()),
            "names": len(set(a) | set(b)),
            "differing_names": diff,
        }
    )
)
