# SPDX-License-Identifier: MIT
"""Fixtures of the sutra package's tests: the synthetic samples, real CPU recordings, the real traces
in ../shared, and sutra-cli's --json answers to judge the package against."""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

SOURCE_DIR = Path(__file__).resolve().parents[2]
# The synthetic GPU models (tests/data/synthetic_samples): kernels, launches and flows with known
# counts; the bundled CPU recordings (resources/samples) have none of those.
SAMPLES = SOURCE_DIR / "tests" / "data" / "synthetic_samples"
SHARED_TRACES = SOURCE_DIR.parent / "shared" / "traces"
COLLECT = SOURCE_DIR / "tools" / "collect" / "collect.py"
# The folders the `recordings` fixture records (tools/collect's CPU workloads) and the tests read.
RECORDED = ("rmsnorm_naive", "rmsnorm_fused", "matmul_1024", "transformer_step", "allreduce_2ranks")


@pytest.fixture(scope="session")
def samples() -> Path:
    return SAMPLES


@pytest.fixture(scope="session")
def recordings(tmp_path_factory) -> Path:
    """Real CPU recordings, made once a test session by tools/collect/collect.py with the venv's
    torch (python/requirements.txt) into a folder of this session's own: one folder per name of
    RECORDED (and rmsnorm_compiled, which no test here reads). Fails, with collect.py's output,
    where one of those is not recorded."""
    out = tmp_path_factory.mktemp("recordings")
    cmd = [sys.executable, str(COLLECT), "--device", "cpu", "--out", str(out), "--rows", "1024"]
    cmd += ["--hidden", "1024"] + [
        arg for case in ("rmsnorm", "matmul", "transformer", "allreduce") for arg in ("--case", case)
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=1200)
    missing = [name for name in RECORDED if not (out / name / "rank0.kineto.json.gz").is_file()]
    if missing:
        pytest.fail(
            f"{' '.join(cmd)} recorded no {missing} (exit {done.returncode}):\n{done.stdout}{done.stderr}"
        )
    return out


@pytest.fixture(scope="session")
def shared_kineto() -> Path:
    folder = SHARED_TRACES / "kineto"
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent: the real traces live beside the project checkout")
    return folder


@pytest.fixture(scope="session")
def cli_json():
    """cli_json(*args) -> the parsed output of `sutra-cli ARGS --json`."""
    build = (SOURCE_DIR / os.environ.get("SUTRA_BUILD", "build/release")).resolve()
    cli = build / "app" / "cli" / "sutra-cli"
    if not cli.is_file():
        pytest.fail(f"{cli} is not built: run `make build` (or set SUTRA_BUILD)")

    def run(*args):
        cmd = [str(cli), *map(str, args), "--json"]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            pytest.fail(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stderr}")
        return json.loads(done.stdout)

    return run


@pytest.fixture
def ctrl_c():
    """Python's own SIGINT handler for the test (KeyboardInterrupt), even where the test run was
    started with SIGINT ignored (a shell's background job): the Ctrl-C tests send SIGINT."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
