# SPDX-License-Identifier: MIT
"""sutra.open and the events frames: judged against sutra-cli on the samples, the real CPU
recordings and the real traces in ../shared; bad input and Ctrl-C during a load."""

import gzip
import os
import signal
import subprocess
import threading
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import sutra

SOURCE_DIR = Path(__file__).resolve().parents[2]
CASES = ["rmsnorm_naive", "rmsnorm_fused", "matmul_1024", "transformer_two_streams"]
# The same runs recorded fresh on the CPU (the `recordings` fixture): the transformer is one stream.
RECORDED_CASES = ["rmsnorm_naive", "rmsnorm_fused", "matmul_1024", "transformer_step"]


def op_rows(doc):
    return {(r["name"], r.get("input_shapes")): r for r in doc["rows"]}


def frame_rows(frame):
    return {(r["name"], r.get("input_shapes")): r for r in frame.drop(columns="rank").to_dict("records")}


def test_events_frame_of_a_sample(samples, cli_json):
    run = sutra.open(samples / "rmsnorm_naive", progress=False)
    assert run.ranks == [0]
    events = run.events()
    info = cli_json("info", samples / "rmsnorm_naive" / "rank0.kineto.json.gz")["files"][0]
    assert len(events) == info["events"]
    counts = events["category"].value_counts()
    assert counts[counts > 0].to_dict() == info["by_category"]
    assert list(events.columns[:4]) == ["rank", "id", "ts_ns", "dur_ns"]
    assert isinstance(events["name"].dtype, pd.CategoricalDtype)
    assert events["name"].isna().sum() == 0
    assert (events["dur_ns"] >= 0).all()
    assert events["id"].tolist() == list(range(len(events)))
    # ops and kernels are the frame's cpu_op and device-op rows.
    ops, kernels = run.ops(), run.kernels()
    assert len(ops) == (events["kind"] == "cpu_op").sum() > 0
    assert set(kernels["kind"]) <= {"kernel", "memcpy", "memset"}
    assert len(kernels) == events["kind"].isin(["kernel", "memcpy", "memset"]).sum() > 0
    assert kernels["stream"].notna().all() and ops["stream"].isna().all()


def test_launches_flows_counters(samples):
    run = sutra.open(samples / "rmsnorm_naive", progress=False)
    launches, kernels = run.launches(), run.kernels()
    assert sorted(launches["device_op_id"]) == sorted(kernels["id"])
    assert launches["runtime_call"].notna().all()
    assert (launches["launch_delay_ns"] >= 0).all()
    flows = run.flows()
    # Each ac2g flow into a device op runs from the launch call that launched it.
    ac2g = flows[(flows["category"] == "ac2g") & flows["to_id"].isin(kernels["id"])]
    assert len(ac2g) > 0
    pairs = set(zip(launches["runtime_call_id"], launches["device_op_id"]))
    assert set(zip(ac2g["from_id"], ac2g["to_id"])) <= pairs
    counters = run.counters()
    assert list(counters.columns) == ["rank", "name", "pid", "ts_ns", "value"]


def test_all_ranks_in_one_frame(samples):
    run = sutra.open(samples / "allreduce_2ranks", progress=False)
    assert run.ranks == [0, 1]
    events = run.events()
    assert sorted(events["rank"].unique()) == [0, 1]
    for rank in (0, 1):
        assert len(run.events(rank)) == (events["rank"] == rank).sum()
    # One name table for the ranks: a name has one category code across them.
    assert events["name"].cat.categories.is_unique


def test_the_frame_adopts_the_name_codes(samples):
    # The events frame's memory: pandas keeps a Categorical's codes in the narrowest integer type
    # for its number of names and copies codes of any other type; _core hands them over in that
    # type, so the frame holds the very arrays _core filled (no second copy at the peak).
    from sutra import _core, _frames, _run

    run = sutra.open(samples / "allreduce_2ranks", progress=False)
    columns = _core.event_columns(run._handle, [0, 1], [])
    frame = _frames.events_frame(columns, _run._KINDS)
    for name in ("name", "category", "pid", "tid", "kind"):
        assert np.shares_memory(frame[name].array.codes, columns[name]), name
    assert frame["kind"].astype(str).tolist() == run.events()["kind"].astype(str).tolist()
    # ops() counts its rows before it allocates: its columns are as long as the frame.
    ops = _core.event_columns(run._handle, [0, 1], _run._OP_KINDS)
    assert len(ops["ts_ns"]) == len(run.ops()) == (frame["kind"] == "cpu_op").sum()


