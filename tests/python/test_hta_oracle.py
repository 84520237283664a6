# SPDX-License-Identifier: MIT
"""HTA as the oracle: Sutra's device analyses judged against HolisticTraceAnalysis (the real tool,
HTA==0.5.0 from PyPI) on the real Kineto traces in ../shared/traces, per rank and per stream.

Each check runs HTA's own analysis on a folder holding one trace file and sutra-cli's on the same
file, and compares them:
- temporal breakdown (HTA get_temporal_breakdown; sutra-cli overlap): idle, compute, non-compute
  time over the span from the first device op to the last; and the step breakdown's busy time
  (sutra-cli breakdown) where its one step is the whole trace;
- kernel breakdown (get_gpu_kernel_breakdown; sutra-cli overlap's kernel types and sutra-cli stats'
  device rows): time per set of kernel types running together, and per kernel name;
- communication/computation overlap (get_comm_comp_overlap; sutra-cli overlap);
- idle time breakdown per stream (get_idle_time_breakdown; sutra-cli idle);
- queue length summary per stream (get_queue_length_summary; sutra-cli queue);
- critical path length (critical_path_analysis; sutra-cli critical-path).

HTA reads times in microseconds and, by default, rounds each event's start up and its end down to
a whole microsecond (its parser's round_down_time_stamps): a 400 ns kernel becomes 0 us or -1 us
long. HTA_DISABLE_NS_ROUNDING=1 (HTA's own switch) keeps the fractions, so the two are compared to
the nanosecond instead of the microsecond. Where HTA's trace has two ProfilerSteps or more, HTA
drops the device ops launched from the last step on (include_last_profiler_step=False, its
default): Sutra is given the same window (--end-ns at that step's start).

Where the two differ by design, the check pins the difference and says why.
"""

import math
import os
import shutil
import types

import pytest

os.environ["HTA_DISABLE_NS_ROUNDING"] = "1"  # read by HTA's parser at each load

trace_analysis = pytest.importorskip(
    "hta.trace_analysis",
    reason="HolisticTraceAnalysis is not installed: `make venv` installs python/requirements.txt",
)
pd = pytest.importorskip("pandas")

pytestmark = [
    pytest.mark.hta_oracle,
    # HTA 0.5.0 calls pandas with arguments pandas 3 deprecates; its warnings are no finding here.
    pytest.mark.filterwarnings("ignore:The inplace keyword"),
    pytest.mark.filterwarnings("ignore::FutureWarning"),
]

# The real Kineto traces HTA 0.5.0 parses. Left out: kineto/resnet50_2020_top_level_array (a bare
# top-level array of events: HTA fails with "'list' object has no attribute 'items'") and
# hta/cpu_only (no device ops to analyse).
TRACES = [
    "hta/amd/mi250_minitoy_train_rocm6.2.json.gz",
    "hta/critical_path/alexnet.json.gz",
    "hta/critical_path/cuda_event_sync.json.gz",
    "hta/critical_path/cuda_event_sync_multi_stream.json.gz",
    "hta/critical_path/simple_add.json.gz",
    "hta/execution_trace/simple_add_kineto.json.gz",
    "hta/mtia/mtia_inference_rank_0.json.gz",
    "hta/trace_compare/base.json.gz",
    "hta/trace_compare/test.json.gz",
    "hta/triton/triton_example.json.gz",
    "kineto/h100_before_fix_trace.json",
    "kineto/resnet50_2021_autograd_api.pt.trace.json.gz",
    "param/linear_kineto.json.gz",
]

# The traces whose one step in Sutra is the whole trace (no ProfilerStep or other step annotation,
# and no HTA window): there sutra-cli breakdown's busy time is HTA's (test_step_breakdown_busy_time).
# In the others Sutra's steps come from the annotations (test_steps_come_from_annotations).
WHOLE_TRACE_STEPS = [
    "hta/critical_path/alexnet.json.gz",
    "hta/critical_path/cuda_event_sync_multi_stream.json.gz",
    "hta/critical_path/simple_add.json.gz",
    "hta/execution_trace/simple_add_kineto.json.gz",
    "kineto/h100_before_fix_trace.json",
    "kineto/resnet50_2021_autograd_api.pt.trace.json.gz",
]
ANNOTATED_STEPS = [name for name in TRACES if name not in WHOLE_TRACE_STEPS]

