"""Compile the Shuffle Grand Prix engine now (numba caches it): `python -m
balance.games.shuffle_gp.compiled [SHUFFLE_GP.yaml]`, as `make test` does
before the suite, so that test workers load it instead of each compiling it."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from ...chance import Streams
from ..bots import bot_table, resolve_profiles
from ..compile import compile_database
from ..schema import load_database
from . import simulate

if __name__ == "__main__":
    start = time.perf_counter()
    tables = compile_database(load_database(Path(sys.argv[1] if len(sys.argv) > 1 else "shuffle_gp.yaml")))
    bots = bot_table(resolve_profiles(None), ["balanced", "random"], tables)
    simulate(tables, bots, np.array([[0, 1]]), Streams(0, 0, 1))
    print(f"the Shuffle Grand Prix engine is compiled ({time.perf_counter() - start:.1f} s)")
