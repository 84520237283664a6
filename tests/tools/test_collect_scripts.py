#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/collect/collect.py without PyTorch: --help works, bad arguments are refused, and a real run
says clearly that PyTorch is missing (exit 2) instead of failing with a traceback.

PyTorch is hidden from the child interpreter (sys.modules["torch"] = None makes `import torch`
raise ImportError), so the test means the same on a machine that has it.
"""

import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COLLECT = os.path.join(ROOT, "tools", "collect", "collect.py")
HIDE_TORCH = (
    "import runpy, sys; sys.modules['torch'] = None; sys.argv = sys.argv[1:]; "
    "runpy.run_path(sys.argv[0], run_name='__main__')"
)


def run(*args):
    return subprocess.run(
        [sys.executable, "-c", HIDE_TORCH, COLLECT] + list(args), capture_output=True, text=True, timeout=60
    )


class CollectWithoutTorch(unittest.TestCase):
    def test_help_lists_every_case(self):
        p = run("--help")
        self.assertEqual(p.returncode, 0, p.stderr)
        for case in ("rmsnorm", "matmul", "transformer", "allreduce", "all"):
            self.assertIn(case, p.stdout)
        self.assertIn("rank<N>.et.json.gz", p.stdout)

    def test_missing_torch_is_said_plainly(self):
        with tempfile.TemporaryDirectory() as out:
            p = run("--case", "rmsnorm", "--out", out)
            self.assertEqual(p.returncode, 2)
            self.assertIn("PyTorch is not installed", p.stderr)
            self.assertIn("torch>=2.1", p.stderr)
            self.assertNotIn("Traceback", p.stderr)
            self.assertEqual(os.listdir(out), [], "nothing is written without torch")

    def test_unknown_case_is_refused(self):
        p = run("--case", "resnet", "--out", "x")
        self.assertEqual(p.returncode, 2)
        self.assertIn("invalid choice: 'resnet'", p.stderr)

    def test_case_and_out_are_required(self):
        p = run("--case", "matmul")
        self.assertEqual(p.returncode, 2)
        self.assertIn("--out", p.stderr)

    def test_schedule_must_record_a_step(self):
        p = run("--case", "matmul", "--out", "x", "--active", "0")
        self.assertEqual(p.returncode, 2)
        self.assertIn("--active must be >= 1", p.stderr)


if __name__ == "__main__":
    unittest.main()
