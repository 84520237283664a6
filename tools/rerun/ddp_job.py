#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A data-parallel training job to re-run with one change: the ground truth of Sutra's what-ifs.

N ranks (gloo, on this machine's loopback) train a small MLP with DistributedDataParallel; each
rank records its steps with torch.profiler (record_shapes and with_stack, as users record) into
OUT/rank<N>.kineto.json.gz, and OUT/steps.json holds every rank's step times as the job measured
them (time.perf_counter around each step, profiled or not), so that a re-run's own spread is known.

The changes a what-if asks about, one flag each:
  --host-work-ms MS      every rank busy-waits MS inside record_function("host_work") each step
  --straggle-ms MS       rank --straggler busy-waits MS inside record_function("straggle") each step
  --optimizer KIND       sgd, adam-loop (foreach=False), adam-foreach, adam-fused (fused=True)
  --bucket-mb MB         DDP's bucket_cap_mb
The network is shaped outside (tools/rerun/netns.py runs this script in a network namespace whose
loopback is rate-limited).

Example: python3 tools/rerun/ddp_job.py --out /tmp/base --straggle-ms 40
"""

import argparse
import gzip
import json
import os
import shutil
import socket
import sys
import time


def parse_args(argv):
    p = argparse.ArgumentParser(prog="ddp_job.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="output folder (made; files written into it)")
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--hidden", type=int, default=256, help="the MLP's width (default 256)")
    p.add_argument("--layers", type=int, default=4, help="Linear layers (default 4)")
    p.add_argument("--batch", type=int, default=1024, help="rows per rank and step (default 1024)")
    p.add_argument("--bucket-mb", type=float, default=0.25, help="DDP bucket_cap_mb (default 0.25)")
    p.add_argument("--optimizer", default="sgd", choices=("sgd", "adam-loop", "adam-foreach", "adam-fused"))
    p.add_argument("--host-work-ms", type=float, default=0.0)
    p.add_argument("--straggle-ms", type=float, default=0.0)
    p.add_argument("--straggler", type=int, default=1, help="the rank that straggles (default 1)")
    p.add_argument("--warmup", type=int, default=3, help="steps before the profiler records (default 3)")
    p.add_argument("--active", type=int, default=6, help="steps the profiler records (default 6)")
    p.add_argument("--threads", type=int, default=1, help="torch threads per rank (default 1)")
    p.add_argument("--port", type=int, default=0, help="rendezvous port (default: a free one)")
    return p.parse_args(argv)


def busy_wait(ms):
    """Host work that holds the thread: a spin, not a sleep, as a slow data pipeline or Python
    loop would. The clock is read every 20000 additions: with_stack records every call a Python
    loop makes (a perf_counter() an addition made 95,000 events in 20 ms, and the profiler's cost
    of them fell on the steps, a cost the re-run without the loop did not pay)."""
    end = time.perf_counter() + ms / 1000.0
    x = 0
    while time.perf_counter() < end:
        for _ in range(20000):
            x += 1
    return x


def make_optimizer(torch, params, kind):
    if kind == "sgd":
        return torch.optim.SGD(params, lr=0.01, foreach=True)
    if kind == "adam-loop":
        return torch.optim.Adam(params, lr=1e-3, foreach=False)
    if kind == "adam-foreach":
        return torch.optim.Adam(params, lr=1e-3, foreach=True)
    return torch.optim.Adam(params, lr=1e-3, fused=True)


def rank_main(rank, args, port):
    import torch
    import torch.distributed as dist
    import torch.nn as nn
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.profiler import ProfilerActivity, profile, record_function, schedule

    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.set_num_threads(args.threads)
    torch.manual_seed(rank)
    dist.init_process_group("gloo", rank=rank, world_size=args.ranks)
    try:
        layers = []
        for _ in range(args.layers):
            layers += [nn.Linear(args.hidden, args.hidden), nn.ReLU()]
        model = DDP(nn.Sequential(*layers), bucket_cap_mb=args.bucket_mb)
        opt = make_optimizer(torch, model.parameters(), args.optimizer)
        x = torch.randn(args.batch, args.hidden)
        y = torch.randn(args.batch, args.hidden)

        def step():
            if args.host_work_ms > 0:
                with record_function("host_work"):
                    busy_wait(args.host_work_ms)
            if args.straggle_ms > 0 and rank == args.straggler:
                with record_function("straggle"):
                    busy_wait(args.straggle_ms)
            opt.zero_grad(set_to_none=True)
            loss = nn.functional.mse_loss(model(x), y)
            loss.backward()
            opt.step()

        times = []
        for _ in range(args.warmup):
            t0 = time.perf_counter()
            step()
            times.append(time.perf_counter() - t0)
        dist.barrier()
        kineto = os.path.join(args.out, "rank%d.kineto.json" % rank)
        with profile(
            activities=[ProfilerActivity.CPU],
            schedule=schedule(wait=0, warmup=1, active=args.active, repeat=1),
            record_shapes=True,
            with_stack=True,
            on_trace_ready=lambda prof: prof.export_chrome_trace(kineto),
        ) as prof:
            for _ in range(1 + args.active):
                t0 = time.perf_counter()
                step()
                prof.step()
                times.append(time.perf_counter() - t0)
        dist.barrier()
        with open(kineto, "rb") as src, gzip.open(kineto + ".gz", "wb") as dst:
            shutil.copyfileobj(src, dst)
        os.remove(kineto)
        with open(os.path.join(args.out, "rank%d.steps.json" % rank), "w") as f:
            json.dump({"rank": rank, "step_s": times, "profiled_from": args.warmup + 1}, f)
    finally:
        dist.destroy_process_group()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(argv):
    args = parse_args(argv)
    import torch.multiprocessing as mp

    os.makedirs(args.out, exist_ok=True)
    port = args.port or free_port()
    mp.spawn(rank_main, args=(args, port), nprocs=args.ranks, join=True)
    ranks = []
    for r in range(args.ranks):
        path = os.path.join(args.out, "rank%d.steps.json" % r)
        with open(path) as f:
            ranks.append(json.load(f))
        os.remove(path)
    config = {k: v for k, v in vars(args).items() if k not in ("out", "port")}
    with open(os.path.join(args.out, "steps.json"), "w") as f:
        json.dump({"config": config, "ranks": ranks}, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
