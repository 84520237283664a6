# SPDX-License-Identifier: MIT
"""run.advise(): the findings and their prices as a DataFrame, against `sutra-cli advise --json` on the
bundled real recordings and a real GPU trace in ../shared."""

import pandas as pd
import pytest
import sutra
from conftest import SOURCE_DIR

BUNDLED = SOURCE_DIR / "resources" / "samples"
NAIVE_RMSNORM = "aten::mul > aten::mean > aten::add > aten::rsqrt > aten::mul"


@pytest.fixture(scope="module")
def naive():
    return sutra.open(BUNDLED / "rmsnorm_naive", progress=False)


def test_the_naive_rmsnorm_is_a_priced_fusion(naive):
    advice = naive.advise(progress=False)
    top = advice.iloc[0]
    assert top["kind"] == "fusion" and NAIVE_RMSNORM in top["title"]
    assert top["priced"] and 0 < top["saving_ns"] < top["step_ns"]
    assert top["saving_ns"] == top["step_ns"] - top["projected_step_ns"]
    assert top["saving_fraction"] == pytest.approx(top["saving_ns"] / top["step_ns"])
    assert "bytes" in top["model"]
    assert advice.attrs["step_ns"] == top["step_ns"]


def test_evidence_is_event_ids_of_the_run(naive):
    top = naive.advise(progress=False).iloc[0]
    events = naive.events().set_index("id")
    names = {str(events.loc[e, "name"]) for e in top["evidence"]}
    assert names == {"aten::mul", "aten::mean", "aten::add", "aten::rsqrt"}


def test_equals_the_cli(naive, cli_json):
    got = naive.advise(progress=False)
    want = cli_json("advise", BUNDLED / "rmsnorm_naive")
    assert got["title"].tolist() == [f["title"] for f in want["findings"]]
    assert got["saving_ns"].tolist() == [f["price"].get("saving_ns") for f in want["findings"]]
    assert got.attrs["step_ns"] == want["step_ns"]


def test_without_prices_and_without_fusions(naive):
    unpriced = naive.advise(price=False, progress=False)
    assert len(unpriced) > 0 and not unpriced["priced"].any()
    assert unpriced["saving_ns"].isna().all()
    assert "fusion" not in set(naive.advise(top=0, progress=False)["kind"])
    with pytest.raises(ValueError):
        naive.advise(top=-1)


def test_a_run_opened_up_to_its_simulation_is_not_opened_again():
    run = sutra.open(BUNDLED / "rmsnorm_naive", until="simulate", progress=False)
    assert run.advise(progress=False).iloc[0]["kind"] == "fusion"
    assert run._simulated is None


def test_a_run_opened_before_its_simulation_is_continued_not_opened_again(monkeypatch, cli_json):
    """advise and simulate continue the opened run (core's advanceRun): no file is opened again."""
    run = sutra.open(BUNDLED / "rmsnorm_naive", progress=False)

    def opened_again(*args, **kwargs):
        raise AssertionError("the run's inputs were opened again")

    monkeypatch.setattr(sutra._run._core, "open_run", opened_again)
    monkeypatch.setattr(sutra._run._core, "open_rank_files", opened_again)
    got = run.advise(progress=False)
    want = cli_json("advise", BUNDLED / "rmsnorm_naive")
    assert got["saving_ns"].tolist() == [f["price"].get("saving_ns") for f in want["findings"]]
    assert run._simulated is not None
    assert len(run.simulate(progress=False)) > 0


def test_a_real_gpu_trace_equals_the_cli(shared_kineto, cli_json):
    trace = shared_kineto.parent / "hta" / "critical_path" / "cuda_event_sync.json.gz"
    if not trace.is_file():
        pytest.skip(f"{trace} is absent")
    got = sutra.open(trace, progress=False).advise(progress=False)
    want = cli_json("advise", trace)
    assert got["kind"].tolist() == [f["kind"] for f in want["findings"]]
    savings = [None if pd.isna(v) else v for v in got["saving_ns"]]
    assert savings == [f["price"].get("saving_ns") for f in want["findings"]]
    assert {"host-bound", "blocking-sync"} <= set(got["kind"])
