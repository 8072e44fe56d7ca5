"""Benchmark: Downforce or Shuffle Grand Prix games per second in one process,
for two table sizes of heuristic bots, at each batch size (Heat has its own,
scripts/bench_heat.py; Horsepower scripts/bench.py). `--engine compiled` (the
default where the game has one: what runs play; compiled or loaded before the
clock starts) or `numpy` (the lockstep engine, while it is kept).

Usage: python scripts/bench_games.py downforce|shuffle_gp [--engine compiled|numpy] [--games N]
    [--batches 1,256,4096] [--seconds 20]   (a row stops after about --seconds: small batches of the numpy engine)
BLAS pinned to one thread and glibc's allocator tuned, as in bench.py.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy is imported
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import importlib  # noqa: E402
import importlib.util  # noqa: E402
import platform  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from balance.allocator import tune_allocator  # noqa: E402
from balance.games.chance import Streams  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
# game -> (what a step is called, the state field that counts them, players -> bots);
# Shuffle GP also counts the ability cards played (anytime cards add plays to a turn)
GAMES = {
    "downforce": (
        "cards",
        "turns",
        {4: ["balanced", "shark", "miser", "balanced"], 6: ["balanced", "shark", "miser"] * 2},
    ),
    "shuffle_gp": (
        "turns",
        "turn",
        {2: ["balanced", "defensive"], 4: ["balanced", "aggressive", "defensive", "balanced"]},
    ),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=list(GAMES))
    parser.add_argument("--engine", choices=["compiled", "numpy"], default="compiled")
    parser.add_argument("--games", type=int, default=8192)
    parser.add_argument("--batches", default="4096")
    parser.add_argument("--seconds", type=float, default=20.0, help="at most about this long a row (small batches)")
    args = parser.parse_args()
    tune_allocator()
    package = f"balance.games.{args.game}"
    module = f"{package}.{'compiled' if args.engine == 'compiled' else 'engine'}"
    if importlib.util.find_spec(module) is None:  # one engine per game once it is compiled: the numpy one is gone
        parser.error(f"{args.game} has no {args.engine} engine here (the numpy one: at the commit before its removal)")
    engine = importlib.import_module(module)
    bots_module = importlib.import_module(f"{package}.bots")
    compile_module = importlib.import_module(f"{package}.compile")
    schema = importlib.import_module(f"{package}.schema")
    step, counter, grids = GAMES[args.game]
    tables = compile_module.compile_database(schema.load_database(ROOT / f"{args.game}.yaml"))
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, CPython {platform.python_version()}, "
        f"numpy {np.__version__}, engine: {args.engine}"
    )
    print(
        f"{'players':>7s} {'batch':>6s} {'games':>7s} {'seconds':>8s} {'games/s':>9s} {step + '/s':>9s} {step + '/game':>11s}"
        + (f" {'plays/s':>9s}" if args.game == "shuffle_gp" else "")
    )
    for players, names in grids.items():
        bots = bots_module.bot_table(bots_module.resolve_profiles(None), names, tables)
        seats = lambda first, n: (np.arange(players)[None, :] + np.arange(first, first + n)[:, None]) % players  # noqa: E731
        engine.simulate(tables, bots, seats(0, 64), Streams(0, 0, 64))  # warm-up (and the compile)
        for batch in (int(b) for b in args.batches.split(",")):
            done = steps = plays = 0
            start = time.perf_counter()
            while done < args.games and (done == 0 or time.perf_counter() - start < args.seconds):
                n = min(batch, args.games - done)
                st = engine.simulate(tables, bots, seats(done, n), Streams(1, done, n))
                done += n
                steps += int(getattr(st, counter).sum())
                plays += int(st.played.sum()) if hasattr(st, "played") else 0
            seconds = time.perf_counter() - start
            print(
                f"{players:7d} {batch:6d} {done:7d} {seconds:8.2f} {done / seconds:9.1f} {steps / seconds:9.0f} {steps / done:11.1f}"
                + (f" {plays / seconds:9.0f}" if args.game == "shuffle_gp" else "")
            )


if __name__ == "__main__":
    main()
