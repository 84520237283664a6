#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes Sutra's bundled sample traces: synthetic Kineto + PyTorch ET pairs.

These are NOT recordings. They model, deterministically from a seed, what tools/collect/ records
on one (or two) NVIDIA H100 GPUs with PyTorch 2.8: the same ops, shapes and streams, in the exact
file formats of real traces (Kineto Chrome-trace JSON with ns-resolution timestamps relative to
baseTimeNanoseconds; ExecutionTraceObserver JSON, schema 1.1.0-chakra.0.0.4), with every id that
ties the two together. Replace them with recordings when a GPU session runs tools/collect/.

Usage: samplegen.py [--out DIR] [--seed N] [--case NAME ...]
Writes DIR/<case>/rank<r>.kineto.json.gz, rank<r>.et.json.gz, expected.json and SAMPLE.md.
Standard library only.
"""

import argparse
import collections
import gzip
import io
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cases  # noqa: E402
from recorder import Recorder, stable_seed  # noqa: E402

BASE_TIME_NS = 1764547200000000000  # 2025-12-01T00:00:00Z: Kineto's ts are relative to it
START_NS = 5417437123  # the first recorded op, ~5.4 s after the base
ACTIVE_STEPS = [2, 3, 4]  # schedule(wait=1, warmup=1, active=3): ProfilerStep#2..#4
SCHEMA = "1.1.0-chakra.0.0.4"

H100 = {
    "name": "NVIDIA H100 80GB HBM3",
    "totalGlobalMem": 85029158912,
    "computeMajor": 9,
    "computeMinor": 0,
    "maxThreadsPerBlock": 1024,
    "maxThreadsPerMultiprocessor": 2048,
    "regsPerBlock": 65536,
    "warpSize": 32,
    "sharedMemPerBlock": 49152,
    "numSms": 132,
    "regsPerMultiprocessor": 65536,
    "sharedMemPerBlockOptin": 232448,
    "sharedMemPerMultiprocessor": 233472,
}

CASES = collections.OrderedDict(
    [
        (
            "rmsnorm_naive",
            (
                cases.rmsnorm_case("naive"),
                1,
                "RMSNorm of a [4096, 4096] bf16 tensor written out: x * rsqrt(mean(x * x, -1) + eps), "
                "five kernels (mul, mean, add, rsqrt, mul)",
            ),
        ),
        (
            "rmsnorm_fused",
            (
                cases.rmsnorm_case("fused"),
                1,
                "torch.rms_norm on the same tensor: one fused kernel (aten::_fused_rms_norm)",
            ),
        ),
        (
            "rmsnorm_compiled",
            (
                cases.rmsnorm_case("compiled"),
                1,
                "torch.compile of the naive function: one Triton kernel "
                "(triton_red_fused_add_mean_mul_rsqrt_0) launched with cuLaunchKernel",
            ),
        ),
        (
            "matmul_1024",
            (cases.matmul_case, 1, "a [1024, 1024] x [1024, 1024] bf16 matmul (one cuBLAS kernel)"),
        ),
        (
            "transformer_two_streams",
            (
                cases.transformer_case,
                1,
                "a transformer block training step (layer norms, attention, MLP, MSE loss, "
                "backward on the autograd thread, SGD) with the next batch copied on a "
                "second stream; syncs by events, stream waits, .item() and "
                "torch.cuda.synchronize()",
            ),
        ),
        (
            "allreduce_2ranks",
            (
                cases.allreduce_case(2),
                2,
                "two ranks (one H100 each, NCCL): a matmul, then an all-reduce of 16 MiB of "
                "gradients on the NCCL stream, wait, divide",
            ),
        ),
    ]
)


def ts_text(ns):
    """Kineto's microseconds with up to three decimals, from integer ns (exact, no float)."""
    sign = "-" if ns < 0 else ""
    q, r = divmod(abs(ns), 1000)
    if r == 0:
        return "%s%d" % (sign, q)
    return ("%s%d.%03d" % (sign, q, r)).rstrip("0")


def event_text(e):
    parts = []
    for k, v in e.items():
        if k in ("ts", "dur"):
            parts.append('"%s": %s' % (k, ts_text(v)))
        elif k != "args":
            parts.append("%s: %s" % (json.dumps(k), json.dumps(v)))
    text = "  {\n    " + ", ".join(parts)
    if "args" in e:
        text += ',\n    "args": ' + json.dumps(e["args"])
    return text + "\n  }"


