#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Golden CLI test: runs a command in a directory and compares its exit status, standard output
and standard error with the expected ones.

usage: run_golden.py --cwd DIR --exit N [--stdout FILE] [--stderr FILE | --stderr-text TEXT]
                     -- COMMAND ARGS...

--stdout FILE: stdout must equal FILE's content (absent: stdout must be empty unless --any-stdout).
--stderr FILE / --stderr-text TEXT: stderr must equal it (absent: stderr must be empty).
With SUTRA_UPDATE_GOLDEN=1 in the environment, the expected files are rewritten from the output.
"""

import argparse
import os
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cwd", required=True)
    parser.add_argument("--exit", type=int, required=True)
    parser.add_argument("--stdout")
    parser.add_argument("--any-stdout", action="store_true")
    parser.add_argument("--stderr")
    parser.add_argument("--stderr-text")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command

    run = subprocess.run(command, cwd=args.cwd, capture_output=True, timeout=300)
    out = run.stdout.decode("utf-8", "replace")
    err = run.stderr.decode("utf-8", "replace")
    update = os.environ.get("SUTRA_UPDATE_GOLDEN") == "1"
    failures = []

    if run.returncode < 0:
        failures.append("killed by signal %d" % -run.returncode)
    elif run.returncode != args.exit:
        failures.append("exit status %d, expected %d" % (run.returncode, args.exit))

    def compare(name, actual, path, text):
        if path:
            if update:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(actual)
                return
            with open(path, encoding="utf-8") as f:
                expected = f.read()
        elif text is not None:
            expected = text + "\n"
        else:
            expected = ""
        if actual != expected:
            failures.append(
                "%s differs from %s:\n--- expected\n%s--- actual\n%s"
                % (name, path or "the expected text", expected, actual)
            )

    if not args.any_stdout:
        compare("stdout", out, args.stdout, None)
    compare("stderr", err, args.stderr, args.stderr_text)
    if failures:
        print("command: %s (in %s)" % (" ".join(command), args.cwd))
        for f in failures:
            print(f)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
