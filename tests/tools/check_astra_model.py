#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`sutra-cli convert --for astra-sim` on multi-rank runs, judged by `sutra-cli simulate --engine
astra-model` (ASTRA-sim's rules in Sutra): every rank must finish within TOLERANCE of its measured
iteration. The bundled samples (two ranks with NCCL, one rank with two streams replicated), a
folder of 8 ranks from sutra-gen-ranks (compute and communication streams overlapping, a slow
rank) and, where ../shared is beside the project, real traces from it. The default export (made
for Sutra's simulator) is run under the same rules beside it, the "before". Where ASTRA-sim is
found ($ASTRA_SIM or on PATH), `--engine astra-sim` runs too: within 5 % of measured, and
astra-model within 1 % of ASTRA-sim (3 % on the export made for Sutra's simulator). The graphs
pass et_check.py where ../shared/tools has it.

Usage: check_astra_model.py SUTRA_CLI SAMPLES SHARED_TRACES GEN_RANKS WORK_DIR [--table]
"""

import json
import os
import shutil
import subprocess
import sys

TOLERANCE = 0.01  # astra-model against the measured iteration, per rank
# Runs whose collectives are gloo's (real CPU recordings): ASTRA-sim costs them on the network
# fitted to them, one bandwidth for transfers a busy host made uneven, so the replay is within
# the 5 % of issue 40 rather than exact.
GLOO_TOLERANCE = 0.05
GLOO_CASES = ("samples/allreduce_2ranks", "rec1 allreduce_2ranks (gloo)")
ASTRA_SIM_TOLERANCE = 0.05  # ASTRA-sim against the measured iteration
BEFORE_TOLERANCE = 0.03  # astra-model against ASTRA-sim on the export made for Sutra


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: rc %d: %s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p.stdout


def astra_sim_found():
    env = os.environ.get("ASTRA_SIM")
    if env:
        return os.access(env, os.X_OK)
    return shutil.which("AstraSim_Analytical_Congestion_Unaware") is not None


def convert(cli, inputs, prefix, extra):
    summary = json.loads(run([cli, "convert", *inputs, "-o", prefix, "--json", *extra]))
    return summary


def model(cli, prefix):
    out = json.loads(run([cli, "simulate", "--engine", "astra-model", prefix, "--json"]))
    return out["ranks"]


def main():
    args = [a for a in sys.argv[1:] if a != "--table"]
    table = "--table" in sys.argv
    if len(args) != 5:
        print(__doc__)
        return 2
    cli, samples, shared, gen_ranks, work = args
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    gen_dir = os.path.join(work, "gen8")
    run(
        [
            gen_ranks,
            gen_dir,
            "--ranks",
            "8",
            "--steps",
            "2",
            "--buckets",
            "3",
            "--kernels",
            "6",
            "--slow-rank",
            "3",
        ]
    )
    gen16_dir = os.path.join(work, "gen16")
    run([gen_ranks, gen16_dir] + "--ranks 16 --steps 3 --buckets 4 --kernels 8 --slow-rank 9".split())
    cases = [
        ("samples/allreduce_2ranks", [os.path.join(samples, "allreduce_2ranks")], []),
        (
            "samples/transformer_two_streams x2",
            [os.path.join(samples, "transformer_two_streams")],
            ["--ranks", "2"],
        ),
        ("sutra-gen-ranks 8 ranks", [gen_dir], []),
        ("sutra-gen-ranks 16 ranks, two hosts' clocks 1 s apart", [gen16_dir], []),
    ]
    for name, rel, extra in [
        (
            "shared param linear (ET + Kineto) x2",
            ("param/linear_et.json.gz", "param/linear_kineto.json.gz"),
            [],
        ),
        (
            "shared hta simple_add (ET + Kineto) x2",
            ("hta/execution_trace/simple_add_et.json.gz", "hta/execution_trace/simple_add_kineto.json.gz"),
            [],
        ),
        ("shared hta critical_path alexnet x2", "hta/critical_path/alexnet.json.gz", []),
        ("shared hta cuda_event_sync x2", "hta/critical_path/cuda_event_sync.json.gz", []),
        (
            "shared hta cuda_event_sync_multi_stream x2",
            "hta/critical_path/cuda_event_sync_multi_stream.json.gz",
            [],
        ),
        ("shared hta amd mi250 x2", "hta/amd/mi250_minitoy_train_rocm6.2.json.gz", []),
        ("shared hta triton x2", "hta/triton/triton_example.json.gz", []),
        ("shared hta mtia (17 host threads) x2", "hta/mtia/mtia_inference_rank_0.json.gz", []),
        ("shared hta cpu_only (two gloo threads) x2", "hta/cpu_only/rank-34.pt.trace.json.gz", []),
    ]:
        extra = extra + ["--ranks", "2"]
        if isinstance(rel, tuple):
            et, kineto = (os.path.join(shared, r) for r in rel)
            if os.path.isfile(kineto):
                cases.append((name, ["--et", et, "--kineto", kineto], extra))
            else:
                print("skipped %s: ../shared absent" % name)
            continue
        path = os.path.join(shared, rel)
        if os.path.isfile(path):
            cases.append((name, ["--kineto", path], extra))
        else:
            print("skipped %s: ../shared absent" % name)
    et_check = os.path.join(os.path.dirname(shared.rstrip("/")), "tools", "et_check.py")
    astra = astra_sim_found()

    ok = True
    # Bad input: a clear refusal, nothing written.
    bad = os.path.join(work, "bad", "x")
    for extra, words in (
        (["--for", "ns3"], "expected sutra or astra-sim"),
        (["--for", "astra-sim", "--no-gaps"], "--no-gaps goes with --for sutra"),
    ):
        p = subprocess.run(
            [cli, "convert", os.path.join(samples, "allreduce_2ranks"), "-o", bad, *extra],
            capture_output=True,
            text=True,
        )
        if p.returncode != 2 or words not in p.stderr or os.path.exists(os.path.dirname(bad)):
            print("BAD convert %s: rc %d, %s" % (" ".join(extra), p.returncode, p.stderr.strip()))
            ok = False
    p = subprocess.run([cli, "simulate", "--engine", "astra-model", bad], capture_output=True, text=True)
    if p.returncode != 2 or "not found" not in p.stderr:
        print("BAD simulate --engine astra-model on nothing: rc %d, %s" % (p.returncode, p.stderr.strip()))
        ok = False
    for index, (name, inputs, extra) in enumerate(cases):
        before = os.path.join(work, "c%d_sutra" % index, "x")
        after = os.path.join(work, "c%d_astra" % index, "x")
        for p in (before, after):
            os.makedirs(os.path.dirname(p))
        try:
            convert(cli, inputs, before, extra)
            summary = convert(cli, inputs, after, extra + ["--for", "astra-sim"])
            ranks_before = model(cli, before)
            ranks_after = model(cli, after)
            sims = {}
            if astra:
                for label, prefix in (("before", before), ("after", after)):
                    out = json.loads(run([cli, "simulate", "--engine", "astra-sim", prefix, "--json"]))
                    sims[label] = {r["rank"]: r["astra_sim_ns"] for r in out["ranks"]}
        except (RuntimeError, ValueError, KeyError) as e:
            print("BAD %s: %s" % (name, e))
            ok = False
            continue
        if os.path.isfile(et_check):
            p = subprocess.run(
                [sys.executable, et_check, after, str(len(ranks_after))], capture_output=True, text=True
            )
            if p.returncode != 0:
                print("BAD %s: et_check: %s%s" % (name, p.stdout[-2000:], p.stderr[-2000:]))
                ok = False
        for b, a in zip(ranks_before, ranks_after):
            measured = a["measured_ns"]
            off_after = (a["astra_model_ns"] - measured) / measured
            off_before = (b["astra_model_ns"] - b["measured_ns"]) / b["measured_ns"]
            line = "%-58s rank %d measured %10.3f ms  astra-model before %+7.2f %%  after %+7.2f %%" % (
                name,
                a["rank"],
                measured / 1e6,
                100 * off_before,
                100 * off_after,
            )
            if astra:
                sb, sa = sims["before"][a["rank"]], sims["after"][a["rank"]]
                line += "  ASTRA-sim before %+7.2f %%  after %+7.2f %%  model vs ASTRA-sim %+6.2f %%" % (
                    100 * (sb - b["measured_ns"]) / b["measured_ns"],
                    100 * (sa - measured) / measured,
                    100 * (a["astra_model_ns"] - sa) / sa,
                )
                if (
                    abs(sa - measured) > ASTRA_SIM_TOLERANCE * measured
                    or abs(a["astra_model_ns"] - sa) > 0.01 * sa
                    # the engine on any graph, the multi-stream one too: there a collective's
                    # ranks arrive apart, and ASTRA-sim's chunked ring lets the last one finish
                    # up to a step sooner than last arrival + cost (1.9 % on the sample's rank 0)
                    or abs(b["astra_model_ns"] - sb) > BEFORE_TOLERANCE * sb
                ):
                    line = "BAD " + line
                    ok = False
            if abs(off_after) > (GLOO_TOLERANCE if name in GLOO_CASES else TOLERANCE):
                line = "BAD " + line
                ok = False
            print(line)
        if table:
            for r in summary["ranks"]:
                for p in r["problems"]:
                    if "ASTRA-sim" in p.get("what", ""):
                        print("    rank %d: %s" % (r["rank"], p["what"]))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
