# SPDX-License-Identifier: MIT
"""The bundled samples (resources/samples): each says what recorded it, and each opens, links,
converts and simulates in sutra-cli. Needs neither torch nor ../shared: these run everywhere."""

import json
import re
import subprocess
import sys

import pytest
from recording import SOURCE_DIR
from trace_files import et_ops_kineto_never_saw

SAMPLES = SOURCE_DIR / "resources" / "samples"
FOLDERS = sorted(p for p in SAMPLES.iterdir() if p.is_dir())
RECORDED = [p for p in FOLDERS if (p / "meta.json").is_file()]


def first_bold_line(folder):
    for line in (folder / "SAMPLE.md").read_text().splitlines():
        if line.startswith("**") and line.endswith("**"):
            return line.strip("*")
    return ""


def ranks_of(folder):
    return sorted(
        int(m.group(1)) for f in folder.iterdir() if (m := re.match(r"rank(\d+)\.kineto\.json\.gz$", f.name))
    )


def test_every_sample_says_what_made_it():
    assert {p.name for p in RECORDED} >= {
        "rmsnorm_naive",
        "rmsnorm_fused",
        "rmsnorm_compiled",
        "matmul_1024",
        "transformer_step",
        "allreduce_2ranks",
    }
    for folder in FOLDERS:
        statement = first_bold_line(folder)
        if folder in RECORDED:
            meta = json.loads((folder / "meta.json").read_text())
            assert statement.startswith("Recorded on the CPU with PyTorch 2.13"), folder
            assert meta["torch_version"].startswith("2.13") and meta["device"] == "cpu", folder
            assert meta["profile_memory"] and meta["with_stack"] and meta["record_shapes"], folder
            assert meta["command"].startswith("python3 tools/collect/collect.py"), folder
            assert sorted(meta["files"]) == sorted(f.name for f in folder.glob("rank*.json.gz")), folder
        else:
            # The one synthetic model bundled: it must say so, and why.
            assert folder.name == "transformer_two_streams", folder
            assert statement.startswith("Synthetic"), folder
            assert "no GPU has recorded" in (folder / "SAMPLE.md").read_text()


@pytest.mark.parametrize("folder", FOLDERS, ids=[p.name for p in FOLDERS])
def test_sample_loads_links_converts_and_simulates(folder, run_cli, tmp_path):
    ranks = ranks_of(folder)
    info = run_cli("info", folder)
    # Only notes: a real recording's Python frames cross its step annotations (info), nothing worse.
    serious = [p for f in info["files"] for p in f["problems"] if p["severity"] != "info"]
    assert not serious, serious
    linked = run_cli("link", folder, "-o", tmp_path / "linked.json")
    for rank in linked["ranks"]:
        # Every ET op is linked but those whose rf_id the Kineto trace lacks (read from the files).
        never_seen = et_ops_kineto_never_saw(rank["et"], rank["kineto"])
        assert rank["et_ops"] > 0 and rank["matched_et_ops"] == rank["et_ops"] - len(never_seen), rank
    prefix = tmp_path / folder.name
    run_cli("convert", folder, "-o", prefix)
    checker = SOURCE_DIR.parent / "shared" / "tools" / "et_check.py"
    if checker.is_file():
        done = subprocess.run(
            [sys.executable, str(checker), str(prefix), str(len(ranks))], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stdout + done.stderr
    simulated = run_cli("simulate", folder)
    assert len(simulated["ranks"]) == len(ranks), simulated
