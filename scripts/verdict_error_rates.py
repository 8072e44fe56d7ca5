"""How often the strength experiment's verdict calls an item of a given true
strength too strong, fair or undecided, and the games it spends: the
adaptive design (experiments.strength.Design: a first look, then the
undecided items' games doubled round by round) with the verdict as shipped
(analysis.strength.verdict), each look's estimate drawn from the normal law
of a mean of paired games.

A game's variance is the control variate's (0.17, docs/performance.md); the
Benjamini-Hochberg correction is stood in for by a fixed z for significance
(`--z-significant`, about what it asks of an item when a handful of 76 are
significant). Nothing here plays a game: it says what the rule does to an
item that sits where it sits.

Usage: python scripts/verdict_error_rates.py [--first 1024] [--cap 65536] [--reps 4000]
"""

from __future__ import annotations

import argparse

import numpy as np

from balance.analysis.band import FAIR_BAND
from balance.analysis.stats import Z95
from balance.analysis.strength import FAIR, STRONGER, UNDECIDED, verdict
from balance.games.chance import Streams, uniform

VARIANCE = 0.17  # a paired game's, with the control variate (scripts/bench_strength_variance.py)


def one_item(theta: float, draws: np.ndarray, first: int, cap: int, z_significant: float) -> tuple[str, int]:
    """(verdict, games) of one item of true strength `theta` (a share), its looks' noise from `draws`."""
    tolerance = FAIR_BAND / 100
    games, total, look = 0, 0.0, 0
    target = first
    while True:
        more = target - games
        total += theta * more + np.sqrt(VARIANCE * more) * draws[look]
        games, look = target, look + 1
        change = total / games
        se = np.sqrt(VARIANCE / games)
        v = verdict(change - Z95 * se, change + Z95 * se, tolerance, change)
        if v != FAIR and v != UNDECIDED and abs(change) <= z_significant * se:
            v = UNDECIDED  # a flag stands only where it is significant after the correction
        if v != UNDECIDED or games >= cap:
            return v, games
        target *= 2


def _normal(streams: Streams, looks: int) -> np.ndarray:
    """(items, looks) standard normal numbers from the keyed uniforms (Box-Muller)."""
    keys = streams.key(np.arange(streams.games), "verdict error rates")
    u = uniform(keys, 2, looks).astype(np.float64)
    return np.sqrt(-2.0 * np.log1p(-u[:, 0])) * np.cos(2.0 * np.pi * u[:, 1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1024)
    parser.add_argument("--cap", type=int, default=65536, help="an item's games at most")
    parser.add_argument("--reps", type=int, default=4000, help="items simulated at each strength")
    parser.add_argument("--z-significant", type=float, default=2.2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    looks = int(np.log2(args.cap // args.first)) + 1
    print(f"first look {args.first:,} games, at most {args.cap:,}; a game's variance {VARIANCE}; n={args.reps:,} each")
    print(f"{'true strength':>14} {'too strong':>11} {'fair':>7} {'undecided':>10} {'games (mean)':>13}")
    for i, points in enumerate((0.0, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0)):
        draws = _normal(Streams(args.seed, i * args.reps, args.reps), looks)
        got = [one_item(points / 100, d, args.first, args.cap, args.z_significant) for d in draws]
        verdicts = [v for v, _ in got]
        share = {v: verdicts.count(v) / len(verdicts) for v in (STRONGER, FAIR, UNDECIDED)}
        print(
            f"{points:+13.1f}  {100 * share[STRONGER]:10.1f}% {100 * share[FAIR]:6.1f}% "
            f"{100 * share[UNDECIDED]:9.1f}% {np.mean([g for _, g in got]):13,.0f}"
        )


if __name__ == "__main__":
    main()
