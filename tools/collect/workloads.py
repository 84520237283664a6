# SPDX-License-Identifier: MIT
"""The recorded workloads and the recording itself (imported by collect.py once torch is there).

Recording follows MLCommons Chakra's collection guide: torch.profiler.profile with a schedule,
record_shapes, profile_memory and with_stack (plus CUDA sync events where the PyTorch version has
them), the same settings on the CPU as on a GPU, and an
ExecutionTraceObserver registered before, started just before the first recorded step begins and
stopped just after the last one ends, so that both traces cover the same steps and every Kineto
CPU op's "Record function id" is the rf_id of its ET node.
"""

import datetime
import gzip
import json
import os
import platform
import shutil
import socket
import sys
import traceback

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.profiler import ExecutionTraceObserver, ProfilerActivity, profile, record_function, schedule

EPS = 1e-6


def pick_device(choice):
    if choice == "cuda" or (choice == "auto" and torch.cuda.is_available()):
        if not torch.cuda.is_available():
            raise RuntimeError("--device cuda, but torch.cuda.is_available() is False")
        return torch.device("cuda", torch.cuda.current_device())
    return torch.device("cpu")


def sync_events_config():
    """CUDA sync events (cuda_sync: Event Sync, Stream Wait Event, Context Sync ...), where the
    PyTorch version knows them (2.3 and later); None otherwise."""
    try:
        return torch._C._profiler._ExperimentalConfig(enable_cuda_sync_events=True)
    except (AttributeError, TypeError, RuntimeError):
        return None


def synchronize(device):
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def record(out_dir, rank, device, step_fn, args):
    """Runs step_fn(step) for wait + warmup + active steps under the profiler and the ET observer;
    writes rank<rank>.kineto.json and rank<rank>.et.json (gzipped unless --no-gzip)."""
    os.makedirs(out_dir, exist_ok=True)
    kineto_path = os.path.join(out_dir, "rank%d.kineto.json" % rank)
    et_path = os.path.join(out_dir, "rank%d.et.json" % rank)
    activities = [ProfilerActivity.CPU]
    if device.type == "cuda":
        activities.append(ProfilerActivity.CUDA)
    config = sync_events_config() if device.type == "cuda" else None
    extra = {"experimental_config": config} if config is not None else {}

    def on_trace_ready(prof):
        prof.export_chrome_trace(kineto_path)

    et = ExecutionTraceObserver()
    et.register_callback(et_path)
    first_active = args.wait + args.warmup
    total = first_active + args.active
    if first_active == 0:
        et.start()  # the profiler opens ProfilerStep#0 as it starts: the observer must be on already
    with profile(
        activities=activities,
        schedule=schedule(wait=args.wait, warmup=args.warmup, active=args.active, repeat=1),
        record_shapes=True,
        profile_memory=True,
        with_stack=True,
        on_trace_ready=on_trace_ready,
        **extra,
    ) as prof:
        for step in range(total):
            step_fn(step)
            if step == first_active - 1:
                et.start()  # the next prof.step() opens ProfilerStep#first_active under the observer
            prof.step()
            if step == total - 1:
                et.stop()  # that prof.step() closed the last recorded ProfilerStep
    et.unregister_callback()
    if getattr(args, "keep_profile", None) is not None:
        args.keep_profile[(os.path.basename(out_dir), rank)] = prof  # the oracle tests read key_averages()
    files = []
    for path in (kineto_path, et_path):
        if not os.path.exists(path):
            raise RuntimeError("%s was not written" % path)
        if args.no_gzip:
            files.append(os.path.basename(path))
            continue
        with open(path, "rb") as src, gzip.open(path + ".gz", "wb") as dst:
            shutil.copyfileobj(src, dst)
        os.remove(path)
        files.append(os.path.basename(path) + ".gz")
    return files, config is not None


