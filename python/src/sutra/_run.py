# SPDX-License-Identifier: MIT
"""A run opened through core's run API, and its tables and analyses as pandas objects."""

from __future__ import annotations

import html
import json
import os
from collections.abc import Iterable, Sequence

import pandas as pd

from . import _advice, _core, _frames, _query
from ._progress import ProgressCallback, progress_reporter

# Event kinds (core's CategoryClass) as _core names them.
_KINDS = list(_core.KIND_NAMES)
_OP_KINDS = [_KINDS.index("cpu_op")]
_DEVICE_OP_KINDS = [_KINDS.index(k) for k in ("kernel", "memcpy", "memset")]

_STAGES = ("read", "link", "analyse", "simulate")
_KNOBS = (
    "scale",
    "scale_cpu",
    "network_speed",
    "launch_latency_us",
    "launch_latency_scale",
    "cpu_speed",
    "no_sync",
)


class _SimulationPlot:
    """``Simulation.plot``: called, the what-if's picture; its attributes are pandas' own
    (``.plot.bar(...)`` ...)."""

    def __init__(self, frame: pd.DataFrame):
        self._frame = frame

    def __call__(self):
        from . import _plot

        return _plot.simulation_figure(self._frame)

    def __getattr__(self, name: str):
        return getattr(pd.plotting.PlotAccessor(self._frame), name)


class Simulation(pd.DataFrame):
    """:meth:`Run.simulate`'s rows, a DataFrame whose ``plot()`` draws each step measured,
    replayed and projected under the knobs (a matplotlib Figure)."""

    @property
    def _constructor(self):
        return Simulation

    @property
    def plot(self) -> _SimulationPlot:
        return _SimulationPlot(self)