# No real trace here has a communication kernel; the synthetic all-reduce model (tests/data, written
# by tools/samplegen) has NCCL kernels, so the overlap is judged on it too.
SAMPLES_WITH_COMMUNICATION = [
    "tests/data/synthetic_samples/allreduce_2ranks/rank0.kineto.json.gz",
    "tests/data/synthetic_samples/allreduce_2ranks/rank1.kineto.json.gz",
]

US = 1000.0  # ns per HTA time unit
# The categories of device ops (HTA's get_idle_time_breakdown's list; Sutra's Kernel, Memcpy and
# Memset classes).
HTA_KERNEL_CATEGORIES = (
    "kernel",
    "Kernel",
    "gpu_memset",
    "Memset",
    "gpu_memcpy",
    "Memcpy",
    "mtia_ccp_events",
)
SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Case:
    """One trace: HTA's TraceAnalysis of it (loaded once) and what Sutra needs to cover the same
    device ops."""

    def __init__(self, path, folder, run_cli):
        shutil.copy(path, folder)
        self.path = path
        self.hta = trace_analysis.TraceAnalysis(trace_dir=str(folder))
        self.t = self.hta.t
        (self.rank,) = self.t.traces.keys()
        self.df = self.t.traces[self.rank]
        self.sym = self.t.symbol_table.get_sym_table()
        self.ids = self.t.symbol_table.get_sym_id_map()
        self._cli = run_cli
        self._outputs = {}
        # HTA filters a trace with two ProfilerStep names or more (trace.py,
        # _filter_irrelevant_gpu_kernels): the window ends where the last step starts.
        self.window = []
        if sum("ProfilerStep" in name for name in self.ids) >= 2:
            steps = self.cli("breakdown")["steps"]
            last = max(s["start_ns"] for s in steps if s["name"].startswith("ProfilerStep"))
            self.window = ["--end-ns", last]

    def cli(self, command, *args):
        key = (command, *args)
        if key not in self._outputs:
            window = self.window if command not in ("breakdown",) else []
            self._outputs[key] = self._cli(command, self.path, *window, *args)
        return self._outputs[key]

    def device_events(self):
        """HTA's device events: every event with a stream."""
        return self.df[self.df["stream"].ne(-1)]

    def device_ops(self):
        """The device events that are device ops (Sutra's kernels, memcpy and memset)."""
        events = self.device_events()
        return events[events["cat"].isin(self.kernel_cats())]

    def kernel_cats(self):
        return {self.ids.get(c, -1000) for c in HTA_KERNEL_CATEGORIES}

    def hta_on_device_ops(self):
        """A Trace-like object for HTA's classmethods whose events with a stream are device ops
        only: HTA's breakdowns take every event with a stream, cuda_sync events (the span a
        stream waits for an event) and host ops with a "stream" argument (triton_example's
        cpu_op triton_poi_fused_add_cos_sin_0, stream 0, 95.8 us) included, which run nothing
        on the device."""
        df = self.df
        keep = df["stream"].eq(-1) | df["cat"].isin(self.kernel_cats())
        return types.SimpleNamespace(traces={self.rank: df[keep]}, symbol_table=self.t.symbol_table)

    def hta_stream(self, sutra_stream):
        """HTA's stream (the events' "stream" argument) of a stream Sutra reports (its lane's tid,
        "stream N" read as N): the same number except on MTIA, whose lanes' tids (3536, 3570 ...)
        are not their streams (101, 102 ...); there each lane holds one stream."""
        ops = self.device_ops()
        if sutra_stream in set(ops["stream"]):
            return sutra_stream
        by_tid = ops[ops["tid"].astype(str).eq(str(sutra_stream))]["stream"].unique()
        assert len(by_tid) == 1, f"{self.path}: Sutra's stream {sutra_stream} is no HTA stream"
        return int(by_tid[0])

    def other_events_on_streams(self):
        return len(self.device_events()) - len(self.device_ops())


@pytest.fixture(scope="module")
def case_of(request, run_cli, tmp_path_factory):
    """case_of(name) -> the Case of a trace of ../shared/traces (skipped where that folder is
    absent) or of a fixture of this repository (tests/data/...), loaded once per module."""
    cases = {}

    def load(name):
        if name not in cases:
            if name.startswith("tests/data/"):
                path = os.path.join(SOURCE_DIR, name)
            else:
                path = request.getfixturevalue("shared_traces") / name
            cases[name] = Case(str(path), tmp_path_factory.mktemp("hta"), run_cli)
        return cases[name]

    return load


