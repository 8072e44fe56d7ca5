"""Compile the Heat engine now (numba caches it): `python -m
balance.games.heat.compiled [heat.yaml]`, so that test workers or a run's
workers load it instead of each compiling it."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from ....yamlio import parse_yaml
from ...chance import Streams
from ..bots import bot_table, resolve_profiles
from ..compile import compile_database
from ..schema import validate_database
from . import simulate

if __name__ == "__main__":
    start = time.perf_counter()
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "heat.yaml")
    tables = compile_database(validate_database(parse_yaml(path.read_text(), str(path))))
    bots = bot_table(resolve_profiles(None), ["balanced", "legend"], tables)
    simulate(tables, bots, np.array([[0, 0, 1]]), Streams(0, 0, 1))
    print(f"the Heat engine is compiled ({time.perf_counter() - start:.1f} s)")
