# SPDX-License-Identifier: MIT
"""torch as the oracle, live: each test module run records fresh traces with tools/collect's own
workloads (torch.profiler + ExecutionTraceObserver on the CPU, the settings of a GPU run) into a
temporary folder, varied in shapes, threads and steps, and judges Sutra's answers on those files
against torch's own numbers from the same run (prof.key_averages(), the profiler's events and
memory records).

Skips, saying why, where torch is not installed (make venv installs it)."""

import gzip
import json
import subprocess
import sys

import pytest
from recording import SOURCE_DIR, record
from trace_files import et_ops_kineto_never_saw

torch = pytest.importorskip(
    "torch", reason="torch is not installed: `make venv` installs the pinned torch 2.13.0"
)

pytestmark = pytest.mark.torch_oracle

# The shapes, threads and steps each recording varies, so that no check is tuned to one file.
VARIANTS = {
    "small_1thread": dict(threads=1, wait=0, warmup=1, active=2, rows=512, hidden=1024, matmul_size=256),
    "wide_2threads": dict(threads=2, wait=1, warmup=1, active=3, rows=1536, hidden=768, matmul_size=384),
}
NS_PER_US = 1000.0


@pytest.fixture(scope="module", params=sorted(VARIANTS))
def recorded(request, tmp_path_factory):
    """{folder: (path, profiler)} for the RMSNorm three ways and the matmul of one variant."""
    out = tmp_path_factory.mktemp("oracle_" + request.param)
    runs = {}
    for case in ("rmsnorm", "matmul"):
        profiles, outcomes = record(case, out, **VARIANTS[request.param])
        for folder, failure in outcomes.items():
            assert failure is None, f"recording {folder} failed: {failure}"
            runs[folder] = (out / folder, profiles[folder])
    return runs


@pytest.fixture(scope="module")
def transformer(tmp_path_factory):
    """The transformer training step: the autograd thread and intra-op threads are real here."""
    out = tmp_path_factory.mktemp("oracle_transformer")
    profiles, outcomes = record("transformer", out, threads=2, wait=0, warmup=1, active=2)
    assert outcomes == {"transformer_step": None}, outcomes
    return out / "transformer_step", profiles["transformer_step"]


@pytest.fixture(scope="module")
def allreduce(tmp_path_factory):
    """Two gloo ranks, each in its own process."""
    out = tmp_path_factory.mktemp("oracle_allreduce")
    _, outcomes = record("allreduce", out, threads=1, wait=0, warmup=1, active=2, matmul_size=128)
    assert outcomes == {"allreduce_2ranks": None}, outcomes
    return out / "allreduce_2ranks"


def kineto(folder, rank=0):
    return folder / f"rank{rank}.kineto.json.gz"


def torch_table(prof, by_shape):
    """key_averages() as {key: FunctionEventAvg}; key = name, or (name, str(input_shapes))."""
    table = {}
    for avg in prof.key_averages(group_by_input_shape=by_shape):
        key = (avg.key, str(avg.input_shapes)) if by_shape else avg.key
        assert key not in table, f"torch lists {key} twice"
        table[key] = avg
    return table


def sutra_table(run_cli, trace, by_shape):
    args = ["stats", trace, "--limit", "0"] + (["--group-by-shape"] if by_shape else [])
    doc = run_cli(*args)
    table = {}
    for row in doc["rows"]:
        if row.get("on_device"):
            continue
        key = (row["name"], row["input_shapes"]) if by_shape else row["name"]
        assert key not in table, f"Sutra lists {key} twice"
        table[key] = row
    return doc, table


def compare_tables(torch_rows, sutra_rows, memory, figures):
    """Every row of each, equal in calls; self CPU and CPU total to the nanosecond the file keeps
    (torch prints microseconds with three decimals); CPU memory to the byte. Notes in `figures` how
    many rows and the largest differences seen."""
    assert set(sutra_rows) == set(torch_rows), (
        f"only in Sutra: {sorted(set(sutra_rows) - set(torch_rows))}; "
        f"only in torch: {sorted(set(torch_rows) - set(sutra_rows))}"
    )
    worst = figures.setdefault("max |delta| (us)", 0.0)
    for key, t in torch_rows.items():
        s = sutra_rows[key]
        tolerance_us = 0.0011 * max(t.count, 1)  # the file's times are whole nanoseconds
        assert s["calls"] == t.count, f"{key}: calls {s['calls']} vs torch {t.count}"
        self_delta = abs(s["self_cpu_ns"] / NS_PER_US - t.self_cpu_time_total)
        total_delta = abs(s["cpu_total_ns"] / NS_PER_US - t.cpu_time_total)
        assert self_delta <= tolerance_us, (
            f"{key}: self CPU {s['self_cpu_ns'] / NS_PER_US} vs {t.self_cpu_time_total} us"
        )
        assert total_delta <= tolerance_us, (
            f"{key}: CPU total {s['cpu_total_ns'] / NS_PER_US} vs {t.cpu_time_total} us"
        )
        worst = max(worst, self_delta, total_delta)
        if memory:
            assert s["cpu_memory_bytes"] == t.cpu_memory_usage, f"{key}: CPU Mem"
            assert s["self_cpu_memory_bytes"] == t.self_cpu_memory_usage, f"{key}: Self CPU Mem"
    figures["max |delta| (us)"] = round(worst, 4)
    figures["rows equal"] = figures.get("rows equal", 0) + len(torch_rows)


