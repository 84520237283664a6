# SPDX-License-Identifier: MIT
"""Sutra for notebooks: PyTorch traces opened by Sutra's C++ core, answers as pandas DataFrames.

    import sutra
    run = sutra.open("resources/samples/rmsnorm_naive")
    run.op_table()          # torch.profiler's key_averages()
    run.kernels()           # one row per device op, ts_ns / dur_ns, names as categoricals
    run.sql("SELECT name, count(*) FROM slice GROUP BY name")
    run.advise()            # the problems found, each with its simulated price
    run.plot_timeline(step=2)  # the timeline as the window draws it (pip install 'sutra[plot]')

See docs/python.md.
"""

from ._compare import Comparison, compare
from ._core import SutraError
from ._query import tables as sql_tables
from ._ranks import RankOverview, rank_overview
from ._run import Run, Simulation, open, open_ranks

__all__ = [
    "Comparison",
    "RankOverview",
    "Run",
    "Simulation",
    "SutraError",
    "compare",
    "open",
    "open_ranks",
    "rank_overview",
    "sql_tables",
]
