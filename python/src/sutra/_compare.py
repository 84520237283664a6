# SPDX-License-Identifier: MIT
"""sutra.compare: two runs (or two steps of one) side by side, as ``sutra-cli compare``."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from . import _core
from ._run import Run, open


@dataclass
class Comparison:
    """What changed from A to B.

    ``story``: the sentence that says it ("B (fused) against A (naive): 3.14x less device time
    ..."); ``replaced``: the ops only in A replaced by those only in B, in words (empty where every
    op is in both); ``ops``: one row per operator with A's, B's and the delta's calls and times
    (columns ``a_calls``, ``b_self_device_ns``, ``delta_cpu_total_ns`` ...) and ``side`` (both, a,
    b); ``totals``: each side's window, kernels, device ops and host idle time.
    """

    story: str
    replaced: str
    ops: pd.DataFrame
    totals: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return self.story + (f"\n{self.replaced}" if self.replaced else "")

    def _repr_html_(self) -> str:
        import html

        return f"<p>{html.escape(str(self))}</p>" + self.ops.head(20).to_html()


def _as_run(run: Run | str | Path, group_by_input_shape: bool) -> Run:
    if isinstance(run, Run):
        return run
    return open(run, link_et=False, event_args=group_by_input_shape, progress=False)


def compare(
    a: Run | str | Path,
    b: Run | str | Path | None = None,
    *,
    step_a: int | None = None,
    step_b: int | None = None,
    rank: int | None = None,
    group_by_input_shape: bool = False,
) -> Comparison:
    """Compares the operator tables of two runs, or of two steps of one run (``b`` None).

    ``a``, ``b``: runs from :func:`sutra.open`, or paths to open. ``rank``: the rank compared (the
    first by default).
    """
    run_a = _as_run(a, group_by_input_shape)
    run_b = run_a if b is None else _as_run(b, group_by_input_shape)
    if b is None and (step_a is None or step_b is None or step_a == step_b):
        raise ValueError("with one run, give two different steps: step_a=N, step_b=M")
    doc = json.loads(
        _core.compare_json(
            run_a._handle,
            run_a._one_rank(rank),
            step_a,
            run_b._handle,
            run_b._one_rank(rank),
            step_b,
            group_by_input_shape,
        )
    )
    story = doc.pop("story")
    ops = pd.json_normalize(doc.pop("rows"), sep="_")
    ops.attrs = doc
    return Comparison(
        story=story["headline"],
        replaced=story["replaced"],
        ops=ops,
        totals={"a": story["a"], "b": story["b"]},
    )