@pytest.mark.parametrize("by_shape", [False, True], ids=["by_name", "by_input_shape"])
def test_op_table_equals_key_averages(recorded, run_cli, by_shape, oracle_figures):
    figures = oracle_figures.setdefault(
        "op table = key_averages(%s)" % ("by shape" if by_shape else "by name"), {}
    )
    for folder, (path, prof) in recorded.items():
        doc, rows = sutra_table(run_cli, kineto(path), by_shape)
        assert doc.get("memory_recorded"), f"{folder}: profile_memory=True, but Sutra saw no [memory] events"
        compare_tables(torch_table(prof, by_shape), rows, memory=True, figures=figures)
        figures["recordings"] = figures.get("recordings", 0) + 1


def test_op_table_with_autograd_and_intra_op_threads(transformer, run_cli, oracle_figures):
    path, prof = transformer
    _, rows = sutra_table(run_cli, kineto(path), False)
    compare_tables(
        torch_table(prof, False),
        rows,
        memory=True,
        figures=oracle_figures.setdefault("op table, transformer step", {}),
    )
    # The backward pass ran on the autograd thread: its ops are there, on another thread.
    assert any(name.startswith("autograd::engine::evaluate_function") for name in rows)


def test_self_cpu_total_equals_torch(recorded, run_cli):
    for folder, (path, prof) in recorded.items():
        doc = run_cli("stats", kineto(path), "--limit", "0")
        torch_total = sum(avg.self_cpu_time_total for avg in prof.key_averages())
        assert abs(doc["self_cpu_total_ns"] / NS_PER_US - torch_total) < 0.002 * len(doc["rows"]) + 0.01, (
            folder
        )


def test_every_et_op_is_linked(recorded, transformer, run_cli, tmp_path, oracle_figures):
    figures = oracle_figures.setdefault("ET ops linked", {"linked": 0, "of": 0, "not in Kineto": 0})
    folders = [path for path, _ in recorded.values()] + [transformer[0]]
    for path in folders:
        doc = run_cli("link", path, "-o", tmp_path / (path.name + ".et_plus.json"))
        for rank in doc["ranks"]:
            # 100 % of what the profiler recorded: the ET observer also records threads the
            # profiler does not follow, which no linker can match (checked from the files).
            never_seen = et_ops_kineto_never_saw(rank["et"], rank["kineto"])
            assert rank["et_ops"] > 0, path
            assert rank["matched_et_ops"] == rank["et_ops"] - len(never_seen), f"{path}: {rank}"
            assert rank["matching"] == "rf_id", rank
            figures["linked"] += rank["matched_et_ops"]
            figures["of"] += rank["et_ops"]
            figures["not in Kineto"] += len(never_seen)


def test_each_step_equals_its_profiler_step(recorded, transformer, run_cli, oracle_figures):
    figures = oracle_figures.setdefault("steps = ProfilerStep#N", {"steps": 0, "max |delta| (us)": 0.0})
    runs = list(recorded.values()) + [transformer]
    for path, prof in runs:
        torch_steps = {
            int(e.trace_name.split("#")[1]): e.time_range.elapsed_us()
            for e in prof.events()
            if (e.trace_name or "").startswith("ProfilerStep#")
        }
        doc = run_cli("breakdown", kineto(path))
        sutra_steps = {s["step"]: (s["end_ns"] - s["start_ns"]) / NS_PER_US for s in doc["steps"]}
        assert sorted(sutra_steps) == sorted(torch_steps), path
        for n, us in torch_steps.items():
            assert abs(sutra_steps[n] - us) <= 0.0011, f"{path} step {n}: {sutra_steps[n]} vs {us} us"
            figures["steps"] += 1
            figures["max |delta| (us)"] = round(max(figures["max |delta| (us)"], abs(sutra_steps[n] - us)), 4)


def torch_memory_peak(prof):
    """The CPU allocation curve's peak from the profiler's own memory records: the running sum of
    their bytes, offset by what was allocated before the first (its Total Allocated less its
    Bytes, as the record says); with the record that reached it."""
    records = sorted(
        (
            e
            for e in prof.profiler.kineto_results.events()
            if e.name() == "[memory]" and e.device_type().name == "CPU"
        ),
        key=lambda e: e.start_ns(),
    )
    assert records, "no memory records: profile_memory=True should give some"
    running, peak = 0, None
    for e in records:
        running += e.nbytes()
        if peak is None or running > peak:
            peak = running
    return peak, records