def cpu_name():
    """The processor's model name from /proc/cpuinfo, else what platform knows."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def write_meta(
    out_dir, case, device, args, files, sync_events, world_size=1, backend=None, notes=(), what=""
):
    meta = {
        "case": case,
        "what": what,
        "recorded": "by tools/collect/collect.py (a real recording, not synthetic)",
        "recorded_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "device": device.type,
        "device_name": torch.cuda.get_device_name(device) if device.type == "cuda" else cpu_name(),
        "cpu": cpu_name(),
        "cpu_count": os.cpu_count(),
        "torch_threads": torch.get_num_threads(),
        "torch_version": torch.__version__,
        "cuda_version": torch.version.cuda,
        "cuda_driver": cuda_driver() if device.type == "cuda" else None,
        "python_version": platform.python_version(),
        "host": platform.platform(),
        "command": getattr(args, "command", ""),
        "world_size": world_size,
        "distributed_backend": backend,
        "schedule": {"wait": args.wait, "warmup": args.warmup, "active": args.active},
        "record_shapes": True,
        "profile_memory": True,
        "with_stack": True,
        "cuda_sync_events": sync_events,
        "files": sorted(files),
        "notes": list(notes),
    }
    with open(os.path.join(out_dir, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    write_sample_md(out_dir, meta)


def cuda_driver():
    try:
        import subprocess

        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=30,
        )
        return out.stdout.strip().splitlines()[0] if out.returncode == 0 and out.stdout.strip() else None
    except (OSError, subprocess.SubprocessError):
        return None


def recorded_on(meta):
    """'the CPU with PyTorch 2.13.0' or 'an NVIDIA H200 with PyTorch 2.13.0 / CUDA 12.8'."""
    torch_version = meta["torch_version"].split("+")[0]
    if meta["device"] == "cuda":
        return "an %s with PyTorch %s / CUDA %s" % (meta["device_name"], torch_version, meta["cuda_version"])
    return "the CPU with PyTorch %s" % torch_version


def write_sample_md(out_dir, meta):
    """SAMPLE.md: what the folder holds and what recorded it, all from the run itself. The first bold
    line is the statement the window shows while the sample is open."""
    schedule_text = "schedule(wait=%(wait)d, warmup=%(warmup)d, active=%(active)d)" % meta["schedule"]
    ranks = meta["world_size"]
    lines = [
        "# %s: a real recording" % meta["case"],
        "",
        "**Recorded on %s (%s) by tools/collect.**" % (recorded_on(meta), meta["recorded_utc"][:10]),
        "",
        "What it is: %s" % (meta["what"] or meta["case"]),
        "",
        "| what recorded it | |",
        "|---|---|",
        "| device | %s (%s) |" % (meta["device_name"], meta["device"]),
        "| CPU | %s, %s logical CPUs, torch threads %d |"
        % (meta["cpu"], meta["cpu_count"], meta["torch_threads"]),
        "| PyTorch | %s (%s) |"
        % (
            meta["torch_version"],
            "CUDA %s, driver %s" % (meta["cuda_version"], meta["cuda_driver"] or "unknown")
            if meta["device"] == "cuda"
            else "CPU build",
        ),
        "| Python | %s on %s |" % (meta["python_version"], meta["host"]),
        "| ranks | %d%s |"
        % (ranks, ", %s" % meta["distributed_backend"] if meta["distributed_backend"] else ""),
        "| profiler | `%s`, record_shapes, profile_memory, with_stack%s; ExecutionTraceObserver over the "
        "same steps |" % (schedule_text, ", CUDA sync events" if meta["cuda_sync_events"] else ""),
        "| recorded | %s |" % meta["recorded_utc"],
        "| command | `%s` |" % meta["command"],
        "",
        "Files: %s (Sutra pairs each rank's ET with its Kineto trace by the `rank<N>` in the name);"
        " `meta.json` holds the same facts for programs." % ", ".join("`%s`" % f for f in meta["files"]),
    ]
    if meta["notes"]:
        lines += ["", "Notes:"] + ["- %s" % n for n in meta["notes"]]
    with open(os.path.join(out_dir, "SAMPLE.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


def record_elementwise(args, device, name, fn, x, what):
    """Records fn(x) per step into args.out/name, after three calls outside the profiler (caches
    warm, lazy initialisation done), with its meta.json and SAMPLE.md."""
    for _ in range(3):
        fn(x)
    synchronize(device)

    def step(_):
        fn(x)
        synchronize(device)

    out_dir = os.path.join(args.out, name)
    files, sync = record(out_dir, 0, device, step, args)
    notes = ["CPU run: float32 instead of bfloat16, no device kernels"] if device.type == "cpu" else []
    write_meta(out_dir, name, device, args, files, sync, notes=notes, what=what)


# ---- RMSNorm three ways ----------------------------------------------------------------------


def rmsnorm_naive(x):
    return x * torch.rsqrt(torch.mean(x * x, dim=-1, keepdim=True) + EPS)


def rmsnorm_fused(x):
    return torch.rms_norm(x, [x.shape[-1]], None, EPS)


def rmsnorm_variants():
    variants = [("rmsnorm_naive", rmsnorm_naive, None)]
    if hasattr(torch, "rms_norm"):
        variants.append(("rmsnorm_fused", rmsnorm_fused, None))
    else:
        variants.append(
            ("rmsnorm_fused", None, "torch.rms_norm needs PyTorch >= 2.4 (this is %s)" % torch.__version__)
        )
    variants.append(("rmsnorm_compiled", "compile", None))
    return variants


def run_rmsnorm(args, device):
    dtype = torch.bfloat16 if device.type == "cuda" else torch.float32
    rows, hidden = getattr(args, "rows", 4096), getattr(args, "hidden", 4096)
    x = torch.randn(rows, hidden, device=device, dtype=dtype)
    what = {
        "rmsnorm_naive": "RMSNorm of a [%d, %d] %s tensor written out: x * rsqrt(mean(x * x, -1) + eps), "
        "five ops (mul, mean, add, rsqrt, mul)",
        "rmsnorm_fused": "torch.rms_norm on the same [%d, %d] %s tensor: one fused op",
        "rmsnorm_compiled": "torch.compile of the naive RMSNorm on the same [%d, %d] %s tensor: Inductor fuses "
        "the five ops into one generated kernel",
    }
    type_name = str(dtype).replace("torch.", "")
    for name, fn, why_not in rmsnorm_variants():
        if why_not:
            yield name, why_not
            continue
        if fn == "compile":
            try:
                fn = torch.compile(rmsnorm_naive)
                fn(x)  # compile before profiling: the trace shows the compiled kernel, not Inductor
                synchronize(device)
            except Exception as e:  # no C++ compiler or Triton on this machine, say
                yield name, "torch.compile failed: %s" % str(e).splitlines()[0]
                continue
        record_elementwise(args, device, name, fn, x, what[name] % (rows, hidden, type_name))
        yield name, None


# ---- LayerNorm and GELU, naive against fused --------------------------------------------------
# More naive/fused pairs for the advice's fusion prices (sutra-cli advise): each naive function is a
# chain of elementwise and reduction ops on the same tensor, the fused one is the op torch provides.


def layernorm_naive(x):
    mean = torch.mean(x, dim=-1, keepdim=True)
    centred = x - mean
    var = torch.mean(centred * centred, dim=-1, keepdim=True)
    return centred * torch.rsqrt(var + EPS)


def layernorm_fused(x):
    return F.layer_norm(x, [x.shape[-1]], None, None, EPS)


def gelu_naive(x):
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))


def gelu_fused(x):
    return F.gelu(x, approximate="tanh")


PAIRS = {
    "layernorm": (
        (("layernorm_naive", layernorm_naive), ("layernorm_fused", layernorm_fused)),
        {
            "layernorm_naive": "LayerNorm (no affine) of a [%d, %d] %s tensor written out: mean, sub, "
            "mul, mean, add, rsqrt, mul",
            "layernorm_fused": "F.layer_norm on the same [%d, %d] %s tensor: one fused op",
        },
    ),
    "gelu": (
        (("gelu_naive", gelu_naive), ("gelu_fused", gelu_fused)),
        {
            "gelu_naive": "tanh-approximate GELU of a [%d, %d] %s tensor written out: mul, mul, mul, "
            "add, mul, tanh, add, mul, mul",
            "gelu_fused": "F.gelu(approximate='tanh') on the same [%d, %d] %s tensor: one fused op",
        },
    ),
}


def run_pair(case, args, device):
    """Records the naive and the fused variant of `case` on one [rows, hidden] input, as rmsnorm."""
    dtype = torch.bfloat16 if device.type == "cuda" else torch.float32
    rows, hidden = getattr(args, "rows", 4096), getattr(args, "hidden", 4096)
    x = torch.randn(rows, hidden, device=device, dtype=dtype)
    variants, what = PAIRS[case]
    type_name = str(dtype).replace("torch.", "")
    for name, fn in variants:
        record_elementwise(args, device, name, fn, x, what[name] % (rows, hidden, type_name))
        yield name, None


def run_layernorm(args, device):
    return run_pair("layernorm", args, device)


def run_gelu(args, device):
    return run_pair("gelu", args, device)


# ---- matmul ----------------------------------------------------------------------------------


def run_matmul(args, device):
    dtype = torch.bfloat16 if device.type == "cuda" else torch.float32
    n = getattr(args, "matmul_size", 1024)
    a = torch.randn(n, n, device=device, dtype=dtype)
    b = torch.randn(n, n, device=device, dtype=dtype)
    a @ b
    synchronize(device)

    def step(_):
        a @ b
        synchronize(device)

    name = "matmul_%d" % n
    out_dir = os.path.join(args.out, name)
    files, sync = record(out_dir, 0, device, step, args)
    write_meta(
        out_dir,
        name,
        device,
        args,
        files,
        sync,
        what="a %d x %d %s matmul" % (n, n, str(dtype).replace("torch.", "")),
    )
    yield name, None


# ---- a small transformer training step on two streams ----------------------------------------


class Block(nn.Module):
    def __init__(self, d_model=1024, heads=16, d_ff=4096):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.up = nn.Linear(d_model, d_ff)
        self.down = nn.Linear(d_ff, d_model)

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, s, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.out(a.transpose(1, 2).reshape(b, s, d))
        return x + self.down(F.gelu(self.up(self.ln2(x))))


def run_transformer(args, device):
    dtype = torch.bfloat16 if device.type == "cuda" else torch.float32
    model = Block().to(device=device, dtype=dtype)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, foreach=True)
    batch, seq = 4, 512
    pinned = torch.randn(batch, seq, 1024, dtype=dtype, pin_memory=device.type == "cuda")
    target = torch.randn(batch, seq, 1024, device=device, dtype=dtype)
    x = pinned.to(device)
    cuda = device.type == "cuda"
    side = torch.cuda.Stream(device) if cuda else None
    state = {"x": x}

    def step(_):
        opt.zero_grad(set_to_none=True)
        if cuda:
            # The side stream copies and scales the next batch while the main stream computes.
            side.wait_stream(torch.cuda.current_stream(device))
            with torch.cuda.stream(side):
                nxt = torch.empty_like(state["x"])
                nxt.copy_(pinned, non_blocking=True)
                nxt = nxt * nxt
            side_done = torch.cuda.Event()
            side_done.record(side)
        else:
            nxt = pinned * pinned
        with record_function("## forward ##"):
            loss = F.mse_loss(model(state["x"]), target)
        with record_function("## backward ##"):
            loss.backward()
        opt.step()
        if cuda:
            torch.cuda.current_stream(device).wait_event(side_done)  # Stream Wait Event
            nxt.record_stream(torch.cuda.current_stream(device))
        state["x"] = nxt
        loss.item()  # a device-to-host copy and a stream sync
        if cuda:
            done = torch.cuda.Event()
            done.record()
            done.synchronize()  # Event Sync
            torch.cuda.synchronize(device)  # Context Sync

    for i in range(2):
        step(i)
    name = "transformer_two_streams" if cuda else "transformer_step"
    out_dir = os.path.join(args.out, name)
    files, sync = record(out_dir, 0, device, step, args)
    notes = [] if cuda else ["CPU run: one stream, no device syncs, float32"]
    what = (
        "a transformer block's training step (d_model 1024, 16 heads, batch 4 x 512, SGD), forward and "
        "backward (the autograd thread) "
        + (
            "with the next batch copied on a second CUDA stream, synced by "
            "events, stream waits, .item() and torch.cuda.synchronize()"
            if cuda
            else "on the CPU's intra-op threads"
        )
    )
    write_meta(out_dir, name, device, args, files, sync, notes=notes, what=what)
    yield name, None


# ---- two ranks, one collective ---------------------------------------------------------------


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _allreduce_rank(rank, world, port, args_dict, use_cuda, result_dir):
    import argparse

    import torch.distributed as dist

    args = argparse.Namespace(**args_dict)
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    backend = "nccl" if use_cuda else "gloo"
    if use_cuda:
        torch.cuda.set_device(rank)
        device = torch.device("cuda", rank)
    else:
        device = torch.device("cpu")
    if args_dict.get("threads"):
        torch.set_num_threads(args_dict["threads"])
    dist.init_process_group(backend, rank=rank, world_size=world)
    try:
        dtype = torch.bfloat16 if use_cuda else torch.float32
        n = 2 * args_dict.get("matmul_size", 1024)
        a = torch.randn(n, n, device=device, dtype=dtype)
        grad = torch.randn(8 * n * n // 4, device=device, dtype=dtype)

        def step(_):
            a @ a
            work = dist.all_reduce(grad, async_op=True)
            work.wait()
            grad.div_(world)
            synchronize(device)

        step(0)
        out_dir = os.path.join(args.out, "allreduce_2ranks")
        files, sync = record(out_dir, rank, device, step, args)
        dist.barrier()
        if rank == 0:
            all_files = sorted(
                files + [f.replace("rank0", "rank%d" % r) for r in range(1, world) for f in files]
            )
            write_meta(
                out_dir,
                "allreduce_2ranks",
                device,
                args,
                all_files,
                sync,
                world_size=world,
                backend=backend,
                what="two ranks (torch.multiprocessing.spawn), each step a %d x %d matmul, an "
                "all-reduce of %d elements over %s, a wait and a divide" % (n, n, grad.numel(), backend),
            )
    finally:
        dist.destroy_process_group()


def run_allreduce(args, device):
    import torch.distributed as dist
    import torch.multiprocessing as mp

    if not dist.is_available():
        yield "allreduce_2ranks", "torch.distributed is not available in this PyTorch build"
        return
    world = 2
    use_cuda = device.type == "cuda" and torch.cuda.device_count() >= world and dist.is_nccl_available()
    if device.type == "cuda" and not use_cuda:
        print(
            "allreduce_2ranks: fewer than 2 GPUs (or no NCCL): recording gloo on the CPU instead",
            file=sys.stderr,
        )
    picklable = {k: v for k, v in vars(args).items() if k != "keep_profile"}
    mp.spawn(
        _allreduce_rank, args=(world, free_port(), picklable, use_cuda, args.out), nprocs=world, join=True
    )
    yield "allreduce_2ranks", None


RUNNERS = {
    "rmsnorm": run_rmsnorm,
    "layernorm": run_layernorm,
    "gelu": run_gelu,
    "matmul": run_matmul,
    "transformer": run_transformer,
    "allreduce": run_allreduce,
}


def run_case(case, args):
    """Yields (output folder name, None or the reason it failed) for each folder of the case."""
    device = pick_device(args.device)
    torch.manual_seed(0)
    if getattr(args, "threads", 0):
        torch.set_num_threads(args.threads)
    try:
        for result in RUNNERS[case](args, device):
            yield result
    except Exception as e:
        traceback.print_exc()
        yield case, "%s: %s" % (type(e).__name__, e)
