#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""sutra-cli re-executes itself once with glibc.malloc.hugetlb=1 (core/util/huge_pages.h): the
re-executed run must be the run the user asked for. Each command runs with the re-exec and without
it (SUTRA_NO_HUGE_PAGES=1) and must give the same exit status, output and errors; a path with a
space and non-ASCII letters checks that the arguments pass through the exec untouched.

  check_huge_pages.py SUTRA_CLI FIXTURE_DIR
"""

import os
import shutil
import subprocess
import sys
import tempfile

cli, data = sys.argv[1], sys.argv[2]
work = tempfile.mkdtemp()
try:
    odd = os.path.join(work, "a trace é.json")
    shutil.copy(os.path.join(data, "et", "attrs_1.1.0.json"), odd)
    cases = [["info", odd], ["info", os.path.join(work, "missing é.json")], ["--version"]]
    failures = 0
    for args in cases:
        runs = []
        for off in (None, "1"):
            env = {k: v for k, v in os.environ.items() if k not in ("GLIBC_TUNABLES", "SUTRA_NO_HUGE_PAGES")}
            if off:
                env["SUTRA_NO_HUGE_PAGES"] = off
            p = subprocess.run([cli] + args, env=env, capture_output=True, timeout=120)
            runs.append((p.returncode, p.stdout, p.stderr))
        if runs[0] != runs[1]:
            failures += 1
            print(f"FAIL {args}: with the re-exec {runs[0]!r}, without {runs[1]!r}")
        else:
            print(f"ok {args}: exit {runs[0][0]}, {len(runs[0][1])} bytes out")
    # The user's own setting wins: no second tunable is added.
    env = dict(os.environ, GLIBC_TUNABLES="glibc.malloc.hugetlb=0")
    p = subprocess.run([cli, "info", odd], env=env, capture_output=True, timeout=120)
    if p.returncode != 0:
        failures += 1
        print(f"FAIL with the user's GLIBC_TUNABLES: exit {p.returncode}: {p.stderr!r}")
    sys.exit(1 if failures else 0)
finally:
    shutil.rmtree(work)
