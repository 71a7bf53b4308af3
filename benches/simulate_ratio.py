"""The `simulate` row of ``ecarte bench --full`` alone: one random deal of the pure-Python
reference against one deal of ``duel.simulate(20000, agents=("random", "random"))``, their
loops interleaved and their inputs replayed as the bench does (``bench.interleaved_per_call``,
1.5 s per side).

``python benches/simulate_ratio.py LABEL`` prints one line; run it with two builds
alternately (``PYTHONPATH`` pointing at each build's package) to compare them side by side.
"""

from __future__ import annotations

import sys

import ecarte
from ecarte.bench import reference as ref
from ecarte.bench.timing import Inputs, interleaved_per_call
from ecarte.bench.workloads import reference_playout

BATCH = 20_000


def main(label: str) -> None:
    inputs = Inputs(3)
    rng, pack = inputs.rng, ref.duel_pack()
    reference, batch = interleaved_per_call(
        [
            lambda: reference_playout(ref.RefDeal(ref.shuffle(pack, rng)), rng),
            lambda: ecarte.duel.simulate(
                BATCH, seed=next(inputs.seeds), agents=("random", "random")
            ),
        ],
        1.5,
        restart=inputs.restart,
    )
    per_deal = batch / BATCH
    print(
        f"{label}: reference {reference * 1e6:.1f} µs, simulate {per_deal * 1e9:.0f} ns "
        f"per deal, {reference / per_deal:.0f}x"
    )


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "this build")
