#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Golden checks of `sutra-cli simulate` on real Kineto traces.

Usage: check_simulate.py SUTRA_CLI TRACE.json.gz...   (exit 77 = skipped: traces absent)

For every trace: --json parses, each step's simulated time with no knobs is within 3% of its
measured time, and the measured times of ProfilerStep#N steps (else of the spans between repeats of
the outermost repeating annotation) equal the ones computed here independently of Sutra: from the
step's start to the later of its end and the end of the last device op whose launching runtime call
(same `correlation`) starts inside it.
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
RUNTIME_CATS = {
    "cuda_runtime",
    "cuda_driver",
    "runtime",
    "mtia_runtime",
    "privateuse1_runtime",
    "privateuse1_driver",
    "xpu_runtime",
    "xpu_driver",
}


def ns(value):
    return int((decimal.Decimal(str(value)) * 1000).to_integral_value(decimal.ROUND_HALF_EVEN))


def repeat_steps(xs):
    """Without ProfilerStep: the spans between consecutive instances of the outermost repeating
    user annotation (no instance of another repeating one encloses it; of several, the one whose
    first instance starts first), on the thread of its first instance."""
    ua = [e for e in xs if e.get("cat") == "user_annotation"]
    count = {}
    for e in ua:
        count[e["name"]] = count.get(e["name"], 0) + 1
    by_thread = {}
    for e in ua:
        e["_start"], e["_end"] = ns(e["ts"]), ns(e["ts"]) + ns(e.get("dur", 0))
        by_thread.setdefault((str(e["pid"]), str(e["tid"])), []).append(e)
    candidates = []  # (start, -dur, thread, name)
    outer = {}  # thread -> name -> starts of instances not nested in their own name
    for thread, evs in by_thread.items():
        evs.sort(key=lambda e: (e["_start"], -e["_end"]))
        stack = []
        for e in evs:
            while stack and (e["_start"] >= stack[-1]["_end"] or e["_end"] > stack[-1]["_end"]):
                stack.pop()
            if count[e["name"]] >= 2:
                if not any(count[a["name"]] >= 2 and a["name"] != e["name"] for a in stack):
                    candidates.append((e["_start"], -(e["_end"] - e["_start"]), thread, e["name"]))
                if not any(a["name"] == e["name"] for a in stack):
                    outer.setdefault(thread, {}).setdefault(e["name"], []).append(e["_start"])
            stack.append(e)
    if not candidates:
        return {}
    _, _, thread, name = min(candidates)
    starts = outer[thread][name]
    return {k: (starts[k], starts[k + 1]) for k in range(len(starts) - 1)}


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
            n = int(name[len("ProfilerStep#") :])
            start = ns(e["ts"])
            if n not in steps or start < steps[n][0]:
                steps[n] = (start, start + ns(e.get("dur", 0)))
    if not steps:
        steps = repeat_steps(xs)
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
            check(
                m > 0 and abs(sim - m) <= 0.03 * m, f"{trace}: step {s['step']} measured {m} simulated {sim}"
            )
        expected = expected_steps(trace)
        if expected is not None:
            got = {s["step"]: s["measured_ns"] for s in steps}
            check(got == expected, f"{trace}: measured steps {got} != independently computed {expected}")
        rc, out, err = run(cli, "--kineto", trace, "--json", "--scale", ".=0.5")
        check(rc == 0, f"{trace} --scale: exit {rc}: {err}")
        if rc == 0:
            faster_rank = json.loads(out)["ranks"][0]
            faster = faster_rank["steps"]
            check(
                faster_rank["simulated_ns"] <= rank["simulated_ns"],
                f"{trace}: faster kernels made the trace slower",
            )
            # A step of its own annotation never gets slower; a span between repeats of an
            # annotation may (its start moves earlier than its end where the previous span waited
            # on the faster device), their sum may not.
            own = [
                (a, b)
                for a, b in zip(steps, faster)
                if a["name"].startswith("ProfilerStep#") or a["name"] == "whole trace"
            ]
            for a, b in own:
                check(
                    b["simulated_ns"] <= a["simulated_ns"],
                    f"{trace}: faster kernels made step {a['step']} slower",
                )
            if len(own) < len(steps):
                check(
                    sum(b["simulated_ns"] for b in faster) <= sum(a["simulated_ns"] for a in steps),
                    f"{trace}: faster kernels made the steps slower",
                )

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
        for args, needle in [
            (["--kineto", missing], "missing.json.gz"),
            (["--kineto", trace, "--scale", "gemm"], "REGEX=FACTOR"),
            (["--kineto", trace, "--scale", "(=2"], "not a valid regular expression"),
            (["--kineto", trace, "--cpu-speed", "0"], "--cpu-speed"),
            (["--kineto", trace, "--step", "123456"], "no step 123456"),
            (["--kineto", trace, "--bogus"], "unknown option"),
            ([], "no input"),
        ]:
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
