# SPDX-License-Identifier: MIT
"""DataFrames from the NumPy columns that sutra._core returns: no Python object per event.

Names are pandas Categoricals made from codes into the one name table the ranks share; ids that an
event lacks (-1 in the columns) become missing values of nullable integer columns.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def categorical(codes: np.ndarray, names: list[str]) -> pd.Categorical:
    """Codes into ``names`` as a Categorical (code -1: missing). Codes already in the width pandas
    keeps for that many names (_core.event_columns makes them so) are adopted, not copied."""
    return pd.Categorical.from_codes(codes, categories=pd.Index(names, dtype=object), validate=False)


def nullable(values: np.ndarray, none: int = -1) -> pd.arrays.IntegerArray:
    """Integer values where ``none`` stands for "none", as a nullable column of their type (Int64,
    UInt32): the values are adopted as they are, strided or read-only, and only the mask is new."""
    return pd.arrays.IntegerArray(values, values == none)


def events_frame(columns: dict, kind_names: list[str], names: list[str] | None = None) -> pd.DataFrame:
    """The events frame of ``_core.event_columns``: the columns it made, in the order of ``names``
    (the frame's own order where it is empty or None)."""
    made = {
        "rank": lambda: columns["rank"],
        "id": lambda: columns["id"],
        "ts_ns": lambda: columns["ts_ns"],
        "dur_ns": lambda: columns["dur_ns"],
        "name": lambda: categorical(columns["name"], columns["names"]),
        "category": lambda: categorical(columns["category"], columns["categories"]),
        "kind": lambda: categorical(columns["kind"], kind_names),
        "pid": lambda: categorical(columns["pid"], columns["pids"]),
        "tid": lambda: categorical(columns["tid"], columns["tids"]),
        "stream": lambda: nullable(columns["stream"]),
        "depth": lambda: columns["depth"],
        "parent": lambda: nullable(columns["parent"], columns["no_event"]),
        "external_id": lambda: nullable(columns["external_id"], columns["no_id"]),
        "correlation": lambda: nullable(columns["correlation"], columns["no_id"]),
    }
    order = list(dict.fromkeys(names)) if names else list(made)
    return pd.DataFrame({name: made[name]() for name in order}, copy=False)


def flows_frame(columns: dict) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "rank": columns["rank"],
            "flow_id": columns["flow_id"],
            "category": categorical(columns["category"], columns["categories"]),
            "from_id": nullable(columns["from_id"]),
            "to_id": nullable(columns["to_id"]),
            "from_ts_ns": nullable(columns["from_ts_ns"]),
            "to_ts_ns": nullable(columns["to_ts_ns"]),
        },
        copy=False,
    )


def counters_frame(columns: dict) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "rank": columns["rank"],
            "name": categorical(columns["name"], columns["names"]),
            "pid": categorical(columns["pid"], columns["pids"]),
            "ts_ns": columns["ts_ns"],
            "value": columns["value"],
        },
        copy=False,
    )


def launches_frame(columns: dict) -> pd.DataFrame:
    names = columns["names"]
    frame = pd.DataFrame(
        {
            "rank": columns["rank"],
            "device_op_id": columns["device_op_id"],
            "device_op": categorical(columns["device_op"], names),
            "ts_ns": columns["ts_ns"],
            "dur_ns": columns["dur_ns"],
            "runtime_call_id": nullable(columns["runtime_call_id"]),
            "runtime_call": categorical(columns["runtime_call"], names),
            "runtime_call_ts_ns": nullable(columns["runtime_call_ts_ns"]),
            "launcher_id": nullable(columns["launcher_id"]),
            "launcher": categorical(columns["launcher"], names),
        },
        copy=False,
    )
    # From the launch call's start to the device op's: how long the work waited in the queue.
    frame["launch_delay_ns"] = frame["ts_ns"] - frame["runtime_call_ts_ns"]
    return frame


def ordered(frame: pd.DataFrame, first: list[str]) -> pd.DataFrame:
    """``frame`` with the columns of ``first`` that it has in front, in that order (core's JSON
    documents come with their keys sorted)."""
    front = [c for c in first if c in frame.columns]
    return frame[front + [c for c in frame.columns if c not in front]]
