# SPDX-License-Identifier: MIT
"""run.sql(): SQL over a loaded run as DataFrames, judged against the run's own frames and against
`sutra-cli query --json` on the bundled real recordings and the traces in ../shared."""

import signal
import threading
import time

import numpy as np
import pandas as pd
import pytest
import sutra
from conftest import SOURCE_DIR

BUNDLED = SOURCE_DIR / "resources" / "samples"


@pytest.fixture(scope="module")
def transformer():
    return sutra.open(BUNDLED / "transformer_step", progress=False)


def test_group_by_name_equals_the_events_frame(transformer):
    got = transformer.sql("SELECT name, count(*) AS calls, sum(dur) AS total_ns FROM slice GROUP BY name")
    events = transformer.events()
    want = events.groupby("name", observed=True).agg(calls=("dur_ns", "size"), total_ns=("dur_ns", "sum"))
    got = got.set_index("name").sort_index()
    want.index = want.index.astype(str)
    want = want.sort_index()
    assert len(got) == len(want) > 100
    assert (got.index == want.index).all()
    assert (got["calls"].to_numpy() == want["calls"].to_numpy()).all()
    assert (got["total_ns"].to_numpy() == want["total_ns"].to_numpy()).all()


def test_a_time_window_equals_filtering_the_frame(transformer):
    events = transformer.events()
    mid = int(events["ts_ns"].median())
    got = transformer.sql(
        f"SELECT ts, dur, name FROM slice WHERE ts >= {mid} AND ts < {mid + 1_000_000} ORDER BY id"
    )
    window = events[(events["ts_ns"] >= mid) & (events["ts_ns"] < mid + 1_000_000)]
    assert len(got) == len(window) > 0
    assert got["ts"].tolist() == window["ts_ns"].tolist()
    assert got["name"].tolist() == window["name"].astype(str).tolist()


def test_columns_come_typed(transformer):
    frame = transformer.sql("SELECT id, ts, dur, name, parent_id FROM slice ORDER BY id LIMIT 50")
    assert frame["ts"].dtype == np.int64 and frame["dur"].dtype == np.int64
    assert frame["parent_id"].dtype == "Int64" and frame["parent_id"].isna().iloc[0]
    assert pd.api.types.is_string_dtype(frame["name"])
    empty = transformer.sql("SELECT ts, name FROM slice WHERE 0")
    assert len(empty) == 0 and empty["ts"].dtype == np.int64
    assert pd.api.types.is_string_dtype(empty["name"])
    mixed = transformer.sql("SELECT 1 AS a, 2.5 AS a, NULL AS n, x'00ff' AS b")
    assert list(mixed.columns) == ["a", "a", "n", "b"]  # names as SQL gave them, repeats kept
    assert mixed.iloc[0, 1] == 2.5 and mixed["n"].iloc[0] is None and mixed["b"].iloc[0] == b"\x00\xff"


def test_equals_the_cli(transformer, cli_json):
    query = "SELECT name, count(*) AS n, sum(dur) AS d FROM slice WHERE dur > 1000 GROUP BY name ORDER BY d DESC, name"
    got = transformer.sql(query)
    want = cli_json("query", BUNDLED / "transformer_step", query)
    assert got.to_dict("records") == want


def test_sutras_own_tables_agree_with_the_op_table(transformer):
    ops = transformer.sql("SELECT name, calls, self_cpu FROM op_table ORDER BY name")
    table = transformer.op_table().sort_values("name")
    assert ops["name"].tolist() == table["name"].tolist()
    assert ops["calls"].tolist() == table["calls"].tolist()
    assert ops["self_cpu"].tolist() == table["self_cpu_ns"].tolist()


def test_a_slice_id_locates_its_event(transformer):
    row = transformer.sql("SELECT id, name, ts FROM slice WHERE name = 'aten::mm' ORDER BY ts LIMIT 1").iloc[
        0
    ]
    rank, event = transformer.locate_slice(int(row["id"]))
    events = transformer.events(rank)
    found = events[events["id"] == event].iloc[0]
    assert (str(found["name"]), int(found["ts_ns"])) == (row["name"], row["ts"])
    with pytest.raises(KeyError):
        transformer.locate_slice(10**12)


def test_max_rows_cuts_and_says_so(transformer):
    frame = transformer.sql("SELECT id FROM slice", max_rows=7)
    assert len(frame) == 7 and frame.attrs["truncated"]
    assert not transformer.sql("SELECT id FROM slice LIMIT 3", max_rows=7).attrs["truncated"]
    with pytest.raises(ValueError):
        transformer.sql("SELECT 1", max_rows=0)


def test_a_bad_query_names_its_place_and_the_run_stays_usable(transformer):
    with pytest.raises(sutra.SutraError, match=r"line 1, column 8: no such column: nme"):
        transformer.sql("SELECT nme FROM slice")
    assert transformer.sql("SELECT count(*) AS n FROM slice")["n"].iloc[0] > 0


def test_a_query_cannot_write(transformer, tmp_path):
    target = tmp_path / "out.db"
    for query in (f"ATTACH DATABASE '{target}' AS out", "DELETE FROM slice", "CREATE TABLE t(x)"):
        with pytest.raises(sutra.SutraError):
            transformer.sql(query)
    assert not target.exists()


def test_ctrl_c_cancels_a_query_and_the_run_stays_usable(transformer, ctrl_c):
    # 300 M rows: many seconds, so that a Ctrl-C that did not cancel fails the test, not hangs it.
    long = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300000000) SELECT count(*) FROM c"
    timer = threading.Timer(0.3, signal.raise_signal, [signal.SIGINT])
    started = time.perf_counter()
    try:
        with pytest.raises(KeyboardInterrupt):
            # Started inside the block: on a busy machine the signal may come before the query
            # does, and is then still the KeyboardInterrupt this block expects.
            timer.start()
            transformer.sql(long)
    finally:
        timer.cancel()
    assert time.perf_counter() - started < 5
    assert transformer.sql("SELECT count(*) AS n FROM slice")["n"].iloc[0] > 0


def test_the_tables_are_listed():
    tables = sutra.sql_tables()
    assert {"slice", "thread", "counter", "flow", "args"} <= set(tables[tables["perfetto"]]["table"])
    assert {"op", "kernel", "launch", "step", "op_table"} <= set(tables["table"])


def test_perfetto_queries_on_a_real_gpu_trace(shared_kineto, cli_json):
    trace = shared_kineto / "resnet50_2021_autograd_api.pt.trace.json.gz"
    run = sutra.open(trace, progress=False)
    query = (
        "SELECT thread.name AS thread, count(*) AS slices, sum(slice.dur) AS total "
        "FROM slice JOIN thread_track ON slice.track_id = thread_track.id "
        "JOIN thread USING (utid) GROUP BY thread.name ORDER BY total DESC, thread"
    )
    got = run.sql(query)
    assert got["thread"].isna().sum() == 1  # the device's stream lanes have no thread name
    got = got.astype(object).where(got.notna(), None)
    assert got.to_dict("records") == cli_json("query", trace, query)
    kernels = run.sql("SELECT count(*) AS n FROM kernel")["n"].iloc[0]
    assert kernels == len(run.kernels()) > 0  # device ops: kernels, memcpys and memsets
