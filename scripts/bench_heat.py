"""Benchmark: Heat races per second in one process, at batch 4096, for 4 and
6 cars (heuristic bots; the 6-car grid has two Legends), on USA.

Usage: python scripts/bench_heat.py [--races N] [--batch 4096] [--garage]
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
import yaml  # noqa: E402

from balance.allocator import tune_allocator  # noqa: E402
from balance.games.chance import Streams  # noqa: E402
from balance.games.heat.bots import bot_table, resolve_profiles  # noqa: E402
from balance.games.heat.compile import compile_database  # noqa: E402
from balance.games.heat.engine import simulate  # noqa: E402
from balance.games.heat.schema import validate_database  # noqa: E402
from balance.yamlio import parse_yaml  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GRIDS = {
    4: ["balanced", "aggressive", "cautious", "balanced"],
    6: ["balanced", "aggressive", "cautious", "balanced", "legend", "legend"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=8192)
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--garage", action="store_true", help="with the Garage module")
    args = parser.parse_args()
    tune_allocator()
    data = yaml.safe_load((ROOT / "heat.yaml").read_text())
    data["rules"]["garage_module"] = args.garage
    tables = compile_database(validate_database(parse_yaml(yaml.safe_dump(data, sort_keys=False), "heat.yaml")))
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, CPython {platform.python_version()}, numpy {np.__version__}"
    )
    print(f"{'cars':>4s} {'races':>7s} {'seconds':>8s} {'races/s':>9s} {'car-turns/s':>12s} {'rounds/race':>12s}")
    for cars, names in GRIDS.items():
        bots = bot_table(resolve_profiles(None), names, tables)
        seats = lambda first, n: (np.arange(cars)[None, :] + np.arange(first, first + n)[:, None]) % cars  # noqa: E731
        simulate(tables, bots, seats(0, 64), Streams(0, 0, 64))  # warm-up
        done = turns = rounds = 0
        start = time.perf_counter()
        while done < args.races:
            n = min(args.batch, args.races - done)
            st = simulate(tables, bots, seats(done, n), Streams(1, done, n))
            done += n
            turns += int(st.turns.sum())
            rounds += int(st.round.sum())
        seconds = time.perf_counter() - start
        print(f"{cars:4d} {done:7d} {seconds:8.2f} {done / seconds:9.1f} {turns / seconds:12.0f} {rounds / done:12.1f}")


if __name__ == "__main__":
    main()
