# SPDX-License-Identifier: MIT
"""Fixtures shared by Sutra's Python tests: where sutra-cli and the real traces are, and a helper
that runs sutra-cli and returns its --json answer."""

import json
import os
import subprocess
from pathlib import Path

import pytest

SOURCE_DIR = Path(__file__).resolve().parents[2]
SHARED_TRACES = SOURCE_DIR.parent / "shared" / "traces"


def build_dir() -> Path:
    return (SOURCE_DIR / os.environ.get("SUTRA_BUILD", "build/release")).resolve()


@pytest.fixture(scope="session")
def sutra_cli() -> Path:
    cli = build_dir() / "app" / "cli" / "sutra-cli"
    if not cli.is_file():
        pytest.fail(f"{cli} is not built: run `make build` (or set SUTRA_BUILD to the build folder)")
    return cli


@pytest.fixture(scope="session")
def shared_traces() -> Path:
    if not SHARED_TRACES.is_dir():
        pytest.skip(f"{SHARED_TRACES} is absent: the real traces live beside the project checkout")
    return SHARED_TRACES


@pytest.fixture(scope="session")
def run_cli(sutra_cli):
    """run_cli(*args) -> the parsed --json output of `sutra-cli ARGS --json`; fails with sutra-cli's
    message when it exits non-zero."""

    def run(*args, json_output=True):
        cmd = [str(sutra_cli), *map(str, args)] + (["--json"] if json_output else [])
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            pytest.fail(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stderr}")
        return json.loads(done.stdout) if json_output else done.stdout

    return run


# What the oracle tests measured, printed at the end of the run (the closing figures of a session).
ORACLE_FIGURES: dict = {}


@pytest.fixture(scope="session")
def oracle_figures():
    """oracle_figures[check] = {figure: value}: a test notes what it compared, and how closely."""
    return ORACLE_FIGURES


def pytest_terminal_summary(terminalreporter):
    if not ORACLE_FIGURES:
        return
    terminalreporter.section("oracle figures")
    for check in sorted(ORACLE_FIGURES):
        figures = ", ".join(f"{k} {v}" for k, v in sorted(ORACLE_FIGURES[check].items()))
        terminalreporter.write_line(f"{check}: {figures}")
