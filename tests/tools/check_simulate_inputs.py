#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Bad input to `sutra-cli simulate` on Chakra graphs: exit 2 and a message naming the file and
the problem, never a crash.

Usage: check_simulate_inputs.py SUTRA_CLI ASTRA_SIM_RING_DIR WORK_DIR   (exit 77: traces absent)
The ring directory holds custom_allreduce.{0..7}.et.
"""

import os
import shutil
import subprocess
import sys


def expect_bad(cli, args, *needles):
    out = subprocess.run([cli, "simulate"] + args, capture_output=True, text=True)
    ok = out.returncode == 2 and all(n in out.stderr for n in needles)
    print(
        ("ok  " if ok else "BAD ")
        + " ".join(args[-1:])
        + ": rc "
        + str(out.returncode)
        + ": "
        + out.stderr.strip().splitlines()[0]
        if out.stderr.strip()
        else "(no message)"
    )
    return ok


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    cli, ring, work = sys.argv[1:]
    if not os.path.isdir(ring):
        print("skipped: ../shared/traces absent")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    ok = True

    # A graph cut short in its last node: the reader names the file and the fault; cut in its
    # first message, it is no trace at all.
    src = os.path.join(ring, "custom_allreduce.0.et")
    with open(src, "rb") as f:
        data = f.read()
    cut = os.path.join(work, "cut.0.et")
    with open(cut, "wb") as f:
        f.write(data[:-10])
    ok &= expect_bad(cli, [cut], cut, "truncated")
    half = os.path.join(work, "half.0.et")
    with open(half, "wb") as f:
        f.write(data[: len(data) // 2])
    ok &= expect_bad(cli, [half], half, "not a trace")

    # A missing rank: ranks 0, 1 and 3 of the ring.
    missing = os.path.join(work, "missing")
    os.makedirs(missing)
    for r in (0, 1, 3):
        shutil.copy(os.path.join(ring, f"custom_allreduce.{r}.et"), missing)
    ok &= expect_bad(cli, [missing], "rank 2 is missing", "custom_allreduce.1.et", "custom_allreduce.3.et")

    # Two graphs that both say rank 0.
    twice = os.path.join(work, "twice")
    os.makedirs(twice)
    shutil.copy(src, os.path.join(twice, "a.0.et"))
    shutil.copy(src, os.path.join(twice, "b.0.et"))
    ok &= expect_bad(cli, [twice], "a.0.et", "b.0.et", "rank 0")

    # An empty file and a file that is not there.
    empty = os.path.join(work, "empty.0.et")
    open(empty, "wb").close()
    ok &= expect_bad(cli, [empty], empty)
    ok &= expect_bad(cli, [os.path.join(work, "absent.0.et")], "absent.0.et")

    # A bad knob value.
    ok &= expect_bad(cli, ["--comm-bandwidth-gbs", "0", src], "--comm-bandwidth-gbs")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
