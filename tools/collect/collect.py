#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Record the trace pairs Sutra opens: a PyTorch execution trace (ET) and a Kineto trace of the
same profiled steps, one directory per case, files named rank<N>.et.json.gz and
rank<N>.kineto.json.gz, plus a meta.json saying what recorded them (device, torch version ...).

Needs Python >= 3.9 and PyTorch >= 2.1. Uses CUDA when available, else the CPU. Records with the
profiler settings of a GPU run on either: record_shapes, profile_memory, with_stack, the ET observer
over the same steps. Each folder gets a SAMPLE.md that says what recorded it, taken from the run.

Cases:
  rmsnorm      RMSNorm of a [rows, hidden] tensor (default 4096 x 4096) three ways: naive (mul,
               mean, add, rsqrt, mul), torch.rms_norm (fused), torch.compile of the naive function
               (Inductor's fused C++ or Triton kernel) -> rmsnorm_naive/, rmsnorm_fused/,
               rmsnorm_compiled/
  layernorm    LayerNorm (no affine) of a [rows, hidden] tensor two ways: naive (mean, sub, mul,
               mean, add, rsqrt, mul) and F.layer_norm -> layernorm_naive/, layernorm_fused/
  gelu         tanh GELU of a [rows, hidden] tensor two ways: naive (mul, add, tanh ...) and
               F.gelu(approximate='tanh') -> gelu_naive/, gelu_fused/
  matmul       an N x N matmul (default 1024) -> matmul_<N>/
  transformer  a small transformer training step; on CUDA with work on two streams and explicit
               syncs (events, stream waits, synchronize) -> transformer_two_streams/; on the CPU
               (one stream, the autograd and intra-op threads) -> transformer_step/
  allreduce    two ranks with an all-reduce (torch.distributed: NCCL on two GPUs, else gloo on the
               CPU), launched by torch.multiprocessing.spawn -> allreduce_2ranks/
  all          every case above

Example: python3 tools/collect/collect.py --case all --out traces/
Then:    sutra traces/rmsnorm_naive     (or sutra-cli info traces/rmsnorm_naive)
"""

import argparse
import os
import sys

CASES = ("rmsnorm", "layernorm", "gelu", "matmul", "transformer", "allreduce")
MIN_TORCH = (2, 1)


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="collect.py",
        description=__doc__.split("\n\n")[0],
        epilog="\n\n".join(__doc__.split("\n\n")[2:]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--case", action="append", choices=CASES + ("all",), required=True, help="what to record (repeatable)"
    )
    parser.add_argument("--out", required=True, help="output folder; one sub-folder per case")
    parser.add_argument(
        "--device",
        choices=("auto", "cuda", "cpu"),
        default="auto",
        help="where to run (default: cuda when available)",
    )
    parser.add_argument("--wait", type=int, default=1, help="profiler schedule: steps skipped (default 1)")
    parser.add_argument("--warmup", type=int, default=1, help="profiler schedule: warm-up steps (default 1)")
    parser.add_argument("--active", type=int, default=3, help="profiler schedule: recorded steps (default 3)")
    parser.add_argument("--no-gzip", action="store_true", help="keep the traces as plain .json")
    parser.add_argument(
        "--threads",
        type=int,
        default=0,
        help="torch.set_num_threads before recording (default: torch's own choice)",
    )
    parser.add_argument(
        "--rows", type=int, default=4096, help="rmsnorm, layernorm, gelu: rows of the input (default 4096)"
    )
    parser.add_argument(
        "--hidden",
        type=int,
        default=4096,
        help="rmsnorm, layernorm, gelu: the normalised size (default 4096)",
    )
    parser.add_argument(
        "--matmul-size",
        type=int,
        default=1024,
        help="matmul: N of the N x N operands (allreduce: 2N; default 1024)",
    )
    args = parser.parse_args(argv)
    if args.active < 1 or args.wait < 0 or args.warmup < 0:
        parser.error("--active must be >= 1, --wait and --warmup >= 0")
    if args.threads < 0 or min(args.rows, args.hidden, args.matmul_size) < 1:
        parser.error("--threads must be >= 0, --rows, --hidden and --matmul-size >= 1")
    cases = []
    for c in args.case:
        for name in CASES if c == "all" else (c,):
            if name not in cases:
                cases.append(name)
    args.case = cases
    return args


def torch_or_exit():
    """Imports torch, or exits 2 with a message that says what is missing."""
    if sys.version_info < (3, 9):
        sys.exit("collect.py: Python >= 3.9 is needed (this is %d.%d)" % sys.version_info[:2])
    try:
        import torch
    except ImportError:
        print(
            "collect.py: PyTorch is not installed in this Python (%s).\n"
            "Install PyTorch >= %d.%d (https://pytorch.org/get-started/locally/), e.g.\n"
            "  python3 -m pip install 'torch>=%d.%d'\n"
            "then run this script again." % ((sys.executable,) + MIN_TORCH + MIN_TORCH),
            file=sys.stderr,
        )
        sys.exit(2)
    version = tuple(int(p) for p in torch.__version__.split("+")[0].split(".")[:2] if p.isdigit())
    if version < MIN_TORCH:
        print(
            "collect.py: PyTorch %s is too old: the execution trace needs PyTorch >= %d.%d"
            % ((torch.__version__,) + MIN_TORCH),
            file=sys.stderr,
        )
        sys.exit(2)
    return torch


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    torch_or_exit()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import workloads  # imports torch: only after the check above

    os.makedirs(args.out, exist_ok=True)
    args.command = " ".join(
        ["python3", "tools/collect/collect.py"] + (sys.argv[1:] if argv is None else list(argv))
    )
    failures = 0
    for case in args.case:
        for name, outcome in workloads.run_case(case, args):
            status = "ok" if outcome is None else "FAILED: %s" % outcome
            print("%-26s %s" % (name, status))
            failures += outcome is not None
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
