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
    # The runs and rank indexes compared, for plot()'s timelines.
    _sides: tuple = field(default=(), repr=False, compare=False)

    def __str__(self) -> str:
        return self.story + (f"\n{self.replaced}" if self.replaced else "")

    def _repr_html_(self) -> str:
        import html

        return f"<p>{html.escape(str(self))}</p>" + self.ops.head(20).to_html()

    def plot(self, top: int = 12, timelines: bool = True, *, lanes=None, max_depth: int | None = None):
        """The story as a matplotlib Figure: the ``top`` operators whose time changed most, A's
        beside B's, and (``timelines``) each side's window as the window's timeline draws it, on
        one time scale from each window's start (``lanes``, ``max_depth``: as
        :meth:`Run.plot_timeline`). Needs matplotlib (``pip install 'sutra[plot]'``)."""
        from . import _plot

        layouts_a = layouts_b = windows = None
        if timelines and self._sides:
            (run_a, index_a), (run_b, index_b) = self._sides
            layouts_a, layouts_b = [run_a._layout(index_a, None)], [run_b._layout(index_b, None)]
            windows = [
                (self.ops.attrs[s]["window"]["start_ns"], self.ops.attrs[s]["window"]["end_ns"]) for s in "ab"
            ]
        return _plot.comparison_figure(self, layouts_a, layouts_b, windows, top, lanes, max_depth)


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
    index_a, index_b = run_a._one_rank(rank), run_b._one_rank(rank)
    doc = json.loads(
        _core.compare_json(
            run_a._handle,
            index_a,
            step_a,
            run_b._handle,
            index_b,
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
        _sides=((run_a, index_a), (run_b, index_b)),
    )
