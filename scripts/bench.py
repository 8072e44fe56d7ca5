"""Benchmark: full-rules four-player Horsepower games per second in one process.

Four heuristic bots (racer, economist, saboteur, balanced, rotated over the
seats), the shipped cards.yaml, batch sizes 1, 256 and 4096. Prints games/s
and player-turns/s (a Pit Stop turn counts as a turn) for each batch size, and
the ratio of the largest batch to batch 1, on the compiled engine (compiled,
or loaded, before the clock starts). `--engine numpy` is refused: the numpy
lockstep engine is gone (one engine per game; it is at the commit before its
removal).

Usage: python scripts/bench.py [--engine compiled|numpy] [--games N] [--batches 1,256,4096] [--profile] [--default-malloc]
glibc's allocator is tuned as in the runner's workers (balance/allocator.py) unless
--default-malloc is given.
BLAS threads are pinned to one (the engine's small matrix products lose time
to thread start-up otherwise, and a worker process gets one core anyway).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy is imported
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import cProfile  # noqa: E402
import platform  # noqa: E402
import pstats  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from balance.allocator import tune_allocator  # noqa: E402
from balance.games.chance import Streams  # noqa: E402
from balance.games.horsepower import compiled  # noqa: E402
from balance.games.horsepower.bots import bot_table, resolve_profiles  # noqa: E402
from balance.games.horsepower.compile import compile_database  # noqa: E402
from balance.games.horsepower.schema import load_database  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BOTS = ["racer", "economist", "saboteur", "balanced"]


ENGINES = {"compiled": compiled.simulate}


def run(tables, bots, batch: int, games: int, seed: int, engine: str = "compiled") -> tuple[float, int, int]:
    """Seconds, games and player-turns for `games` games in batches of `batch`."""
    play = ENGINES[engine]
    played = turns = 0
    start = time.perf_counter()
    chunk = 0
    while played < games:
        size = min(batch, games - played)
        seats = (np.arange(4)[None, :] + np.arange(played, played + size)[:, None]) % 4
        st = play(tables, bots, seats, Streams(seed, played, size))
        played += size
        turns += int(st.turns.sum())
        chunk += 1
    return time.perf_counter() - start, played, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", choices=["compiled", "numpy"], default="compiled")
    parser.add_argument("--games", type=int, default=8192, help="games per batch size (batch 1 plays at most 200)")
    parser.add_argument("--batches", default="1,256,4096")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="profile the largest batch size")
    parser.add_argument("--default-malloc", action="store_true", help="leave glibc's allocator thresholds alone")
    args = parser.parse_args()
    if args.engine not in ENGINES:  # one engine per game once it is compiled: the numpy one is gone
        parser.error("horsepower has no numpy engine here (the numpy one: at the commit before its removal)")
    if not args.default_malloc:
        tune_allocator()  # as the runner's workers do
    tables = compile_database(load_database(ROOT / "cards.yaml"))
    bots = bot_table(resolve_profiles(None), BOTS, tables, 4)
    batches = [int(b) for b in args.batches.split(",")]
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, CPython {platform.python_version()}, numpy {np.__version__}"
        f", engine: {args.engine}"
    )
    print(f"{'batch':>6s} {'games':>7s} {'seconds':>8s} {'games/s':>9s} {'player-turns/s':>15s} {'turns/game':>11s}")
    rates = {}
    for batch in batches:
        games = min(args.games, 200) if batch == 1 else max(args.games, batch)
        run(tables, bots, batch, min(batch, 64), args.seed, args.engine)  # warm-up: imports, caches, compiling
        seconds, played, turns = run(tables, bots, batch, games, args.seed, args.engine)
        rates[batch] = played / seconds
        print(
            f"{batch:6d} {played:7d} {seconds:8.2f} {played / seconds:9.1f} {turns / seconds:15.0f} {turns / played:11.1f}"
        )
    if len(batches) > 1:
        print(f"batch {batches[-1]} / batch {batches[0]}: {rates[batches[-1]] / rates[batches[0]]:.1f}x")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        run(tables, bots, batches[-1], batches[-1], args.seed, args.engine)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)


if __name__ == "__main__":
    main()
