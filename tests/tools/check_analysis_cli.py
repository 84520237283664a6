#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks sutra-cli stats, compare, chain and critical-path end to end on real traces.

Usage: check_analysis_cli.py SUTRA_CLI TRACES_DIR
Exit 0 when every check passes, 1 on a failed check, 77 (skipped) when TRACES_DIR is absent.
stats --json is compared row by row with op_table_expected.py, which computes the table from the
JSON without Sutra's code.
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
failures = []


def run(cli, *args):
    p = subprocess.run([cli, *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def main():
    cli, traces = sys.argv[1], sys.argv[2]
    if not os.path.isdir(traces):
        print("shared traces absent: skipped")
        return 77
    base = os.path.join(traces, "hta/trace_compare/base.json.gz")
    test = os.path.join(traces, "hta/trace_compare/test.json.gz")
    sync = os.path.join(traces, "hta/critical_path/cuda_event_sync.json.gz")

    for command in ("stats", "compare", "chain", "critical-path"):
        rc, out, _ = run(cli, command, "--help")
        check(rc == 0 and "Usage: sutra-cli " + command in out, command + " --help")
        rc, _, err = run(cli, command, "/nonexistent/trace.json")
        check(rc == 2 and err.startswith("sutra-cli " + command + ": "), command + " on a missing file")

    rc, out, _ = run(cli, "stats", base, "--step", "1009", "--json")
    check(rc == 0, "stats --json exit 0")
    got = json.loads(out)
    want = json.loads(
        subprocess.check_output(
            [sys.executable, os.path.join(HERE, "op_table_expected.py"), base, "--step", "1009"]
        )
    )
    check(got["device"] == "CUDA", "stats device")
    check([got["window"]["start_ns"], got["window"]["end_ns"]] == want["window"], "stats window")
    fields = ("calls", "self_cpu_ns", "cpu_total_ns", "self_device_ns", "device_total_ns")
    key = lambda r: (r["name"],) + tuple(r[f] for f in fields)
    check(sorted(map(key, got["rows"])) == sorted(map(key, want["rows"])), "stats rows = independent rows")

    rc, out, _ = run(cli, "stats", base)
    check(
        rc == 0 and "Self CPU time total: 223.188ms" in out and "Self CUDA time total: 1.694ms" in out,
        "stats text totals as torch prints them",
    )
    rc, out, _ = run(cli, "stats", base, "--csv", "--limit", "2", "--sort", "calls")
    check(rc == 0 and len(out.strip().splitlines()) == 3, "stats --csv --limit 2")
    rc, _, err = run(cli, "stats", base, "--sort", "bogus")
    check(rc == 2 and "unknown key 'bogus'" in err, "stats --sort bogus")
    rc, _, err = run(cli, "stats", base, "--step", "7")
    check(rc == 2 and "no step 7 (steps: 1009, 1010)" in err, "stats --step 7")

    rc, out, _ = run(cli, "compare", base, test, "--json")
    check(rc == 0, "compare exit 0")
    doc = json.loads(out)
    check(
        doc["a"]["self_device_total_ns"] == 1694000 and doc["b"]["self_device_total_ns"] == 1690000,
        "compare totals",
    )
    check(sum(1 for r in doc["rows"] if r["side"] == "b") == 3, "compare: 3 ops only in test")
    rc, out, _ = run(cli, "compare", base, "--step-a", "1009", "--step-b", "1010")
    # 16 of the file's 18 device ops have no launch in it: they belong to no step (HTA's iteration
    # -1), shown apart (before: charged to the step they ran in, 727 us -> 959 us).
    check(
        rc == 0
        and "Self CUDA total: 4.000 us -> 4.000 us (same)" in out
        and "Launched before the trace (in no step, not in the rows): A 9 device ops, 723.0 us; "
        "B 5 device ops, 955.0 us"
        in out,
        "compare two steps",
    )
    rc, _, err = run(cli, "compare", base)
    check(rc == 2 and "two different steps" in err, "compare one trace without steps")

    rc, out, _ = run(cli, "chain", sync, "--name", "Memcpy DtoH (Device -> Pageable)", "--json")
    check(rc == 0, "chain exit 0")
    hops = json.loads(out)["hops"]
    check([h["kind"] for h in hops][-3:] == ["runtime_call", "device_op", "sync"], "chain hop kinds")
    rc, _, err = run(cli, "chain", sync, "--name", "no such op")
    check(rc == 2 and "no event named 'no such op'" in err, "chain unknown name")
    rc, _, err = run(cli, "chain", sync, "--event", "99999")
    check(rc == 2 and "no event 99999" in err, "chain unknown id")

    linear = os.path.join(traces, "param/linear_kineto.json.gz")
    linear_et = os.path.join(traces, "param/linear_et.json.gz")
    rc, out, _ = run(
        cli, "chain", linear, "--name", "aten::addmm", "--nth", "22", "--et", linear_et, "--json"
    )
    kinds = [h["kind"] for h in json.loads(out)["hops"]] if rc == 0 else []
    check("data_producer" in kinds and "data_consumer" in kinds, "chain --et lists data dependencies")
    rc, _, err = run(cli, "chain", linear, "--name", "aten::addmm", "--et", "/nonexistent/et.json")
    check(rc == 2 and "/nonexistent/et.json" in err, "chain --et missing file")

    rc, out, _ = run(cli, "critical-path", sync, "--json")
    check(rc == 0, "critical-path exit 0")
    path = json.loads(out)
    check(path["length_ns"] == sum(path["breakdown"].values()), "critical path parts sum to the length")
    check(path["length_ns"] == sum(s["weight_ns"] for s in path["segments"]), "segments sum to the length")
    rc, out, _ = run(cli, "critical-path", sync)
    # The step annotation is no CPU work (HTA): the path runs from the first op to the last.
    check(
        rc == 0 and out.startswith("Window: step 100\nCritical path: 2.419 ms of a 2.577 ms span"),
        "critical-path text",
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
