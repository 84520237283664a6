#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Bad input through sutra-cli (issue 16): what cannot be committed as a fixture is made here at
run time in a scratch directory (FIFOs, links, a non-UTF-8 name, a file-size limit standing in for
a full disk). Each case checks the exit status and the exact message, and that nothing named as
input was modified (checksums of every fixture before and after) and no output was half-written.

usage: check_bad_inputs.py SUTRA_CLI TESTS_DATA_DIR SCRATCH_DIR
"""

import hashlib
import json
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys

CLI, DATA, SCRATCH = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
failures = []


def checksums(root):
    sums = {}
    for base, _, files in os.walk(root):
        for name in files:
            p = os.path.join(base, name)
            if stat.S_ISREG(os.lstat(p).st_mode):
                with open(p, "rb") as f:
                    sums[p] = hashlib.sha256(f.read()).hexdigest()
    return sums


def run(args, cwd=None, preexec=None, timeout=30):
    try:
        r = subprocess.run(
            [CLI] + args, cwd=cwd or DATA, capture_output=True, timeout=timeout, preexec_fn=preexec
        )
    except subprocess.TimeoutExpired:
        return None, b"", b"timed out (hung)"
    return r.returncode, r.stdout, r.stderr


def expect(name, args, code, stderr, cwd=None, preexec=None):
    rc, out, err = run(args, cwd, preexec)
    err = err.decode("utf-8", "replace")
    want = stderr + "\n" if stderr else ""
    if rc != code or err != want:
        failures.append(
            "%s: %s\n  exit %s (expected %d)\n  stderr %r\n  expected %r"
            % (name, " ".join(args), rc, code, err, want)
        )
    return out


def entries(d):
    return sorted(os.listdir(d))


def main():
    shutil.rmtree(SCRATCH, ignore_errors=True)
    os.makedirs(SCRATCH)
    before = checksums(DATA)
    et = os.path.join(DATA, "discover", "two_ranks", "model.0.et")

    # 8: an output never replaces a device, a FIFO or a link.
    expect(
        "jsonize -o /dev/null",
        ["jsonize", et, "-o", "/dev/null"],
        2,
        "sutra-cli jsonize: /dev/null: is a character device, not a regular file: refusing to replace it",
    )
    if not stat.S_ISCHR(os.stat("/dev/null").st_mode):
        failures.append("/dev/null is no longer a character device")
    fifo = os.path.join(SCRATCH, "out.fifo")
    os.mkfifo(fifo)
    expect(
        "jsonize -o FIFO",
        ["jsonize", et, "-o", fifo],
        2,
        "sutra-cli jsonize: %s: is a FIFO (named pipe), not a regular file: refusing to replace it" % fifo,
    )
    # convert writes ASTRA-sim's configurations after the ranks: a FIFO where one goes is refused
    # before anything of the export is written (no half an export left behind).
    half = os.path.join(SCRATCH, "half")
    os.mkfifo(half + ".network.yml")
    kineto = os.path.join(DATA, "discover", "two_ranks", "kineto_rank_0.json")
    expect(
        "convert with a FIFO for network.yml",
        ["convert", "--kineto", kineto, "-o", half],
        2,
        "sutra-cli convert: %s.network.yml: exists and is not a regular file: not replaced" % half,
    )
    if os.path.exists(half + ".0.et"):
        failures.append("convert wrote %s.0.et before refusing its network.yml" % half)
    link = os.path.join(SCRATCH, "link.json")
    target = os.path.join(SCRATCH, "target.json")
    with open(target, "w") as f:
        f.write("keep")
    os.symlink(target, link)
    expect(
        "jsonize -o LINK",
        ["jsonize", et, "-o", link],
        2,
        "sutra-cli jsonize: %s: is a symbolic link: refusing to replace it (name the file it "
        "points to)" % link,
    )
    if not os.path.islink(link) or open(target).read() != "keep":
        failures.append("the symbolic link or its target was changed")

    # 9: jsonize -o is atomic: a write failure (a file-size limit, as a full disk) keeps the old
    # file and leaves no temporary behind, and says which file and why.
    outdir = os.path.join(SCRATCH, "jsonize")
    os.makedirs(outdir)
    out = os.path.join(outdir, "model.json")
    with open(out, "w") as f:
        f.write("old")

    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (256, 256))

    expect(
        "jsonize -o, disk full",
        ["jsonize", et, "-o", out],
        2,
        "sutra-cli jsonize: %s: write failed: File too large" % out,
        preexec=small_files,
    )
    if open(out).read() != "old" or entries(outdir) != ["model.json"]:
        failures.append("a failed jsonize -o changed the old file or left %s" % entries(outdir))
    # 12: -o into a folder that does not exist yet creates it.
    nested = os.path.join(SCRATCH, "new", "folder", "model.json")
    expect("jsonize -o new/folder", ["jsonize", et, "-o", nested], 0, "")
    try:
        json.load(open(nested))
    except (OSError, ValueError) as e:
        failures.append("jsonize -o new/folder/model.json: %s" % e)

    # 12: a FIFO without a writer is refused at once, not waited for.
    in_fifo = os.path.join(SCRATCH, "trace.json")
    os.mkfifo(in_fifo)
    expect(
        "info FIFO",
        ["info", in_fifo],
        2,
        "sutra-cli info: %s: is a FIFO (named pipe), not a regular file: traces are read from "
        "regular files only" % in_fifo,
    )
    expect(
        "info /dev/zero",
        ["info", "/dev/zero"],
        2,
        "sutra-cli info: /dev/zero: is a character device, not a regular file: traces are "
        "read from regular files only",
    )
    loop_a, loop_b = os.path.join(SCRATCH, "a.json"), os.path.join(SCRATCH, "b.json")
    os.symlink(loop_b, loop_a)
    os.symlink(loop_a, loop_b)
    expect(
        "info symlink loop",
        ["info", loop_a],
        2,
        "sutra-cli info: %s: too many levels of symbolic links (a symbolic link loop)" % loop_a,
    )
    # An ANSI escape in a name is shown escaped.
    red = os.path.join(SCRATCH, "\x1b[31mred.json")
    open(red, "w").close()
    expect(
        "info ANSI name", ["info", red], 2, "sutra-cli info: %s: empty file" % red.replace("\x1b", "\\x1b")
    )
    # critical-path on a Chakra file says what it needs.
    expect(
        "critical-path x.et",
        ["critical-path", "discover/two_ranks/model.0.et"],
        2,
        "sutra-cli critical-path: discover/two_ranks/model.0.et: a Chakra ET, not a Kineto "
        "trace (torch.profiler JSON)",
    )

    # 13: a non-UTF-8 file name: --json output is still JSON (the bytes replaced).
    odd = os.path.join(os.fsencode(SCRATCH), b"\xff\xfename.json")
    shutil.copyfile(os.path.join(DATA, "kineto", "basic.json"), odd)
    r = subprocess.run([CLI, "info", "--json", odd], capture_output=True, timeout=60)
    try:
        doc = json.loads(r.stdout.decode("utf-8"))
        if r.returncode != 0 or not doc["files"][0]["path"].endswith("\ufffd\ufffdname.json"):
            failures.append(
                "info --json on a non-UTF-8 name: exit %d, %r" % (r.returncode, doc["files"][0]["path"])
            )
    except (ValueError, KeyError, IndexError) as e:
        failures.append(
            "info --json on a non-UTF-8 name: %s (exit %d, stderr %r)" % (e, r.returncode, r.stderr)
        )

    # 14: knobs outside a sane range.
    expect(
        "simulate --launch-latency-us 1e20",
        ["simulate", "kineto/basic.json", "--launch-latency-us", "1e20"],
        2,
        "sutra-cli simulate: --launch-latency-us '1e20': launch latency 1e+20 us is out of "
        "range: it must be between 0 and 1e+06 microseconds",
    )

    # No input was modified, and a scratch output was never half-written.
    after = checksums(DATA)
    if before != after:
        changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
        failures.append("inputs modified: %s" % changed)
    leftovers = [n for n in entries(SCRATCH) if ".tmp-" in n]
    if leftovers:
        failures.append("temporary files left: %s" % leftovers)

    for f in failures:
        print("FAIL " + f)
    shutil.rmtree(SCRATCH, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
