# SPDX-License-Identifier: MIT
"""Fixtures shared by Sutra's Python tests: where sutra-cli and the real traces are, and a helper
that runs sutra-cli and returns its --json answer."""

import collections
import json
import os
import re
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


# --- skips, by reason ---------------------------------------------------------------------------
# A test may skip only where what it needs is not this project's to give: ../shared/traces (the
# real traces beside a checkout; a fresh clone has none) or a GPU. Under CI (CI=true, where
# ../shared is present) any other skip fails the run; every run prints its skips grouped by reason.
# scripts/ctest_skips.py holds CTest's tests to the same rule.
GPU_MISSING = re.compile(r"\b(GPU|CUDA)\b")
SKIPS: collections.Counter = collections.Counter()


def skip_reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        reason = str(longrepr[2])
    else:
        reason = str(longrepr)
    return reason.removeprefix("Skipped: ")


def skip_allowed(reason: str) -> bool:
    """A missing GPU, or ../shared named as absent where it is absent."""
    if GPU_MISSING.search(reason):
        return True
    return "shared" in reason and not SHARED_TRACES.is_dir()


def disallowed_skips():
    return {reason: n for reason, n in SKIPS.items() if not skip_allowed(reason)}


class SkipCounter:
    """Counts every test's skip. A plugin of the session's, not hooks of this conftest: those would
    see only the tests under tests/python, not python/tests'."""

    def pytest_runtest_logreport(self, report):
        if report.skipped and not hasattr(report, "wasxfail"):
            SKIPS[skip_reason(report)] += 1

    def pytest_collectreport(self, report):
        if report.skipped:
            SKIPS[skip_reason(report)] += 1

    def pytest_sessionfinish(self, session, exitstatus):
        if os.environ.get("CI") == "true" and disallowed_skips() and session.exitstatus == 0:
            session.exitstatus = 1


def pytest_configure(config):
    config.pluginmanager.register(SkipCounter(), "sutra_skip_counter")


def pytest_terminal_summary(terminalreporter):
    if ORACLE_FIGURES:
        terminalreporter.section("oracle figures")
        for check in sorted(ORACLE_FIGURES):
            figures = ", ".join(f"{k} {v}" for k, v in sorted(ORACLE_FIGURES[check].items()))
            terminalreporter.write_line(f"{check}: {figures}")
    terminalreporter.section("skips by reason")
    total = sum(SKIPS.values())
    shared = "present" if SHARED_TRACES.is_dir() else "absent"
    terminalreporter.write_line(f"{total} skipped (../shared/traces {shared})")
    for reason, n in SKIPS.most_common():
        mark = "" if skip_allowed(reason) else "  [NOT ALLOWED: only an absent ../shared or GPU]"
        terminalreporter.write_line(f"{n:5d}  {reason}{mark}")
    bad = disallowed_skips()
    if bad:
        verdict = "fails the run (CI=true)" if os.environ.get("CI") == "true" else "would fail under CI"
        terminalreporter.write_line(f"{sum(bad.values())} skip(s) for another reason: {verdict}", red=True)
