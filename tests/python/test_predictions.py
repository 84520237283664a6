# SPDX-License-Identifier: MIT
"""Predictions, not replays: every what-if judged by a real re-run with the change made
(tools/rerun/suite.py). Each pair records a two-rank gloo DDP job fresh, with one change between the
recorded run and the re-run: the network's rate (its loopback shaped with tc tbf in a network
namespace made for the run and removed after it), a busy loop on every rank, a straggler's busy
loop, Adam's foreach=False against fused=True. The runs go recorded, re-run, re-run, recorded, so
that a drift of the machine's speed over the minute cancels. Sutra projects the re-run from each
recorded run alone, with the knob that names the change (`simulate --network-speed`,
`--scale-cpu`) or the fix of `advise`'s finding; the mean of the two projections must be within
15 % of the re-runs' mean step, 25 % where the re-runs' own spread (their steps' standard deviation
over their mean) is wider than 15 %. On the network pairs ASTRA-sim's rules (`simulate --engine
astra-model`) on `convert --for astra-sim`'s export, its bandwidth times F, are judged the same,
and must replay the recorded runs within 5 %.

A re-run is a timing on a shared 2-core machine: a pair whose error misses is recorded afresh,
three times at most, and every attempt is printed. Needs root (ip netns, tc; CI runs as root)."""

import sys

import pytest
from recording import SOURCE_DIR

pytest.importorskip("torch", reason="torch is not installed: `make venv` installs the pinned torch 2.13.0")

sys.path.insert(0, str(SOURCE_DIR / "tools" / "rerun"))
import netns  # noqa: E402
import suite  # noqa: E402

pytestmark = pytest.mark.torch_oracle

TOLERANCE = 0.15
WIDE_SPREAD = 0.15  # a re-run whose steps spread wider than this is judged at WIDE_TOLERANCE
WIDE_TOLERANCE = 0.25
ATTEMPTS = 3
REPLAY_TOLERANCE = 0.05  # ASTRA-sim's rules on the export against the recorded run


# Pairs that miss the goal today, each with why; judged by a weaker bound that the projection must
# still meet (it moves the right way, by at least 60 % of the measured change) so that it cannot get
# worse unseen, with its miss printed. docs/performance.md has the figures.
KNOWN_MISSES = {
    "network 200->800 Mbit/s": "the step becomes host-bound, and the base's host time (ops slowed "
    "while gloo's workers share the two cores with them for 75 ms a step) is replayed as it was "
    "measured: projections +22 % to +51 % in four of six fresh pairs (ASTRA-sim's rules +28 % to "
    "+43 %, its replay up to 8.6 % off) against re-runs that spread 6-9 %",
    # The same cause from a slower base: 4x the network leaves the step closer to host-bound.
    "network 50->200 Mbit/s": "4x the network leaves the step nearer host-bound, and the base's "
    "host time, slowed by gloo's workers on the two cores, is replayed as measured: +9.9 % to "
    "+14.6 % in earlier runs, +15.6 % to +22.0 % in three fresh pairs on 2026-12-07 (ASTRA-sim's "
    "rules +16.1 % to +21.9 %) against re-runs that spread 3-5 %",
}


def moves_enough(row, projected):
    """The projection moves from the recorded step toward the re-run by 60 % of the measured change
    or more, and not past it by more than the change itself."""
    measured_change = row["measured_ns"] - row["base_ns"]
    projected_change = projected - row["base_ns"]
    return 0.6 <= projected_change / measured_change <= 2.0


def allowed(row):
    return WIDE_TOLERANCE if row["rerun_spread"] > WIDE_SPREAD else TOLERANCE


def replay_error(row):
    """How far ASTRA-sim's rules replay the export of the recorded run; 0 off the network pairs."""
    return max((abs(x) for x in row["astra_model_replay"] or []), default=0.0)


def worst_error(row):
    """Sutra's error, and on the network pairs ASTRA-sim's rules' on the export too."""
    errors = [row["error"]] + ([row["astra_model_error"]] if row["astra_model_error"] is not None else [])
    return max(abs(e) for e in errors)


@pytest.fixture(scope="session")
def shaped_network():
    why = netns.available()
    if why:
        pytest.fail("the re-runs shape their network with ip netns and tc: " + why)


@pytest.mark.parametrize("pair", sorted(suite.PAIRS))
def test_projection_against_the_rerun(pair, sutra_cli, tmp_path, shaped_network, oracle_figures):
    attempts = []
    for attempt in range(ATTEMPTS):
        row = suite.judge(sutra_cli, pair, tmp_path / f"attempt{attempt}")
        print(suite.markdown([row]))
        if row["finding"] is not None:
            print("finding:", row["finding"])
        attempts.append(row)
        # A recording whose export ASTRA-sim's rules do not replay within 5 % is recorded again,
        # as a projection that misses is: both are judged on the same recording.
        if replay_error(row) <= REPLAY_TOLERANCE and (
            worst_error(row) <= allowed(row)
            or (pair in KNOWN_MISSES and moves_enough(row, row["predicted_ns"]))
        ):
            break
    best = min(
        attempts,
        key=lambda r: (replay_error(r) > REPLAY_TOLERANCE, worst_error(r) - allowed(r)),
    )
    figures = {
        "error": f"{100 * best['error']:+.1f} %",
        "re-run spread": f"{100 * best['rerun_spread']:.0f} %",
        "attempts": len(attempts),
    }
    if best["astra_model_error"] is not None:
        figures["astra-model error"] = f"{100 * best['astra_model_error']:+.1f} %"
        replay = replay_error(best)
        figures["astra-model replay"] = f"{100 * replay:.2f} %"
    oracle_figures["prediction " + pair] = figures
    if pair in KNOWN_MISSES:
        figures["known miss"] = KNOWN_MISSES[pair]
        assert moves_enough(best, best["predicted_ns"]), f"{pair}: {best}"
        if best["astra_model_ns"] is not None:
            assert moves_enough(best, best["astra_model_ns"]), f"{pair}: {best}"
        return
    if best["astra_model_error"] is not None:
        assert replay <= REPLAY_TOLERANCE, (
            f"{pair}: ASTRA-sim's rules replay the export {100 * replay:.2f} % off"
        )
    assert worst_error(best) <= allowed(best), (
        f"{pair}: projected {best['predicted_ns'] / 1e6:.1f} ms (ASTRA-sim's rules: "
        f"{(best['astra_model_ns'] or 0) / 1e6:.1f} ms) against a re-run of "
        f"{best['measured_ns'] / 1e6:.1f} ms ({100 * best['error']:+.1f} %, the re-run's spread "
        f"{100 * best['rerun_spread']:.0f} %; the recorded run's {100 * best['base_spread']:.0f} %, "
        f"its projections {[round(p / 1e6, 1) for p in best['predicted_each_ns']]} ms), "
        f"the closest of {len(attempts)}"
    )
