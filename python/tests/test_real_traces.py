# SPDX-License-Identifier: MIT
"""Every analysis of the package on real CPU recordings (made fresh by the `recordings` fixture)
and the real traces in ../shared, each equal to sutra-cli's --json answer (skipped where ../shared
is absent); and the GIL released while core loads."""

import threading

import pytest
import sutra

# Folders of the `recordings` fixture (a CPU recording's transformer is transformer_step).
RECORDED = ["rmsnorm_naive", "matmul_1024", "transformer_step", "allreduce_2ranks"]
SHARED = [
    "kineto/resnet50_2021_autograd_api.pt.trace.json.gz",
    "hta/critical_path/alexnet.json.gz",
    "hta/amd/mi250_minitoy_train_rocm6.2.json.gz",
    "hta/mtia/mtia_inference_rank_0.json.gz",
]


def judge(run, trace, cli_json):
    """The run's analyses of its first rank against sutra-cli's on `trace` (a Kineto file)."""
    breakdown = run.breakdown()
    breakdown.pop("steps_frame")
    assert breakdown == cli_json("breakdown", trace)
    assert run.call_tree().attrs["tree"] == cli_json("calltree", trace)
    path = cli_json("critical-path", trace)
    path.pop("segments")
    assert run.critical_path().attrs == path
    assert run.memory() == cli_json("memory", trace)
    table = run.op_table(rank=run.ranks[0])
    assert table["name"].tolist() == [r["name"] for r in cli_json("stats", trace)["rows"]]


@pytest.mark.parametrize("case", RECORDED)
def test_analyses_on_recordings(recordings, cli_json, case):
    folder = recordings / case
    run = sutra.open(folder, link_et=False, progress=False)
    judge(run, sorted(folder.glob("rank0.kineto.json*"))[0], cli_json)
    assert len(run.steps(rank=run.ranks[0])) > 0
    if len(run.ranks) > 1:
        overview = sutra.rank_overview(folder, use_cache=False, progress=False)
        assert overview.document == cli_json("ranks", folder, "--no-cache")


@pytest.mark.parametrize("relative", SHARED)
def test_analyses_on_shared_traces(shared_kineto, cli_json, relative):
    trace = shared_kineto.parent / relative
    if not trace.is_file():
        pytest.skip(f"{trace} is absent")
    judge(sutra.open(trace, progress=False), trace, cli_json)


def test_the_gil_is_released_while_core_loads(shared_kineto):
    trace = shared_kineto / "resnet50_2021_autograd_api.pt.trace.json.gz"
    counter = [0]
    stop = threading.Event()

    def count():
        while not stop.is_set():
            counter[0] += 1

    thread = threading.Thread(target=count)
    thread.start()
    try:
        before = counter[0]
        sutra.open(trace, progress=False)
        during = counter[0] - before
    finally:
        stop.set()
        thread.join()
    # Held through the load, the GIL would let the counter run only at the call's edges.
    assert during > 10_000
