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
              into its per-rank DataFrame (t.get_trace(0));
  imports     import pandas and sutra, nothing loaded: the interpreter's own baseline, which the
              table subtracts from each sutra load's peak ("peak - imports").
The sutra loads also report the peak before run.events() (open_peak_mb: what open() alone took).
Run it with the venv's Python and PYTHONPATH=<build>/python (make python-package).
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def child(kind: str, trace: str) -> None:
    t0 = time.perf_counter()
    open_peak_mb = None
    if kind == "imports":
        import pandas  # noqa: F401
        import sutra  # noqa: F401

        rows = 0
    elif kind == "hta":
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
        open_peak_mb = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6, 1)
        rows = len(run.events())
    print(
        json.dumps(
            {"rows": rows, "inside_s": round(time.perf_counter() - t0, 3), "open_peak_mb": open_peak_mb}
        )
    )


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
        "peak_mb": round(ru.ru_maxrss * 1024 / 1e6, 1),  # maxrss is in KiB; MB as the file's size
        "open_peak_mb": result.get("open_peak_mb"),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-hta", action="store_true")
    ap.add_argument("--only", choices=["sutra-read", "sutra", "hta", "imports"])
    ap.add_argument("--child", metavar="KIND")
    a = ap.parse_args()
    if a.child:
        child(a.child, a.trace)
        return
    kinds = [a.only] if a.only else ["imports", "sutra-read", "sutra"] + ([] if a.no_hta else ["hta"])
    size_mb = os.path.getsize(a.trace) / 1e6
    medians = {}
    for kind in kinds:
        runs = [measure(kind, a.trace) for _ in range(a.repeat)]
        for r in runs:
            print(json.dumps(r), flush=True)
        medians[kind] = {k: statistics.median(r[k] for r in runs) for k in ("wall_s", "cpu_s", "peak_mb")}
        if runs[0]["open_peak_mb"] is not None:
            medians[kind]["open_peak_mb"] = statistics.median(r["open_peak_mb"] for r in runs)
        medians[kind]["rows"] = runs[0]["rows"]
    print(f"\n{a.trace}: {size_mb:.1f} MB, median of {a.repeat}")
    base = medians.get("imports", {}).get("peak_mb")
    print("| load | rows | wall s | CPU s | peak MB | peak / file | peak - imports / file | open() peak MB |")
    print("|---|---|---|---|---|---|---|---|")
    for kind, m in medians.items():
        less = f"{(m['peak_mb'] - base) / size_mb:.2f}" if base is not None and kind != "imports" else ""
        opened = f"{m['open_peak_mb']:.0f}" if "open_peak_mb" in m else ""
        print(
            f"| {kind} | {m['rows']:,} | {m['wall_s']:.2f} | {m['cpu_s']:.2f} | "
            f"{m['peak_mb']:.0f} | {m['peak_mb'] / size_mb:.2f} | {less} | {opened} |"
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
