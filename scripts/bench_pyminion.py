"""Baseline speed of pyminion (a pure-Python Dominion simulator) for comparison.

Plays N games of four BigMoney bots (base set kingdom) sequentially in one process,
with all pyminion logging disabled, and reports games/s and player-turns/s.

The project never depends on pyminion. Run this in a scratch venv with pyminion installed, e.g.:

    python3 -m venv /tmp/pm && /tmp/pm/bin/pip install pyminion && /tmp/pm/bin/python scripts/bench_pyminion.py

Note: pyminion builds its log messages with f-strings, so that formatting cost is still paid
even with logging disabled; only the logging machinery and I/O are removed.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import logging
import os
import platform
import random
import sys
import time

from pyminion.bots.examples import BigMoney
from pyminion.expansions.base import base_set
from pyminion.game import Game

N_PLAYERS = 4


def play_games(n_games: int, seed: int) -> tuple[int, int, float]:
    """Play n_games; return (player-turns, unfinished games, wall seconds)."""
    random.seed(seed)
    bots = [BigMoney(player_id=f"big_money_{i}") for i in range(N_PLAYERS)]
    player_turns = 0
    unfinished = 0
    start = time.perf_counter()
    for _ in range(n_games):
        game = Game(players=list(bots), expansions=[base_set], log_stdout=False, log_file=False)
        game.play()
        player_turns += sum(p.turns for p in game.players)
        unfinished += not game.is_over()
    return player_turns, unfinished, time.perf_counter() - start


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            return next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "?")
    except OSError:
        return platform.processor() or "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="number of games (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    args = parser.parse_args()

    # Silence everything: no handlers fire and no LogRecords are created.
    logging.disable(logging.CRITICAL)

    player_turns, unfinished, elapsed = play_games(args.games, args.seed)

    print(
        f"pyminion {importlib.metadata.version('pyminion')}; {platform.python_implementation()} {sys.version.split()[0]}"
    )
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, {cpu_model()}; {platform.platform()}")
    print(f"games: {args.games} x {N_PLAYERS} BigMoney bots, seed {args.seed}, unfinished: {unfinished}")
    print(f"wall time: {elapsed:.3f} s")
    print(f"games/s: {args.games / elapsed:.1f}")
    print(f"player-turns/s: {player_turns / elapsed:.0f}")
    print(f"mean player-turns per game: {player_turns / args.games:.2f}")


if __name__ == "__main__":
    main()