def test_one_ranks_events_are_read_where_they_lie(samples):
    # Every event of one rank: the fields an event holds (times, ids, depth, parent) are read-only
    # arrays strided over the trace's own events (mapped from the trace cache for a big trace),
    # which the frame adopts; the rows equal those the copied, several-rank frame has.
    from sutra import _core, _frames, _run

    run = sutra.open(samples / "allreduce_2ranks", progress=False)
    columns = _core.event_columns(run._handle, [1], [])
    frame = _frames.events_frame(columns, _run._KINDS)
    for name in ("ts_ns", "dur_ns", "depth", "parent", "external_id", "correlation"):
        assert not columns[name].flags.writeable, name
        assert columns[name].strides[0] > columns[name].itemsize, name  # strided, not copied
        values = frame[name].array
        values = getattr(values, "_data", values)
        assert np.shares_memory(np.asarray(values), columns[name]), name
    both = run.events()
    copied = both[both["rank"] == 1].reset_index(drop=True)
    alone = run.events(1)
    pd.testing.assert_frame_equal(alone, copied, check_categorical=False)
    assert alone["parent"].dtype == "UInt32" and alone["parent"].isna().sum() > 0
    # A frame that changes a column gets its own values; the trace's stay as they were.
    changed = alone.copy()
    changed["ts_ns"] += 1
    assert (changed["ts_ns"] - run.events(1)["ts_ns"] == 1).all()
    del run
    assert int(frame["ts_ns"].iloc[0]) == int(columns["ts_ns"][0])  # the arrays keep the trace


def test_events_of_the_columns_asked_for(samples):
    # events(columns=...) makes only those columns, in the order asked: the same values as the
    # whole frame's, for every rank together, one rank (read where its events lie) and ops().
    run = sutra.open(samples / "allreduce_2ranks", progress=False)
    for ranks in (None, 1):
        whole = run.events(ranks)
        for asked in (["name", "dur_ns"], ["correlation", "rank", "kind"], ["parent"], "tid"):
            part = run.events(ranks, columns=asked)
            names = [asked] if isinstance(asked, str) else asked
            assert list(part.columns) == names
            pd.testing.assert_frame_equal(part, whole[names])
    ops = run.ops(columns=["name", "dur_ns"])
    pd.testing.assert_frame_equal(ops, run.ops()[["name", "dur_ns"]])
    assert run.kernels(columns=["stream"])["stream"].equals(run.kernels()["stream"])
    # A groupby over two columns, as a big trace would want it, equals the whole frame's.
    by_name = run.events(columns=["name", "dur_ns"]).groupby("name", observed=True)["dur_ns"].sum()
    assert by_name.equals(whole_by_name := run.events().groupby("name", observed=True)["dur_ns"].sum())
    assert len(whole_by_name) > 5
    with pytest.raises(ValueError, match=r'no event column "duration" \(the columns: rank, id, ts_ns'):
        run.events(columns=["name", "duration"])
    with pytest.raises(ValueError, match="name at least one column"):
        run.events(columns=[])


@pytest.mark.parametrize("case", CASES)
def test_op_table_equals_cli_stats_on_samples(samples, cli_json, case):
    run = sutra.open(samples / case, progress=False)
    trace = samples / case / "rank0.kineto.json.gz"
    for grouped in (False, True):
        expected = cli_json("stats", trace, *(["--group-by-shape"] if grouped else []))
        table = run.op_table(group_by_input_shape=grouped)
        assert frame_rows(table) == op_rows(expected)
        assert list(table["name"]) == [r["name"] for r in expected["rows"]]


@pytest.mark.parametrize("case", RECORDED_CASES)
def test_op_table_equals_cli_stats_on_recordings(recordings, cli_json, case):
    run = sutra.open(recordings / case, progress=False)
    expected = cli_json("stats", recordings / case / "rank0.kineto.json.gz")
    assert frame_rows(run.op_table()) == op_rows(expected)
    first = run.steps()["step"].iloc[0]
    expected = cli_json("stats", recordings / case / "rank0.kineto.json.gz", "--step", first)
    assert frame_rows(run.op_table(step=int(first))) == op_rows(expected)


def test_op_table_equals_cli_stats_on_shared_traces(shared_kineto, cli_json):
    for trace in sorted(shared_kineto.iterdir()):
        run = sutra.open(trace, progress=False)
        assert frame_rows(run.op_table()) == op_rows(cli_json("stats", trace)), trace.name
        info = cli_json("info", trace)["files"][0]
        assert len(run.events()) == info["events"], trace.name


