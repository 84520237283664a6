# SPDX-License-Identifier: MIT
"""Pictures for notebooks: a run's timeline as the window lays it out, a comparison, a what-if.

The timeline's lanes, rows and boxes are core/view's (``_core.TimelineLayout``: the window's lane
layout, and its level of detail, where events narrower than a pixel merge into one run box); this
module only draws them with matplotlib. Figures are plain ``matplotlib.figure.Figure`` objects
(not pyplot's, so nothing is shown twice) that show themselves in Jupyter through ``_repr_png_``.
"""

from __future__ import annotations

import colorsys
import io
import re
from collections.abc import Iterable

import numpy as np

try:
    from matplotlib.collections import PolyCollection
    from matplotlib.figure import Figure
except ImportError as error:  # the package's optional extra [plot]
    raise ImportError(
        "sutra's pictures need matplotlib: pip install 'sutra[plot]' (or pip install matplotlib)"
    ) from error

from . import _core

# The light theme's colours, as widgets/theme.cpp sets them (makeLight, setNameFills); core/view
# gives each box its slot (timeline_palette: a name's FNV-1a hash, or its band's run colour).
_BACKGROUND = "#ffffff"
_TRACK_SHADE = "#f6f7f9"
_HEADER = "#e8ecf2"
_LABEL_TEXT = "#222730"
_DIM_TEXT = "#676d76"
_GRID = "#e2e5ea"
_BANDS = ("framework", "runtime", "hardware", "other")
_BAND_ACCENT = dict(zip(_BANDS, ("#3f6fb5", "#c07a2c", "#2e8b57", "#808080")))
_RUN_FILLS = ("#7d93b5", "#c49a6c", "#6fa784", "#9e9e9e")  # merged runs, by band


def _name_fill(i: int) -> tuple[float, float, float]:
    """Twenty hues spaced by the golden angle, where near-black text reads on each."""
    return colorsys.hsv_to_rgb(((i * 137) % 360) / 360, 0.42 if i % 2 else 0.55, 0.86 if i % 3 == 0 else 0.93)


def _hex_rgb(text: str) -> tuple[float, float, float]:
    return tuple(int(text[k : k + 2], 16) / 255 for k in (1, 3, 5))


# RGBA of every colour slot core/view hands out (name colours, then run colours by band).
_PALETTE = np.array(
    [(*_name_fill(i), 1.0) for i in range(_core.NAME_COLOURS)] + [(*_hex_rgb(c), 1.0) for c in _RUN_FILLS]
)
assert len(_PALETTE) == _core.RUN_COLOUR_BASE + len(_RUN_FILLS)


class SutraFigure(Figure):
    """A matplotlib Figure that Jupyter shows inline as a PNG (``_repr_png_``)."""

    def _repr_png_(self) -> bytes:
        out = io.BytesIO()
        self.savefig(out, format="png", dpi=100, facecolor="white")
        return out.getvalue()


def format_ns(ns: float) -> str:
    """A duration in the unit that reads best: 12.3 ms, 45.6 us, 789 ns."""
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if abs(ns) >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.0f} ns"


def _unit(span: float) -> tuple[float, str]:
    """The scale and unit in which ``span`` ns reads as a number of at least 5."""
    return next(((s, u) for s, u in ((1e9, "s"), (1e6, "ms"), (1e3, "us")) if abs(span) >= 5 * s), (1, "ns"))


def _time_axis(ax, start_ns: int, end_ns: int, origin_ns: int) -> float:
    """Labels ``ax``'s x axis as time from ``start_ns``, itself said as an offset into the trace
    (from ``origin_ns``, its first event: Kineto's clock reads in the billions); returns the scale."""
    scale, unit = _unit(max(end_ns - start_ns, 1))
    ax.set_xlabel(
        f"{unit} from {format_ns(start_ns - origin_ns)} into the trace ({start_ns:,} ns)", fontsize=8
    )
    return scale


