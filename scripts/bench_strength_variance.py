"""Benchmark: how much noise each strength estimator carries, per game, in one experiment.

Plays `balance strength SCENARIO --all` with every item at GAMES games (one pass) and, from the same
games, compares the per-game variance of three estimators of an item's effect (docs/performance.md,
"A shared baseline's luck"): the plain paired difference (with-item win less the baseline's
receiving-seat win), the with-item win less its expectation given the game alone, and the control
variate the toolkit uses (analysis.strength.controlled). Also prints the baseline's receiving-seat win
rate against its expectation (the luck every item shared under the paired difference).

Usage: python scripts/bench_strength_variance.py SCENARIO OUT [GAMES]
"""

from __future__ import annotations

import sys

import numpy as np
import polars as pl

import balance.experiments.strength as experiment
from balance.analysis.strength import controlled
from balance.experiments.setup import ExperimentOptions


def main() -> None:
    scenario, out = sys.argv[1], sys.argv[2]
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 2048
    seen: dict[str, object] = {}
    table_of = experiment.strength_table

    def keep(base, frames, replaces=None, tolerance=0.03):  # the experiment's own games, as it reads them
        seen["base"], seen["frames"] = base, frames
        return table_of(base, frames, replaces, tolerance)

    experiment.strength_table = keep
    experiment.strength(scenario, None, ExperimentOptions(out=out, jobs=2, games=games, force=True), all_items=True)
    base = seen["base"]
    rows = []
    for frame in seen["frames"].values():
        j = base.join(frame, on="game_id", suffix="_with")
        w, b = j["won_with"].cast(pl.Float64).to_numpy(), j["won"].cast(pl.Float64).to_numpy()
        e = j["expected"].to_numpy()
        effect, _ = controlled(w, b, e)
        rows.append((len(w), (w - b).var(ddof=1), (w - e).var(ddof=1), effect.var(ddof=1), np.corrcoef(w, b)[0, 1]))
    a = np.array(rows)
    print(f"{len(rows)} items, {int(a[:, 0].mean()):,} games each")
    print(f"variance per game: paired {a[:, 1].mean():.4f}, expectation alone {a[:, 2].mean():.4f}, "
          f"control variate {a[:, 3].mean():.4f}; correlation of an item's games with the baseline's {a[:, 4].mean():.3f}")  # fmt: skip
    print(f"baseline's receiving seat won {100 * base['won'].cast(pl.Float64).mean():.2f}%, "
          f"expected {100 * base['expected'].mean():.2f}%")  # fmt: skip


if __name__ == "__main__":
    main()
