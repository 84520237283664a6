#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs a command in a network namespace of its own whose loopback is rate-limited: the network of
a re-run, shaped on this machine (root, iproute2). The namespace is made for the command and
removed after it, whatever happens; traffic never leaves it (only its loopback is up).

tc's token bucket filter (tbf) limits what the loopback sends; all ranks of a job share that one
device, so the rate is the whole job's. The loopback's MTU is lowered to Ethernet's 1500 bytes so
that tbf's burst holds a packet (a 64 KiB loopback packet would not pass a small bucket).

Example: sudo python3 tools/rerun/netns.py --rate-mbit 200 -- python3 tools/rerun/ddp_job.py --out /tmp/r
"""

import argparse
import contextlib
import os
import shutil
import subprocess
import sys

MTU = 1500


def _as_root():
    """The prefix that runs a command as root: none for root, `sudo -n` where sudo needs no
    password (as make's install step allows), else None."""
    if os.geteuid() == 0:
        return []
    if shutil.which("sudo") and subprocess.run(["sudo", "-n", "true"], capture_output=True).returncode == 0:
        return ["sudo", "-n"]
    return None


def available():
    """None where a shaped namespace can be made here, else why not."""
    if _as_root() is None:
        return "needs root or password-less sudo (ip netns, tc)"
    for tool in ("ip", "tc"):
        if shutil.which(tool) is None:
            return "%s is not installed (Debian: iproute2; make deps installs it)" % tool
    return None


def _run(*cmd):
    done = subprocess.run(_as_root() + list(cmd), capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), done.returncode, done.stderr.strip()))


@contextlib.contextmanager
def shaped_loopback(rate_mbit=None):
    """Yields the command prefix that runs a program in a fresh namespace whose loopback sends at
    most `rate_mbit` Mbit/s (None: unshaped, the namespace's loopback as it is)."""
    why = available()
    if why:
        raise RuntimeError("cannot shape the network: " + why)
    name = "sutra-rerun-%d" % os.getpid()
    _run("ip", "netns", "add", name)
    try:
        inside = ["ip", "netns", "exec", name]
        _run(*inside, "ip", "link", "set", "lo", "mtu", str(MTU))
        _run(*inside, "ip", "link", "set", "lo", "up")
        if rate_mbit:
            # A burst of about 10 ms at the rate (at least 4 packets); a queue of at most 1 s.
            burst = max(4 * MTU, int(rate_mbit * 1e6 / 8 / 100))
            _run(
                *inside, "tc", "qdisc", "add", "dev", "lo", "root", "tbf",
                "rate", "%gmbit" % rate_mbit, "burst", str(burst), "latency", "1000ms",
            )  # fmt: skip
        yield _as_root() + inside
    finally:
        subprocess.run(_as_root() + ["ip", "netns", "del", name], capture_output=True)


def main(argv):
    p = argparse.ArgumentParser(prog="netns.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--rate-mbit", type=float, default=None, help="loopback rate (default: unshaped)")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND ARGS...")
    args = p.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        p.error("no command given")
    with shaped_loopback(args.rate_mbit) as prefix:
        return subprocess.run(prefix + command).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
