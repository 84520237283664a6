#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Registers packaging/sutra-mime.xml in a temporary XDG data folder with update-mime-database
and asks GLib (`gio info`), as a file manager does, which type it gives to trace files: by name,
by content for files named only *.json, and through gzip. Files that are not traces must stay
application/json. With ../shared/traces present, the start of real traces is checked too.
Exits 77 (skipped) without update-mime-database or gio."""

import gzip
import os
import shutil
import subprocess
import sys
import tempfile

KINETO = "application/x-kineto-trace+json"
KINETO_GZ = "application/x-kineto-trace+json-compressed"
ET = "application/x-pytorch-et+json"
ET_GZ = "application/x-pytorch-et+json-compressed"
CHAKRA = "application/x-chakra-et"
JSON = "application/json"

# Hand-made starts of files, in the shape torch.profiler and ExecutionTraceObserver write them.
KINETO_TEXT = (
    '{\n  "schemaVersion": 1,\n  "deviceProperties": [{"id": 0, "name": "GPU"}],\n'
    '  "traceEvents": [\n  {"ph": "X", "name": "aten::mm", "ts": 1, "dur": 2}\n  ]\n}\n'
)
ET_TEXT = (
    '{\n  "schema": "1.1.0-chakra.0.0.4", "pid": 7, "time": "2024-01-01 00:00:00", '
    '"start_ts": 5,\n  "nodes": [{"id": 1, "name": "[pytorch|profiler|execution_trace|'
    'process]", "ctrl_deps": 0}]\n}\n'
)
CASES = [
    ("step.pt.trace.json", KINETO_TEXT, KINETO),
    ("step.pt.trace.json.gz", gzip.compress(KINETO_TEXT.encode(), mtime=0), KINETO_GZ),
    ("rank0.json", KINETO_TEXT, KINETO),  # by content
    ("rank0_et.json", ET_TEXT, ET),
    ("rank0.et.json", ET_TEXT, ET),
    ("rank0_et.json.gz", gzip.compress(ET_TEXT.encode(), mtime=0), ET_GZ),
    ("rank0.et.json.gz", gzip.compress(ET_TEXT.encode(), mtime=0), ET_GZ),
    ("other.json.gz", gzip.compress(ET_TEXT.encode(), mtime=0), "application/gzip"),
    ("observer.json", ET_TEXT, ET),  # by content
    ("all_gather.0.et", b"\x12\x08\n\x061.0.0\x00\x01", CHAKRA),
    ("config.json", '{"name": "model", "nodes": 3}\n', JSON),
    ("manifest.json", '{"schema": "v1", "files": []}\n', JSON),
    ("events.json", '{"events": [], "schemaVersion": 1}\n', JSON),
]
# Real traces (../shared/traces), their first 64 KiB renamed to plain *.json so that only the
# content can tell the type.
REAL = [
    ("hta/trace_compare/base.json.gz", "base.json", KINETO),
    ("hta/critical_path/alexnet.json.gz", "alexnet.json", KINETO),  # traceEvents at byte 3369
    ("param/linear_kineto.json.gz", "linear_kineto.json", KINETO),
    ("param/linear_et.json.gz", "linear.json", ET),
    ("param/resnet_2gpu_et.1.1.0-chakra.0.0.4.json.gz", "resnet.json", ET),
]


def content_type(path, env):
    r = subprocess.run(
        ["gio", "info", "-a", "standard::content-type", path],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    for line in r.stdout.splitlines():
        if "standard::content-type:" in line:
            return line.split(":", 3)[-1].strip()
    return f"(gio failed: {r.stderr.strip()})"


def main():
    mime_xml, shared_traces = sys.argv[1], sys.argv[2]
    if not shutil.which("update-mime-database") or not shutil.which("gio"):
        print("SKIP: needs update-mime-database (shared-mime-info) and gio (libglib2.0-bin)")
        return 77
    failures = 0
    with tempfile.TemporaryDirectory(prefix="sutra-mime-") as tmp:
        mime_dir = os.path.join(tmp, "share/mime")
        os.makedirs(os.path.join(mime_dir, "packages"))
        shutil.copy(mime_xml, os.path.join(mime_dir, "packages/sutra.xml"))
        r = subprocess.run(["update-mime-database", "-V", mime_dir], capture_output=True, text=True)
        if r.returncode != 0 or "warning" in r.stderr.lower() or "error" in r.stderr.lower():
            print(f"FAIL: update-mime-database (exit {r.returncode}):\n{r.stderr}")
            return 1
        env = dict(
            os.environ, XDG_DATA_HOME=os.path.join(tmp, "share"), XDG_DATA_DIRS="/usr/local/share:/usr/share"
        )

        files = os.path.join(tmp, "files")
        os.makedirs(files)
        cases = list(CASES)
        if os.path.isdir(shared_traces):
            for source, name, expected in REAL:
                with gzip.open(os.path.join(shared_traces, source), "rb") as f:
                    cases.append((name, f.read(64 * 1024), expected))
        else:
            print(f"note: {shared_traces} is absent: hand-made files only")
        for name, data, expected in cases:
            path = os.path.join(files, name)
            with open(path, "wb") as f:
                f.write(data if isinstance(data, bytes) else data.encode())
            got = content_type(path, env)
            ok = got == expected
            failures += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {name}: {got}" + ("" if ok else f", expected {expected}"))
    print(f"{len(cases) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
