#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks `sutra-cli ranks` on folders written by sutra-gen-ranks against the generator's own
answer (--truth): one row per rank with the issue's fields, each mean computed here from the
generator's steps; the slow rank named as the straggler; --save and the saved summaries merged
from two "nodes"; a second run answered from the cache; bad input exits 2 naming the file.

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
        for key, field in (("step_ns", "duration_ns"), ("compute_ns", "compute_ns"),
                           ("comm_ns", "exposed_comm_ns"), ("idle_ns", "idle_ns")):
            mean = sum(s[field] for s in steps) // n
            assert row[key] == mean, (row["rank"], key, row[key], mean)
        assert row["clock_offset_ns"] == -want["clock_skew_ns"], row


def main():
    cli, gen = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="sutra_ranks_cli_")
    try:
        job = os.path.join(tmp, "job")
        truth_path = os.path.join(tmp, "truth.json")
        run([gen, job, "--ranks", "20", "--steps", "3", "--buckets", "2", "--kernels", "5",
             "--slow-rank", "13", "--truth", truth_path])
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

        # Bad input.
        bad = os.path.join(tmp, "bad.json")
        open(bad, "w").write('{"sutra_rank_summaries": 1, "ranks": 3}')
        p = run([cli, "ranks", bad], expect=2)
        assert p.stderr == (f"sutra-cli ranks: {bad}: not a rank summary file Sutra can read: "
                            'no "ranks" array\n'), p.stderr
        p = run([cli, "ranks", job, "--sort", "speed"], expect=2)
        assert "--sort: 'speed' is not a column" in p.stderr, p.stderr
        p = run([cli, "ranks", job, "--save", os.path.join(job, "rank0.pt.trace.json")], expect=2)
        assert "refusing to overwrite an input" in p.stderr, p.stderr
    finally:
        shutil.rmtree(tmp)
    print("ok")


if __name__ == "__main__":
    main()