def _wanted_track(track: dict, lanes: list[str] | None) -> bool:
    """Whether ``lanes`` (band names or regular expressions over the labels; None: all) has it."""
    return not lanes or any(track["band"] == lane or re.search(lane, track["label"]) for lane in lanes)


class _Timeline:
    """What a picture of the ranks' layouts over [start_ns, end_ns] draws: the y slots (a header
    per group, then a slot per row that has a box in the window: rows empty there are left out, so
    a deep stack elsewhere in the trace takes no room) and each layout's boxes."""

    def __init__(
        self, layouts: list, start_ns: int, end_ns: int, lanes, max_depth: int | None, width_px: int
    ):
        lanes = [lanes] if isinstance(lanes, str) else (list(lanes) if lanes is not None else None)
        self.start_ns, self.end_ns, self.width_px = start_ns, end_ns, width_px
        self.origin_ns = min(layout.start_ns for layout in layouts)
        self.boxes = [layout.boxes(start_ns, end_ns, width_px) for layout in layouts]
        self.rows = []  # (layout index, core row) per y slot, top first; None: a group's header
        self.ticks = []  # (y, label, band) of each track's first slot
        self.groups = []  # (header's y, label) of each group shown
        matched = False
        for li, layout in enumerate(layouts):
            structure = layout.structure()
            tracks = structure["tracks"]
            busy = set(np.unique(self.boxes[li]["row"]).tolist())
            for group in structure["groups"]:
                shown = []
                for t in group["tracks"]:
                    track = tracks[t]
                    if not _wanted_track(track, lanes):
                        continue
                    matched = True
                    depth = (
                        track["row_count"] if max_depth is None else min(track["row_count"], max_depth + 1)
                    )
                    rows = [r for r in range(track["first_row"], track["first_row"] + depth) if r in busy]
                    if rows:
                        shown.append((track, rows))
                if not shown:
                    continue
                self.groups.append((len(self.rows), group["label"]))
                self.rows.append(None)  # the group's header row, as the window has it
                for track, rows in shown:
                    self.ticks.append((len(self.rows), track["short_label"], track["band"]))
                    self.rows += [(li, r) for r in rows]
        if not matched:
            raise ValueError(
                f"no lane matches {lanes!r} (bands: {', '.join(_BANDS)}, or a regex over lane labels)"
            )

    @property
    def height_in(self) -> float:
        return 0.6 + 0.2 * max(len(self.rows), 1)