def test_memory_peak_matches_the_profilers_records(recorded, transformer, run_cli, oracle_figures):
    figures = oracle_figures.setdefault("memory peak = profiler's records", {"runs equal": 0})
    for path, prof in list(recorded.values()) + [transformer]:
        peak, records = torch_memory_peak(prof)
        doc = run_cli("memory", kineto(path))
        cpu = [d for d in doc["devices"] if d["device_type"] == "CPU"]
        assert len(cpu) == 1, doc
        # Sutra's curve is "Total Allocated" (absolute); torch's records give the same curve less
        # what was allocated before the profiler started: compare the rise from the first record.
        with gzip.open(kineto(path), "rt") as f:
            first = min(
                (
                    e
                    for e in json.load(f)["traceEvents"]
                    if e.get("name") == "[memory]" and e["args"]["Device Type"] == 0
                ),
                key=lambda e: e["ts"],
            )
        before = first["args"]["Total Allocated"] - first["args"]["Bytes"]
        assert cpu[0]["peak_bytes"] - before == peak, f"{path}: {cpu[0]['peak_bytes']} - {before} vs {peak}"
        assert cpu[0]["allocations"] + cpu[0]["frees"] == len(records), path
        figures["runs equal"] += 1


def test_compare_names_the_ops_inductor_replaced(recorded, run_cli):
    naive = recorded["rmsnorm_naive"][0]
    compiled = recorded["rmsnorm_compiled"][0]
    doc = run_cli("compare", naive, compiled)
    story = json.dumps(doc["story"])
    for op in ("aten::mul", "aten::mean", "aten::add", "aten::rsqrt"):
        assert op in story, f"the story does not name {op}: {story}"
    assert "CompiledFxGraph" in story or "Torch-Compiled Region" in story, story
    # And the numbers behind it: the compiled run is faster per step here, as torch measured.
    naive_prof, compiled_prof = recorded["rmsnorm_naive"][1], recorded["rmsnorm_compiled"][1]

    def time_per_step_us(prof):
        # The story's "time per step": the steps' span, first start to last end, over their number.
        steps = [e.time_range for e in prof.events() if (e.trace_name or "").startswith("ProfilerStep#")]
        return (max(r.end for r in steps) - min(r.start for r in steps)) / len(steps)

    # The headline's change per step has torch's sign and, within the rounding it prints, its ratio.
    naive_us, compiled_us = time_per_step_us(naive_prof), time_per_step_us(compiled_prof)
    headline = doc["story"]["headline"]
    word = "shorter" if naive_us > compiled_us else "longer"
    ratio = max(naive_us, compiled_us) / min(naive_us, compiled_us)
    printed = [f"time per step {r:.2f}x {word}" for r in (ratio - 0.01, ratio, ratio + 0.01)]
    assert any(p in headline for p in printed), (headline, naive_us, compiled_us)


def et_check(prefix, ranks):
    checker = SOURCE_DIR.parent / "shared" / "tools" / "et_check.py"
    if not checker.is_file():
        pytest.skip(f"{checker} is absent (../shared beside the checkout)")
    done = subprocess.run(
        [sys.executable, str(checker), str(prefix), str(ranks)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def check_convert_and_simulate(run_cli, folder, ranks, tmp_path, figures):
    prefix = tmp_path / folder.name
    run_cli("convert", folder, "-o", prefix)
    et_check(prefix, ranks)
    files = [f"{prefix}.{r}.et" for r in range(ranks)]
    doc = run_cli("simulate", *files, "--graph-only")
    for rank in doc["ranks"]:
        measured, projected = rank["measured_ns"], rank["simulated_ns"]
        assert measured > 0, rank
        assert abs(projected - measured) <= 0.03 * measured, f"{folder.name} rank {rank['rank']}: {rank}"
        off = abs(projected - measured) / measured * 100
        figures["ranks"] = figures.get("ranks", 0) + 1
        figures["max off (%)"] = round(max(figures.get("max off (%)", 0.0), off), 3)


def test_chakra_export_passes_et_check_and_replays_within_3_percent(
    recorded, transformer, run_cli, tmp_path, oracle_figures
):
    figures = oracle_figures.setdefault("Chakra export: et_check + graph-only replay", {})
    for path, _ in list(recorded.values()) + [transformer]:
        check_convert_and_simulate(run_cli, path, 1, tmp_path, figures)


def test_two_gloo_ranks_meet_at_their_collective(allreduce, run_cli, tmp_path, oracle_figures):
    figures = oracle_figures.setdefault("gloo ranks", {})
    check_convert_and_simulate(run_cli, allreduce, 2, tmp_path, figures)
    # Each step's all-reduce, run by gloo on its worker thread, is one collective of both ranks.
    doc = run_cli("simulate", allreduce)
    assert len(doc["ranks"]) == 2, doc
    matched = doc["collectives"]
    steps = len(doc["ranks"][0]["steps"])
    assert matched["matched"] >= steps and matched["unmatched_ops"] == 0, matched
    figures["collectives matched"] = matched["matched"]
