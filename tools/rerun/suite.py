#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The ground truth of Sutra's what-ifs: each pair is a job recorded twice with one change between
the recordings (the network's rate, a busy loop, a straggler, the optimizer); Sutra projects the
second run from the first with the knob that names the change, and the projection is judged
against the re-run's measured mean step, beside the re-run's own spread.

Usage: suite.py SUTRA_CLI WORKDIR [--pair NAME ...] [--reruns N] [--rounds 1|2]   (prints a Markdown table)

Needs root (the network is shaped in a namespace of its own, tools/rerun/netns.py) and torch.
Steps are measured as Sutra measures them and as torch marks them: each rank's ProfilerStep#N
spans, read from the Kineto files here, not by Sutra; a job's step is the mean over its ranks.
"""

import argparse
import gzip
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import netns  # noqa: E402

# name: (what it asks, the recorded run, the re-run, Sutra's knobs on the recorded run, or
# "advise:KIND": the projected step of `sutra-cli advise`'s finding of that kind). A run is
# (loopback rate in Mbit/s or None for unshaped, ddp_job.py's flags).
OPTIMIZER_JOB = ["--layers", "48", "--hidden", "128", "--batch", "128", "--active", "12"]
PAIRS = {
    "network 200->50 Mbit/s": ("network 4x slower", (200, []), (50, []), ["--network-speed", "0.25"]),
    "network 200->100 Mbit/s": ("network 2x slower", (200, []), (100, []), ["--network-speed", "0.5"]),
    "network 200->800 Mbit/s": ("network 4x faster", (200, []), (800, []), ["--network-speed", "4"]),
    "network 50->200 Mbit/s": ("network 4x faster", (50, []), (200, []), ["--network-speed", "4"]),
    "host work removed": (
        "a 20 ms busy loop on every rank removed",
        (None, ["--host-work-ms", "20"]),
        (None, []),
        ["--scale-cpu", "host_work=0"],
    ),
    "straggler removed": (
        "rank 1's 40 ms busy loop removed",
        (None, ["--straggle-ms", "40"]),
        (None, []),
        ["--scale-cpu", "straggle=0"],
    ),
    "straggler, advise's price": (
        "the straggler finding's fix",
        (None, ["--straggle-ms", "40"]),
        (None, []),
        "advise:straggler",
    ),
    "Adam foreach=False -> fused=True": (
        "the optimizer finding's fix",
        (None, ["--optimizer", "adam-loop"] + OPTIMIZER_JOB),
        (None, ["--optimizer", "adam-fused"] + OPTIMIZER_JOB),
        "advise:optimizer",
    ),
}


def step_durations(folder):
    """Per rank, the ProfilerStep#N durations (ns) of rank<N>.kineto.json.gz, in step order."""
    ranks = []
    for path in sorted(Path(folder).glob("rank*.kineto.json.gz")):
        with gzip.open(path, "rt") as f:
            events = json.load(f)["traceEvents"]
        steps = sorted(
            (e["ts"], 1000.0 * e["dur"])
            for e in events
            if e.get("ph") == "X" and str(e.get("name", "")).startswith("ProfilerStep#")
        )
        if not steps:
            raise RuntimeError("%s: no ProfilerStep# events" % path)
        ranks.append([d for _, d in steps])
    if not ranks:
        raise RuntimeError("%s: no rank*.kineto.json.gz" % folder)
    return ranks


def job_steps(folder):
    """The job's step, step by step: the mean over its ranks (they wait for each other)."""
    ranks = step_durations(folder)
    n = min(len(r) for r in ranks)
    return [statistics.fmean(r[i] for r in ranks) for i in range(n)]


def record(run, out, python=sys.executable, reuse=False):
    """Records ddp_job.py with `run`'s flags on a loopback shaped to its rate, into `out` (with
    `reuse`, a recording already there is kept)."""
    if reuse and (Path(out) / "steps.json").exists():
        return out
    rate, flags = run
    cmd = [python, str(HERE / "ddp_job.py"), "--out", str(out)] + list(flags)
    if os.geteuid() == 0:
        cmd = ["nice", "-n", "-10"] + cmd  # ahead of whatever else this machine runs
    with netns.shaped_loopback(rate) as prefix:
        done = subprocess.run(prefix + cmd, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError("%s failed (%d):\n%s" % (" ".join(cmd), done.returncode, done.stderr[-3000:]))
    return out


def projected_steps(cli, folder, knobs):
    """Sutra's projection of `folder` under `knobs`: the job's simulated step, step by step (the
    mean over ranks), and the same replayed with no knob."""
    doc = json.loads(
        subprocess.run(
            [str(cli), "simulate", str(folder), "--json"] + knobs,
            capture_output=True,
            text=True,
            check=True,
            timeout=600,
        ).stdout
    )
    ranks = doc["ranks"]
    n = min(len(r["steps"]) for r in ranks)
    simulated = [statistics.fmean(r["steps"][i]["simulated_ns"] for r in ranks) for i in range(n)]
    measured = [statistics.fmean(r["steps"][i]["measured_ns"] for r in ranks) for i in range(n)]
    return simulated, measured, doc


def advised_step(cli, folder, kind):
    """The projected mean step of `sutra-cli advise`'s top finding of `kind`, with the finding."""
    doc = json.loads(
        subprocess.run(
            [str(cli), "advise", str(folder), "--json"],
            capture_output=True,
            text=True,
            check=True,
            timeout=600,
        ).stdout
    )
    for finding in doc["findings"]:
        if finding["kind"] == kind:
            if not finding["price"]["priced"]:
                raise RuntimeError("%s: the %s finding is not priced: %s" % (folder, kind, finding["price"]))
            return finding["price"]["projected_step_ns"], finding
    raise RuntimeError("%s: advise found no %s finding" % (folder, kind))


def astra_model_step(cli, folder, speed, workdir):
    """ASTRA-sim's rules (`simulate --engine astra-model`) on `convert --for astra-sim`'s export of
    `folder`, with network.yml's bandwidth times `speed`: the mean projected step over ranks (the
    export spans the whole trace; what lies outside its ProfilerSteps is taken as measured) and
    the replay on the fitted network against measured, per rank."""
    prefix = Path(workdir) / "astra" / "trace"
    prefix.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [str(cli), "convert", str(folder), "--for", "astra-sim", "-o", str(prefix)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    fitted = Path(str(prefix) + ".network.yml")
    text = fitted.read_text()
    found = re.search(r"bandwidth: \[([0-9.e+-]+)\]", text)
    scaled = Path(str(prefix) + ".scaled.network.yml")
    scaled.write_text(text.replace(found.group(0), "bandwidth: [%r]" % (float(found.group(1)) * speed)))

    def finish(network):
        out = subprocess.run(
            [
                str(cli),
                "simulate",
                "--engine",
                "astra-model",
                str(prefix),
                "--network",
                str(network),
                "--json",
            ],
            capture_output=True,
            text=True,
            check=True,
            timeout=900,
        )
        return [(r["measured_ns"], r["astra_model_ns"]) for r in json.loads(out.stdout)["ranks"]]

    ranks = step_durations(folder)
    n = min(len(r) for r in ranks)
    projected, replay = [], []
    for r, ((measured, at_fit), (_, moved)) in enumerate(zip(finish(fitted), finish(scaled))):
        outside = measured - sum(ranks[r][:n])
        projected.append((moved - outside) / n)
        replay.append((at_fit - measured) / measured)
    return statistics.fmean(projected), replay


def spread(values):
    """The re-run's own spread: the standard deviation of its steps over their mean."""
    return statistics.stdev(values) / statistics.fmean(values) if len(values) > 1 else 0.0


def project(cli, base_dir, knobs, workdir):
    """Sutra's projection from one recording: (the projected mean step, the replayed mean step,
    the finding advise priced or None, ASTRA-sim's rules' (projection, replay) on the network
    pairs or None)."""
    if isinstance(knobs, str):
        predicted, finding = advised_step(cli, base_dir, knobs.split(":", 1)[1])
        return predicted, finding["price"]["step_ns"], finding, None
    simulated, replayed, _doc = projected_steps(cli, base_dir, knobs)
    astra = None
    if knobs[:1] == ["--network-speed"]:
        astra = astra_model_step(cli, base_dir, float(knobs[1]), workdir)
    return statistics.fmean(simulated), statistics.fmean(replayed), None, astra


def judge(cli, name, workdir, python=sys.executable, reruns=1, reuse=False, rounds=2):
    """Records the pair, projects, and returns one row. With `rounds` 2 the runs go base, re-run,
    re-run, base (each re-run `reruns` times): this machine's speed drifts within minutes, and
    the order cancels a drift that is linear in time. The projection is the mean of the
    projections from every base, the measured step the mean over every re-run's steps."""
    what, base, rerun, knobs = PAIRS[name]
    slug = "".join(c if c.isalnum() else "_" for c in name)
    orders = {1: ["base", "rerun"], 2: ["base", "rerun", "rerun", "base"]}
    if rounds not in orders:
        raise ValueError("rounds is 1 or 2, not %r" % rounds)
    order = orders[rounds]
    base_dirs, rerun_steps, n_reruns = [], [], 0
    for kind in order:
        if kind == "base":
            folder = Path(workdir) / ("%s_base%s" % (slug, len(base_dirs) or ""))
            base_dirs.append(record(base, folder, python, reuse))
            continue
        for _ in range(reruns):
            folder = Path(workdir) / ("%s_rerun%d" % (slug, n_reruns))
            rerun_steps += job_steps(record(rerun, folder, python, reuse))
            n_reruns += 1
    base_steps = [s for d in base_dirs for s in job_steps(d)]
    projections = [
        project(cli, d, knobs, Path(workdir) / ("%s_astra%d" % (slug, i))) for i, d in enumerate(base_dirs)
    ]
    predicted = statistics.fmean(p[0] for p in projections)
    finding = projections[0][2]
    astras = [p[3] for p in projections if p[3] is not None]
    astra = None
    if astras:
        astra = (statistics.fmean(a[0] for a in astras), [x for a in astras for x in a[1]])
    measured = statistics.fmean(rerun_steps)
    return {
        "pair": name,
        "what": what,
        "knobs": knobs if isinstance(knobs, str) else " ".join(knobs),
        "finding": finding["title"] if finding else None,
        "base_ns": statistics.fmean(base_steps),
        "replayed_ns": statistics.fmean(p[1] for p in projections),
        "predicted_ns": predicted,
        "predicted_each_ns": [p[0] for p in projections],
        "measured_ns": measured,
        "error": (predicted - measured) / measured,
        "rerun_spread": spread(rerun_steps),
        "base_spread": spread(base_steps),
        "rerun_steps": len(rerun_steps),
        "base_dir": str(base_dirs[0]),
        "astra_model_ns": astra[0] if astra else None,
        "astra_model_error": (astra[0] - measured) / measured if astra else None,
        "astra_model_replay": astra[1] if astra else None,
    }


def markdown(rows):
    lines = [
        "| pair | knob | recorded step | re-run step (spread) | Sutra's projection | error | ASTRA-sim's rules |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        astra = (
            "%.1f ms (%+.1f %%)" % (r["astra_model_ns"] / 1e6, 100 * r["astra_model_error"])
            if r["astra_model_ns"] is not None
            else "-"
        )
        lines.append(
            "| %s | `%s` | %.1f ms | %.1f ms (+-%.0f %%, %d steps) | %.1f ms | %+.1f %% | %s |"
            % (
                r["pair"],
                r["knobs"],
                r["base_ns"] / 1e6,
                r["measured_ns"] / 1e6,
                100 * r["rerun_spread"],
                r["rerun_steps"],
                r["predicted_ns"] / 1e6,
                100 * r["error"],
                astra,
            )
        )
    return "\n".join(lines)


def main(argv):
    p = argparse.ArgumentParser(prog="suite.py", description=__doc__.split("\n\n")[0])
    p.add_argument("cli", help="sutra-cli")
    p.add_argument("workdir", help="where the recordings go")
    p.add_argument("--pair", action="append", choices=sorted(PAIRS), help="only these pairs")
    p.add_argument("--reruns", type=int, default=1, help="re-runs of each changed run (default 1)")
    p.add_argument("--json", help="also write the rows here")
    p.add_argument("--reuse", action="store_true", help="keep recordings already in WORKDIR")
    p.add_argument(
        "--rounds", type=int, choices=(1, 2), default=2, help="2: base, re-run, re-run, base (default 2)"
    )
    args = p.parse_args(argv)
    why = netns.available()
    if why:
        print("suite.py: " + why, file=sys.stderr)
        return 2
    rows = []
    for name in args.pair or PAIRS:
        rows.append(
            judge(args.cli, name, args.workdir, reruns=args.reruns, reuse=args.reuse, rounds=args.rounds)
        )
        print(markdown(rows[-1:]).splitlines()[-1], flush=True)
    print(markdown(rows))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
