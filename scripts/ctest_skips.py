#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CTest's skipped tests, by reason, from the JUnit file `ctest --output-junit` wrote (make test).

A test may skip only where what it needs is not the project's to give: ../shared/traces (the real
traces beside a checkout; a fresh clone has none) or a GPU. ASTRA-sim, an external simulator the
project does not build, is named apart: the one test that runs it skips without it. Under CI
(CI=true, where ../shared is present) any other skip fails: exit 1. tests/python/conftest.py holds
pytest to the same rule.

Usage: ctest_skips.py JUNIT.xml SHARED_TRACES_DIR
"""

import collections
import os
import re
import sys
import xml.etree.ElementTree as ET

GPU_MISSING = re.compile(r"\b(GPU|CUDA)\b")
ASTRA_SIM_ABSENT = re.compile(r"ASTRA-sim is absent")


def reason_of(output):
    """The reason a test gave: GoogleTest's message after its "Skipped" line, else the line of a
    script's output that says it skipped (exit 77)."""
    lines = [line.strip() for line in (output or "").splitlines()]
    for i, line in enumerate(lines):
        if line.endswith(": Skipped") or line == "Skipped":
            for following in lines[i + 1 :]:
                if following:
                    return following
    for line in lines:
        if "skip" in line.lower() and not line.startswith("[  SKIPPED ]"):
            return line
    return "(no reason given)"


def allowed(reason, shared_present):
    """A missing GPU (or ASTRA-sim), or ../shared named where it is absent."""
    if GPU_MISSING.search(reason) or ASTRA_SIM_ABSENT.search(reason):
        return True
    return "shared" in reason and not shared_present


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    junit, shared = sys.argv[1:]
    shared_present = os.path.isdir(shared)
    reasons = collections.Counter()
    tests = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        if case.get("status") != "skipped" and case.find("skipped") is None:
            continue
        out = case.find("system-out")
        reason = reason_of(out.text if out is not None else "")
        reasons[reason] += 1
        tests.setdefault(reason, []).append(case.get("name"))
    total = sum(reasons.values())
    print(f"ctest: {total} skipped (../shared/traces {'present' if shared_present else 'absent'})")
    bad = 0
    for reason, n in reasons.most_common():
        ok = allowed(reason, shared_present)
        bad += 0 if ok else n
        print(f"{n:5d}  {reason}" + ("" if ok else "  [NOT ALLOWED: only an absent ../shared or GPU]"))
        if not ok:
            for name in tests[reason]:
                print(f"         {name}")
    if bad:
        ci = os.environ.get("CI") == "true"
        print(
            f"ctest: {bad} skip(s) for another reason: {'fails the run (CI=true)' if ci else 'would fail under CI'}"
        )
        return 1 if ci else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
