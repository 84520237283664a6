#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes tests/data/all_ranks/three_ranks/: a hand-made 3-rank Kineto run on one host (one clock).
# Each rank runs ProfilerStep#1: aten::mm launching a GEMM, c10d::allreduce_ launching the NCCL
# all-reduce, a second aten::mm. Rank 1 starts its step 50 us after rank 0, rank 2 400 us after:
# rank 2 is the slow rank, and every rank's all-reduce ends together at 1000700 us.
# Expected numbers for tests/widgets/all_ranks_test.cpp, from this file alone:
#   union of ranks: [1000000, 1000720] us; aten::mm: 2 per rank; "allreduce": 2 per rank;
#   first ProfilerStep starts: 1000000, 1000050, 1000400 us -> aligned offsets 0, -50, -400 us.
# Also tests/data/all_ranks/skewed_clocks/: ranks 0 and 1 of the same run, rank 1 recorded on a
# clock 5000 us ahead (every ts + 5000): aligned on collectives (their ends) rank 1 moves by
# -5000 us and keeps its 50 us late start; aligned on the first ProfilerStep it moves by -5050 us.
import json
import os
import sys

BASES = [1000000, 1000050, 1000400]
SKEW = 5000
COLLECTIVE_END = 1000700
STEP_END = 1000720


def rank_events(rank, base):
    host = {"pid": 100 + rank, "tid": 100 + rank}
    gpu = {"pid": rank}
    return [
        {
            "ph": "X",
            "cat": "user_annotation",
            "name": "ProfilerStep#1",
            **host,
            "ts": base,
            "dur": STEP_END - base,
        },
        {"ph": "X", "cat": "cpu_op", "name": "aten::mm", **host, "ts": base + 10, "dur": 40},
        {
            "ph": "X",
            "cat": "cuda_runtime",
            "name": "cudaLaunchKernel",
            **host,
            "ts": base + 20,
            "dur": 10,
            "args": {"correlation": 11},
        },
        {
            "ph": "X",
            "cat": "kernel",
            "name": "gemm_kernel",
            **gpu,
            "tid": 7,
            "ts": base + 35,
            "dur": 100,
            "args": {"correlation": 11, "stream": 7, "device": rank},
        },
        {"ph": "X", "cat": "cpu_op", "name": "c10d::allreduce_", **host, "ts": base + 60, "dur": 30},
        {
            "ph": "X",
            "cat": "cuda_runtime",
            "name": "cudaLaunchKernel",
            **host,
            "ts": base + 70,
            "dur": 8,
            "args": {"correlation": 12},
        },
        {
            "ph": "X",
            "cat": "kernel",
            "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL",
            **gpu,
            "tid": 20,
            "ts": base + 140,
            "dur": COLLECTIVE_END - (base + 140),
            "args": {"correlation": 12, "stream": 20, "device": rank},
        },
        {"ph": "X", "cat": "cpu_op", "name": "aten::mm", **host, "ts": base + 100, "dur": 30},
        {"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 11, **host, "ts": base + 20},
        {"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 11, "bp": "e", **gpu, "tid": 7, "ts": base + 35},
        {"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 12, **host, "ts": base + 70},
        {"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 12, "bp": "e", **gpu, "tid": 20, "ts": base + 140},
    ]


def write(out, rank, world, events):
    doc = {
        "schemaVersion": 1,
        "distributedInfo": {"backend": "nccl", "rank": rank, "world_size": world},
        "traceEvents": events,
    }
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, f"rank{rank}.json"), "w") as f:  # one event a line
        head = json.dumps({k: v for k, v in doc.items() if k != "traceEvents"})[:-1]
        lines = ",\n".join("  " + json.dumps(e) for e in doc["traceEvents"])
        f.write(head + ', "traceEvents": [\n' + lines + "\n]}\n")


def main():
    data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../data/all_ranks")
    for rank, base in enumerate(BASES):
        write(os.path.join(data, "three_ranks"), rank, 3, rank_events(rank, base))
    for rank, base in enumerate(BASES[:2]):
        events = rank_events(rank, base)
        for e in events:
            e["ts"] += SKEW * rank
        write(os.path.join(data, "skewed_clocks"), rank, 2, events)


if __name__ == "__main__":
    main()
