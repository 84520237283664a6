# SPDX-License-Identifier: MIT
"""DuckDB beside sutra-bench-sql: the same two queries over a pandas frame of the same events.

  sql_duckdb.py DIR [--rounds N]

DIR is what `sutra-bench-sql RUN --export DIR` wrote: slices.csv (id, ts, dur, name, track_id of
every slice) and windows.txt (the 1 ms window starts it timed). The frame is read first (not
timed), then each query runs in DuckDB over the frame in place (registered as a view, no copy into
DuckDB's tables), as a pandas user would; medians of CPU and wall time, and the memory the frame
and DuckDB take. DuckDB is installed only for this benchmark (python/requirements.txt).
"""

import argparse
import os
import resource
import statistics
import time

import duckdb
import pandas as pd


def resident_mib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def timed(con, sql):
    c0, w0 = time.process_time(), time.perf_counter()
    rows = con.execute(sql).fetchall()
    return time.process_time() - c0, time.perf_counter() - w0, len(rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    base = resident_mib()
    w0 = time.perf_counter()
    frame_df = pd.read_csv(
        os.path.join(a.dir, "slices.csv"),
        dtype={"id": "int64", "ts": "int64", "dur": "int64", "name": "string", "track_id": "int64"},
        keep_default_na=False,
    )
    frame = resident_mib()
    print(f"frame of {len(frame_df)} slices read in {time.perf_counter() - w0:.1f} s; {frame - base:.1f} MiB")
    with open(os.path.join(a.dir, "windows.txt")) as f:
        starts = [int(line) for line in f if line.strip()]
    con = duckdb.connect()
    con.execute("SET threads = 1")  # as Sutra's query: one thread
    con.register("slice", frame_df)  # a view over the frame, not a copy

    q1 = "SELECT name, count(*), sum(dur) FROM slice GROUP BY name"
    cpus, walls = [], []
    for r in range(a.rounds):
        c, w, n = timed(con, q1)
        cpus.append(c)
        walls.append(w)
        print(f"  Q1 round {r + 1}: {c:.3f} s CPU, {w:.3f} s wall, {n} rows")
    print(
        f"Q1 GROUP BY name: median {statistics.median(cpus):.3f} s CPU, {statistics.median(walls):.3f} s wall"
    )

    cpus, walls, rows = [], [], 0
    for t in starts:
        c, w, n = timed(con, f"SELECT id, ts, dur, name FROM slice WHERE ts >= {t} AND ts < {t + 1000000}")
        cpus.append(c)
        walls.append(w)
        rows += n
    print(
        f"Q2 1 ms window: median {statistics.median(cpus) * 1e3:.3f} ms CPU, "
        f"{statistics.median(walls) * 1e3:.3f} ms wall "
        f"({len(starts)} windows, {rows / max(len(starts), 1):.0f} rows each)"
    )
    print(
        f"memory: frame {frame - base:.1f} MiB, DuckDB {resident_mib() - frame:.1f} MiB more; "
        f"peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB"
    )


if __name__ == "__main__":
    main()
