#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""timed.py LABEL LOGFILE -- CMD...: run CMD (stdout+stderr to LOGFILE), print one JSON line with the
child's exit status, CPU time (user+sys of it and its waited-for descendants, from wait4) and wall."""

import json
import os
import subprocess
import sys
import time

label, log = sys.argv[1], sys.argv[2]
cmd = sys.argv[sys.argv.index("--") + 1 :]
t0 = time.monotonic()
with open(log, "w") as f:
    p = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT)
    _, status, ru = os.wait4(p.pid, 0)
wall = time.monotonic() - t0
print(
    json.dumps(
        {
            "label": label,
            "rc": os.waitstatus_to_exitcode(status),
            "user": round(ru.ru_utime, 3),
            "sys": round(ru.ru_stime, 3),
            "cpu": round(ru.ru_utime + ru.ru_stime, 3),
            "wall": round(wall, 3),
            "maxrss_mb": round(ru.ru_maxrss / 1024, 1),
            "log": log,
        }
    ),
    flush=True,
)
