# SPDX-License-Identifier: MIT
"""The advice on a run as a DataFrame: one row per finding, its price flattened into columns."""

from __future__ import annotations

import pandas as pd

_COLUMNS = [
    "rank",
    "kind",
    "title",
    "priced",
    "saving_ns",
    "saving_fraction",
    "step_ns",
    "projected_step_ns",
    "other_bound_step_ns",
    "not_priced",
    "model",
    "explanation",
    "occurrences",
    "steps",
    "measured_ns",
    "evidence",
]


def advice_frame(doc: dict) -> pd.DataFrame:
    """``sutra-cli advise --json``'s document as a frame. ``evidence`` holds each finding's event
    ids (the ``id`` column of :meth:`sutra.Run.events` for its rank); ``attrs["step_ns"]`` is the
    mean step as the simulator replays it and ``attrs["findings"]`` the whole document's findings,
    evidence names and times included."""
    rows = []
    for f in doc["findings"]:
        price = f["price"]
        rows.append(
            {
                "rank": f["rank"],
                "kind": f["kind"],
                "title": f["title"],
                "priced": price["priced"],
                "saving_ns": price.get("saving_ns"),
                "saving_fraction": price.get("saving_fraction"),
                "step_ns": price.get("step_ns"),
                "projected_step_ns": price.get("projected_step_ns"),
                "other_bound_step_ns": price.get("other_bound_step_ns"),
                "not_priced": price.get("not_priced"),
                "model": price["model"],
                "explanation": f["explanation"],
                "occurrences": f["occurrences"],
                "steps": f["steps"],
                "measured_ns": f["measured_ns"],
                "evidence": [e["event"] for e in f["evidence"]],
            }
        )
    frame = pd.DataFrame(rows, columns=_COLUMNS)
    for name in ("saving_ns", "step_ns", "projected_step_ns", "other_bound_step_ns"):
        frame[name] = frame[name].astype("Int64")
    frame["saving_fraction"] = frame["saving_fraction"].astype("Float64")
    frame.attrs = {"step_ns": doc["step_ns"], "findings": doc["findings"]}
    return frame
