# SPDX-License-Identifier: MIT
"""Facts read straight from a recording's files with the standard library, as torch wrote them,
for tests to set beside Sutra's answers."""

import gzip
import json

ET_ROOTS = ("[pytorch|profiler|execution_trace|process]", "[pytorch|profiler|execution_trace|thread]")


def load(path):
    with gzip.open(path, "rt") if str(path).endswith(".gz") else open(path) as f:
        return json.load(f)


def et_attr(node, name):
    for a in node.get("attrs", []):
        if a["name"] == name:
            return a["value"]
    return node.get(name)


def et_ops_kineto_never_saw(et_path, kineto_path):
    """The ET's operator nodes whose rf_id no Kineto event carries: the ET observer records every
    thread and its own process-group record, the profiler only the threads it follows."""
    kineto_rf_ids = {
        e["args"]["Record function id"]
        for e in load(kineto_path)["traceEvents"]
        if isinstance(e.get("args"), dict) and "Record function id" in e["args"]
    }
    return [
        n
        for n in load(et_path)["nodes"]
        if n["name"] not in ET_ROOTS
        and et_attr(n, "rf_id") is not None
        and et_attr(n, "rf_id") not in kineto_rf_ids
    ]
