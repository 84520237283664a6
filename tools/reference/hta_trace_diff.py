#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""hta_trace_diff.py CONTROL_DIR TEST_DIR OUT.csv: HTA's TraceDiff.compare_traces on two trace folders
(PYTHONPATH must hold HTA's hta package), over every ProfilerStep iteration of the first rank of each,
CPU ops and GPU kernels (DeviceType.ALL), as `sutra-cli compare A B` compares whole traces.
Writes the comparison table (one row per name: counts and total durations, both sides) to OUT.csv
and prints a JSON summary line."""

import json
import sys
import time

t0 = time.monotonic()
from hta.trace_diff import DeviceType, LabeledTrace, TraceDiff

control = LabeledTrace(label="control", trace_dir=sys.argv[1])
test = LabeledTrace(label="test", trace_dir=sys.argv[2])
t1 = time.monotonic()
comp = TraceDiff.compare_traces(
    control,
    test,
    control_iteration=control.iterations(),
    test_iteration=test.iterations(),
    device_type=DeviceType.ALL,
)
t2 = time.monotonic()
comp.to_csv(sys.argv[3])
print(
    json.dumps(
        {
            "rows": len(comp),
            "control_iterations": control.iterations(),
            "test_iterations": test.iterations(),
            "control_events": int(comp["control_counts"].sum()),
            "test_events": int(comp["test_counts"].sum()),
            "seconds": {"load": round(t1 - t0, 3), "compare": round(t2 - t1, 3)},
        }
    )
)
