"""Benchmark: `balance run` at scale, wall time and peak memory.

Runs the default scenario for N games with --jobs 1 and --jobs 2 as
subprocesses, polling /proc for the resident memory of the whole process tree
(the CLI and its loky workers), and prints games/s, seconds and peak RSS.

Usage: python scripts/bench_run.py [--games 1000000] [--jobs 1,2] [--chunk-size 4096]
Linux only (reads /proc). Writes runs under a temporary directory, removed after.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def tree_rss(pid: int) -> int:
    """Resident bytes of pid and all its descendants."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
            for task in Path(f"/proc/{p}/task").iterdir():
                children = (task / "children").read_text().split()
                todo.extend(int(c) for c in children)
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
    return total


def measure(games: int, jobs: int, chunk_size: int, scenario: str) -> tuple[float, int]:
    out = Path(tempfile.mkdtemp(prefix="bench-run-"))
    cmd = [
        sys.executable,
        "-m",
        "balance",
        "run",
        scenario,
        "--games",
        str(games),
        "--jobs",
        str(jobs),
        "--chunk-size",
        str(chunk_size),
        "--out",
        str(out / "run"),
        "--quiet",
    ]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, tree_rss(proc.pid))
        time.sleep(0.2)
    seconds = time.perf_counter() - start
    shutil.rmtree(out, ignore_errors=True)
    if proc.returncode != 0:
        raise SystemExit(f"balance run failed with exit code {proc.returncode}: {' '.join(cmd)}")
    return seconds, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--jobs", default="1,2")
    parser.add_argument("--chunk-size", type=int, default=4096)
    parser.add_argument("--scenario", default="scenarios/four-player-mixed.yaml")
    args = parser.parse_args()
    print(f"{args.scenario}, {args.games:,} games, chunk size {args.chunk_size}, {os.cpu_count()} cores")
    print(f"{'jobs':>4s} {'seconds':>9s} {'games/s':>9s} {'peak RSS MiB':>13s}")
    rates = {}
    for jobs in (int(j) for j in args.jobs.split(",")):
        seconds, peak = measure(args.games, jobs, args.chunk_size, args.scenario)
        rates[jobs] = args.games / seconds
        print(f"{jobs:4d} {seconds:9.1f} {rates[jobs]:9.0f} {peak / 2**20:13.0f}")
    if len(rates) > 1:
        lo, hi = min(rates), max(rates)
        print(f"--jobs {hi} / --jobs {lo}: {rates[hi] / rates[lo]:.2f}x")


if __name__ == "__main__":
    main()