def draw_timeline(ax, timeline: _Timeline, labels: bool = True) -> None:
    """Draws ``timeline`` on ``ax``: a box per event (or merged run), coloured by its palette slot."""
    t = timeline
    start_ns, end_ns, width_px = t.start_ns, t.end_ns, t.width_px
    scale = _time_axis(ax, start_ns, end_ns, t.origin_ns)
    y_of = {key: y for y, key in enumerate(t.rows) if key is not None}
    verts, colours, texts = [], [], []
    height = 0.8
    for li, boxes in enumerate(t.boxes):
        lookup = np.full(int(boxes["row"].max(initial=0)) + 1, -1, dtype=np.int64)
        for (layout_index, row), y in y_of.items():
            if layout_index == li and row < len(lookup):
                lookup[row] = y
        ys = lookup[boxes["row"]] if len(boxes["row"]) else np.empty(0, dtype=np.int64)
        keep = ys >= 0
        if not keep.any():
            continue
        y = ys[keep].astype(float)
        x0 = (boxes["start_ns"][keep] - start_ns) / scale
        x1 = (boxes["end_ns"][keep] - start_ns) / scale
        x1 = np.maximum(x1, x0 + (end_ns - start_ns) / scale / width_px)  # at least a pixel
        top, bottom = y - height / 2, y + height / 2
        corners = [np.stack(c, 1) for c in ((x0, top), (x0, bottom), (x1, bottom), (x1, top))]
        verts.append(np.stack(corners, 1))
        colours.append(_PALETTE[boxes["colour"][keep]])
        if labels:
            # A name inside each box wide enough to hold a few characters, as the window writes them.
            names = boxes["names"]
            wide = (x1 - x0) * width_px / ((end_ns - start_ns) / scale) >= 60
            codes = boxes["name"][keep]
            for xa, xb, yy, code in zip(x0[wide], x1[wide], y[wide], codes[wide]):
                if code >= 0:
                    texts.append((xa, xb, yy, names[code]))
    if verts:
        ax.add_collection(
            PolyCollection(np.concatenate(verts), facecolors=np.concatenate(colours), edgecolors="none")
        )
    span = (end_ns - start_ns) / scale
    per_char = span / width_px * 6.5  # about 6.5 px a character at the label's size
    for xa, xb, yy, name in texts[:400]:
        room = int((min(xb, span) - max(xa, 0)) / per_char) - 1
        if room >= 3:
            text = name if len(name) <= room else name[: room - 1] + "…"
            ax.text(
                max(xa, 0) + per_char / 2,
                yy,
                text,
                fontsize=7,
                va="center",
                ha="left",
                color="#1a1a1a",
                clip_on=True,
            )

    n = len(t.rows)
    # Every other track shaded, a band's accent beside each, a header row per group: as the window.
    ends = sorted({y for y, _ in t.groups} | {y for y, _, _ in t.ticks} | {n})
    for k, (y0, _label, band) in enumerate(t.ticks):
        y1 = next(y for y in ends if y > y0)
        if k % 2:
            ax.axhspan(y0 - 0.5, y1 - 0.5, color=_TRACK_SHADE, zorder=0, lw=0)
        ax.axhspan(y0 - 0.5, y1 - 0.5, xmin=0, xmax=0.004, color=_BAND_ACCENT[band], zorder=3, lw=0)
    for y0, label in t.groups:
        ax.axhspan(y0 - 0.5, y0 + 0.5, color=_HEADER, zorder=0, lw=0)
        ax.text(
            0.004,
            y0,
            " " + label,
            transform=ax.get_yaxis_transform(),
            fontsize=8,
            fontweight="bold",
            va="center",
            ha="left",
            color=_LABEL_TEXT,
            zorder=4,
        )
    ax.set_yticks([y for y, _, _ in t.ticks], [label for _, label, _ in t.ticks], fontsize=7, color=_DIM_TEXT)
    ax.set_xlim(0, span)
    ax.set_ylim(max(n, 1) - 0.5, -0.5)
    ax.set_facecolor(_BACKGROUND)
    ax.grid(axis="x", color=_GRID, lw=0.6)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


_WIDTH_PX = 1400  # the pictures' width at 100 dpi: events narrower than 1/1400 of it merge


def timeline_figure(
    layouts: list, start_ns: int, end_ns: int, lanes, title: str, max_depth: int | None
) -> SutraFigure:
    timeline = _Timeline(layouts, start_ns, end_ns, lanes, max_depth, _WIDTH_PX)
    fig = SutraFigure(figsize=(14, min(1.0 + timeline.height_in, 40)), layout="constrained")
    ax = fig.add_subplot()
    draw_timeline(ax, timeline)
    ax.set_title(title, fontsize=10, loc="left")
    return fig