def close(sutra_ns, hta_us, tolerance_ns):
    return abs(sutra_ns - hta_us * US) <= tolerance_ns


# --- temporal breakdown --------------------------------------------------------------------------


@pytest.mark.parametrize("name", TRACES)
def test_temporal_breakdown(case_of, name):
    case = case_of(name)
    from hta.analyzers.breakdown_analysis import BreakdownAnalysis

    sutra = case.cli("overlap")
    assert sutra["ops"] > 0, f"{name}: no device ops (TRACES holds traces with some)"
    # Sutra's device ops are kernels, memcpy and memset; HTA's temporal breakdown takes every event
    # with a stream (Case.hta_on_device_ops). On the device ops alone HTA's own figures are
    # Sutra's to the ns.
    hta = BreakdownAnalysis.get_temporal_breakdown(case.hta_on_device_ops(), visualize=False).iloc[0]
    tolerance = 2 + 1e-9 * sutra["span_ns"]  # float microseconds against integer ns
    assert close(sutra["span_ns"], hta["kernel_time(us)"], tolerance), (sutra, hta)
    assert close(sutra["idle_ns"], hta["idle_time(us)"], tolerance), (sutra, hta)
    assert close(sutra["computation_ns"], hta["compute_time(us)"], tolerance), (sutra, hta)
    assert close(sutra["non_computation_ns"], hta["non_compute_time(us)"], tolerance), (sutra, hta)
    if case.other_events_on_streams():
        # The pinned difference: HTA's own figures with the other events hold more busy time
        # (the sync spans, the host op), and more compute: a cuda_sync event named "Stream Wait
        # Event" holds no "Sync", so HTA's name rule makes it a computation kernel, and so is
        # triton_example's host op.
        full = case.hta.get_temporal_breakdown(visualize=False).iloc[0]
        busy_full = full["kernel_time(us)"] - full["idle_time(us)"]
        busy_without = hta["kernel_time(us)"] - hta["idle_time(us)"]
        assert busy_full >= busy_without
        waits = case.device_events()["name"].eq(case.ids.get("Stream Wait Event", -1000)).sum()
        host_ops = case.device_events()["cat"].eq(case.ids.get("cpu_op", -1000)).sum()
        if waits == 0 and host_ops == 0:
            assert full["compute_time(us)"] == pytest.approx(hta["compute_time(us)"], abs=1e-3)
        else:
            assert full["compute_time(us)"] >= hta["compute_time(us)"]


def whole_trace_step(case):
    steps = case.cli("breakdown")["steps"]
    return len(steps) == 1 and steps[0]["name"] == "whole trace" and not case.window


@pytest.mark.parametrize("name", WHOLE_TRACE_STEPS)
def test_step_breakdown_busy_time(case_of, name):
    """sutra-cli breakdown's device parts (kernel, memcpy, memset, communication) are the union of
    the device ops over its step: where its one step is the whole trace, that is HTA's busy time
    (kernel_time - idle_time, cuda_sync left out as above). Its idle runs over the step, from the
    trace's first event, HTA's over the device ops' span: they differ by exactly the time before
    the first device op and after the last."""
    case = case_of(name)
    assert whole_trace_step(case), f"{name}: Sutra's steps are no longer the whole trace"
    from hta.analyzers.breakdown_analysis import BreakdownAnalysis

    hta = BreakdownAnalysis.get_temporal_breakdown(case.hta_on_device_ops(), visualize=False).iloc[0]
    (step,) = case.cli("breakdown")["steps"]
    assert step["devices"], f"{name}: no device ops"
    busy = sum(
        d[k] for d in step["devices"] for k in ("kernel_ns", "memcpy_ns", "memset_ns", "communication_ns")
    )
    idle = sum(d["idle_ns"] for d in step["devices"])
    hta_busy = hta["kernel_time(us)"] - hta["idle_time(us)"]
    assert close(busy, hta_busy, 2 + 1e-9 * busy), (step, hta)
    overlap = case.cli("overlap")
    outside_span = (step["device_end_ns"] - step["start_ns"]) - overlap["span_ns"]
    assert idle - outside_span == pytest.approx(hta["idle_time(us)"] * US, abs=2 + 1e-9 * idle)


