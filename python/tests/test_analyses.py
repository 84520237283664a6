# SPDX-License-Identifier: MIT
"""The run's analyses, compare, simulate, the exports and the rank overview: each judged against
sutra-cli's --json answer for the same input."""

import json

import pandas as pd
import pytest
import sutra


@pytest.fixture(scope="module")
def naive(samples):
    return sutra.open(samples / "rmsnorm_naive", progress=False)


@pytest.fixture(scope="module")
def two_ranks(samples):
    return sutra.open(samples / "allreduce_2ranks", progress=False)


def test_steps(naive, cli_json, samples):
    steps = naive.steps()
    breakdown = cli_json("breakdown", samples / "rmsnorm_naive")
    assert steps["step"].tolist() == [s["step"] for s in breakdown["steps"]]
    assert steps["start_ns"].tolist() == [s["start_ns"] for s in breakdown["steps"]]
    assert (steps["dur_ns"] == steps["device_end_ns"] - steps["start_ns"]).all()
    assert set(steps["source"]) == {"ProfilerStep"}


def test_breakdown(naive, cli_json, samples):
    doc = naive.breakdown()
    frame = doc.pop("steps_frame")
    assert doc == cli_json("breakdown", samples / "rmsnorm_naive")
    assert len(frame) == len(doc["steps"])
    step = int(naive.steps()["step"].iloc[1])
    one = naive.breakdown(step=step)
    one.pop("steps_frame")
    assert one == cli_json("breakdown", samples / "rmsnorm_naive", "--step", step)


def count_nodes(nodes):
    return sum(1 + count_nodes(n["children"]) for n in nodes)


@pytest.mark.parametrize("bottom_up", [False, True])
def test_call_tree(naive, cli_json, samples, bottom_up):
    tree = naive.call_tree(bottom_up=bottom_up)
    expected = cli_json("calltree", samples / "rmsnorm_naive", *(["--bottom-up"] if bottom_up else []))
    assert tree.attrs["tree"] == expected
    assert len(tree) == sum(count_nodes(t["nodes"]) for t in expected["threads"])
    if not bottom_up:  # top-down, the roots' totals are the threads' (bottom-up, leaves repeat)
        top = tree[tree["level"] == 0]
        assert top["total_cpu_ns"].sum() == sum(t["cpu_total_ns"] for t in expected["threads"])


def test_critical_path(naive, cli_json, samples):
    path = naive.critical_path()
    expected = cli_json("critical-path", samples / "rmsnorm_naive")
    segments = expected.pop("segments")
    assert path.attrs == expected
    assert len(path) == len(segments)
    assert path["weight_ns"].tolist() == [s["weight_ns"] for s in segments]
    assert path["kind"].tolist() == [s["kind"] for s in segments]


def test_memory_and_chain(naive, cli_json, samples):
    assert naive.memory() == cli_json("memory", samples / "rmsnorm_naive")
    # The run linked the folder's execution trace: the CLI is given it too.
    folder = samples / "rmsnorm_naive"
    with_et = [folder / "rank0.kineto.json.gz", "--et", folder / "rank0.et.json.gz"]
    kernel = naive.kernels()["name"].iloc[0]
    assert naive.chain(kernel) == cli_json("chain", *with_et, "--name", kernel)
    event = int(naive.kernels()["id"].iloc[0])
    assert naive.chain(event) == cli_json("chain", *with_et, "--event", event)
    with pytest.raises(sutra.SutraError, match="no event named 'no such op'"):
        naive.chain("no such op")


def test_compare_two_runs(naive, samples, cli_json):
    fused = samples / "rmsnorm_fused"
    comparison = sutra.compare(samples / "rmsnorm_naive", fused)
    expected = cli_json("compare", samples / "rmsnorm_naive", fused)
    assert comparison.story == expected["story"]["headline"]
    assert comparison.replaced == expected["story"]["replaced"]
    assert comparison.totals == {"a": expected["story"]["a"], "b": expected["story"]["b"]}
    assert len(comparison.ops) == len(expected["rows"])
    rows = {r["name"]: r for r in expected["rows"]}
    for op in comparison.ops.to_dict("records"):
        assert op["delta_self_device_ns"] == rows[op["name"]]["delta"]["self_device_ns"]
    # A run already open is compared as the path is.
    assert sutra.compare(naive, fused).story == comparison.story


def test_compare_two_steps(naive, samples, cli_json):
    steps = naive.steps()["step"].tolist()
    comparison = sutra.compare(naive, step_a=steps[0], step_b=steps[-1])
    expected = cli_json("compare", samples / "rmsnorm_naive", "--step-a", steps[0], "--step-b", steps[-1])
    assert comparison.story == expected["story"]["headline"]
    with pytest.raises(ValueError, match="two different steps"):
        sutra.compare(naive)


