"""Where the Horsepower engine's time goes: a fixed cost per seat-turn step
and a cost per player-turn, fitted over batch sizes, on the compiled engine
(the one engine left: the numpy lockstep engine, whose fixed cost per step
this fit was made for, is gone; the compiled one plays a game at a time, so
its fixed cost should come out near zero; scripts/bench.py measures its rates).

Plays one batch of four-player games (the bots of scripts/bench.py) at each
batch size, best of `--repeats` by process time, counts its seat-turn steps
and player-turns, and fits time = fixed x steps + cost x player-turns by least
squares. With one batch size it just prints that batch's games/s, which makes
it the A/B check between two checkouts: run it in each, alternating.

Usage: python scripts/bench_fit.py [--batches 512,1024,2048,4096,8192] [--repeats 3]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy is imported, as in bench.py

import argparse  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from balance.allocator import tune_allocator  # noqa: E402
from balance.games.chance import Streams  # noqa: E402
from balance.games.horsepower.bots import bot_table, resolve_profiles  # noqa: E402
from balance.games.horsepower.compile import compile_database  # noqa: E402
from balance.games.horsepower.compiled import simulate  # noqa: E402
from balance.games.horsepower.schema import load_database  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BOTS = ["racer", "economist", "saboteur", "balanced"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", default="512,1024,2048,4096,8192")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    tune_allocator()
    tables = compile_database(load_database(ROOT / "cards.yaml"))
    bots = bot_table(resolve_profiles(None), BOTS, tables, 4)
    simulate(tables, bots, np.arange(4)[None, :].repeat(64, axis=0), Streams(0, 0, 64))  # warm-up: compiling
    rows = []
    print(f"{'batch':>6s} {'seconds':>8s} {'games/s':>8s} {'steps':>6s} {'player-turns':>13s} {'ms/step':>8s}")
    for batch in (int(b) for b in args.batches.split(",")):
        seats = (np.arange(4)[None, :] + np.arange(batch)[:, None]) % 4
        best = np.inf
        for _ in range(args.repeats):
            start = time.process_time()
            st = simulate(tables, bots, seats, Streams(1, 0, len(seats)))
            best = min(best, time.process_time() - start)
        steps, turns = int(st.round.max()) * 4, int(st.turns.sum())
        rows.append((steps, turns, best))
        print(f"{batch:6d} {best:8.3f} {batch / best:8.0f} {steps:6d} {turns:13d} {best / steps * 1e3:8.2f}")
    if len(rows) > 1:
        design = np.array([[steps, turns] for steps, turns, _ in rows], dtype=float)
        (fixed, per_turn), *_ = np.linalg.lstsq(design, np.array([t for *_, t in rows]), rcond=None)
        print(f"fit: {fixed * 1e3:.2f} ms fixed per seat-turn step + {per_turn * 1e6:.2f} us per player-turn")


if __name__ == "__main__":
    main()