@pytest.mark.parametrize("name", ANNOTATED_STEPS)
def test_steps_come_from_annotations(case_of, name):
    """The traces left out of the step breakdown's check: their steps come from annotations (or
    HTA's window cuts the trace), so no step is the whole trace HTA's busy time covers."""
    assert not whole_trace_step(case_of(name)), f"{name}: one step is the whole trace: judge it"


# --- kernel breakdown ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", TRACES)
def test_kernel_type_breakdown(case_of, name):
    case = case_of(name)
    sutra = case.cli("overlap")
    assert sutra["ops"] > 0, f"{name}: no device ops (TRACES holds traces with some)"
    from hta.analyzers.breakdown_analysis import BreakdownAnalysis

    # On the device ops alone, as the temporal breakdown (memory kernels included: HTA's default).
    hta_types, hta_kernels = BreakdownAnalysis.get_gpu_kernel_breakdown(
        case.hta_on_device_ops(), visualize=False, include_memory_kernels=True
    )
    hta_by = {row.kernel_type.lower(): row.sum for row in hta_types.itertuples()}
    sutra_by = {t["types"]: t["time_ns"] for t in sutra["kernel_types"]}
    # HTA truncates each piece of time to whole microseconds (astype(int) in
    # _get_gpu_kernel_type_time), so it is short by under 1 us per piece, two pieces at most per op;
    # and its unstable sort of equal times lists sets of types that never run together for 0 us
    # (e.g. "computation overlapping communication" on the all-reduce sample).
    ops = sutra["ops"]
    for types_, hta_us in hta_by.items():
        if types_ not in sutra_by:
            assert hta_us <= 1, f"{name}: HTA has {types_} for {hta_us} us, Sutra none"
            continue
        shortfall = sutra_by[types_] - hta_us * US
        assert -2 <= shortfall <= 2 * ops * US, (
            f"{name} {types_}: Sutra {sutra_by[types_]} ns, HTA {hta_us} us"
        )
    for types_, ns in sutra_by.items():
        assert types_ in hta_by or ns < 2 * US, f"{name}: Sutra has {types_} ({ns} ns), HTA none"
    # Per kernel name: HTA's top kernels (its "others" row aside) against sutra-cli stats' device
    # rows: the sum of the op's durations, to the ns.
    rows = {r["name"]: r for r in case.cli("stats")["rows"]}
    for _, row in hta_kernels.iterrows():
        if row["name"] == "others":
            continue
        sutra_row = rows.get(row["name"])
        assert sutra_row is not None, f"{name}: no stats row for {row['name']}"
        total = row["sum (us)"]
        calls = round(total / row["mean (us)"]) if row["mean (us)"] else 0
        assert close(sutra_row["self_device_ns"], total, 2 + calls + 1e-9 * total * US), (row, sutra_row)


# --- communication / computation overlap ---------------------------------------------------------


@pytest.mark.parametrize("name", TRACES + SAMPLES_WITH_COMMUNICATION)
def test_comm_comp_overlap(case_of, name):
    case = case_of(name)
    sutra = case.cli("overlap")
    hta = case.hta.get_comm_comp_overlap(visualize=False).iloc[0]["comp_comm_overlap_pctg"]
    if sutra["communication_ns"] == 0:
        # No communication kernel: HTA divides 0 by 0 (NaN); Sutra reports none (null).
        assert sutra["overlap_ratio"] is None
        assert math.isnan(hta), f"{name}: HTA finds communication Sutra does not"
    else:
        assert 100 * sutra["overlap_ratio"] == pytest.approx(hta, abs=0.01)


# --- idle time breakdown -------------------------------------------------------------------------


@pytest.mark.parametrize("name", TRACES)
def test_idle_time_breakdown(case_of, name):
    case = case_of(name)
    sutra = case.cli("idle")["streams"]
    assert sutra, f"{name}: no device ops (TRACES holds traces with some)"
    # HTA's default threshold is 30 (its docs: ns); it compares it with microseconds: 30 us.
    hta, _ = case.hta.get_idle_time_breakdown(ranks=[case.rank], consecutive_kernel_delay=30, visualize=False)
    streams = {case.hta_stream(s["stream"]): s for s in sutra}
    assert len(streams) == len(sutra), f"{name}: one stream id on two devices"
    assert set(streams) == set(int(s) for s in hta["stream"].unique())
    for stream, s in streams.items():
        rows = hta[hta["stream"].eq(stream)].set_index("idle_category")["idle_time"]
        for category in ("host_wait", "kernel_wait", "other"):
            hta_us = float(rows.get(category, 0.0))
            # HTA rounds its result to 0.01 us.
            assert close(s[f"{category}_ns"], hta_us, 6 + s["ops"]), (name, stream, category, s, hta_us)


