# SPDX-License-Identifier: MIT
"""Run.op_table() against torch's own key_averages() on a fresh CPU recording (torch 2.13 in the
venv), by name and by name and input shapes. tests/python/test_torch_oracle.py holds the main
torch oracle of the operator table; this one judges the Python package's path to it."""

import pytest
import sutra

torch = pytest.importorskip("torch")


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    from torch.profiler import ProfilerActivity, profile

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 8))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    x = torch.randn(32, 64)
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        for _ in range(3):
            optimizer.zero_grad()
            model(x).square().mean().backward()
            optimizer.step()
    path = tmp_path_factory.mktemp("torch") / "rank0.pt.trace.json"
    prof.export_chrome_trace(str(path))
    return path, prof


def close(ns, us, calls):
    """Trace times are whole nanoseconds of what torch keeps as float microseconds."""
    return abs(ns / 1000.0 - us) <= 0.002 * calls + 1e-6 * abs(us) + 0.002


@pytest.mark.parametrize("by_shape", [False, True])
def test_op_table_equals_key_averages(recording, by_shape):
    path, prof = recording
    table = sutra.open(path, progress=False).op_table(group_by_input_shape=by_shape)
    key = ["name", "input_shapes"] if by_shape else ["name"]
    rows = {tuple(r[k] for k in key): r for r in table.to_dict("records")}
    averages = prof.key_averages(group_by_input_shape=by_shape)
    assert len(averages) == len(rows)
    for avg in averages:
        row = rows[(avg.key, str(avg.input_shapes)) if by_shape else (avg.key,)]
        assert row["calls"] == avg.count, avg.key
        assert close(row["self_cpu_ns"], avg.self_cpu_time_total, avg.count), avg.key
        assert close(row["cpu_total_ns"], avg.cpu_time_total, avg.count), avg.key
