#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CLI test of `sutra-cli convert` against the rules ASTRA-sim enforces (../shared/tools/et_check.py).

Usage: check_convert.py SUTRA_CLI SHARED_DIR OUT_DIR
Converts the real ET + Kineto pairs and Kineto traces alone (replicated to 2 ranks, as ASTRA-sim
needs), requires et_check.py to pass on each, and requires it to fail on the reference converter's
feeder_chakra.0.et. Exit 0 pass, 1 fail, 77 skip (../shared absent).
"""

import json
import os
import shutil
import subprocess
import sys

KINETO_ONLY = [
    ("linear_kineto_only", "traces/param/linear_kineto.json.gz"),
    ("rocm_kineto_only", "traces/hta/amd/mi250_minitoy_train_rocm6.2.json.gz"),
    ("mtia_kineto_only", "traces/hta/mtia/mtia_inference_rank_0.json.gz"),
]

PAIRS = [
    ("linear", "traces/param/linear_et.json.gz", "traces/param/linear_kineto.json.gz"),
    (
        "simple_add",
        "traces/hta/execution_trace/simple_add_et.json.gz",
        "traces/hta/execution_trace/simple_add_kineto.json.gz",
    ),
]


def main():
    cli, shared, out = sys.argv[1:4]
    check = os.path.join(shared, "tools", "et_check.py")
    if not os.path.isfile(check):
        print("../shared absent: skipped")
        return 77
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    for name, et, kineto in PAIRS:
        prefix = os.path.join(out, name)
        subprocess.run(
            [
                cli,
                "convert",
                "--et",
                os.path.join(shared, et),
                "--kineto",
                os.path.join(shared, kineto),
                "-o",
                prefix,
                "--ranks",
                "2",
            ],
            check=True,
        )
        res = subprocess.run([sys.executable, check, prefix, "2"], capture_output=True, text=True)
        print(res.stdout)
        if res.returncode != 0:
            print("FAIL: et_check rejects Sutra's %s conversion" % name)
            return 1
    # Kineto traces alone (no ET: their own CPU ops, launches and device ops), on CUDA, ROCm and
    # MTIA, pass the same rules.
    for name, kineto in KINETO_ONLY:
        prefix = os.path.join(out, name)
        res = subprocess.run(
            [
                cli,
                "convert",
                "--kineto",
                os.path.join(shared, kineto),
                "-o",
                prefix,
                "--ranks",
                "2",
                "--json",
            ],
            capture_output=True,
            text=True,
        )
        if res.returncode != 0:
            print("FAIL: converting %s alone: %s" % (kineto, res.stderr))
            return 1
        summary = json.loads(res.stdout)["ranks"][0]
        if summary["link"]["matching"] != "kineto_only" or summary["device_nodes"] == 0:
            print("FAIL: %s alone: %s" % (kineto, summary["link"]))
            return 1
        res = subprocess.run([sys.executable, check, prefix, "2"], capture_output=True, text=True)
        print(res.stdout)
        if res.returncode != 0:
            print("FAIL: et_check rejects Sutra's conversion of %s alone" % kineto)
            return 1
    # The reference converter's file: linked as <prefix>.0.et and <prefix>.1.et for two ranks.
    feeder = os.path.join(shared, "traces", "chakra", "feeder_chakra.0.et")
    for r in (0, 1):
        shutil.copyfile(feeder, os.path.join(out, "feeder.%d.et" % r))
    res = subprocess.run(
        [sys.executable, check, os.path.join(out, "feeder"), "2"], capture_output=True, text=True
    )
    print(res.stdout)
    if res.returncode != 1 or "dependency edges point to 210 node ids absent" not in res.stdout:
        print("FAIL: et_check should reject feeder_chakra.0.et")
        return 1
    # Converting onto an input is refused (exit 2), and the input is left as it was.
    victim = os.path.join(out, "victim")
    shutil.copyfile(os.path.join(shared, PAIRS[1][1]), victim + ".0.et")
    before = open(victim + ".0.et", "rb").read()
    res = subprocess.run(
        [
            cli,
            "convert",
            "--et",
            victim + ".0.et",
            "--kineto",
            os.path.join(shared, PAIRS[1][2]),
            "-o",
            victim,
        ],
        capture_output=True,
        text=True,
    )
    if res.returncode != 2 or "refusing to overwrite" not in res.stderr:
        print("FAIL: converting onto the input was not refused: %d %s" % (res.returncode, res.stderr))
        return 1
    if open(victim + ".0.et", "rb").read() != before:
        print("FAIL: the input was changed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