def comparison_figure(
    comparison,
    layouts_a: list | None,
    layouts_b: list | None,
    windows,
    top: int,
    lanes,
    max_depth: int | None,
) -> SutraFigure:
    """Operators' time in A and in B (the largest changes), and both timelines on one time scale."""
    ops = comparison.ops
    device = (
        "a_self_device_ns" in ops
        and (ops["a_self_device_ns"].fillna(0).sum() + ops["b_self_device_ns"].fillna(0).sum()) > 0
    )
    column = "self_device_ns" if device else "self_cpu_ns"
    a = ops[f"a_{column}"].fillna(0).to_numpy(float)
    b = ops[f"b_{column}"].fillna(0).to_numpy(float)
    order = np.argsort(-np.abs(b - a))[:top][::-1]
    sides = []
    if layouts_a is not None and layouts_b is not None:
        # One time scale for both, from each side's own window start: the longer fills the width.
        span = max(w[1] - w[0] for w in windows)
        sides = [
            (_Timeline(layouts, window[0], window[0] + span, lanes, max_depth, _WIDTH_PX), side)
            for layouts, window, side in ((layouts_a, windows[0], "A"), (layouts_b, windows[1], "B"))
        ]
    heights = [1.0 + 0.3 * len(order)] + [timeline.height_in + 0.6 for timeline, _ in sides]
    fig = SutraFigure(figsize=(14, min(sum(heights) + 0.5, 40)), layout="constrained")
    grid = fig.add_gridspec(len(heights), 1, height_ratios=heights)
    ax = fig.add_subplot(grid[0])
    y = np.arange(len(order))
    names = ops["name"].to_numpy()[order]
    scale, unit = _unit(max(a[order].max(initial=0), b[order].max(initial=0)))
    ax.barh(y + 0.2, a[order] / scale, height=0.4, color="#7d93b5", label="A")
    ax.barh(y - 0.2, b[order] / scale, height=0.4, color="#c07a2c", label="B")
    ax.set_yticks(y, [n if len(n) <= 60 else n[:59] + "…" for n in names], fontsize=8)
    ax.set_xlabel(f"{'self device' if device else 'self CPU'} time ({unit})")
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(axis="x", color=_GRID, lw=0.6)
    ax.set_axisbelow(True)
    ax.set_title(_wrap(comparison.story), fontsize=9, loc="left")
    for k, (timeline, side) in enumerate(sides):
        tax = fig.add_subplot(grid[k + 1])
        draw_timeline(tax, timeline)
        label = comparison.ops.attrs.get(side.lower(), {}).get("label", "")
        tax.set_title(f"{side}: {label}", fontsize=9, loc="left")
    return fig


def _wrap(text: str, width: int = 150) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, width))


def simulation_figure(frame) -> SutraFigure:
    """Each rank's steps: measured, replayed as measured, and projected under the knobs."""
    fig = SutraFigure(figsize=(12, 4.5), layout="constrained")
    ax = fig.add_subplot()
    labels = [f"rank {r}\nstep {s}" for r, s in zip(frame["rank"], frame["step"])]
    x = np.arange(len(frame))
    scale, unit = _unit(frame["measured_ns"].max() if len(frame) else 0)
    bars = (
        ("measured_ns", "measured", "#9e9e9e"),
        ("replayed_ns", "replayed as measured", "#7d93b5"),
        ("projected_ns", "projected (what-if)", "#2e8b57"),
    )
    for k, (column, label, colour) in enumerate(bars):
        ax.bar(
            x + (k - 1) * 0.27, frame[column].to_numpy(float) / scale, width=0.27, color=colour, label=label
        )
    for xi, (projected, speedup) in enumerate(zip(frame["projected_ns"], frame["speedup"])):
        ax.text(
            xi + 0.27,
            projected / scale,
            f"{speedup:.2f}x",
            ha="center",
            va="bottom",
            fontsize=8,
            color=_LABEL_TEXT,
        )
    ax.set_xticks(x, labels, fontsize=8)
    ax.set_ylabel(f"step time ({unit})")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(axis="y", color=_GRID, lw=0.6)
    ax.set_axisbelow(True)
    knobs = frame.attrs.get("knobs") or "no knobs: as measured"
    ax.set_title(_wrap(f"What if: {knobs}"), fontsize=9, loc="left")
    return fig


def ranks_list(ranks: int | Iterable[int] | None) -> list[int] | None:
    return None if ranks is None else ([ranks] if isinstance(ranks, int) else list(ranks))
