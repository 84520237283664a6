#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The advice's fusion prices checked against real re-runs: for each naive/fused pair of recordings
(tools/collect's rmsnorm, layernorm and gelu cases), the saving `sutra-cli advise` predicts from the
naive run alone, beside the saving measured as the naive run's mean step minus the fused run's
(ProfilerStep durations read from the Kineto files here, not by Sutra).

Usage: advice_vs_measured.py SUTRA_CLI NAIVE_DIR:FUSED_DIR [...]   (prints a Markdown table)
"""

import gzip
import json
import re
import subprocess
import sys
from pathlib import Path


def mean_step_ns(folder):
    """The mean ProfilerStep#N duration of rank0's Kineto trace, in ns."""
    path = Path(folder) / "rank0.kineto.json.gz"
    opener = gzip.open if path.exists() else open
    if not path.exists():
        path = Path(folder) / "rank0.kineto.json"
    with opener(path, "rt") as f:
        events = json.load(f)["traceEvents"]
    steps = [e["dur"] for e in events if e.get("ph") == "X" and e.get("name", "").startswith("ProfilerStep#")]
    if not steps:
        raise SystemExit("%s: no ProfilerStep# events" % path)
    return 1000.0 * sum(steps) / len(steps)


def shape_of(folder):
    """The input's shape as meta.json's "what" says it ("[4096, 4096]"), else "?"."""
    try:
        with open(Path(folder) / "meta.json") as f:
            found = re.search(r"\[\d+, \d+\]", json.load(f).get("what", ""))
    except (OSError, ValueError):
        return "?"
    return found.group(0) if found else "?"


def fusion_price(cli, folder):
    """The top fusion finding of `sutra-cli advise FOLDER --json`."""
    out = subprocess.run(
        [str(cli), "advise", str(folder), "--json"], capture_output=True, text=True, check=True
    )
    for finding in json.loads(out.stdout)["findings"]:
        if finding["kind"] == "fusion":
            return finding
    return None


def compare(cli, naive, fused):
    """One row: the predicted and the measured saving of fusing the naive run's sequence."""
    finding = fusion_price(cli, naive)
    naive_ns, fused_ns = mean_step_ns(naive), mean_step_ns(fused)
    measured = naive_ns - fused_ns
    row = {
        "naive": Path(naive).name,
        "shape": shape_of(naive),
        "fused": Path(fused).name,
        "naive_step_ns": naive_ns,
        "fused_step_ns": fused_ns,
        "measured_saving_ns": measured,
        "title": finding["title"] if finding else None,
        "predicted_saving_ns": None,
        "other_bound_saving_ns": None,
        "error": None,
    }
    if finding and finding["price"]["priced"]:
        price = finding["price"]
        row["predicted_saving_ns"] = price["saving_ns"]
        if "other_bound_step_ns" in price:
            row["other_bound_saving_ns"] = price["step_ns"] - price["other_bound_step_ns"]
        row["error"] = (price["saving_ns"] - measured) / measured if measured else None
    return row


def markdown(rows):
    lines = [
        "| naive run | input | measured fix | naive step | fixed step | measured saving | predicted saving "
        "(slowest rate) | error | at the fastest rate |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        ms = lambda ns: "%.1f ms" % (ns / 1e6) if ns is not None else "-"  # noqa: E731
        error = "%+.0f %%" % (100 * r["error"]) if r["error"] is not None else "-"
        lines.append(
            "| %s | %s | %s | %s | %s | %s (%.0f %%) | %s | %s | %s |"
            % (
                r["naive"],
                r["shape"],
                r["fused"],
                ms(r["naive_step_ns"]),
                ms(r["fused_step_ns"]),
                ms(r["measured_saving_ns"]),
                100 * r["measured_saving_ns"] / r["naive_step_ns"],
                ms(r["predicted_saving_ns"]),
                error,
                ms(r["other_bound_saving_ns"]),
            )
        )
    return "\n".join(lines)


def main(argv):
    if len(argv) < 2 or any(":" not in a for a in argv[1:]):
        print(__doc__, file=sys.stderr)
        return 2
    rows = [compare(argv[0], *pair.split(":", 1)) for pair in argv[1:]]
    print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