def _paths(paths: str | os.PathLike | Sequence[str | os.PathLike]) -> list[str]:
    """One path or several, as strings."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    return [os.fsdecode(p) for p in paths]


class Run:
    """One run: the ranks of a trace folder (or files), read, linked and analysed by Sutra's core.

    Made by :func:`sutra.open` or :func:`sutra.open_ranks`. Its tables are pandas DataFrames with
    one row per event and a ``rank`` column, times in integer nanoseconds (``ts_ns``, ``dur_ns``),
    names as categoricals.
    """

    def __init__(self, handle: _core.RunHandle):
        self._handle = handle
        self._info = [handle.rank_info(i) for i in range(handle.rank_count)]
        # The run continued up to its Simulate stage, once (its traces and analyses are this one's).
        self._simulated: _core.RunHandle | None = None
        # core/view's lane layouts, built once per (rank index, layout options) for the pictures.
        self._layouts: dict[tuple, _core.TimelineLayout] = {}

    # --- what was opened -------------------------------------------------------------------
    @property
    def paths(self) -> list[str]:
        """The paths as given."""
        return list(self._handle.paths)

    @property
    def notes(self) -> list[str]:
        """Discovery's notes: files not paired with a rank, and why."""
        return list(self._handle.notes)

    @property
    def ranks(self) -> list[int]:
        """The rank numbers, in order."""
        return [info["rank"] for info in self._info]

    def rank_info(self) -> pd.DataFrame:
        """One row per rank: its files, how its execution trace was linked, its event count."""
        columns = ["rank", "kineto_path", "et_path", "chakra_path", "et_link", "events", "device"]
        return pd.DataFrame([{c: info[c] for c in columns} for info in self._info], columns=columns)

    @property
    def problems(self) -> pd.DataFrame:
        """What reading and linking could not resolve, counted by kind, per rank."""
        columns = ["rank", "where", "severity", "problem", "count", "example"]
        rows = [p for info in self._info for p in info["problems"]]
        return pd.DataFrame(rows, columns=columns)

    def __len__(self) -> int:
        return len(self._info)

    def __repr__(self) -> str:
        return f"<sutra.Run {len(self)} rank(s): {', '.join(self.paths)}>"

    def _repr_html_(self) -> str:
        rows = "".join(
            "<tr>"
            + "".join(
                f"<td>{html.escape(str(v))}</td>"
                for v in (
                    info["rank"],
                    info["kineto_path"] or info["chakra_path"],
                    f"{info['events']:,}",
                    f"{(info['end_ns'] - info['start_ns']) / 1e6:.3f}",
                    info["et_link"],
                    sum(p["count"] for p in info["problems"]),
                )
            )
            + "</tr>"
            for info in self._info
        )
        head = "".join(f"<th>{h}</th>" for h in ("rank", "trace", "events", "span ms", "ET", "problems"))
        return (
            f"<p><b>sutra.Run</b>: {len(self)} rank(s)</p>"
            f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
        )

    # --- events as DataFrames --------------------------------------------------------------
    def _rank_indexes(self, ranks: int | Iterable[int] | None) -> list[int]:
        with_trace = [i for i, info in enumerate(self._info) if info["kineto_path"]]
        if ranks is None:
            return with_trace
        wanted = [ranks] if isinstance(ranks, int) else list(ranks)
        by_number = {self._info[i]["rank"]: i for i in with_trace}
        missing = [r for r in wanted if r not in by_number]
        if missing:
            raise KeyError(f"no rank {missing[0]} with a Kineto trace (ranks: {sorted(by_number)})")
        return [by_number[r] for r in wanted]

    def events(
        self, ranks: int | Iterable[int] | None = None, columns: Iterable[str] | None = None
    ) -> pd.DataFrame:
        """Every complete event of the ranks (all by default), one frame with a ``rank`` column.

        Columns: rank, id (the event's index in its rank, as ``chain`` takes it), ts_ns, dur_ns,
        name, category, kind (cpu_op, kernel, runtime ...), pid, tid, stream (device ops), depth,
        parent (id of the enclosing event), external_id, correlation. ``columns`` names the ones to
        make, in the frame's order (all by default): on tens of millions of events each column is
        hundreds of megabytes, so ``events(columns=["name", "dur_ns"])`` leaves a groupby the room
        the other twelve would take. An unknown name raises ValueError.
        """
        return self._events(ranks, [], columns)

    def ops(
        self, ranks: int | Iterable[int] | None = None, columns: Iterable[str] | None = None
    ) -> pd.DataFrame:
        """The framework operators (cpu_op events: aten::mm ...), as :meth:`events` has them."""
        return self._events(ranks, _OP_KINDS, columns)

    def kernels(
        self, ranks: int | Iterable[int] | None = None, columns: Iterable[str] | None = None
    ) -> pd.DataFrame:
        """The device ops (kernels, memcpys and memsets; ``kind`` tells them apart)."""
        return self._events(ranks, _DEVICE_OP_KINDS, columns)

    def _events(self, ranks, kinds: list[int], columns: Iterable[str] | None) -> pd.DataFrame:
        names = [] if columns is None else [columns] if isinstance(columns, str) else list(columns)
        if columns is not None and not names:
            raise ValueError("columns: name at least one column, or leave it out for all of them")
        found = _core.event_columns(self._handle, self._rank_indexes(ranks), kinds, names)
        return _frames.events_frame(found, _KINDS, names)

    def launches(self, ranks: int | Iterable[int] | None = None) -> pd.DataFrame:
        """Each device op with the runtime call that launched it and the op around that call.

        Columns: rank, device_op_id, device_op, ts_ns, dur_ns, runtime_call_id, runtime_call,
        runtime_call_ts_ns, launcher_id, launcher, launch_delay_ns (device start minus call start).
        """
        return _frames.launches_frame(_core.launch_columns(self._handle, self._rank_indexes(ranks)))

    def flows(self, ranks: int | Iterable[int] | None = None) -> pd.DataFrame:
        """The trace's flow arrows: rank, flow_id, category, from_id, to_id and their starts."""
        return _frames.flows_frame(_core.flow_columns(self._handle, self._rank_indexes(ranks)))

    def counters(self, ranks: int | Iterable[int] | None = None) -> pd.DataFrame:
        """Counter samples, long form: rank, name (series), pid, ts_ns, value."""
        return _frames.counters_frame(_core.counter_columns(self._handle, self._rank_indexes(ranks)))

    # --- analyses --------------------------------------------------------------------------
    def _one_rank(self, rank: int | None) -> int:
        indexes = self._rank_indexes(None if rank is None else [rank])
        if not indexes:
            raise ValueError("the run has no rank with a Kineto trace")
        return indexes[0]

    def _per_rank(self, rank: int | None, table) -> pd.DataFrame:
        """``table(index)`` for one rank, or for every rank in one frame with a ``rank`` column."""
        indexes = self._rank_indexes(None if rank is None else [rank])
        frames = []
        for i in indexes:
            frame = table(i)
            frame.insert(0, "rank", self._info[i]["rank"])
            frames.append(frame)
        return pd.concat(frames, ignore_index=True) if len(frames) != 1 else frames[0]

    def op_table(
        self,
        group_by_input_shape: bool = False,
        *,
        rank: int | None = None,
        step: int | None = None,
        start_ns: int | None = None,
        end_ns: int | None = None,
        count_recursion_once: bool = False,
    ) -> pd.DataFrame:
        """torch.profiler's ``key_averages()``: one row per operator (and input shapes).

        Columns: rank, name, [input_shapes], calls, self_cpu_ns, cpu_total_ns, self_device_ns,
        device_total_ns, and where the trace recorded memory (profile_memory=True) cpu_memory_bytes,
        self_cpu_memory_bytes, device_memory_bytes, self_device_memory_bytes, as torch counts them;
        sorted by self device time (self CPU time where there is none), as
        ``sutra-cli stats --json``. ``step`` or ``start_ns``/``end_ns`` restrict it to a window.
        ``attrs`` carries the device name and the window.
        """

        def table(i: int) -> pd.DataFrame:
            doc = json.loads(
                _core.op_table_json(
                    self._handle,
                    i,
                    group_by_input_shape,
                    count_recursion_once,
                    step,
                    start_ns,
                    end_ns,
                )
            )
            columns = ["name"] + (["input_shapes"] if group_by_input_shape else [])
            columns += ["calls", "self_cpu_ns", "cpu_total_ns", "self_device_ns", "device_total_ns"]
            if doc.get("memory_recorded"):
                columns += [
                    "cpu_memory_bytes",
                    "self_cpu_memory_bytes",
                    "device_memory_bytes",
                    "self_device_memory_bytes",
                ]
            frame = pd.DataFrame(doc["rows"], columns=columns)
            frame.attrs = {k: v for k, v in doc.items() if k != "rows"}
            return frame

        return self._per_rank(rank, table)

    def steps(self, rank: int | None = None) -> pd.DataFrame:
        """The steps (ProfilerStep#N, else iterations of the outermost repeating annotation).

        Columns: rank, step, name, annotation_id, start_ns, end_ns, device_end_ns, dur_ns (to the
        end of the last device op launched in it), source.
        """
        return self._per_rank(rank, lambda i: pd.DataFrame(json.loads(_core.steps_json(self._handle, i))))

    def breakdown(
        self, rank: int | None = None, *, step: int | None = None, idle_hint_percent: float = 10
    ) -> dict:
        """Where each step's time went, on the device and on the host (``sutra-cli breakdown``).

        Returns ``sutra-cli breakdown --json``'s document for one rank (the first by default),
        with ``steps`` and ``devices`` also as DataFrames under ``steps_frame``.
        """
        i = self._one_rank(rank)
        doc = json.loads(_core.breakdown_json(self._handle, i, step, float(idle_hint_percent)))
        doc["steps_frame"] = pd.json_normalize(doc.get("steps", []), sep="_")
        return doc

    def call_tree(
        self,
        rank: int | None = None,
        *,
        step: int | None = None,
        start_ns: int | None = None,
        end_ns: int | None = None,
        bottom_up: bool = False,
        depth: int = 0,
    ) -> pd.DataFrame:
        """The call tree (top-down, or bottom-up), flattened: one row per node with its ``path``.

        Columns: thread, level, path (names from the root, joined by " > "), name, calls, self_cpu_ns,
        total_cpu_ns, self_device_ns, total_device_ns; ``attrs["tree"]`` holds the nested document.
        """
        i = self._one_rank(rank)
        doc = json.loads(_core.call_tree_json(self._handle, i, step, start_ns, end_ns, bottom_up, depth))
        rows: list[dict] = []

        def walk(nodes: list[dict], thread: str, level: int, prefix: str) -> None:
            for node in nodes:
                path = f"{prefix} > {node['name']}" if prefix else node["name"]
                row = {k: v for k, v in node.items() if k != "children"}
                rows.append({"thread": thread, "level": level, "path": path, **row})
                walk(node.get("children", []), thread, level + 1, path)

        for thread in doc["threads"]:
            walk(thread["nodes"], thread["thread"], 0, "")
        frame = _frames.ordered(pd.DataFrame(rows), ["thread", "level", "path", "name", "calls"])
        frame.attrs["tree"] = doc
        return frame

    def critical_path(
        self,
        rank: int | None = None,
        *,
        step: int | None = None,
        start_ns: int | None = None,
        end_ns: int | None = None,
    ) -> pd.DataFrame:
        """The critical path of a step (the first by default, as ``sutra-cli critical-path``).

        One row per segment; ``attrs`` holds the document's totals and label.
        """
        i = self._one_rank(rank)
        doc = json.loads(_core.critical_path_json(self._handle, i, step, start_ns, end_ns))
        frame = pd.DataFrame(doc.get("segments", []))
        if "event" in frame.columns:
            frame["event"] = frame["event"].astype("Int64")
        columns = ["kind", "name", "event", "start_ns", "end_ns", "weight_ns"]
        frame = _frames.ordered(frame, columns)
        frame.attrs = {k: v for k, v in doc.items() if k != "segments"}
        return frame

    def memory(self, rank: int | None = None, *, limit: int = 10) -> dict:
        """Memory from the trace's ``[memory]`` events, per device (``sutra-cli memory --json``).

        ``limit``: the ops listed live at each peak (0: all).
        """
        return json.loads(_core.memory_json(self._handle, self._one_rank(rank), limit))

    def chain(self, op: int | str, rank: int | None = None, *, nth: int = 0, max_launches: int = 32) -> dict:
        """The dependency chain through one event (``sutra-cli chain --json``).

        ``op``: an event id (the ``id`` column of :meth:`events`) or a name (its ``nth``
        occurrence in time order).
        """
        event, name = (op, None) if isinstance(op, int) else (None, str(op))
        return json.loads(
            _core.chain_json(self._handle, self._one_rank(rank), event, name, nth, max_launches)
        )

    # --- pictures (matplotlib: the optional extra sutra[plot]) -----------------------------
    def _layout(self, index: int, layout: dict | None) -> _core.TimelineLayout:
        """The lane layout of the rank at ``index``, as the window builds it with ``layout``'s
        options (``grouping``: "layers", the window's default, or "processes"; any other key is a
        field of core's lane layout options)."""
        options = _core.LaneLayoutOptions()
        fields = sorted(n for n in dir(options) if not n.startswith("_"))
        for key, value in (layout or {}).items():
            if key == "grouping":
                if value not in ("layers", "processes"):
                    raise ValueError(f"grouping: 'layers' or 'processes', not {value!r}")
                options.processes = value == "processes"
            elif key in fields:
                setattr(options, key, value)
            else:
                raise ValueError(f"unknown layout option {key!r} (options: grouping, {', '.join(fields)})")
        key = (index, tuple(getattr(options, f) for f in fields))
        if key not in self._layouts:
            self._layouts[key] = _core.TimelineLayout(self._handle, index, options)
        return self._layouts[key]

    def _window(self, indexes: list[int], start, end, step: int | None) -> tuple[int, int]:
        """[start, end] in ns: as given, else the step's window on the first rank, else the ranks'
        whole span."""
        if step is not None:
            steps = self.steps(self._info[indexes[0]]["rank"])
            row = steps[steps["step"] == step]
            if row.empty:
                raise ValueError(f"no step {step} (steps: {sorted(steps['step'].tolist())})")
            lo, hi = (
                int(row["start_ns"].iloc[0]),
                int(max(row["end_ns"].iloc[0], row["device_end_ns"].iloc[0])),
            )
        else:
            lo = min(self._info[i]["start_ns"] for i in indexes)
            hi = max(self._info[i]["end_ns"] for i in indexes)
        start = lo if start is None else int(start)
        end = hi if end is None else int(end)
        if end <= start:
            raise ValueError(f"end ({end}) must be after start ({start})")
        return start, end

    def plot_timeline(
        self,
        start: int | None = None,
        end: int | None = None,
        ranks: int | Iterable[int] | None = None,
        lanes: str | Iterable[str] | None = None,
        *,
        step: int | None = None,
        layout: dict | None = None,
        max_depth: int | None = None,
    ):
        """The timeline as the window draws it, as a matplotlib Figure (shown inline in Jupyter).

        ``start``, ``end``: the window in ns, on the clock of :meth:`events`' ``ts_ns`` (default:
        ``step``'s window on the first rank, else everything). ``ranks``: the ranks drawn, one
        under another (all by default). ``lanes``: band names (framework, runtime, hardware,
        other) or regular expressions over the lanes' labels; every lane by default.
        ``layout``: the lane layout's options, as the window's (``grouping``: "layers" or
        "processes"). ``max_depth``: draw nesting levels 0..max_depth only. Lanes, rows, colours and
        the merging of events narrower than a pixel into one box are core's, as in the window.
        Needs matplotlib (``pip install 'sutra[plot]'``).
        """
        from . import _plot

        indexes = self._rank_indexes(_plot.ranks_list(ranks))
        if not indexes:
            raise ValueError("the run has no rank with a Kineto trace")
        start, end = self._window(indexes, start, end, step)
        layouts = [self._layout(i, layout) for i in indexes]
        names = ", ".join(f"rank {self._info[i]['rank']}" for i in indexes)
        title = f"{names}: {_plot.format_ns(end - start)}"
        if step is not None:
            title += f", step {step}"
        return _plot.timeline_figure(layouts, start, end, lanes, title, max_depth)

    def simulate(self, knobs: dict | None = None, *, step: int | None = None, progress=True, **more):
        """Replays the run in Sutra's simulator, as measured and under what-if knobs, per step.

        ``knobs`` (or keyword arguments): ``scale`` ({regex: factor}: device ops whose name matches
        take factor times as long), ``scale_cpu`` ({regex: factor}: host ops and annotations whose
        name matches take factor times as long on their thread, 0 removes them: a straggler's delay),
        ``network_speed`` (the network's bandwidth times it: the bandwidth part of every
        collective's transfer divided by it), ``launch_latency_us`` (every launch latency set to it),
        ``launch_latency_scale``, ``cpu_speed`` (host time divided by it), ``no_sync`` (blocking calls
        wait for nothing). Returns one row per rank and step: measured_ns, replayed_ns (simulated as
        measured), projected_ns (under the knobs), speedup (measured / projected); ``attrs["knobs"]``
        says the knobs in words; ``plot()`` draws them (:class:`Simulation`). A run opened before
        its Simulate stage is continued up to it (its traces and analyses reused, not read again).
        """
        knobs = {**(knobs or {}), **more}
        unknown = sorted(set(knobs) - set(_KNOBS))
        if unknown:
            raise ValueError(f"unknown knob {unknown[0]!r} (knobs: {', '.join(_KNOBS)})")
        result = _core.simulate(
            self._simulation_handle(progress),
            [(str(k), float(v)) for k, v in (knobs.get("scale") or {}).items()],
            [(str(k), float(v)) for k, v in (knobs.get("scale_cpu") or {}).items()],
            float(knobs.get("network_speed", 1.0)),
            knobs.get("launch_latency_us"),
            float(knobs.get("launch_latency_scale", 1.0)),
            float(knobs.get("cpu_speed", 1.0)),
            bool(knobs.get("no_sync", False)),
            step,
        )
        columns = ["rank", "step", "name", "measured_ns", "replayed_ns", "projected_ns"]
        frame = Simulation(result["rows"], columns=columns)
        frame["speedup"] = frame["measured_ns"] / frame["projected_ns"]
        frame.attrs = {
            "knobs": result["knobs"],
            "collectives_matched": result["collectives_matched"],
            "network": result["network"],
        }
        return frame

    def _simulation_handle(self, progress) -> _core.RunHandle:
        """The run up to its Simulate stage: this one, or this one continued to it once."""
        if not any(info["kineto_path"] and not info["simulated"] for info in self._info):
            return self._handle
        if self._simulated is None:
            with progress_reporter(progress, "sutra: simulating") as report:
                self._simulated = _core.advance_run(self._handle, "simulate", report)
        return self._simulated

    def advise(self, *, top: int = 10, price: bool = True, progress=True) -> pd.DataFrame:
        """The problems in the run, each with its evidence and its price (``sutra-cli advise``).

        One row per finding (fusion candidates, host-bound steps, blocking syncs, memory copies,
        the data loader's wait, CPU operator overhead, runtime set-up calls, exposed
        communication, stragglers), priced ones by saving, largest first: ``saving_ns`` is the mean step as the simulator replays it
        (``step_ns``) minus the step it projects with the fix applied as a what-if
        (``projected_step_ns``); ``model`` says how the fix was modelled, ``not_priced`` why a
        finding has no price; ``evidence`` lists the event ids that show it (the ``id`` column of
        :meth:`events`). ``top``: at most this many fusion candidates per rank. ``price=False``
        finds without simulating. Ctrl-C cancels. A run opened before its Simulate stage is
        continued up to it.
        """
        if top < 0:
            raise ValueError("top: a count, 0 or more")
        handle = self._simulation_handle(progress)
        doc = json.loads(_core.advise_json(handle, int(top), bool(price), None))
        return _advice.advice_frame(doc)

    def sql(self, query: str, *, max_rows: int | None = None) -> pd.DataFrame:
        """Runs a read-only SQL query over the run and returns its rows (``sutra-cli query``).

        The tables are virtual tables over the loaded run, nothing copied: Perfetto's where they
        mean the same (``slice`` with ts, dur, name, category, depth, parent_id, track_id ...;
        ``thread``, ``process``, ``thread_track``, ``counter``, ``flow``, ``args``) and Sutra's own
        (``op``, ``kernel``, ``launch``, ``sync``, ``step``, ``rank``, ``et_node``,
        ``memory_event``, ``collective``, ``op_table``); :func:`sutra.sql_tables` lists them. Times
        are nanoseconds. Several statements run in order and the last one's rows come back. A bad
        query raises :class:`sutra.SutraError` with SQLite's message and its line and column; a
        query cannot write anywhere. Ctrl-C cancels it and the run stays usable. ``max_rows``: keep
        at most this many rows (``attrs["truncated"]`` says whether it cut). A ``slice`` id maps to
        its rank and event with :meth:`locate_slice`.
        """
        if max_rows is not None and max_rows < 1:
            raise ValueError("max_rows: 1 or more (None: every row)")
        return _query.result_frame(_core.sql(self._handle, str(query), max_rows or 0, None))

    def locate_slice(self, slice_id: int) -> tuple[int, int]:
        """The (rank, event id) of a ``slice`` id from :meth:`sql`; the event id is the ``id``
        column of :meth:`events`. Raises KeyError for an id no rank holds."""
        where = _core.locate_slice(self._handle, int(slice_id))
        if where is None:
            raise KeyError(f"no slice {slice_id} in this run")
        return where

    def to_chakra(self, prefix: str, *, gzip: bool = False, progress=True) -> pd.DataFrame:
        """Writes each rank as a Chakra execution trace, ``<prefix>.<rank>.et``, with ASTRA-sim's
        configurations beside them (as File > Export and ``sutra-cli convert``). Returns one row per
        rank: path, nodes, edges, matching, et_path, error (why a rank was not written), problems."""
        with progress_reporter(progress, "sutra: exporting") as report:
            rows = _core.to_chakra(self._handle, str(prefix), gzip, report)
        return pd.DataFrame(rows)

    def to_et_plus(self, path: str, rank: int | None = None) -> str:
        """Writes one rank's ET linked with its Kineto trace as ET+ JSON at ``path`` (as
        ``sutra-cli link``); returns how it was matched ("rf_id", "alignment" ...)."""
        return _core.to_et_plus(self._handle, self._one_rank(rank), str(path))