def test_simulate(two_ranks, samples, cli_json):
    plain = two_ranks.simulate()
    expected = cli_json("simulate", samples / "allreduce_2ranks")
    measured = [
        (r["rank"], s["step"], s["measured_ns"], s["simulated_ns"])
        for r in expected["ranks"]
        for s in r["steps"]
    ]
    assert (
        list(plain[["rank", "step", "measured_ns", "projected_ns"]].itertuples(index=False, name=None))
        == measured
    )
    assert (plain["replayed_ns"] == plain["projected_ns"]).all()
    what_if = two_ranks.simulate({"scale": {"nccl": 0.5}, "cpu_speed": 2})
    expected = cli_json("simulate", samples / "allreduce_2ranks", "--scale", "nccl=0.5", "--cpu-speed", "2")
    projected = [s["simulated_ns"] for r in expected["ranks"] for s in r["steps"]]
    assert what_if["projected_ns"].tolist() == projected
    assert (what_if["replayed_ns"] == plain["replayed_ns"]).all()
    assert (what_if["projected_ns"] < what_if["replayed_ns"]).all()
    assert "x0.5" in what_if.attrs["knobs"]
    with pytest.raises(sutra.SutraError):
        two_ranks.simulate(cpu_speed=0)
    with pytest.raises(ValueError, match="unknown knob"):
        two_ranks.simulate(gpu_speed=2)


def test_simulate_network_and_host_knobs(two_ranks, samples, cli_json):
    """run.simulate's network_speed and scale_cpu are sutra-cli's --network-speed and --scale-cpu."""
    knobs = {"network_speed": 4, "scale_cpu": {"aten::mm": 0.5}}
    what_if = two_ranks.simulate(knobs)
    expected = cli_json(
        "simulate", samples / "allreduce_2ranks", "--network-speed", "4", "--scale-cpu", "aten::mm=0.5"
    )
    assert what_if["projected_ns"].tolist() == [
        s["simulated_ns"] for r in expected["ranks"] for s in r["steps"]
    ]
    assert "network x4" in what_if.attrs["knobs"] and "host 'aten::mm' x0.5" in what_if.attrs["knobs"]
    assert what_if.attrs["network"] == expected["collectives"]["network"]["basis"]
    with pytest.raises(sutra.SutraError):
        two_ranks.simulate(network_speed=0)
    with pytest.raises(sutra.SutraError):
        two_ranks.simulate(scale_cpu={"(": 0})


def test_to_chakra_and_et_plus(two_ranks, tmp_path):
    written = two_ranks.to_chakra(tmp_path / "job", progress=False)
    assert written["rank"].tolist() == [0, 1]
    assert (written["error"] == "").all() and (written["nodes"] > 0).all()
    for path in written["path"]:
        assert (tmp_path / path).exists() or pd.io.common.file_exists(path)
    graphs = sutra.open([str(p) for p in written["path"]], chakra_graphs=True, progress=False)
    assert graphs.ranks == [0, 1]
    matching = two_ranks.to_et_plus(tmp_path / "rank1.et_plus.json", rank=1)
    assert matching
    doc = json.loads((tmp_path / "rank1.et_plus.json").read_text())
    assert doc["nodes"]


def test_rank_overview(samples, cli_json, tmp_path):
    overview = sutra.rank_overview(samples / "allreduce_2ranks", use_cache=False, progress=False)
    expected = cli_json("ranks", samples / "allreduce_2ranks", "--no-cache")
    assert overview.document == expected
    assert overview.ranks["rank"].tolist() == [0, 1]
    assert overview.ranks.columns[:3].tolist() == ["rank", "steps", "step_ns"]
    # Saved summaries (sutra-cli ranks --save) open as the traces do.
    saved = tmp_path / "job.summaries.json"
    cli_json("ranks", samples / "allreduce_2ranks", "--no-cache", "--save", saved)
    from_file = sutra.rank_overview(saved, progress=False)
    assert from_file.document["ranks"] == expected["ranks"]
    with pytest.raises(sutra.SutraError, match="nothing.json"):
        sutra.rank_overview(tmp_path / "nothing.json", use_cache=False, progress=False)


def test_rank_overview_on_a_dask_cluster_equals_the_serial_one(samples, tmp_path):
    distributed = pytest.importorskip("distributed")
    import dask

    folder = samples / "allreduce_2ranks"
    serial = sutra.rank_overview(folder, use_cache=False, progress=False)
    with (
        # dask's scratch folder in the test's own: its default is a fixed dask-scratch-space in
        # the system's temporary folder, shared by every run on the machine.
        dask.config.set({"temporary-directory": str(tmp_path / "dask")}),
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        merged = sutra.rank_overview(folder, client=client, use_cache=False)
    assert merged.document["ranks"] == serial.document["ranks"]
    assert merged.document["stragglers"] == serial.document["stragglers"]
    assert merged.collectives == serial.collectives
    assert merged.median_step_ns == serial.median_step_ns
