# SPDX-License-Identifier: MIT
"""run.sql() beside sutra-bench-sql: the same queries through the Python package, DataFrames out.

  PYTHONPATH=build/release/python build/venv/bin/python tests/bench/sql_python.py RUN [--rounds N]

Opens RUN with sutra.open (not timed), then times, each as medians over the rounds in CPU and
wall time: Q1 `SELECT name, count(*), sum(dur) FROM slice GROUP BY name`; Q2 a 1 ms window at 20
starts spread over the trace (as sutra-bench-sql); Q3 every slice's ts, dur and name into a frame
(what handing a large result to pandas costs: NumPy columns for the integers, a string column for
the names). What the Python side adds is the difference from sutra-bench-sql's in-process figures.
"""

import argparse
import statistics
import time

import sutra


def timed(run, query):
    c0, w0 = time.process_time(), time.perf_counter()
    frame = run.sql(query)
    return time.process_time() - c0, time.perf_counter() - w0, len(frame)


def report(label, samples):
    cpu = statistics.median(s[0] for s in samples)
    wall = statistics.median(s[1] for s in samples)
    rows = samples[0][2]
    print(f"{label}: {cpu * 1e3:.3f} ms CPU, {wall * 1e3:.3f} ms wall, {rows:,} rows")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("run")
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    run = sutra.open(a.run, progress=False)
    first, last = run.sql("SELECT min(ts) AS a, max(ts) AS b FROM slice").iloc[0]
    starts = [int(first + (last - first) * i / 20) for i in range(20)]
    timed(run, "SELECT name FROM slice WHERE name = ''")  # builds the name order once, as the bench
    q1 = "SELECT name, count(*), sum(dur) FROM slice GROUP BY name"
    report("Q1 GROUP BY name", [timed(run, q1) for _ in range(a.rounds)])
    q2 = "SELECT id, ts, dur, name FROM slice WHERE ts >= {0} AND ts < {0} + 1000000"
    report("Q2 1 ms window", [timed(run, q2.format(s)) for s in starts])
    q3 = "SELECT ts, dur, name FROM slice"
    report("Q3 every slice", [timed(run, q3) for _ in range(max(1, a.rounds // 2))])


if __name__ == "__main__":
    main()
