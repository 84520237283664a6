#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Summarise an ET+ JSON (reference or Sutra): nodes, CPU ops with Kineto times, device nodes, deps."""

import json
import sys

d = json.load(open(sys.argv[1]))
n = d["nodes"]
roots = [x for x in n if x["name"].startswith("[pytorch|profiler|execution_")]
dev = [x for x in n if x.get("cat")]
cpu = [x for x in n if not x.get("cat") and x not in roots]
timed = [x for x in cpu if x.get("ts") not in (None, 0) or x.get("inclusive_dur")]
itd = sum(1 for x in n if x.get("inter_thread_dep") not in (None, -1))
sync = sum(len(x.get("sync_dep") or []) for x in n)
print(
    json.dumps(
        {
            "nodes": len(n),
            "et_ops": len(cpu),
            "et_ops_with_kineto_time": len(timed),
            "device_nodes": len(dev),
            "inter_thread_dep": itd,
            "sync_dep": sync,
        }
    )
)