def test_a_missing_path_raises_naming_it(tmp_path):
    missing = tmp_path / "nothing_here.json"
    with pytest.raises(sutra.SutraError, match="nothing_here.json"):
        sutra.open(missing, progress=False)


def test_a_broken_trace_raises_naming_the_file_and_the_problem(tmp_path):
    broken = tmp_path / "broken.pt.trace.json.gz"
    with gzip.open(broken, "wt") as f:
        f.write('{"schemaVersion": 1, "traceEvents": [{"ph": "X", "name": "a", "ts": 1, ')
    with pytest.raises(sutra.SutraError) as raised:
        sutra.open(broken, progress=False)
    assert "broken.pt.trace.json.gz" in str(raised.value)
    assert isinstance(raised.value, ValueError)
    # Core's own words, as sutra-cli prints them.
    cli = SOURCE_DIR / os.environ.get("SUTRA_BUILD", "build/release") / "app/cli/sutra-cli"
    done = subprocess.run([str(cli), "stats", str(broken)], capture_output=True, text=True)
    assert done.stderr.strip() == f"sutra-cli stats: {raised.value}"


def test_bad_arguments_are_python_errors(samples):
    with pytest.raises(ValueError, match="until"):
        sutra.open(samples / "rmsnorm_naive", until="everything", progress=False)
    run = sutra.open(samples / "rmsnorm_naive", progress=False)
    with pytest.raises(KeyError, match="no rank 7"):
        run.events(7)
    with pytest.raises(sutra.SutraError, match="step"):
        run.op_table(step=12345)


def test_progress_reaches_the_callback(samples):
    seen = []
    sutra.open(samples / "allreduce_2ranks", progress=lambda p, what: seen.append((p, what)))
    assert seen and seen[-1][0] == 100
    assert [p for p, _ in seen] == sorted(p for p, _ in seen)


def test_a_callback_raising_keyboardinterrupt_cancels_the_load(samples):
    calls = []

    def interrupt(percent, what):
        calls.append(percent)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        sutra.open(samples / "allreduce_2ranks", progress=interrupt)
    assert len(calls) == 1  # no callback after the first: the load stopped


def test_ctrl_c_during_a_load_cancels_it(shared_kineto, ctrl_c):
    """SIGINT from another thread while core reads: KeyboardInterrupt, and the open stops."""
    trace = shared_kineto / "resnet50_2021_autograd_api.pt.trace.json.gz"
    started = threading.Event()

    def progress(percent, what):
        if not started.is_set():
            started.set()
            threading.Timer(0.0, signal.raise_signal, [signal.SIGINT]).start()

    with pytest.raises(KeyboardInterrupt):
        for _ in range(20):  # a load that beats the signal is opened again
            sutra.open(trace, until="simulate", progress=progress)
            started.clear()


def test_repr_html_is_a_summary_table(samples):
    run = sutra.open(samples / "allreduce_2ranks", progress=False)
    html = run._repr_html_()
    assert html.count("<tr>") == 3 and "rank1.kineto.json.gz" in html
    info = run.rank_info()
    assert list(info["rank"]) == [0, 1]
    assert run.problems.columns.tolist()[:4] == ["rank", "where", "severity", "problem"]


def test_open_ranks_given_file_by_file(samples):
    folder = samples / "allreduce_2ranks"
    run = sutra.open_ranks(
        [
            {"kineto": folder / f"rank{r}.kineto.json.gz", "et": folder / f"rank{r}.et.json.gz"}
            for r in (0, 1)
        ],
        progress=False,
    )
    found = sutra.open(folder, progress=False)
    assert run.ranks == found.ranks == [0, 1]
    assert run.rank_info()["et_link"].tolist() == found.rank_info()["et_link"].tolist()
    assert len(run.events()) == len(found.events())
    with pytest.raises(sutra.SutraError, match="missing.kineto.json"):
        sutra.open_ranks([{"kineto": folder / "missing.kineto.json"}], progress=False)


def test_a_tqdm_bar_by_default(samples, capsys):
    pytest.importorskip("tqdm")
    run = sutra.open(samples / "rmsnorm_naive")  # progress=True: a tqdm bar on stderr
    assert run.ranks == [0]
    assert "sutra: opening" in capsys.readouterr().err