# --- queue length summary ------------------------------------------------------------------------

# HTA's launch calls (trace_symbol_table.get_runtime_launch_events_query); Sutra counts every
# runtime or driver call that shares a device op's correlation.
HTA_LAUNCH_CALLS = {
    "cudaLaunchKernel",
    "cudaLaunchKernelExC",
    "cuLaunchKernel",
    "cudaMemcpyAsync",
    "cudaMemsetAsync",
    "runFunction - job_prep_and_submit_for_execution",
    "hipLaunchKernel",
    "hipExtModuleLaunchKernel",
    "hipMemsetAsync",
    "hipMemcpyAsync",
    "hipMemcpyWithStream",
}


def ops_launched_by_other_calls(case):
    """Per stream, the device ops whose launch call HTA does not name (cudaMemcpy,
    cudaGraphLaunch ...): Sutra counts them in the queue, HTA does not."""
    host = case.df[case.df["stream"].eq(-1) & case.df["correlation"].gt(0)]
    names = host["name"].map(lambda i: case.sym[i])
    listed = set(host.loc[names.isin(HTA_LAUNCH_CALLS), "correlation"])
    other = set(host.loc[~names.isin(HTA_LAUNCH_CALLS), "correlation"])
    ops = case.device_ops()
    unlisted = ops[ops["correlation"].isin(other - listed)]
    return unlisted.groupby("stream").size().to_dict()


@pytest.mark.parametrize("name", TRACES)
def test_queue_length_summary(case_of, name):
    case = case_of(name)
    sutra = {case.hta_stream(s["stream"]): s for s in case.cli("queue")["streams"]}
    hta = case.hta.get_queue_length_summary(ranks=[case.rank])
    assert sutra, f"{name}: no launched device ops (TRACES holds traces with some)"
    hta = hta.loc[case.rank]["queue_length"]
    unlisted = ops_launched_by_other_calls(case)
    assert set(sutra) == set(int(s) for s in hta.index) | set(unlisted)
    for stream, s in sutra.items():
        extra = unlisted.get(stream, 0)
        if stream not in hta.index:
            assert s["count"] == 2 * extra
            continue
        h = hta.loc[stream]
        # The pinned difference: two samples for each op launched by a call HTA does not name.
        assert s["count"] == h["count"] + 2 * extra, (name, stream, s, h.to_dict())
        if extra:
            continue
        assert s["min"] == h["min"] and s["max"] == h["max"], (name, stream, s, h.to_dict())
        # HTA orders equal times by an unstable sort, Sutra rises first: at a tie the samples
        # between differ by one, which moves the mean by at most 1/count per tie.
        assert s["mean"] == pytest.approx(h["mean"], abs=0.05), (name, stream, s, h.to_dict())
        assert s["std"] == pytest.approx(h["std"] if not math.isnan(h["std"]) else 0, abs=0.05)
        for q, col in (("p25", "25%"), ("p50", "50%"), ("p75", "75%")):
            assert abs(s[q] - h[col]) <= 1, (name, stream, q, s, h.to_dict())


# --- critical path -------------------------------------------------------------------------------