def open(
    paths: str | Sequence[str],
    *,
    until: str = "analyse",
    link_et: bool = True,
    event_args: bool = True,
    chakra_graphs: bool = False,
    rank: int | None = None,
    progress: bool | ProgressCallback = True,
) -> Run:
    """Opens trace files and folders as one run (as the window and ``sutra-cli`` do).

    ``paths``: a folder of ranks, Kineto traces, execution traces. ``until``: the last stage to
    build (read, link, analyse, simulate; analyses need 'analyse', :meth:`Run.simulate` needs
    'simulate'). ``link_et``: link each rank's execution trace where it has one. ``event_args``:
    keep the events' args text (input shapes need it; without it a load takes a third less time
    and memory). ``rank``: open this rank alone. ``progress``: True for a tqdm bar where tqdm is
    installed, False for none, or a callable ``progress(percent, what)``; Ctrl-C (or an exception
    raised in the callable) cancels the load. Raises :class:`sutra.SutraError` naming the file and
    the problem where there is nothing to open or a trace cannot be read.
    """
    if until not in _STAGES:
        raise ValueError(f"until: one of {', '.join(_STAGES)}, not {until!r}")
    given = _paths(paths)

    with progress_reporter(progress, "sutra: opening") as report:
        handle = _core.open_run(given, until, link_et, event_args, chakra_graphs, rank, report)
    return Run(handle)


def open_ranks(
    ranks: Sequence[dict],
    *,
    until: str = "analyse",
    link_et: bool = True,
    event_args: bool = True,
    progress: bool | ProgressCallback = True,
) -> Run:
    """Opens ranks given file by file (``sutra-cli --kineto K --et E``).

    ``ranks``: dicts with ``kineto`` (a Kineto trace) or ``chakra`` (a Chakra graph alone),
    optionally ``et`` (its execution trace) and ``rank`` (else the trace's own, else 0).
    """
    if until not in _STAGES:
        raise ValueError(f"until: one of {', '.join(_STAGES)}, not {until!r}")
    files = [
        {k: (os.fsdecode(v) if k != "rank" and v is not None else v) for k, v in r.items()} for r in ranks
    ]

    with progress_reporter(progress, "sutra: opening") as report:
        handle = _core.open_rank_files(files, until, link_et, event_args, report)
    return Run(handle)
