"""How well paired runs stay paired: a scenario and one variant of it on the
same seed, and seat 0's result game by game.

Prints the share of games with the same winner in both runs, the correlation
of seat 0's win between the runs, and the paired-variance ratio: the variance
of the difference of two independent samples over that of the paired
difference, (var a + var b) / var(a - b). A ratio of 3 means a paired answer
needs a third of the games.

Usage: python scripts/bench_pairing.py [--games 4096] [--chunk-size 2048]
       [--override cards.twin_turbo.effects.0.amount=5] [--scenario scenarios/four-player-mixed.yaml]
Uses only `balance run`'s API, so the same script measures an older tree
(PYTHONPATH=that tree).
"""

from __future__ import annotations

import argparse
import platform
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl
import yaml

from balance import load_run
from balance.runner import RunOptions, run

ROOT = Path(__file__).resolve().parents[1]


def seat_wins(out: Path, seat: int) -> np.ndarray:
    players = load_run(out)["players"].collect()
    mine = players.filter(pl.col("seat") == seat).sort("game_id")
    return mine["won"].cast(pl.Float64).to_numpy()


def winners(out: Path) -> np.ndarray:
    games = load_run(out)["games"].collect().sort("game_id")
    return games["winner_seat"].fill_null(-1).to_numpy()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenario", default=str(ROOT / "scenarios" / "four-player-mixed.yaml"))
    ap.add_argument("--games", type=int, default=4096)
    ap.add_argument("--chunk-size", type=int, default=2048)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--seat", type=int, default=0)
    ap.add_argument("--override", default="cards.twin_turbo.effects.0.amount=5")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    path, _, value = args.override.partition("=")
    base = yaml.safe_load(Path(args.scenario).read_text())
    base.setdefault("cards", str((Path(args.scenario).parent / "../cards.yaml").resolve()))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = {}
        for name, overrides in (("base", {}), ("variant", {path: yaml.safe_load(value)})):
            doc = dict(base, name=name, overrides=overrides) if overrides else dict(base, name=name)
            files[name] = folder / f"{name}.yaml"
            files[name].write_text(yaml.safe_dump(doc))
        start = time.perf_counter()
        for name in files:
            options = RunOptions(
                out=folder / name, games=args.games, chunk_size=args.chunk_size, seed=args.seed, jobs=args.jobs
            )
            run(files[name], options)
        seconds = time.perf_counter() - start
        a, b = seat_wins(folder / "base", args.seat), seat_wins(folder / "variant", args.seat)
        same = float((winners(folder / "base") == winners(folder / "variant")).mean())
    corr = float(np.corrcoef(a, b)[0, 1])
    ratio = float((a.var() + b.var()) / (a - b).var())
    print(
        f"{Path(args.scenario).name}, {args.override}, {args.games:,} games, chunks of {args.chunk_size}, "
        f"seed {args.seed}, seat {args.seat}: same winner {100 * same:.1f}%, correlation {corr:.2f}, "
        f"paired-variance ratio {ratio:.2f}x; seat {args.seat} wins {100 * a.mean():.1f}% -> {100 * b.mean():.1f}% "
        f"({seconds:.0f} s, {platform.node()})"
    )


if __name__ == "__main__":
    main()
