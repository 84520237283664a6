# SPDX-License-Identifier: MIT
"""The pictures: run.plot_timeline, compare(a, b).plot(), simulate(...).plot(). Drawn with Agg (no
display); what is drawn is checked against the run's own tables."""

import sys

import matplotlib
import numpy as np
import pytest
import sutra

matplotlib.use("Agg")  # no display here; python/requirements.txt pins matplotlib
from matplotlib.collections import PolyCollection


@pytest.fixture(scope="module")
def naive(samples):
    return sutra.open(samples / "rmsnorm_naive", progress=False)


@pytest.fixture(scope="module")
def fused(samples):
    return sutra.open(samples / "rmsnorm_fused", progress=False)


def boxes_of(figure):
    """The PolyCollection of every axes that holds the timeline's boxes."""
    return [c for ax in figure.axes for c in ax.collections if isinstance(c, PolyCollection)]


def test_every_event_is_in_one_box(naive):
    # Over the whole run, every event is one box or part of one merged run: the counts add up to
    # the events frame, as the window's geometry promises (nothing dropped, nothing twice).
    layout = naive._layout(0, None)
    boxes = layout.boxes(layout.start_ns, layout.end_ns, 1400)
    assert int(boxes["count"].sum()) == len(naive.events())
    single = boxes["count"] == 1
    assert (boxes["event"][single] >= 0).all() and (boxes["event"][~single] == -1).all()
    # A box's name is its event's.
    events = naive.events().set_index("id")
    some = boxes["event"][single][:50]
    names = [boxes["names"][c] for c in boxes["name"][single][:50]]
    assert names == events.loc[some, "name"].astype(str).tolist()


def test_timeline_draws_the_window_boxes(naive):
    steps = naive.steps()
    step = int(steps["step"].iloc[1])
    figure = naive.plot_timeline(step=step)
    (collection,) = boxes_of(figure)
    row = steps[steps["step"] == step].iloc[0]
    layout = naive._layout(0, None)
    expected = layout.boxes(int(row["start_ns"]), int(max(row["end_ns"], row["device_end_ns"])), 1400)
    assert len(collection.get_paths()) == len(expected["row"]) > 0
    # Colours are the window's palette slots: a name keeps its colour.
    colours = collection.get_facecolors()
    assert len({tuple(c) for c in colours}) > 1
    png = figure._repr_png_()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_lanes_narrow_the_picture(naive):
    everything = naive.plot_timeline()
    hardware = naive.plot_timeline(lanes="hardware")
    labels = [t.get_text() for t in hardware.axes[0].get_yticklabels()]
    tracks = naive._layout(0, None).structure()["tracks"]
    assert labels == [t["short_label"] for t in tracks if t["band"] == "hardware"]
    assert "stream 7" in labels
    assert len(labels) < len(everything.axes[0].get_yticklabels())
    # Those lanes' boxes hold every device op (and the sync spans Kineto puts beside them).
    layout = naive._layout(0, None)
    boxes = layout.boxes(layout.start_ns, layout.end_ns, 1400)
    rows = {
        r
        for t in tracks
        if t["band"] == "hardware"
        for r in range(t["first_row"], t["first_row"] + t["row_count"])
    }
    in_hardware = np.isin(boxes["row"], list(rows))
    (collection,) = boxes_of(hardware)
    assert len(collection.get_paths()) == int(in_hardware.sum())
    assert int(boxes["count"][in_hardware].sum()) >= len(naive.kernels()) > 0


def test_layout_options_and_bad_input(naive):
    processes = naive.plot_timeline(layout={"grouping": "processes"})
    assert len(boxes_of(processes)[0].get_paths()) > 0
    with pytest.raises(ValueError, match="unknown layout option 'bogus'"):
        naive.plot_timeline(layout={"bogus": True})
    with pytest.raises(ValueError, match="grouping"):
        naive.plot_timeline(layout={"grouping": "threads"})
    with pytest.raises(ValueError, match="no lane matches"):
        naive.plot_timeline(lanes="no such lane")
    with pytest.raises(ValueError, match="must be after"):
        naive.plot_timeline(start=10, end=5)
    with pytest.raises(ValueError, match="no step 12345"):
        naive.plot_timeline(step=12345)
    with pytest.raises(KeyError):
        naive.plot_timeline(ranks=7)


def test_two_ranks_one_under_the_other(samples):
    run = sutra.open(samples / "allreduce_2ranks", progress=False)
    figure = run.plot_timeline()
    groups = [t.get_text() for t in figure.axes[0].texts]
    assert any(g.strip().startswith("rank0") for g in groups)
    assert any(g.strip().startswith("rank1") for g in groups)


def test_comparison_plot(naive, fused):
    comparison = sutra.compare(naive, fused)
    figure = comparison.plot(top=5)
    assert len(figure.axes) == 3  # the operators, then A's and B's timelines
    bars = figure.axes[0].get_yticklabels()
    assert 0 < len(bars) <= 5
    assert comparison.story.split(":")[0] in figure.axes[0].get_title(loc="left").replace("\n", " ")
    assert len(sutra.compare(naive, fused).plot(timelines=False).axes) == 1


def test_simulation_plot(naive):
    what_if = naive.simulate(scale={".*": 0.5}, progress=False)
    assert isinstance(what_if, sutra.Simulation)
    figure = what_if.plot()
    ax = figure.axes[0]
    assert len(ax.containers) == 3  # measured, replayed, projected
    measured = np.array([bar.get_height() for bar in ax.containers[0]])
    projected = np.array([bar.get_height() for bar in ax.containers[2]])
    assert np.allclose(projected / measured, 1 / what_if["speedup"].to_numpy())
    # pandas' own plots are still there.
    assert what_if.plot.bar(x="step", y="speedup") is not None
    assert isinstance(what_if.head(1), sutra.Simulation)


def test_without_matplotlib(naive, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    monkeypatch.delitem(sys.modules, "sutra._plot", raising=False)
    monkeypatch.delattr(sutra, "_plot", raising=False)
    with pytest.raises(ImportError, match=r"sutra\[plot\]"):
        naive.plot_timeline()
