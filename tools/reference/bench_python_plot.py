#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How long the sutra package's timeline pictures take on a big trace.

  bench_python_plot.py TRACE

Opens TRACE (until="read", no args text), builds rank 0's lane layout once, then draws windows of
about 10,000 and 100,000 events from the middle of the trace (each twice: the first picture of a
process pays for matplotlib's fonts) and the whole trace, each as a figure and then as a PNG (Agg),
printing CPU and wall seconds and the boxes drawn. Run it with the venv's Python and
PYTHONPATH=<build>/python (make python-package).
"""

import io
import sys
import time

import matplotlib

matplotlib.use("Agg")
import numpy as np
import sutra


def timed(run, what, **window):
    t, w = time.process_time(), time.perf_counter()
    fig = run.plot_timeline(**window)
    t1, w1 = time.process_time(), time.perf_counter()
    fig.savefig(io.BytesIO(), format="png", dpi=100)
    boxes = sum(len(c.get_paths()) for ax in fig.axes for c in ax.collections)
    print(
        f"{what}: figure {t1 - t:.2f} s CPU ({w1 - w:.2f} wall), + PNG {time.process_time() - t1:.2f} s CPU "
        f"({time.perf_counter() - w1:.2f} wall); {boxes:,} boxes"
    )


def main() -> None:
    run = sutra.open(sys.argv[1], until="read", event_args=False, progress=False)
    ts = np.sort(run.events(run.ranks[0])["ts_ns"].to_numpy())
    t, w = time.process_time(), time.perf_counter()
    run._layout(0, None)
    print(
        f"lane layout of rank {run.ranks[0]}: {time.process_time() - t:.2f} s CPU, {time.perf_counter() - w:.2f} s wall"
    )
    mid = len(ts) // 2
    for n in (10_000, 100_000):
        start, end = int(ts[mid]), int(ts[min(mid + n, len(ts) - 1)])
        inside = int(((ts >= start) & (ts <= end)).sum())
        for again in ("", ", again"):
            timed(run, f"{inside:,} events in the window{again}", start=start, end=end, ranks=run.ranks[0])
    timed(run, "the whole trace", ranks=run.ranks[0])


if __name__ == "__main__":
    main()
