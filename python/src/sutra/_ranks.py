# SPDX-License-Identifier: MIT
"""sutra.rank_overview: many ranks at a glance (``sutra-cli ranks``), here or on a Dask cluster.

On a cluster each task summarises the ranks of one path on whichever worker dask gives it (the
traces must be reachable there), and the summaries come back as the documents ``sutra-cli ranks
--save`` writes; they merge here as saved summary files do.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from . import _core, _frames
from ._progress import ProgressCallback, progress_reporter


@dataclass
class RankOverview:
    """The overview: ``ranks`` (one row per rank: steps, step_ns, compute_ns, comm_ns, idle_ns,
    wait_ns, collectives, last_arrivals, clock_offset_ns, path), ``stragglers`` (the ranks that
    stand out, with ``reason`` and the collectives they delayed), the matched ``collectives`` and
    ``unmatched_comms`` counts, ``median_step_ns``, ``notes``; ``document`` is ``sutra-cli ranks
    --json``'s."""

    ranks: pd.DataFrame
    stragglers: pd.DataFrame
    collectives: int
    unmatched_comms: int
    median_step_ns: int
    notes: list[str] = field(default_factory=list)
    document: dict = field(default_factory=dict)

    def _repr_html_(self) -> str:
        return (
            f"<p><b>{len(self.ranks)} rank(s)</b>, {self.collectives} collectives matched, "
            f"{len(self.stragglers)} straggler(s)</p>" + self.ranks.to_html(index=False)
        )


_RANK_COLUMNS = [
    "rank",
    "steps",
    "step_ns",
    "compute_ns",
    "comm_ns",
    "idle_ns",
    "wait_ns",
    "collectives",
    "last_arrivals",
    "clock_offset_ns",
    "path",
]


def _overview(document: str) -> RankOverview:
    doc = json.loads(document)
    return RankOverview(
        ranks=_frames.ordered(pd.DataFrame(doc["ranks"]), _RANK_COLUMNS),
        stragglers=_frames.ordered(pd.DataFrame(doc["stragglers"]), ["rank", "reason"]),
        collectives=doc["collectives"],
        unmatched_comms=doc["unmatched_comms"],
        median_step_ns=doc["median_step_ns"],
        notes=list(doc["notes"]),
        document=doc,
    )


def summarise_ranks(path: str, use_cache: bool = True, cache_dir: str = "") -> tuple[str, str, dict]:
    """The summaries of the ranks at ``path``, on this machine: (path, the ``ranks --save``
    document, the load's counts). What each dask task runs."""
    document, counts = _core.rank_summaries([path], use_cache, cache_dir, 1)
    return path, document, counts


def _task_paths(paths: Sequence[str]) -> list[str]:
    """One task per rank trace where a folder is visible here, else the path as given."""
    tasks: list[str] = []
    for p in paths:
        tasks.extend(_core.rank_trace_files([p]) if os.path.isdir(p) else [p])
    return tasks


def rank_overview(
    paths_or_summaries: str | Path | Sequence[str | Path],
    *,
    client=None,
    use_cache: bool = True,
    cache_dir: str | Path = "",
    jobs: int = 0,
    progress: bool | ProgressCallback = True,
) -> RankOverview:
    """The overview of many ranks, as ``sutra-cli ranks``: per-rank step breakdown, clock offsets,
    collectives matched across ranks and the stragglers.

    ``paths_or_summaries``: folders of ranks, trace files, and summary files saved by ``sutra-cli
    ranks --save``. Summaries are cached beside the traces unless ``use_cache`` is False (or in
    ``cache_dir``). ``client``: a ``dask.distributed.Client``: each rank is summarised by a task
    on the cluster (the workers must reach the files) and the summaries merged here; without one,
    core reads ``jobs`` ranks at once (0: as memory and cores allow). Raises
    :class:`sutra.SutraError` naming the file where a trace or summary cannot be read.
    """
    given = (
        [paths_or_summaries]
        if isinstance(paths_or_summaries, (str, os.PathLike))
        else list(paths_or_summaries)
    )
    paths = [os.fspath(p) for p in given]
    if client is None:
        with progress_reporter(progress, "sutra: ranks") as report:
            return _overview(_core.rank_overview_json(paths, use_cache, os.fspath(cache_dir), jobs, report))
    tasks = _task_paths(paths)
    futures = client.map(
        summarise_ranks, tasks, use_cache=use_cache, cache_dir=os.fspath(cache_dir), pure=False
    )
    results = client.gather(futures)
    notes = [n for _, _, counts in results for n in counts["notes"]]
    return _overview(_core.merge_rank_summaries([(p, doc) for p, doc, _ in results], notes))
