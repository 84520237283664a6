#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CLI test of `sutra-cli export` (every format) and `sutra-cli convert --linked`.

Usage: check_export.py SUTRA_CLI DATA_DIR SHARED_TRACES OUT_DIR
The committed fixture (tests/data/export/small_kineto.json) is exported whole and per step and
read back with Python's json; the real linear pair (../shared, skipped where absent) is exported
to ET+, Chakra and the simulated timeline, and the ET+ file converts to the same Chakra graph as
the pair it came from. Exit 0 pass, 1 fail.
"""

import gzip
import json
import os
import shutil
import subprocess
import sys

FAILED = []


def run(cli, *args, expect=0):
    res = subprocess.run([cli, *args], capture_output=True, text=True)
    if res.returncode != expect:
        FAILED.append(
            "%s: exit %d, expected %d\n%s%s"
            % (" ".join(args), res.returncode, expect, res.stdout, res.stderr)
        )
    return res


def check(cond, what):
    if not cond:
        FAILED.append(what)


def complete_events(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f)
    return doc, [e for e in doc["traceEvents"] if e.get("ph") == "X"]


def main():
    cli, data, shared, out = sys.argv[1:5]
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    fixture = os.path.join(data, "export", "small_kineto.json")

    # The whole measured timeline, gzipped by its name: the fixture's 6 X events and its B/E pair.
    whole = os.path.join(out, "whole.json.gz")
    res = run(cli, "export", "--to", "chrome", fixture, "-o", whole)
    check("wrote %s: 7 of 7 events" % whole in res.stdout, "whole export summary: " + res.stdout)
    doc, events = complete_events(whole)
    check(len(events) == 7, "whole export holds %d X events, expected 7" % len(events))
    check(doc.get("distributedInfo", {}).get("rank") == 1, "distributedInfo not kept")

    # Step 1 (ProfilerStep#1, 0..100.5 us): the step, aten::mm, its launch and the gemm kernel.
    step = os.path.join(out, "step1.json")
    res = run(cli, "export", "--to", "chrome", fixture, "--step", "1", "-o", step, "--json")
    summary = json.loads(res.stdout or "{}")
    check(summary.get("events") == 4, "step 1 summary: %s" % res.stdout)
    _, events = complete_events(step)
    check(
        sorted(e["name"] for e in events)
        == sorted(["ProfilerStep#1", "aten::mm", "cudaLaunchKernel", 'gemm "quoted" \u00e9']),
        "step 1 events: %s" % [e["name"] for e in events],
    )

    # Never over the input; a step the trace lacks; a format nobody knows; a directory of ranks.
    copy = os.path.join(out, "input.json")
    shutil.copyfile(fixture, copy)
    before = open(copy, "rb").read()
    res = run(cli, "export", "--to", "chrome", copy, "-o", copy, expect=2)
    check("refusing to overwrite an input" in res.stderr, "overwrite: " + res.stderr)
    check(open(copy, "rb").read() == before, "the input was changed")
    res = run(
        cli, "export", "--to", "chrome", fixture, "--step", "9", "-o", os.path.join(out, "x.json"), expect=2
    )
    check("9" in res.stderr and "step" in res.stderr, "missing step: " + res.stderr)
    res = run(cli, "export", "--to", "pdf", fixture, "-o", os.path.join(out, "x.pdf"), expect=2)
    check(res.stderr.startswith("sutra-cli export: unknown format 'pdf'"), "format: " + res.stderr)
    two_ranks = os.path.join(data, "discover", "two_ranks")
    res = run(cli, "export", "--to", "chrome", two_ranks, "-o", os.path.join(out, "r.json"), expect=2)
    check("ranks; choose one: a rank's own file, or --rank R" in res.stderr, "ranks: " + res.stderr)
    run(cli, "export", "--to", "chrome", two_ranks, "--rank", "1", "-o", os.path.join(out, "r1.json"))
    # A file that is no Kineto trace says what it is, or why it is no trace.
    res = run(
        cli,
        "export",
        "--to",
        "chrome",
        os.path.join(data, "et", "flat_1.0.1.json"),
        "-o",
        os.path.join(out, "x.json"),
        expect=2,
    )
    check(res.stderr.rstrip().endswith("no Kineto trace (it is a PyTorch ET)"), "ET: " + res.stderr)
    res = run(
        cli,
        "export",
        "--to",
        "chrome",
        os.path.join(data, "bad", "empty.json.gz"),
        "-o",
        os.path.join(out, "x.json"),
        expect=2,
    )
    check("no Kineto trace (empty file" in res.stderr, "empty: " + res.stderr)
    res = run(cli, "help", "export")
    check(res.stdout.startswith("Usage: sutra-cli export"), "help export: " + res.stdout)
    check(not os.path.exists(os.path.join(out, "x.json")), "a failed export left a file")

    if not os.path.isdir(shared):
        print("../shared absent: real-pair exports skipped")
    else:
        et = os.path.join(shared, "param", "linear_et.json.gz")
        kineto = os.path.join(shared, "param", "linear_kineto.json.gz")
        etplus = os.path.join(out, "linear_et_plus.json")
        run(cli, "export", "--to", "et+", "--et", et, "--kineto", kineto, "-o", etplus)
        res = run(cli, "info", "--json", etplus)
        check('"linked_et"' in res.stdout, "the ET+ export is not classified as ET+: " + res.stdout[:300])
        direct = json.loads(
            run(
                cli,
                "export",
                "--to",
                "chakra",
                "--et",
                et,
                "--kineto",
                kineto,
                "-o",
                os.path.join(out, "direct"),
                "--json",
            ).stdout
            or "{}"
        )
        linked = json.loads(
            run(cli, "convert", "--linked", etplus, "-o", os.path.join(out, "from_etplus"), "--json").stdout
            or "{}"
        )
        d, l = direct.get("ranks", [{}])[0], linked.get("ranks", [{}])[0]
        for key in ("nodes", "nodes_by_type", "cpu_nodes", "device_nodes"):
            check(
                d.get(key) == l.get(key) and d.get(key) is not None,
                "convert --linked %s: %s, from the pair: %s" % (key, l.get(key), d.get(key)),
            )
        check(os.path.isfile(os.path.join(out, "from_etplus.0.et")), "no from_etplus.0.et")
        sim = os.path.join(out, "simulated.json")
        run(cli, "export", "--to", "simulated", "--kineto", kineto, "-o", sim)
        _, events = complete_events(sim)
        check(len(events) > 0, "the simulated timeline is empty")

    for f in FAILED:
        print("FAIL:", f)
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
