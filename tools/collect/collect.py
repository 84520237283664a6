#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Record the trace pairs Sutra opens: a PyTorch execution trace (ET) and a Kineto trace of the
same profiled steps, one directory per case, files named rank<N>.et.json.gz and
rank<N>.kineto.json.gz, plus a meta.json saying what recorded them (device, torch version ...).

Needs Python >= 3.9 and PyTorch >= 2.1. Uses CUDA when available, else the CPU.

Cases:
  rmsnorm      RMSNorm of a [4096, 4096] tensor three ways: naive (mul, mean, add, rsqrt, mul),
               torch.rms_norm (fused), torch.compile of the naive function -> rmsnorm_naive/,
               rmsnorm_fused/, rmsnorm_compiled/
  matmul       a 1024 x 1024 matmul -> matmul_1024/
  transformer  a small transformer training step with work on two CUDA streams and explicit syncs
               (events, stream waits, synchronize) -> transformer_two_streams/
  allreduce    two ranks with an all-reduce (torch.distributed: NCCL on two GPUs, else gloo on the
               CPU), launched by torch.multiprocessing.spawn -> allreduce_2ranks/
  all          every case above

Example: python3 tools/collect/collect.py --case all --out traces/
Then:    sutra traces/rmsnorm_naive     (or sutra-cli info traces/rmsnorm_naive)
"""
import argparse
import os
import sys

CASES = ("rmsnorm", "matmul", "transformer", "allreduce")
MIN_TORCH = (2, 1)


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="collect.py",
        description=__doc__.split("\n\n")[0],
        epilog="\n\n".join(__doc__.split("\n\n")[2:]),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--case", action="append", choices=CASES + ("all",), required=True,
                        help="what to record (repeatable)")
    parser.add_argument("--out", required=True, help="output folder; one sub-folder per case")
    parser.add_argument("--device", choices=("auto", "cuda", "cpu"), default="auto",
                        help="where to run (default: cuda when available)")
    parser.add_argument("--wait", type=int, default=1, help="profiler schedule: steps skipped (default 1)")
    parser.add_argument("--warmup", type=int, default=1, help="profiler schedule: warm-up steps (default 1)")
    parser.add_argument("--active", type=int, default=3, help="profiler schedule: recorded steps (default 3)")
    parser.add_argument("--no-gzip", action="store_true", help="keep the traces as plain .json")
    args = parser.parse_args(argv)
    if args.active < 1 or args.wait < 0 or args.warmup < 0:
        parser.error("--active must be >= 1, --wait and --warmup >= 0")
    cases = []
    for c in args.case:
        for name in (CASES if c == "all" else (c,)):
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
        print("collect.py: PyTorch is not installed in this Python (%s).\n"
              "Install PyTorch >= %d.%d (https://pytorch.org/get-started/locally/), e.g.\n"
              "  python3 -m pip install 'torch>=%d.%d'\n"
              "then run this script again." % ((sys.executable,) + MIN_TORCH + MIN_TORCH), file=sys.stderr)
        sys.exit(2)
    version = tuple(int(p) for p in torch.__version__.split("+")[0].split(".")[:2] if p.isdigit())
    if version < MIN_TORCH:
        print("collect.py: PyTorch %s is too old: the execution trace needs PyTorch >= %d.%d"
              % ((torch.__version__,) + MIN_TORCH), file=sys.stderr)
        sys.exit(2)
    return torch


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    torch_or_exit()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import workloads  # imports torch: only after the check above

    os.makedirs(args.out, exist_ok=True)
    failures = 0
    for case in args.case:
        for name, outcome in workloads.run_case(case, args):
            status = "ok" if outcome is None else "FAILED: %s" % outcome
            print("%-26s %s" % (name, status))
            failures += outcome is not None
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
