#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`sutra-cli convert` writes ASTRA-sim's configurations beside the ranks, and `sutra-cli simulate
--engine astra-sim` runs ASTRA-sim on them: exit 2 with a message saying how to point Sutra at
ASTRA-sim when it is absent; where it is present ($ASTRA_SIM or on PATH), every rank's finish time
beside the measured and Sutra's.

Usage: check_astra_sim_cli.py SUTRA_CLI SHARED_TRACES WORK_DIR   (exit 77: traces absent)
"""

import json
import os
import shutil
import subprocess
import sys

BINARY = "AstraSim_Analytical_Congestion_Unaware"


def astra_sim_found():
    env = os.environ.get("ASTRA_SIM")
    if env:
        return os.access(env, os.X_OK)
    return shutil.which(BINARY) is not None


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    cli, shared, work = sys.argv[1:]
    et = os.path.join(shared, "param", "linear_et.json.gz")
    kineto = os.path.join(shared, "param", "linear_kineto.json.gz")
    if not os.path.isfile(kineto):
        print("skipped: ../shared/traces absent")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    prefix = os.path.join(work, "linear")
    ok = True

    out = subprocess.run(
        [cli, "convert", "--et", et, "--kineto", kineto, "--ranks", "2", "-o", prefix, "--json"],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        print("BAD convert: rc %d: %s" % (out.returncode, out.stderr))
        return 1
    summary = json.loads(out.stdout)
    expected = [
        prefix + ".0.et",
        prefix + ".1.et",
        prefix + ".network.yml",
        prefix + ".system.json",
        prefix + ".memory.json",
    ]
    if summary.get("outputs") != expected or not all(os.path.isfile(p) for p in expected):
        print("BAD convert outputs: %s" % summary.get("outputs"))
        ok = False
    astra = summary.get("astra_sim", {})
    if astra.get("npus") != 2 or "bandwidth_gbps" not in astra or "network_basis" not in astra:
        print("BAD convert astra_sim: %s" % astra)
        ok = False
    with open(prefix + ".network.yml") as f:
        network = f.read()
    for key in ("topology: [Ring]", "npus_count: [2]", "bandwidth:", "latency:"):
        if key not in network:
            print("BAD network.yml lacks %r:\n%s" % (key, network))
            ok = False

    # Absent: exit 2, and the message says how to point Sutra at it.
    env = dict(os.environ, ASTRA_SIM=os.path.join(work, "no_such_astra_sim"))
    out = subprocess.run(
        [cli, "simulate", "--engine", "astra-sim", prefix], capture_output=True, text=True, env=env
    )
    if out.returncode != 2 or "ASTRA_SIM" not in out.stderr:
        print("BAD absent ASTRA-sim: rc %d: %s" % (out.returncode, out.stderr))
        ok = False
    out = subprocess.run([cli, "simulate", "--engine", "nosuch", prefix], capture_output=True, text=True)
    if out.returncode != 2:
        print("BAD unknown engine: rc %d" % out.returncode)
        ok = False

    # What if another network: --network and --system replace the export's for ASTRA-sim, as a
    # fake binary that records its arguments shows.
    fake = os.path.join(work, "fake_astra_sim")
    seen = os.path.join(work, "fake_args.txt")
    with open(fake, "w") as f:
        f.write("#!/bin/sh\necho \"$@\" > '%s'\n" % seen)
        f.write("echo 'sys[0] finished, 1000 cycles, exposed communication 10 cycles.'\n")
        f.write("echo 'sys[1] finished, 1000 cycles, exposed communication 10 cycles.'\n")
    os.chmod(fake, 0o755)
    other = os.path.join(work, "other.network.yml")
    with open(other, "w") as f:
        f.write("topology: [ FullyConnected ]\nnpus_count: [ 2 ]\nbandwidth: [ 25.0 ]\nlatency: [ 700.0 ]\n")
    out = subprocess.run(
        [cli, "simulate", "--engine", "astra-sim", "--network", other, prefix],
        capture_output=True,
        text=True,
        env=dict(os.environ, ASTRA_SIM=fake),
    )
    args = open(seen).read() if os.path.isfile(seen) else ""
    if (
        out.returncode != 0
        or "--network-configuration=" + other not in args
        or "--system-configuration=" + prefix + ".system.json" not in args
    ):
        print(
            "BAD --network with --engine astra-sim: rc %d: %s; ran with: %s"
            % (out.returncode, out.stderr, args)
        )
        ok = False

    if astra_sim_found():
        out = subprocess.run(
            [cli, "simulate", "--engine", "astra-sim", "--json", work], capture_output=True, text=True
        )
        if out.returncode != 0:
            print("BAD simulate --engine astra-sim: rc %d: %s" % (out.returncode, out.stderr))
            ok = False
        else:
            result = json.loads(out.stdout)
            ranks = result.get("ranks", [])
            if (
                result.get("engine") != "astra-sim"
                or [r["rank"] for r in ranks] != [0, 1]
                or not all(r["astra_sim_ns"] > 0 and r["sutra_ns"] and r["measured_ns"] for r in ranks)
            ):
                print("BAD simulate --engine astra-sim --json: %s" % out.stdout)
                ok = False
            else:
                print("ok  ASTRA-sim: %s" % ranks)
    else:
        print("note: ASTRA-sim absent ($ASTRA_SIM unset, %s not on PATH): not run" % BINARY)
    print("ok" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
