"""Benchmark: Heat races per second in one process, at each batch size, for 4
and 6 cars (heuristic bots; the 6-car grid has two Legends), on USA, on the
compiled engine (what runs play; compiled or loaded before the clock starts).
`--engine numpy` says where the numpy lockstep engine went (removed after
commit 1c13126: check that commit out to time it).

Usage: python scripts/bench_heat.py [--engine compiled] [--races N] [--batches 1,256,4096]
    [--seconds 20] [--garage]   (a row stops after about --seconds)
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
import yaml  # noqa: E402

from balance.allocator import tune_allocator  # noqa: E402
from balance.games.chance import Streams  # noqa: E402
from balance.games.heat.bots import bot_table, resolve_profiles  # noqa: E402
from balance.games.heat.compile import compile_database  # noqa: E402
from balance.games.heat.schema import validate_database  # noqa: E402
from balance.yamlio import parse_yaml  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GRIDS = {
    4: ["balanced", "aggressive", "cautious", "balanced"],
    6: ["balanced", "aggressive", "cautious", "balanced", "legend", "legend"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", choices=["compiled", "numpy"], default="compiled")
    parser.add_argument("--races", type=int, default=8192)
    parser.add_argument("--batches", default="1,256,4096")
    parser.add_argument("--seconds", type=float, default=20.0, help="at most about this long a row (small batches)")
    parser.add_argument("--garage", action="store_true", help="with the Garage module")
    args = parser.parse_args()
    module = f"balance.games.heat.{'compiled' if args.engine == 'compiled' else 'engine'}"
    if importlib.util.find_spec(module) is None:  # one engine per game: the numpy one is gone
        parser.error(f"heat has no {args.engine} engine here (the numpy one: at commit 1c13126, before its removal)")
    engine = importlib.import_module(module)
    tune_allocator()
    data = yaml.safe_load((ROOT / "heat.yaml").read_text())
    data["rules"]["garage_module"] = args.garage
    tables = compile_database(validate_database(parse_yaml(yaml.safe_dump(data, sort_keys=False), "heat.yaml")))
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, CPython {platform.python_version()}, "
        f"numpy {np.__version__}, engine: {args.engine}"
    )
    print(
        f"{'cars':>4s} {'batch':>6s} {'races':>7s} {'seconds':>8s} {'races/s':>9s} {'car-turns/s':>12s} {'rounds/race':>12s}"
    )
    for cars, names in GRIDS.items():
        bots = bot_table(resolve_profiles(None), names, tables)
        seats = lambda first, n: (np.arange(cars)[None, :] + np.arange(first, first + n)[:, None]) % cars  # noqa: E731
        engine.simulate(tables, bots, seats(0, 64), Streams(0, 0, 64))  # warm-up (and the compile)
        for batch in (int(b) for b in args.batches.split(",")):
            done = turns = rounds = 0
            start = time.perf_counter()
            while done < args.races and (done == 0 or time.perf_counter() - start < args.seconds):
                n = min(batch, args.races - done)
                st = engine.simulate(tables, bots, seats(done, n), Streams(1, done, n))
                done += n
                turns += int(st.turns.sum())
                rounds += int(st.round.sum())
            seconds = time.perf_counter() - start
            print(
                f"{cars:4d} {batch:6d} {done:7d} {seconds:8.2f} {done / seconds:9.1f} "
                f"{turns / seconds:12.0f} {rounds / done:12.1f}"
            )


if __name__ == "__main__":
    main()
