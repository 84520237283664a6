# SPDX-License-Identifier: MIT
"""The advice's fusion prices checked against reality, live: each naive/fused pair of tools/collect
(RMSNorm against its torch.compile run, LayerNorm against F.layer_norm, GELU against F.gelu) is
recorded fresh on the CPU (four steps); `sutra-cli advise` must name the naive run's sequence of
ops, and the saving it predicts from the naive run alone is compared with the measured one, the
naive run's mean step minus the fused run's (tools/reference/advice_vs_measured.py; the table in
docs/performance.md).

The goal is 25 %, which 13 of 16 recorded pairs meet (docs/performance.md gives the figures and
the misses: a loaded machine's bursts, and Inductor's CPU RMSNorm kernel, which is not bound by
memory on a quiet one); the check allows 50 %. A recording is a timing on a shared 2-core machine:
where the measured saving itself is noise (the fused run not faster, or the price off by more
than the tolerance), the pair is recorded afresh, three times at most, and every attempt is
printed. Skips where torch is not installed."""

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
ATTEMPTS = 3
# Where the fused op torch provides is bound by its arithmetic, not its bytes, the bytes model prices
# an ideal fusion and its saving is an upper bound. GELU on this CPU: aten::gelu (tanh form) takes
# 3.6 ms over the same 16 MiB in and out that aten::tanh alone moves in 1.0 ms (sutra-cli stats of a
# [2048, 2048] recording, 09:45 UTC, quiet machine): the price came out +58 % to +83 % over the
# measured saving in six recordings (+1 % to +8 % under load, docs/performance.md). For such a pair
# the check is that the price bounds the saving from above, within twice it.
UPPER_BOUND_PAIRS = {"gelu"}


def within(case, row):
    if case in UPPER_BOUND_PAIRS:
        return 0 <= row["error"] <= 1.0
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
        if row["measured_saving_ns"] > 0 and within(case, row):
            return
    best = min(attempts, key=lambda r: abs(r["error"]) if r["measured_saving_ns"] > 0 else float("inf"))
    # (for an upper-bound pair, closest to the measured saving as well)
    assert best["measured_saving_ns"] > 0, (
        f"the fused run was not faster in {ATTEMPTS} recordings: {attempts}"
    )
    pytest.fail(
        f"predicted {best['predicted_saving_ns'] / 1e6:.1f} ms against a measured "
        f"{best['measured_saving_ns'] / 1e6:.1f} ms ({100 * best['error']:+.0f} %), the closest of {ATTEMPTS}"
    )
