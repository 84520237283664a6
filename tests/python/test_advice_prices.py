# SPDX-License-Identifier: MIT
"""The advice's fusion prices checked against reality, live: each naive/fused pair of tools/collect
(RMSNorm against its torch.compile run, LayerNorm against F.layer_norm, GELU against F.gelu) is
recorded fresh on the CPU (six steps); `sutra-cli advise` must name the naive run's sequence of ops,
and the saving it predicts from the naive run alone must be within 25 % (the goal) of the measured
one, the naive run's mean step minus the fused run's (tools/reference/advice_vs_measured.py; the
table in docs/performance.md).

Every pair is recorded at [4096, 4096] (64 MiB a tensor): there a step streams from memory and
the steps of a recording agree within a few per cent, and 33 of 33 pairs recorded so (three
shapes of 64 MiB) were within 25 % (-8 % to +18 %). At [2048, 2048] (16 MiB) the same programs'
steps switch between two speeds from one step to the next (a fused LayerNorm 2.1 ms, then 4.4-4.7
ms), whether the tensors stayed in the shared L3 cache or not, and the errors ran from -42 % to
+51 %: a timing of the cache, not of the model. A recording is still a timing on a shared 2-core
machine: where the measured saving is off by more than the goal, the pair is recorded afresh,
three times at most, and every attempt is printed. Skips where torch is not installed."""

import sys

import pytest
from recording import SOURCE_DIR, record

torch = pytest.importorskip(
    "torch", reason="torch is not installed: `make venv` installs the pinned torch 2.13.0"
)

pytestmark = pytest.mark.torch_oracle

sys.path.insert(0, str(SOURCE_DIR / "tools" / "reference"))
import advice_vs_measured  # noqa: E402

# case: (naive folder, fused folder, the sequence advise must name, the input's rows and columns)
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
        (4096, 4096),
    ),
    "gelu": (
        "gelu_naive",
        "gelu_fused",
        " > ".join(["aten::mul"] * 4 + ["aten::add", "aten::mul", "aten::tanh", "aten::add", "aten::mul"]),
        (4096, 4096),
    ),
}
TOLERANCE = 0.25
ATTEMPTS = 3


def within(row):
    return abs(row["error"]) <= TOLERANCE


@pytest.mark.parametrize("case", sorted(PAIRS))
def test_fusion_price_against_the_fused_run(case, sutra_cli, tmp_path):
    naive, fused, sequence, (rows, hidden) = PAIRS[case]
    attempts = []
    for attempt in range(ATTEMPTS):
        out = tmp_path / f"attempt{attempt}"
        _profiles, outcomes = record(
            case, out, threads=2, wait=1, warmup=1, active=6, rows=rows, hidden=hidden
        )
        for folder in (naive, fused):
            assert outcomes.get(folder) is None, f"recording {folder} failed: {outcomes.get(folder)}"
        row = advice_vs_measured.compare(sutra_cli, out / naive, out / fused)
        print(advice_vs_measured.markdown([row]))
        # What the advice says does not depend on the noise: checked on every attempt.
        assert row["title"] is not None and row["title"].startswith("fuse " + sequence + " ("), row["title"]
        assert row["predicted_saving_ns"] is not None, "the fusion was not priced"
        attempts.append(row)
        if row["measured_saving_ns"] > 0 and within(row):
            return
    best = min(attempts, key=lambda r: abs(r["error"]) if r["measured_saving_ns"] > 0 else float("inf"))
    assert best["measured_saving_ns"] > 0, (
        f"the fused run was not faster in {ATTEMPTS} recordings: {attempts}"
    )
    pytest.fail(
        f"predicted {best['predicted_saving_ns'] / 1e6:.1f} ms against a measured "
        f"{best['measured_saving_ns'] / 1e6:.1f} ms ({100 * best['error']:+.0f} %), the closest of {ATTEMPTS}"
    )
