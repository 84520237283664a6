#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks `sutra-cli ranks` on folders written by sutra-gen-ranks against the generator's own
answer (--truth): one row per rank with the issue's fields, each mean computed here from the
generator's steps; the slow rank named as the straggler; --save and the saved summaries merged
from two "nodes"; a second run answered from the cache; bad input exits 2 naming the file.
`sutra-cli breakdown` on a folder of 4 ranks: each rank's steps (kernel and exposed communication
time from the generator's steps) and per step the rank that computes longest, named by its kernel
time.

Usage: check_ranks_cli.py SUTRA_CLI SUTRA_GEN_RANKS
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile


def run(cmd, expect=0):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != expect:
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}, wanted {expect}\n{p.stdout}\n{p.stderr}")
    return p


def check_rows(doc, truth):
    ranks = doc["ranks"]
    assert len(ranks) == len(truth["ranks"]), (len(ranks), len(truth["ranks"]))
    for row, want in zip(ranks, truth["ranks"]):
        for key in ("rank", "steps", "step_ns", "compute_ns", "comm_ns", "idle_ns"):
            assert key in row, f"rank row lacks {key}: {row}"
        steps = want["steps"]
        n = len(steps)
        assert row["rank"] == want["rank"]
        assert row["steps"] == n
        # Integer means, as Sutra keeps nanoseconds.
        for key, field in (
            ("step_ns", "duration_ns"),
            ("compute_ns", "compute_ns"),
            ("comm_ns", "exposed_comm_ns"),
            ("idle_ns", "idle_ns"),
        ):
            mean = sum(s[field] for s in steps) // n
            assert row[key] == mean, (row["rank"], key, row[key], mean)
        assert row["clock_offset_ns"] == -want["clock_skew_ns"], row


def check_breakdown(cli, gen, tmp):
    job = os.path.join(tmp, "breakdown_job")
    truth_path = os.path.join(tmp, "breakdown_truth.json")
    run(
        [
            gen,
            job,
            "--ranks",
            "4",
            "--steps",
            "3",
            "--buckets",
            "2",
            "--kernels",
            "5",
            "--slow-rank",
            "2",
            "--truth",
            truth_path,
        ]
    )
    truth = json.load(open(truth_path))
    doc = json.loads(run([cli, "breakdown", job, "--json"]).stdout)
    assert [r["rank"] for r in doc["ranks"]] == [0, 1, 2, 3], doc["ranks"]
    for row, want in zip(doc["ranks"], truth["ranks"]):
        assert os.path.basename(row["path"]) == f"rank{want['rank']}.pt.trace.json", row["path"]
        assert len(row["steps"]) == len(want["steps"])
        for got, step in zip(row["steps"], want["steps"]):
            assert got["step"] == step["number"]
            device = got["devices"][0]
            assert device["kernel_ns"] == step["compute_ns"], (row["rank"], got, step)
            assert device["communication_ns"] == step["exposed_comm_ns"], (row["rank"], got, step)
    # Per step: the ranks end together, so the one named is the rank computing longest (the slow
    # rank), against the one computing least, by kernel time.
    assert len(doc["longest"]) == 3, doc["longest"]
    for s, got in enumerate(doc["longest"]):
        compute = [r["steps"][s]["compute_ns"] for r in truth["ranks"]]
        most, least = compute.index(max(compute)), compute.index(min(compute))
        assert most == 2
        assert (got["longest_rank"], got["shortest_rank"]) == (most, least), got
        assert got["even"] and got["part"] == "kernel", got
        assert (got["part_longest_ns"], got["part_shortest_ns"]) == (compute[most], compute[least])
    text = run([cli, "breakdown", job]).stdout
    for r in range(4):
        assert f"rank {r} (rank{r}.pt.trace.json):" in text, text
    assert "Across the ranks:" in text and "rank 2 is longest by kernel" in text, text
    one = json.loads(run([cli, "breakdown", job, "--step", "1", "--json"]).stdout)
    assert [len(r["steps"]) for r in one["ranks"]] == [1, 1, 1, 1]
    assert [x["step"] for x in one["longest"]] == [1]
    p = run([cli, "breakdown", job, "--step", "9"], expect=2)
    assert "rank0.pt.trace.json: no step 9" in p.stderr, p.stderr


