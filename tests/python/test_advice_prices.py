# SPDX-License-Identifier: MIT
"""The advice's fusion prices checked against reality, live: each naive/fused pair of tools/collect
(RMSNorm against its torch.compile run, LayerNorm against F.layer_norm, GELU against F.gelu) is
recorded fresh on the CPU (four steps); `sutra-cli advise` must name the naive run's sequence of
ops, and the saving it predicts from the naive run alone is compared with the measured one, the
naive run's mean step minus the fused run's (tools/reference/advice_vs_measured.py; the table in
docs/performance.md).

The goal is 25 %, which 13 of 16 recorded pairs meet (docs/performance.md gives the figures and
the misses: a loaded machine's bursts, and Inductor's CPU RMSNorm kernel, which is not bound by
memory on a quiet one); the check allows 50 %. Skips where torch is not installed."""

import sys

import pytest
from recording import SOURCE_DIR, record

torch = pytest.importorskip(
    "torch", reason="torch is not installed: `make venv` installs the pinned torch 2.13.0"
)

pytestmark = pytest.mark.torch_oracle

sys.path.insert(0, str(SOURCE_DIR / "tools" / "reference"))
import advice_vs_measured  # noqa: E402

# case: (naive folder, fused folder, the sequence advise must name, the input's rows and columns);
# RMSNorm at [4096, 4096]: at [2048, 2048] its compiled run alone varied from 3.8 to 10.5 ms a step
# between recordings on a quiet machine.
PAIRS = {
    "rmsnorm": (
        "rmsnorm_naive",
        "rmsnorm_compiled",
        "aten::mul > aten::mean > aten::add > aten::rsqrt > aten::mul",
        (4096, 4096),
    ),
    "layernorm": (
        "layernorm_naive",
        "layernorm_fused",
        "aten::mean > aten::sub > aten::mul > aten::mean > aten::add > aten::rsqrt > aten::mul",
        (2048, 2048),
    ),
    "gelu": (
        "gelu_naive",
        "gelu_fused",
        " > ".join(["aten::mul"] * 4 + ["aten::add", "aten::mul", "aten::tanh", "aten::add", "aten::mul"]),
        (2048, 2048),
    ),
}
TOLERANCE = 0.50


@pytest.mark.parametrize("case", sorted(PAIRS))
def test_fusion_price_against_the_fused_run(case, sutra_cli, tmp_path):
    naive, fused, sequence, (rows, hidden) = PAIRS[case]
    _profiles, outcomes = record(
        case, tmp_path, threads=2, wait=1, warmup=1, active=4, rows=rows, hidden=hidden
    )
    for folder in (naive, fused):
        assert outcomes.get(folder) is None, f"recording {folder} failed: {outcomes.get(folder)}"
    row = advice_vs_measured.compare(sutra_cli, tmp_path / naive, tmp_path / fused)
    print(advice_vs_measured.markdown([row]))
    assert row["title"] is not None and row["title"].startswith("fuse " + sequence + " ("), row["title"]
    assert row["predicted_saving_ns"] is not None, "the fusion was not priced"
    assert row["measured_saving_ns"] > 0, f"the fused run was not faster: {row}"
    assert abs(row["error"]) <= TOLERANCE, (
        f"predicted {row['predicted_saving_ns'] / 1e6:.1f} ms against a measured "
        f"{row['measured_saving_ns'] / 1e6:.1f} ms ({100 * row['error']:+.0f} %)"
    )
