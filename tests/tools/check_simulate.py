#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Golden checks of `sutra-cli simulate` on real Kineto traces.

Usage: check_simulate.py SUTRA_CLI TRACE.json.gz...   (exit 77 = skipped: traces absent)

For every trace: --json parses, each step's simulated time with no knobs is within 3% of its
measured time, and the measured times of ProfilerStep#N / Optimizer.step# steps equal the ones
computed here independently of Sutra: from the annotation's start to the later of its end and the
end of the last device op whose launching runtime call (same `correlation`) starts inside it.
Knobs never make a step slower when they make kernels faster; -o writes Chrome-trace JSON; bad
input exits 2 with a message naming the problem.
"""
import decimal
import gzip
import json
import os
import subprocess
import sys
import tempfile

DEVICE_CATS = {"kernel", "gpu_memcpy", "gpu_memset", "mtia_ccp_events"}
RUNTIME_CATS = {"cuda_runtime", "cuda_driver", "runtime", "mtia_runtime", "privateuse1_runtime",
                "privateuse1_driver", "xpu_runtime", "xpu_driver"}


def ns(value):
    return int((decimal.Decimal(str(value)) * 1000).to_integral_value(decimal.ROUND_HALF_EVEN))


def expected_steps(path):
    """{step number: measured ns} for annotated steps, or None for a whole-trace step."""
    with gzip.open(path, "rt") as f:
        doc = json.load(f, parse_float=decimal.Decimal)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    xs = [e for e in events if e.get("ph") == "X" and "ts" in e]
    steps = {}
    for e in xs:
        name = str(e.get("name", ""))
        if e.get("cat") == "user_annotation" and name.startswith("ProfilerStep#"):
            n = int(name[len("ProfilerStep#"):])
            start = ns(e["ts"])
            if n not in steps or start < steps[n][0]:
                steps[n] = (start, start + ns(e.get("dur", 0)))
    if not steps:
        opt = sorted((ns(e["ts"]), ns(e["ts"]) + ns(e.get("dur", 0))) for e in xs
                     if e.get("cat") == "user_annotation" and str(e.get("name", "")).startswith("Optimizer.step#"))
        steps = {i: w for i, w in enumerate(opt)}
    if not steps:
        return None
    calls = {}
    for e in xs:
        c = (e.get("args") or {}).get("correlation")
        if e.get("cat") in RUNTIME_CATS and isinstance(c, int) and c > 0:
            calls.setdefault(c, ns(e["ts"]))
    out = {n: end for n, (start, end) in steps.items()}
    for e in xs:
        c = (e.get("args") or {}).get("correlation")
        if e.get("cat") not in DEVICE_CATS or c not in calls:
            continue
        t, dev_end = calls[c], ns(e["ts"]) + ns(e.get("dur", 0))
        for n, (start, end) in steps.items():
            if start <= t < end:
                out[n] = max(out[n], dev_end)
    return {n: out[n] - steps[n][0] for n in steps}


def run(cli, *args):
    p = subprocess.run([cli, "simulate", *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def main():
    cli, traces = sys.argv[1], sys.argv[2:]
    if not all(os.path.exists(t) for t in traces):
        print("shared traces absent: skipped")
        return 77
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)

    for trace in traces:
        rc, out, err = run(cli, "--kineto", trace, "--json")
        check(rc == 0, f"{trace}: exit {rc}: {err}")
        if rc != 0:
            continue
        rank = json.loads(out)["ranks"][0]
        steps = rank["steps"]
        check(len(steps) > 0, f"{trace}: no steps")
        for s in steps:
            m, sim = s["measured_ns"], s["simulated_ns"]
            check(m > 0 and abs(sim - m) <= 0.03 * m, f"{trace}: step {s['step']} measured {m} simulated {sim}")
        expected = expected_steps(trace)
        if expected is not None:
            got = {s["step"]: s["measured_ns"] for s in steps}
            check(got == expected, f"{trace}: measured steps {got} != independently computed {expected}")
        rc, out, err = run(cli, "--kineto", trace, "--json", "--scale", ".=0.5")
        check(rc == 0, f"{trace} --scale: exit {rc}: {err}")
        if rc == 0:
            faster = json.loads(out)["ranks"][0]["steps"]
            for a, b in zip(steps, faster):
                check(b["simulated_ns"] <= a["simulated_ns"], f"{trace}: faster kernels made step {a['step']} slower")

    trace = traces[0]
    with tempfile.TemporaryDirectory() as tmp:
        timeline = os.path.join(tmp, "sim.json")
        rc, out, err = run(cli, "--kineto", trace, "--cpu-speed", "2", "-o", timeline)
        check(rc == 0 and "simulated timeline written" in out, f"-o: exit {rc}: {err}")
        if rc == 0:
            with open(timeline) as f:
                doc = json.load(f)
            complete = [e for e in doc["traceEvents"] if e["ph"] == "X"]
            check(len(complete) > 0 and all(e["dur"] >= 0 for e in complete), "-o: no or negative events")
        missing = os.path.join(tmp, "missing.json.gz")
        for args, needle in [(["--kineto", missing], "missing.json.gz"),
                             (["--kineto", trace, "--scale", "gemm"], "REGEX=FACTOR"),
                             (["--kineto", trace, "--scale", "(=2"], "not a valid regular expression"),
                             (["--kineto", trace, "--cpu-speed", "0"], "--cpu-speed"),
                             (["--kineto", trace, "--step", "123456"], "no step 123456"),
                             (["--kineto", trace, "--bogus"], "unknown option"),
                             ([], "no input")]:
            rc, out, err = run(cli, *args)
            check(rc == 2 and needle in err, f"{args}: expected exit 2 naming '{needle}', got {rc}: {err}")
    rc, out, err = run(cli, "--help")
    check(rc == 0 and "--launch-latency-us" in out, "--help")

    for f in failures:
        print("FAIL:", f)
    print(f"{len(traces)} traces, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