def run_rank(case, run, rank, world, seed, peer_ready):
    rng = random.Random(stable_seed(seed, case, rank))
    rec = Recorder(rng, rank=rank, device=rank, start_ns=START_NS + rank * 137000)
    rec.peer_ready = peer_ready
    shared = {}
    for i, step in enumerate(ACTIVE_STEPS):
        with rec.op("ProfilerStep#%d" % step, scope=7):
            if i == 0 and world > 1:
                pg = [
                    {
                        "pg_name": "0",
                        "pg_desc": "default_pg",
                        "backend_config": "cuda:nccl",
                        "ranks": [],
                        "group_size": world,
                        "group_count": 1,
                    }
                ]
                rec.et_only_op("## process_group:init ##", [json.dumps(pg)])
            run(rec, step, shared)
        rec.host_work(30, 60)  # prof.step(): the profiler's own bookkeeping between steps
    rec.finish_et()
    return rec


def generate_case(case, seed):
    run, world, _ = CASES[case]
    peer = {}
    # Collectives end when the last rank arrives: regenerate until every rank agrees on the arrival
    # times (the same seed replays the same host times, so this settles in one pass per collective).
    for _ in range(16):
        recs = [run_rank(case, run, r, world, seed, peer) for r in range(world)]
        merged = {}
        for rec in recs:
            for k, v in rec.collective_ready.items():
                merged[k] = max(merged.get(k, v), v)
        if merged == peer:
            return recs
        peer = merged
    raise RuntimeError("%s: collective times did not settle" % case)


