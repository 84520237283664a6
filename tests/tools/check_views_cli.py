#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks sutra-cli breakdown, calltree and memory on real traces against views_expected.py.

Usage: check_views_cli.py SUTRA_CLI TRACES_DIR
Exit 0 when every check passes, 1 on a failed check, 77 (skipped) when TRACES_DIR is absent.
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import views_expected as ve  # noqa: E402

TRACES = [
    "hta/critical_path/alexnet.json.gz",
    "param/linear_kineto.json.gz",
    "hta/amd/mi250_minitoy_train_rocm6.2.json.gz",
    "kineto/h100_before_fix_trace.json",
    "hta/trace_compare/base.json.gz",
    "kineto/resnet50_2021_autograd_api.pt.trace.json.gz",
]
failures = []


def run(cli, *args):
    p = subprocess.run([cli, *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def flatten(nodes, prefix, out):
    for n in nodes:
        path = prefix + (n["name"],)
        prev = out.get(path, [0, 0, 0, 0])
        # Sutra merges calls of one name under one parent path, as the reference does.
        out[path] = [
            prev[0] + n["calls"],
            prev[1] + n["total_cpu_ns"],
            prev[2] + n["self_cpu_ns"],
            prev[3] + n["total_device_ns"],
        ]
        flatten(n["children"], path, out)


def main():
    cli, traces = sys.argv[1], sys.argv[2]
    if not os.path.isdir(traces):
        print("shared traces absent: skipped")
        return 77
    for rel in TRACES:
        path = os.path.join(traces, rel)
        events = ve.load(path)
        by_thread = ve.threads(events)
        rc, out, err = run(cli, "breakdown", path, "--json")
        check(rc == 0, f"breakdown {rel}: exit {rc} {err}")
        if rc != 0:
            continue
        doc = json.loads(out)
        for step in doc["steps"]:
            pid_tid = step["host"]["thread"].split(" ")[0]
            pid, tid = pid_tid.split("/", 1)
            expected = ve.host_breakdown(by_thread.get((pid, tid), []), step["start_ns"], step["end_ns"])
            h = step["host"]
            got = [h["runtime_ns"], h["dataloader_ns"], h["cpu_ops_ns"], h["other_ns"]]
            check(got == expected, f"breakdown {rel} step {step['step']} host {got} != {expected}")
            dev = ve.device_breakdown(events, step["start_ns"], step["device_end_ns"])
            exp_dev = sorted(tuple(v) for v in dev.values())
            got_dev = sorted(
                (d["kernel_ns"], d["memcpy_ns"], d["memset_ns"], d["communication_ns"], d["idle_ns"])
                for d in step["devices"]
            )
            check(got_dev == exp_dev, f"breakdown {rel} step {step['step']} device {got_dev} != {exp_dev}")
        print(f"breakdown {rel}: {len(doc['steps'])} steps checked")

        rc, out, err = run(cli, "calltree", path, "--json")
        check(rc == 0, f"calltree {rel}: exit {rc} {err}")
        if rc != 0:
            continue
        expected = ve.call_tree(events)
        doc = json.loads(out)
        got_threads = {}
        for t in doc["threads"]:
            pid, tid = t["thread"].split(" ")[0].split("/", 1)
            flat = {}
            flatten(t["nodes"], (), flat)
            got_threads[(pid, tid)] = flat
        check(
            set(got_threads) == set(expected),
            f"calltree {rel}: threads {sorted(got_threads)} != {sorted(expected)}",
        )
        nodes = 0
        for key, tree in expected.items():
            got = got_threads.get(key, {})
            check(
                set(got) == set(tree),
                f"calltree {rel} {key}: {len(set(got) ^ set(tree))} paths differ, e.g. "
                f"{sorted(set(got) ^ set(tree))[:2]}",
            )
            for node_path, values in tree.items():
                if node_path in got and got[node_path] != values:
                    check(False, f"calltree {rel} {key} {node_path}: {got[node_path]} != {values}")
            nodes += len(tree)
        print(f"calltree {rel}: {nodes} nodes checked")

        rc, out, err = run(cli, "memory", path, "--json")
        check(
            rc == 0 and json.loads(out)["devices"] == [] and json.loads(out)["memory_events"] == 0,
            f"memory {rel}: a trace without [memory] events has no devices",
        )
    rc, out, _ = run(cli, "memory", os.path.join(traces, TRACES[0]))
    check(rc == 0 and out.startswith("No memory events in "), "memory: no events said in words")
    print("FAILED" if failures else "all views checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
