#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CLI test of the trace cache (core/io/trace_cache.h): `sutra-cli info`, `stats` (the operator
table) and `query` (a SQL GROUP BY over every slice) print the same thing whether the trace is
parsed (--no-cache), parsed and cached (the first open) or mapped from the cache (the reopen), and
the cache is written to SUTRA_CACHE_DIR, nowhere else.

Usage: check_cache_cli.py SUTRA_CLI TRACE...   exit 0 pass, 1 fail, 77 skip (a trace absent).
"""

import os
import subprocess
import sys
import tempfile

COMMANDS = [
    ["info"],
    ["stats", "--limit", "50"],
    [
        "query",
        "SELECT name, count(*), sum(dur), max(depth) FROM slice GROUP BY name ORDER BY name",
        "--csv",
    ],
]


def run(cli, args, env):
    done = subprocess.run([cli, *args], env=env, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        sys.exit(f"FAIL: {' '.join(args)} exited {done.returncode}: {done.stderr}")
    return done.stdout


def main():
    cli, traces = sys.argv[1], sys.argv[2:]
    if not all(os.path.exists(t) for t in traces):
        print("SKIP: a trace is absent (../shared/traces)")
        return 77
    failures = 0
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, SUTRA_CACHE="always", SUTRA_CACHE_DIR=cache)
        for trace in traces:
            for command in COMMANDS:
                args = [command[0], trace, *command[1:]]
                parsed = run(cli, ["--no-cache", *args], env)
                if os.listdir(cache):
                    sys.exit(f"FAIL: --no-cache wrote {os.listdir(cache)}")
                first = run(cli, args, env)
                written = os.listdir(cache)
                if len(written) != 1 or not written[0].endswith(".sutracache"):
                    print(f"FAIL: {' '.join(args)}: the cache folder holds {written}")
                    failures += 1
                reopened = run(cli, args, env)
                for what, out in (("first open", first), ("reopen", reopened)):
                    if out != parsed:
                        print(f"FAIL: {' '.join(args)}: the {what} differs from the parse")
                        failures += 1
                for name in os.listdir(cache):
                    os.remove(os.path.join(cache, name))
    print("ok" if failures == 0 else f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
