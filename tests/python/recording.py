# SPDX-License-Identifier: MIT
"""Fresh recordings for the live oracle: tools/collect's own workloads, recorded into a temporary
folder with the profiler objects kept, so that a test can read torch's numbers of the very run whose
files Sutra reads."""

import argparse
import sys
from pathlib import Path

SOURCE_DIR = Path(__file__).resolve().parents[2]
COLLECT_DIR = SOURCE_DIR / "tools" / "collect"


def collect_workloads():
    """tools/collect/workloads.py, imported (it imports torch: call only where torch is there)."""
    if str(COLLECT_DIR) not in sys.path:
        sys.path.insert(0, str(COLLECT_DIR))
    import workloads

    return workloads


def record(case, out, *, threads=0, wait=1, warmup=1, active=3, rows=4096, hidden=4096, matmul_size=1024):
    """Records `case` (rmsnorm, matmul, transformer, allreduce) into `out` as collect.py would, and
    returns ({folder name: profiler}, {folder name: failure or None}). The all-reduce's ranks run in
    child processes: their profilers stay there."""
    workloads = collect_workloads()
    args = argparse.Namespace(
        out=str(out),
        device="cpu",
        wait=wait,
        warmup=warmup,
        active=active,
        no_gzip=False,
        threads=threads,
        rows=rows,
        hidden=hidden,
        matmul_size=matmul_size,
        command="tests/python (live oracle) %s threads=%d active=%d" % (case, threads, active),
        keep_profile={},
    )
    outcomes = dict(workloads.run_case(case, args))
    profiles = {folder: prof for (folder, _rank), prof in args.keep_profile.items()}
    return profiles, outcomes
