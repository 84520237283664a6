# SPDX-License-Identifier: MIT
"""The worked notebook docs/notebooks/sutra-tour.ipynb, executed cell by cell in a fresh kernel of
this interpreter (nbclient): it records with torch, opens, queries, plots and prices, and must
finish without an error and with its pictures drawn. SUTRA_NOTEBOOK_SHOTS=DIR keeps its figures
there as PNGs, to look at."""

import base64
import os
from pathlib import Path

import nbclient
import nbformat
import sutra

NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "notebooks" / "sutra-tour.ipynb"


def test_the_worked_notebook_runs(tmp_path):
    # nbclient, nbformat, ipykernel, matplotlib and torch: pinned in python/requirements.txt.
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    assert not any(cell.get("outputs") for cell in notebook.cells), "commit the notebook without outputs"
    # The kernel is this interpreter ("python3", ipykernel's own spec), run in a folder of this
    # test's own, and imports the sutra under test: its folder goes first on the kernel's path
    # (PYTHONPATH may be relative to where pytest started).
    package_root = str(Path(sutra.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([package_root, os.environ.get("PYTHONPATH", "")])}
    client = nbclient.NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute(env=env)

    pictures = [
        (index, base64.b64decode(output["data"]["image/png"]))
        for index, cell in enumerate(notebook.cells)
        for output in cell.get("outputs", [])
        if "image/png" in output.get("data", {})
    ]
    sources = {index: notebook.cells[index].source for index, _ in pictures}
    # The timeline, the comparison and the what-if, each drawn once.
    for call in ("plot_timeline(", "comparison.plot(", "what_if.plot("):
        assert sum(call in s for s in sources.values()) == 1, f"no picture from {call}"
    assert len(pictures) == 3
    for _, png in pictures:
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
    # Tables came back as tables: the op table, SQL, the simulation and the advice.
    html = [o for cell in notebook.cells for o in cell.get("outputs", []) if "text/html" in o.get("data", {})]
    assert len(html) >= 5
    errors = [
        o for cell in notebook.cells for o in cell.get("outputs", []) if o.get("output_type") == "error"
    ]
    assert not errors
    shots = os.environ.get("SUTRA_NOTEBOOK_SHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        for k, (index, png) in enumerate(pictures):
            (Path(shots) / f"notebook-{k + 1}-cell{index}.png").write_bytes(png)