def kineto_text(rec, world, case):
    out = io.StringIO()
    devices = [dict(id=d, **H100) for d in range(max(world, 1))]
    out.write('{\n  "schemaVersion": 1,\n  "deviceProperties": [\n')
    out.write(",\n".join("    " + json.dumps(d) for d in devices))
    out.write(
        '\n  ],\n  "cupti_version": 24,\n  "cuda_runtime_version": 12080,\n'
        '  "cuda_driver_version": 12080,\n  "record_shapes": 1,\n  "traceEvents": [\n'
    )
    host = sorted((e for e in rec.host if e["ph"] == "X"), key=lambda e: (e["tid"], e["ts"], -e["dur"]))
    flows = [e for e in rec.host if e["ph"] != "X"]
    first = min(e["ts"] for e in host)
    last = max(
        max(e["ts"] + e.get("dur", 0) for e in host), max(e["ts"] + e.get("dur", 0) for e in rec.runtime)
    )
    meta_ts = first - 150000
    meta = [
        {
            "name": "process_name",
            "ph": "M",
            "ts": meta_ts,
            "pid": rec.pid,
            "tid": 0,
            "args": {"name": "python3"},
        },
        {
            "name": "process_labels",
            "ph": "M",
            "ts": meta_ts,
            "pid": rec.pid,
            "tid": 0,
            "args": {"labels": "CPU"},
        },
        {
            "name": "process_sort_index",
            "ph": "M",
            "ts": meta_ts,
            "pid": rec.pid,
            "tid": 0,
            "args": {"sort_index": rec.pid},
        },
        {
            "name": "process_name",
            "ph": "M",
            "ts": meta_ts,
            "pid": rec.device,
            "tid": 0,
            "args": {"name": "python3"},
        },
        {
            "name": "process_labels",
            "ph": "M",
            "ts": meta_ts,
            "pid": rec.device,
            "tid": 0,
            "args": {"labels": "GPU %d" % rec.device},
        },
        {
            "name": "process_sort_index",
            "ph": "M",
            "ts": meta_ts,
            "pid": rec.device,
            "tid": 0,
            "args": {"sort_index": 5000000 + rec.device},
        },
    ]
    for stream in sorted(set(e["tid"] for e in rec.runtime if e["pid"] == rec.device)):
        name = "Device %d" % rec.device if stream == -1 else "stream %d " % stream
        meta.append(
            {
                "name": "thread_name",
                "ph": "M",
                "ts": meta_ts,
                "pid": rec.device,
                "tid": stream,
                "args": {"name": name},
            }
        )
        meta.append(
            {
                "name": "thread_sort_index",
                "ph": "M",
                "ts": meta_ts,
                "pid": rec.device,
                "tid": stream,
                "args": {"sort_index": stream},
            }
        )
    for t in rec.threads.values():
        label = "python3" if t.et_tid == 1 else "pt_autograd_%d" % rec.device
        meta.append(
            {
                "name": "thread_name",
                "ph": "M",
                "ts": meta_ts,
                "pid": rec.pid,
                "tid": t.os_tid,
                "args": {"name": "thread %d (%s)" % (t.os_tid, label)},
            }
        )
        meta.append(
            {
                "name": "thread_sort_index",
                "ph": "M",
                "ts": meta_ts,
                "pid": rec.pid,
                "tid": t.os_tid,
                "args": {"sort_index": t.os_tid},
            }
        )
    span_start = first - 120000
    tail = [
        {
            "ph": "X",
            "cat": "Trace",
            "ts": span_start,
            "dur": last + 80000 - span_start,
            "pid": "Spans",
            "tid": "PyTorch Profiler",
            "name": "PyTorch Profiler (0)",
            "args": {"Op count": 0},
        },
        {
            "name": "Iteration Start: PyTorch Profiler",
            "ph": "i",
            "s": "g",
            "pid": "Traces",
            "tid": "Trace PyTorch Profiler",
            "ts": span_start,
        },
        {"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "", "ts": last + 95000},
    ]
    events = host + flows + rec.runtime + meta + tail
    out.write(",\n".join(event_text(e) for e in events))
    out.write("\n  ],\n")
    if world > 1:
        info = {
            "backend": "nccl",
            "rank": rec.rank,
            "world_size": world,
            "pg_count": 1,
            "pg_config": [
                {
                    "pg_name": "0",
                    "pg_desc": "default_pg",
                    "backend_config": "cuda:nccl",
                    "pg_size": world,
                    "ranks": list(range(world)),
                }
            ],
            "nccl_version": "2.27.3",
        }
        out.write('  "distributedInfo": %s,\n' % json.dumps(info))
    out.write(
        '  "traceName": "%s/rank%d.kineto.json",\n  "displayTimeUnit": "ms",\n'
        '  "baseTimeNanoseconds": %d\n}\n' % (case, rec.rank, BASE_TIME_NS)
    )
    return out.getvalue(), events


def et_text(rec):
    steady_ms = 3912457 + START_NS // 1000000
    duration_ms = (max(t.clock for t in rec.threads.values()) - START_NS) // 1000000
    head = {"schema": SCHEMA, "pid": rec.pid, "time": "2025-12-01 00:00:05", "start_ts": steady_ms}
    text = json.dumps(head)[:-1] + ', "nodes": [\n'
    text += ",\n".join(json.dumps(n) for n in rec.et_nodes)
    text += '\n], "finish_ts": %d}\n' % (steady_ms + duration_ms + 1)
    return text


def write_gz(path, text):
    # mtime=0 and no file name in the header: the same input gives the same bytes.
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
            gz.write(text.encode())


def expected_counts(rec, events, world):
    """What the generator wrote, counted from its own records (not by reading the files back)."""
    x = [e for e in events if e["ph"] == "X"]
    by_cat = collections.Counter(e["cat"] for e in x)
    device_ops = [
        e for e in rec.runtime if e["cat"] in ("kernel", "gpu_memcpy", "gpu_memset") and e["ph"] == "X"
    ]
    sync = collections.Counter(
        e["name"] for e in rec.runtime if e.get("cat") == "cuda_sync" and e["ph"] == "X"
    )
    streams = sorted(set(e["tid"] for e in device_ops))
    ops_by_stream = collections.Counter(str(e["tid"]) for e in device_ops)
    nodes = rec.et_nodes
    roots = [n for n in nodes if n["name"].startswith("[pytorch|profiler|execution_trace|")]
    ops = [n for n in nodes if n not in roots]
    comm = [n for n in ops if any(a["name"] == "collective_name" for a in n["attrs"])]
    framework = [e for e in x if e["cat"] in ("cpu_op", "user_annotation")]
    steps = sorted(int(e["name"].split("#")[1]) for e in framework if e["name"].startswith("ProfilerStep#"))
    return {
        "rank": rec.rank if world > 1 else None,
        "world_size": world if world > 1 else None,
        "kineto": {
            "complete_events": len(x),
            "events_by_category": dict(sorted(by_cat.items())),
            "flows": dict(rec.flows),
            "host_threads": len(rec.threads),
            "device_streams": streams,
            "device_ops_by_stream": dict(sorted(ops_by_stream.items())),
            "cuda_sync_by_kind": dict(sorted(sync.items())),
            "profiler_steps": steps,
            "framework_ops_with_rf_id": sum(
                1 for e in framework if e["args"].get("Record function id", 0) > 0
            ),
            "device_name": H100["name"],
            "base_time_ns": BASE_TIME_NS,
            # As written: Kineto's ts are relative to baseTimeNanoseconds.
            "first_profiler_step_ts_ns": min(
                e["ts"] for e in framework if e["name"].startswith("ProfilerStep#")
            ),
        },
        "et": {
            "schema": SCHEMA,
            "nodes": len(nodes),
            "operators": len(ops),
            "thread_roots": len(roots) - 1,
            "comm_nodes": len(comm),
            "operators_only_in_et": rec.et_only_ops,
            "max_node_id": max(n["id"] for n in nodes),
        },
        "sync": {
            "stream_waits_on_work": rec.stream_waits_on_work,
            "host_waits_on_work": rec.host_waits_on_work,
            "blocking_calls_on_work": rec.blocking_calls_on_work,
            "event_waits_without_work": rec.waits_without_work,
        },
        "link": {
            "et_ops": len(ops),
            "matched_et_ops": len(ops) - rec.et_only_ops,
            "device_ops": len(device_ops),
            "linked_device_ops": len(device_ops),
            "streams": streams,
        },
    }


SAMPLE_MD = """# {case}: synthetic sample

**Synthetic: generated by tools/samplegen, not recorded on hardware.**

What it models: {what}, on an NVIDIA H100 80GB HBM3 with PyTorch 2.8 / CUDA 12.8, recorded as
tools/collect/ records it (torch.profiler with `schedule(wait=1, warmup=1, active=3)`,
`record_shapes=True`, CUDA sync events on, and an ExecutionTraceObserver over the same three steps,
ProfilerStep#2 to #4). Device times come from a bandwidth / throughput model, not a measurement;
kernel names, op hierarchies, args and ids follow real PyTorch traces.

Files, one pair per rank (Sutra pairs them by the `rank<N>` in the name):
{files}
- `expected.json`: the counts the generator wrote (events by category, flows, streams, ET nodes,
  what linking must find), used by Sutra's tests (tests/core/samples_test.cpp).

Why synthetic: it models a GPU run, and no GPU has recorded this case for Sutra yet. The test
fixtures in tests/data/synthetic_samples are these models; resources/samples bundles a real CPU
recording of each case but this one where the GPU's behaviour (streams, syncs) is the point.

Regenerate (deterministic, same bytes for the same seed) into the folder that holds this one:

    python3 tools/samplegen/samplegen.py --out tests/data/synthetic_samples --seed {seed} --case {case}

Record the real thing on a GPU machine instead:

    python3 tools/collect/collect.py --case {collect_case} --out traces/
"""

COLLECT_CASE = {
    "rmsnorm_naive": "rmsnorm",
    "rmsnorm_fused": "rmsnorm",
    "rmsnorm_compiled": "rmsnorm",
    "matmul_1024": "matmul",
    "transformer_two_streams": "transformer",
    "allreduce_2ranks": "allreduce",
}


def write_case(case, seed, out_root):
    recs = generate_case(case, seed)
    world = len(recs)
    out = os.path.join(out_root, case)
    os.makedirs(out, exist_ok=True)
    expected = {
        "case": case,
        "seed": seed,
        "synthetic": True,
        "generator": "tools/samplegen/samplegen.py",
        "ranks": [],
    }
    files = []
    for rec in recs:
        ktext, events = kineto_text(rec, world, case)
        kname = "rank%d.kineto.json.gz" % rec.rank
        ename = "rank%d.et.json.gz" % rec.rank
        write_gz(os.path.join(out, kname), ktext)
        write_gz(os.path.join(out, ename), et_text(rec))
        counts = expected_counts(rec, events, world)
        counts["kineto"]["file"] = kname
        counts["et"]["file"] = ename
        expected["ranks"].append(counts)
        files.append(
            "- `%s`: Kineto trace of rank %d\n- `%s`: PyTorch execution trace of rank %d"
            % (kname, rec.rank, ename, rec.rank)
        )
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")
    with open(os.path.join(out, "SAMPLE.md"), "w") as f:
        f.write(
            SAMPLE_MD.format(
                case=case,
                what=CASES[case][2],
                files="\n".join(files),
                seed=seed,
                collect_case=COLLECT_CASE[case],
            )
        )
    return expected


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out",
        default=os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "synthetic_samples"),
        help="output root (default: tests/data/synthetic_samples, the tests' fixtures)",
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--case", action="append", choices=list(CASES), help="only these cases (repeatable)")
    args = parser.parse_args(argv)
    for case in args.case or list(CASES):
        exp = write_case(case, args.seed, args.out)
        r0 = exp["ranks"][0]
        print(
            "%-24s ranks %d  events %6d  device ops %4d  ET nodes %5d"
            % (
                case,
                len(exp["ranks"]),
                r0["kineto"]["complete_events"],
                r0["link"]["device_ops"],
                r0["et"]["nodes"],
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
