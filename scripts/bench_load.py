"""Benchmark: how long loading, checking and compiling cards.yaml takes.

A designer edits cards.yaml and re-runs; every run pays this once per worker.
Usage: python scripts/bench_load.py [CARDS] [--repeat N]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from pathlib import Path

from balance.games.horsepower.compile import compile_database
from balance.games.horsepower.schema import load_database
from balance.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[1]


def timed(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cards", nargs="?", default=str(ROOT / "cards.yaml"))
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    db = load_database(args.cards)
    stages = {
        "parse YAML (with line numbers)": lambda: load_yaml(args.cards),
        "parse + validate": lambda: load_database(args.cards),
        "compile to tables": lambda: compile_database(db),
    }
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}")
    print(f"database: {args.cards} ({sum(c.count for c in db.cards)} card copies, {len(db.playbooks)} Playbooks)")
    print(f"{'stage':34s} {'median ms':>10s} {'min ms':>8s}  (n={args.repeat})")
    for name, fn in stages.items():
        times = timed(fn, args.repeat)
        print(f"{name:34s} {statistics.median(times) * 1e3:10.1f} {min(times) * 1e3:8.1f}")


if __name__ == "__main__":
    main()