def main():
    cli, gen = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="sutra_ranks_cli_")
    try:
        job = os.path.join(tmp, "job")
        truth_path = os.path.join(tmp, "truth.json")
        run(
            [
                gen,
                job,
                "--ranks",
                "20",
                "--steps",
                "3",
                "--buckets",
                "2",
                "--kernels",
                "5",
                "--slow-rank",
                "13",
                "--truth",
                truth_path,
            ]
        )
        truth = json.load(open(truth_path))
        cache = os.path.join(tmp, "cache")
        p = run([cli, "ranks", job, "--json", "--cache-dir", cache, "--progress"])
        doc = json.loads(p.stdout)
        check_rows(doc, truth)
        assert [s["rank"] for s in doc["stragglers"]] == [13], doc["stragglers"]
        s = doc["stragglers"][0]
        assert s["last_arrivals"] == 6 and s["collectives"] == 6, s
        assert s["delayed"] and s["delayed"][0]["collective"] == "allreduce", s
        # The delays Sutra names: the last arrival minus the one before it, from the truth.
        delays = []
        for c in truth["collectives"]:
            a = sorted(c["arrival_ns"])
            delays.append(a[-1] - a[-2])
        assert s["delay_caused_ns"] == sum(delays), (s["delay_caused_ns"], sum(delays))
        assert s["delayed"][0]["delay_ns"] == max(delays)
        assert doc["collectives"] == 6 and doc["unmatched_comms"] == 0
        # A progress line per rank on stderr.
        lines = [l for l in p.stderr.splitlines() if l.startswith("ranks: ")]
        assert len(lines) == 20 and lines[-1].startswith("ranks: 20/20"), p.stderr

        # Again: every summary from the cache, the same rows.
        again = json.loads(run([cli, "ranks", job, "--json", "--cache-dir", cache]).stdout)
        assert again["ranks"] == doc["ranks"] and again["stragglers"] == doc["stragglers"]

        # Per node: --save on each half, then the saved files merged.
        saved = []
        for node, ranks in (("a", range(0, 10)), ("b", range(10, 20))):
            d = os.path.join(tmp, node)
            os.makedirs(d)
            for r in ranks:
                shutil.copy(os.path.join(job, f"rank{r}.pt.trace.json"), d)
            out = os.path.join(tmp, f"{node}.json")
            run([cli, "ranks", d, "--save", out, "--no-cache"])
            saved.append(out)
        merged = json.loads(run([cli, "ranks", "--json", *saved]).stdout)
        strip = lambda rows: [{k: v for k, v in r.items() if k != "path"} for r in rows]
        assert strip(merged["ranks"]) == strip(doc["ranks"])
        assert [x["rank"] for x in merged["stragglers"]] == [13]

        text = run([cli, "ranks", job, "--cache-dir", cache, "--sort", "compute"]).stdout
        table = [l.split() for l in text.splitlines() if len(l.split()) == 8 and l.split()[0].isdigit()]
        assert table[0][0] == "13", text
        assert "rank 13: arrived last at 6 of 6 collectives" in text, text

        check_breakdown(cli, gen, tmp)

        # Bad input.
        bad = os.path.join(tmp, "bad.json")
        open(bad, "w").write('{"sutra_rank_summaries": 1, "ranks": 3}')
        p = run([cli, "ranks", bad], expect=2)
        assert p.stderr == (
            f'sutra-cli ranks: {bad}: not a rank summary file Sutra can read: no "ranks" array\n'
        ), p.stderr
        p = run([cli, "ranks", job, "--sort", "speed"], expect=2)
        assert "--sort: 'speed' is not a column" in p.stderr, p.stderr
        p = run([cli, "ranks", job, "--save", os.path.join(job, "rank0.pt.trace.json")], expect=2)
        assert "refusing to overwrite an input" in p.stderr, p.stderr
    finally:
        shutil.rmtree(tmp)
    print("ok")


if __name__ == "__main__":
    main()