# HTA's whole trace (annotation "") against sutra-cli critical-path --start-ns 0 (the whole trace;
# up to the last ProfilerStep where HTA drops the rest, as above), both pinned: (Sutra ns, HTA us,
# why they differ). Sutra builds HTA's graph with the differences core/analysis/critical_path.h
# lists: a sync edge weighs the time the call stayed blocked after the awaited op ended; a launch
# delay or kernel-to-kernel gap weighs at most the time the stream stood idle before the op; a
# stream's op follows its launch where the stream was idle when the call started.
CRITICAL_PATHS = {
    "hta/amd/mi250_minitoy_train_rocm6.2.json.gz": (7_452_353, 7452.353, "the same path"),
    "hta/critical_path/alexnet.json.gz": (
        43_355_679_000,
        43355656.0,
        "+23 us in 43.4 s: Sutra's sync wait tails (114 us) against HTA's zero-weight syncs",
    ),
    "hta/critical_path/cuda_event_sync.json.gz": (
        2_419_000,
        2397.0,
        "+22 us: the cudaEventSynchronize's blocked tail (8 us), launch delays weighed by idle time",
    ),
    "hta/critical_path/cuda_event_sync_multi_stream.json.gz": (
        1_197_000,
        1178.0,
        "+19 us: the Stream Wait Event's tail (13 us) and the kernel gaps on the waiting stream",
    ),
    "hta/critical_path/simple_add.json.gz": (
        41_435_205_000,
        41435234.0,
        "-29 us in 41.4 s: HTA's kernel-to-kernel edges (11.9 ms) weigh gaps the host caused",
    ),
    "hta/execution_trace/simple_add_kineto.json.gz": (
        19_679_961_000,
        19677223.0,
        "+2.7 ms in 19.7 s: launch delays (Sutra 8.29 ms, HTA 5.82 ms) end on other kernels",
    ),
    "hta/mtia/mtia_inference_rank_0.json.gz": (
        249_749_966,
        323273.2350078123,
        "-73.5 ms: HTA's path is all device (kernel-to-kernel edges 239 ms): it weighs a stream's "
        "whole gap before an op launched after the gap began (event_wait on stream 108, launched "
        "at 326.76 ms, 126.8 ms after the stream went idle); Sutra's path takes the launch there "
        "and runs through the host, whose time between ops weighs nothing",
    ),
    "hta/trace_compare/base.json.gz": (
        172_000,
        57207.0,
        "HTA's window (launched before ProfilerStep#1010) holds 2 of the 18 device ops; the other "
        "16 have no launch in the trace but keep stream 7 busy. HTA weighs the launch of one "
        "kernel with the whole 57.2 ms between its cudaLaunchKernel and its start, spent behind "
        "them; Sutra weighs a launch delay at most the time the stream stood idle",
    ),
    "hta/trace_compare/test.json.gz": (172_000, 57207.0, "as base.json.gz"),
    "hta/triton/triton_example.json.gz": (1_388_555, 1388.555, "the same path"),
    "kineto/h100_before_fix_trace.json": (100, 0.1, "the same path (one 100 ns op)"),
    "param/linear_kineto.json.gz": (1_287_354_000, 1287346.0, "+8 us in 1.29 s: sync wait tails"),
}


@pytest.fixture
def hta_pandas3_shim(monkeypatch):
    """HTA 0.5.0's critical path calls DataFrame.drop(axis=1, columns=[...]), which pandas 3
    refuses ("Cannot specify both 'axis' and 'index'/'columns'"); pandas 2 ignored the axis."""
    original = pd.DataFrame.drop

    def drop(self, *args, **kwargs):
        if "columns" in kwargs or "index" in kwargs:
            kwargs.pop("axis", None)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(pd.DataFrame, "drop", drop)


@pytest.mark.parametrize("name", sorted(CRITICAL_PATHS))
def test_critical_path_length(case_of, name, hta_pandas3_shim):
    sutra_pinned, hta_pinned, why = CRITICAL_PATHS[name]
    case = case_of(name)
    graph, ok = case.hta.critical_path_analysis(rank=case.rank, annotation="", instance_id=None)
    assert ok
    hta_us = sum(e.weight for e in graph.critical_path_edges_set)
    sutra = case.cli("critical-path", "--start-ns", 0)["length_ns"]
    assert hta_us == pytest.approx(hta_pinned, rel=1e-9, abs=1e-3), f"{name}: HTA moved ({why})"
    assert sutra == pytest.approx(sutra_pinned, rel=1e-3), f"{name}: Sutra moved ({why})"
    if why.startswith("the same path"):
        assert close(sutra, hta_us, 2), name


def test_critical_path_hta_cannot_build(case_of, hta_pandas3_shim):
    """HTA 0.5.0 fails on the 2021 ResNet trace (an old Kineto trace whose memcpy's runtime call it
    cannot find); Sutra's path is 4.48 s of the 5.24 s device span, mostly CPU (4.29 s)."""
    case = case_of("kineto/resnet50_2021_autograd_api.pt.trace.json.gz")
    with pytest.raises(AssertionError, match="Could not find runtime index"):
        case.hta.critical_path_analysis(rank=case.rank, annotation="", instance_id=None)
    sutra = case.cli("critical-path", "--start-ns", 0)
    assert sutra["length_ns"] == pytest.approx(4_477_533_000, rel=1e-3)
    assert sutra["breakdown"]["cpu_ns"] == pytest.approx(4_290_795_000, rel=1e-3)
