"""Benchmark: Shuffle Grand Prix games per second in one process, at batch 4096, for
2 and 4 players (heuristic bots).

Usage: python scripts/bench_shuffle_gp.py [--games N] [--batch 4096]
BLAS pinned to one thread and glibc's allocator tuned, as in bench.py.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy is imported
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import platform  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from balance.allocator import tune_allocator  # noqa: E402
from balance.games.shuffle_gp.bots import bot_table, resolve_profiles  # noqa: E402
from balance.games.shuffle_gp.compile import compile_database  # noqa: E402
from balance.games.shuffle_gp.engine import simulate  # noqa: E402
from balance.games.shuffle_gp.schema import load_database  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TABLES = {2: ["balanced", "defensive"], 4: ["balanced", "aggressive", "defensive", "balanced"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8192)
    parser.add_argument("--batch", type=int, default=4096)
    args = parser.parse_args()
    tune_allocator()
    tables = compile_database(load_database(ROOT / "shuffle_gp.yaml"))
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, CPython {platform.python_version()}, numpy {np.__version__}"
    )
    print(f"{'players':>7s} {'games':>7s} {'seconds':>8s} {'games/s':>9s} {'turns/s':>9s} {'turns/game':>11s}")
    for players, names in TABLES.items():
        bots = bot_table(resolve_profiles(None), names, tables)
        seats = lambda first, n: (np.arange(players)[None, :] + np.arange(first, first + n)[:, None]) % players  # noqa: E731
        simulate(tables, bots, seats(0, 64), np.random.default_rng(0))  # warm-up
        done = turns = 0
        start = time.perf_counter()
        while done < args.games:
            n = min(args.batch, args.games - done)
            st = simulate(tables, bots, seats(done, n), np.random.default_rng([1, done]))
            done += n
            turns += int(st.turn.sum())
        seconds = time.perf_counter() - start
        print(
            f"{players:7d} {done:7d} {seconds:8.2f} {done / seconds:9.1f} {turns / seconds:9.0f} {turns / done:11.1f}"
        )


if __name__ == "__main__":
    main()
