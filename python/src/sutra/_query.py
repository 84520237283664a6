# SPDX-License-Identifier: MIT
"""SQL results as DataFrames: the columns ``_core.sql`` hands over, without a copy where NumPy
holds them (integers and reals), nullable ``Int64`` where an integer column has NULLs."""

from __future__ import annotations

import pandas as pd

from . import _core


def result_frame(result: dict) -> pd.DataFrame:
    """The DataFrame of one ``_core.sql`` result, columns in the query's order (names may repeat,
    as SQL allows); ``attrs["truncated"]`` says whether ``max_rows`` cut it."""
    data = {}
    for i, (kind, values, mask) in enumerate(result["columns"]):
        if kind == "int" and mask is not None:
            data[i] = pd.arrays.IntegerArray(values, mask.astype(bool))
        elif kind in ("int", "real"):
            data[i] = values
        elif kind == "text":
            data[i] = pd.array(values, dtype="str")
        else:
            data[i] = pd.array(values, dtype=object)  # mixed values, blobs as bytes
    frame = pd.DataFrame(data, index=pd.RangeIndex(_rows(result)), copy=False)
    frame.columns = list(result["names"])
    frame.attrs["truncated"] = result["truncated"]
    return frame


def _rows(result: dict) -> int:
    columns = result["columns"]
    return len(columns[0][1]) if columns else 0


def tables() -> pd.DataFrame:
    """The tables :meth:`sutra.Run.sql` can query: table, about, perfetto (named and shaped as
    Perfetto's table of that name, so its documented queries run unchanged)."""
    return pd.DataFrame(_core.sql_tables(), columns=["table", "about", "perfetto"])


__all__ = ["result_frame", "tables"]
