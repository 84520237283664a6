#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks `sutra-cli simulate --network --system` on ASTRA-sim's examples against the cycles
ASTRA-sim reports for them (../shared/traces/astra-sim/README.md): every rank within 5 %; and
that a network too small for the run is refused.

Usage: check_simulate_network.py SUTRA_CLI ASTRA_SIM_DIR NETWORK_FIXTURES (exit 77: skipped)
"""

import json
import os
import subprocess
import sys

# (example directory, network file, ASTRA-sim's cycles for every rank)
CASES = [
    ("all_gather_4npus", "ring_4npus.yml", 64744),
    ("custom_allreduce_8npus", "ring_8npus.yml", 90174),
]


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    cli, astra, fixtures = sys.argv[1:]
    if not os.path.isdir(astra):
        print("skipped: ../shared/traces absent")
        return 77
    ok = True
    for example, network, expected in CASES:
        cmd = [
            cli,
            "simulate",
            "--json",
            os.path.join(astra, example),
            "--network",
            os.path.join(fixtures, network),
            "--system",
            os.path.join(fixtures, "ring_4chunks.json"),
        ]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            print(example, "sutra-cli failed:", out.stderr)
            ok = False
            continue
        for rank in json.loads(out.stdout)["ranks"]:
            got = rank["simulated_ns"]
            good = abs(got - expected) <= 0.05 * expected
            print(
                f"{example} rank {rank['rank']}: ASTRA-sim {expected} ns, sutra-cli {got} ns"
                f" ({100.0 * (got - expected) / expected:+.2f} %)"
            )
            ok = ok and good
    # A network with fewer NPUs than the run has ranks is refused, naming the file.
    small = os.path.join(fixtures, "ring_4npus.yml")
    out = subprocess.run(
        [cli, "simulate", os.path.join(astra, "custom_allreduce_8npus"), "--network", small],
        capture_output=True,
        text=True,
    )
    refused = out.returncode == 2 and f"{small} has 4 NPUs, too few for rank 4" in out.stderr
    print("8 ranks on a 4-NPU network:", "refused" if refused else f"not refused: {out.stderr}")
    ok = ok and refused
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
