#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Loading a Kineto trace into an events DataFrame: the sutra package against HTA, side by side.

  bench_python_load.py TRACE [--repeat N] [--no-hta] [--only sutra-read|sutra|hta]

Each measurement runs in a child process of its own (this script with --child), so its CPU time,
wall time and peak memory (wait4's maxrss) are its alone; the median of N runs is printed, one
JSON line each, and a table at the end. The loads:
  sutra-read  sutra.open(TRACE, until="read", event_args=False) then run.events(): the trace read
              and every event as a DataFrame (ts_ns, dur_ns, names as categoricals ...);
  sutra       sutra.open(TRACE) (read, link, steps and operator table: what the analyses need,
              the args text kept) then run.events();
  hta         HTA's TraceAnalysis(trace_dir=a folder holding TRACE only), which parses the trace
              into its per-rank DataFrame (t.get_trace(0)).
Run it with the venv's Python and PYTHONPATH=<build>/python (make python-package).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def child(kind: str, trace: str) -> None:
    t0 = time.perf_counter()
    if kind == "hta":
        import logging

        logging.disable(logging.WARNING)
        from hta.trace_analysis import TraceAnalysis

        folder = tempfile.mkdtemp(prefix="bench-hta-")
        os.symlink(os.path.abspath(trace), os.path.join(folder, os.path.basename(trace)))
        analysis = TraceAnalysis(trace_dir=folder)
        rows = len(analysis.t.get_trace(0))
    else:
        import sutra

        if kind == "sutra-read":
            run = sutra.open(trace, until="read", event_args=False, progress=False)
        else:
            run = sutra.open(trace, progress=False)
        rows = len(run.events())
    print(json.dumps({"rows": rows, "inside_s": round(time.perf_counter() - t0, 3)}))


def measure(kind: str, trace: str) -> dict:
    t0 = time.monotonic()
    p = subprocess.Popen(
        [sys.executable, __file__, "--child", kind, trace], stdout=subprocess.PIPE, text=True
    )
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{kind} failed on {trace}")
    result = json.loads(out.strip().splitlines()[-1])
    return {
        "load": kind,
        "rows": result["rows"],
        "wall_s": round(time.monotonic() - t0, 3),
        "cpu_s": round(ru.ru_utime + ru.ru_stime, 3),
        "peak_mb": round(ru.ru_maxrss / 1024, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-hta", action="store_true")
    ap.add_argument("--only", choices=["sutra-read", "sutra", "hta"])
    ap.add_argument("--child", metavar="KIND")
    a = ap.parse_args()
    if a.child:
        child(a.child, a.trace)
        return
    kinds = [a.only] if a.only else ["sutra-read", "sutra"] + ([] if a.no_hta else ["hta"])
    size_mb = os.path.getsize(a.trace) / 1e6
    medians = {}
    for kind in kinds:
        runs = [measure(kind, a.trace) for _ in range(a.repeat)]
        for r in runs:
            print(json.dumps(r), flush=True)
        medians[kind] = {k: statistics.median(r[k] for r in runs) for k in ("wall_s", "cpu_s", "peak_mb")}
        medians[kind]["rows"] = runs[0]["rows"]
    print(f"\n{a.trace}: {size_mb:.1f} MB, median of {a.repeat}")
    print("| load | rows | wall s | CPU s | peak MB | peak / file |")
    print("|---|---|---|---|---|---|")
    for kind, m in medians.items():
        print(
            f"| {kind} | {m['rows']:,} | {m['wall_s']:.2f} | {m['cpu_s']:.2f} | "
            f"{m['peak_mb']:.0f} | {m['peak_mb'] / size_mb:.2f} |"
        )
    if "hta" in medians:
        for kind in ("sutra-read", "sutra"):
            if kind in medians:
                print(
                    f"HTA / {kind}: {medians['hta']['wall_s'] / medians[kind]['wall_s']:.1f}x wall, "
                    f"{medians['hta']['cpu_s'] / medians[kind]['cpu_s']:.1f}x CPU"
                )


if __name__ == "__main__":
    main()
